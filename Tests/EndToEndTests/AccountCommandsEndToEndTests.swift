import Foundation
import Testing

private let twoAccounts = """
    {
      // accounts of mine
      "version": 1,
      "accounts": [
        {"id": "work", "name": "Work", "handle": "@ada.work"},
        {"id": "home", "name": "Home"},
      ],
    }

    """

/// `perch add`, `set`, `unset`, `rename` and `remove` (issue 20), and the fields and JSON a
/// prompt reads, on the real binary in a scratch home.
@Suite("Account commands, end to end", .currentBinary)
struct AccountCommandsEndToEndTests {
    // Bug: with an account of no tools, perch status printed "Last applied TIME:" with nothing after it.
    @Test("perch status names no last application when the account has no tool to apply")
    func statusWithoutTools() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(twoAccounts)
        #expect(try cli.run(["switch", "home"]).status == 0)
        let status = try cli.run(["status"])
        #expect(status.status == 0 && status.stdout.contains("no tool identities"), "\(status.stdout)")
        #expect(!status.stdout.contains("Last applied"), "\(status.stdout)")
    }

    // Bug: on a terminal, one very long name padded every row of perch list past the screen,
    // each row wrapping over several lines.
    @Test("perch list on a terminal fits the width: a long name and a long handle are cut with …, each account one line")
    func listFitsTheTerminal() throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let long = String(repeating: "Lorem ipsum ", count: 25)
        try TmuxSession.writeConfig(
            """
            {"accounts": [
              {"id": "work", "name": "Work", "handle": "@ada.work"},
              {"id": "long", "name": "\(long)", "handle": "@\(String(repeating: "h", count: 90))"},
              {"id": "home", "name": "Home"}
            ]}
            """, home: home)
        let session = try TmuxSession(width: 80, arguments: ["list"], home: home)
        #expect(try session.waitFor("EXIT=0"))
        let rows = try session.screen().filter { $0.hasPrefix("  ") || $0.hasPrefix("* ") }
        #expect(rows.count == 3, "one line each: \(rows)")
        #expect(rows.allSatisfy { $0.count <= 80 })
        #expect(rows.first { $0.contains("long") }?.contains("…") == true, "\(rows)")
        #expect(rows.first { $0.contains("work") }?.contains("@ada.work") == true, "a short handle is whole: \(rows)")
    }

    // Bug: an unknown account was "no single account 'wrk' (perch list shows them)" in perch
    // env, "exec: no single account" in exec, use and verify, and `config …: no account "wrk"`
    // in set, while switch, remove and rename said "no account 'wrk'; did you mean 'work'?".
    @Test(
        "every command that takes an account says an unknown one in the same words, with what it may have meant, and exits 1",
        arguments: [
            ["switch", "wrk"], ["exec", "wrk", "--", "true"], ["use", "wrk"], ["verify", "wrk"], ["env", "wrk"],
            ["remove", "wrk", "--yes"],
            ["rename", "wrk", "new"], ["set", "wrk", "name", "X"],
        ])
    func unknownAccountWords(_ arguments: [String]) throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(#"{"accounts": [{"id": "work", "name": "Work"}, {"id": "home", "name": "Home"}]}"#)
        let before = try String(contentsOfFile: cli.configPath, encoding: .utf8)
        let run = try cli.run(arguments)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("no account 'wrk'; did you mean 'work'?"), "\(run.stderr)")
        #expect(!run.stderr.contains("no single account"), "\(run.stderr)")
        #expect(try String(contentsOfFile: cli.configPath, encoding: .utf8) == before)
    }

    private func configText(_ cli: PerchCommandLine) throws -> String { try String(contentsOfFile: cli.configPath, encoding: .utf8) }

    @Test("perch add appends as text with a .bak, and refuses what the form refuses, with the JSON path")
    func add() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(twoAccounts)
        let added = try cli.run(["add", "client", "--name", "Client Work", "--handle", "@c", "--group", "Jobs"])
        #expect(added.status == 0, "\(added.stderr)")
        let text = try configText(cli)
        #expect(text.contains("// accounts of mine"), "comments kept")
        #expect(
            text.contains(#"{"id": "client", "name": "Client Work", "handle": "@c", "group": "Jobs"},"#), "trailing comma kept: \(text)")
        #expect(try String(contentsOfFile: cli.configPath + ".bak", encoding: .utf8) == twoAccounts)
        #expect(try cli.run(["list", "--format", "ids"]).stdout == "work\nhome\nclient\n")
        // fish-shell PR #10319: an id that looks like an option, given after `--`, is refused with its path.
        let dashed = try cli.run(["add", "--name", "X", "--", "-rf"])
        #expect(dashed.status == 2)
        #expect(dashed.stderr.contains(#"accounts[3].id: "-rf" must not begin with '-' (it would read as an option)"#), "\(dashed.stderr)")
        // Bug (issue 20): a handle or group of only spaces was accepted.
        let blank = try cli.run(["add", "x", "--name", "X", "--group", "   "])
        #expect(blank.status == 2)
        #expect(blank.stderr.contains("accounts[3].group: must not be only spaces"), "\(blank.stderr)")
        // Issue 33: a taken id was reported at accounts[3], an index that does not exist.
        let taken = try cli.run(["add", "work", "--name", "Again"])
        #expect(taken.status == 2 && taken.stderr.contains(#"id: "work" is already used by accounts[0] (Work)"#), "\(taken.stderr)")
        #expect(!taken.stderr.contains("accounts[3]"), "\(taken.stderr)")
        #expect(try cli.run(["add", "y"]).status == 2, "--name is required")
        #expect(try cli.run(["list", "--format", "ids"]).stdout == "work\nhome\nclient\n", "nothing refused was written")
    }

    /// A config with one account laid out over lines, indented by `unit` a level; `unit` nil
    /// gives the whole config on one line.
    static func laidOutConfig(_ unit: String?) -> String {
        guard let unit else {
            return #"{"version": 1, "accounts": [{"id": "work", "name": "Work", "handle": "@ada.work", "group": "Jobs", "color": "blue"}]}"#
                + "\n"
        }
        let (one, two, three) = (unit, unit + unit, unit + unit + unit)
        return
            "{\n\(one)\"version\": 1,\n\(one)\"accounts\": [\n\(two){\n\(three)\"id\": \"work\",\n\(three)\"name\": \"Work\"\n\(two)}\n\(one)]\n}\n"
    }

    /// Issue 33: `perch add` and `perch set` wrote a new account (and a new object) as one line
    /// of 200 columns and more in a file meant for hand editing, and later errors pointed at
    /// "line 24, column 207". The account is laid out like the file's own, in its indentation;
    /// the rest of the file stays byte for byte.
    @Test(
        "perch add and set lay a new account out over lines in the file's own indentation, not one 200-column line",
        arguments: ["two spaces", "four spaces", "tabs", "one line"])
    func addedAccountFollowsTheIndentation(style: String) throws {
        let unit: String? = ["two spaces": "  ", "four spaces": "    ", "tabs": "\t"][style]
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let original = Self.laidOutConfig(unit)
        try cli.writeConfig(original)
        let added = try cli.run(["add", "client", "--name", "Client Work", "--handle", "@c", "--group", "Jobs"])
        #expect(added.status == 0, "\(added.stderr)")
        let set = try cli.run(["set", "client", "git.email", "ada@client.example"])
        #expect(set.status == 0, "\(set.stderr)")
        let text = try configText(cli)
        #expect(try cli.run(["config", "check"]).status == 0, "the file still loads: \(text)")
        if let unit {
            let (two, three, four) = (unit + unit, unit + unit + unit, unit + unit + unit + unit)
            let block =
                "\(two)},\n\(two){\n\(three)\"id\": \"client\",\n\(three)\"name\": \"Client Work\",\n\(three)\"handle\": \"@c\",\n"
                + "\(three)\"group\": \"Jobs\",\n\(three)\"git\": {\n\(four)\"email\": \"ada@client.example\"\n\(three)}\n\(two)}\n"
            let expected = original.replacingOccurrences(of: "\(two)}\n", with: block)
            #expect(text == expected, "laid out like its neighbour, the rest byte for byte:\n\(text)")
        } else {
            let head = String(original.dropLast(3))  // without `]}` and the line break
            #expect(text.hasPrefix(head + ", {\n  \"id\": \"client\",\n"), "the one line is kept as it was:\n\(text)")
            #expect(text.contains("  \"git\": {\n    \"email\": \"ada@client.example\"\n  }\n}]}\n"), "\(text)")
        }
        // The lines added (a one-line config's own line only gains `, {`).
        let newLines = text.split(separator: "\n").filter { !original.contains($0) && !$0.hasPrefix("{\"version\"") }
        #expect(newLines.count >= 7 && newLines.allSatisfy { $0.count <= 50 }, "no long line added: \(newLines)")
        // An error in the new account is reported on a short line.
        try cli.writeConfig(text.replacingOccurrences(of: "\"Client Work\"", with: "\"\""))
        let check = try cli.run(["config", "check"])
        #expect(check.status == 2)
        let position = try #require(check.stderr.firstMatch(of: /line (\d+), column (\d+): accounts\[1\]\.name/), "\(check.stderr)")
        #expect(Int(position.1)! > 1 && Int(position.2)! <= 30, "\(check.stderr)")
    }

    @Test("perch set and unset change one field, are checked as config check checks, and --field reads any field back")
    func setAndUnset() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(twoAccounts)
        #expect(try cli.run(["set", "work", "git.email", "ada@work.example"]).status == 0)
        #expect(try cli.run(["set", "work", "kube.context", "prod"]).status == 0)
        #expect(try cli.run(["set", "work", "env.TEAM", "web"]).status == 0)
        #expect(try cli.run(["set", "work", "name", "Job"]).status == 0)
        let text = try configText(cli)
        #expect(
            text.contains(
                #"{"id": "work", "name": "Job", "handle": "@ada.work", "git": {"email": "ada@work.example"}, "kube": {"context": "prod"}, "env": {"TEAM": "web"}},"#
            ), "\(text)")
        #expect(text.contains("// accounts of mine"))
        let bad = try cli.run(["set", "work", "git.email", "not-an-address"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains(#"accounts[0].git.email: "not-an-address" has no @"#), "\(bad.stderr)")
        let typo = try cli.run(["set", "work", "gti.email", "a@b"])
        #expect(typo.status == 2 && typo.stderr.contains(#"did you mean "git"?"#), "\(typo.stderr)")
        #expect(try configText(cli) == text, "refused changes write nothing")
        // Fields for prompts: any identity field, through the config's own reading.
        // kube fails here (no such context): --keep-going keeps the switch of the others.
        _ = try cli.run(["switch", "work", "--keep-going"])
        #expect(try cli.run(["current", "--field", "id"]).stdout == "work\n")
        #expect(try cli.run(["current", "--field", "kube.context"]).stdout == "prod\n")
        #expect(try cli.run(["current", "--field", "git.email"]).stdout == "ada@work.example\n")
        #expect(try cli.run(["current", "--field", "env.TEAM"]).stdout == "web\n")
        #expect(try cli.run(["current", "--field", "aws.profile"]).stdout == "\n", "nothing there: an empty line")
        let json = try cli.run(["current", "--json"]).stdout
        #expect(json.contains(#""identities" : {"#) && json.contains(#""context" : "prod""#), "\(json)")
        #expect(try cli.run(["list", "--json"]).stdout.contains(#""email" : "ada@work.example""#))
        #expect(try cli.run(["unset", "work", "kube.context"]).status == 0)
        #expect(try !configText(cli).contains("kube"), "an object left empty goes too")
        #expect(try cli.run(["current", "--field", "kube.context"]).stdout == "\n")
        let missing = try cli.run(["unset", "work", "kube"])
        #expect(missing.status == 1 && missing.stderr.contains(#"the account "work" has no kube"#), "\(missing.stderr)")
        // Bug: "accounts need an name".
        let name = try cli.run(["unset", "work", "name"])
        #expect(name.status == 2 && name.stderr.contains("accounts need a name; set it with `perch set work …` instead"), "\(name.stderr)")
        #expect(try cli.run(["unset", "work", "id"]).stderr.contains("accounts need an id; set it with `perch rename work …`"))
    }

    // Issue 33: `perch set client nosuch.field 1` said "unknown key, ignored" while it refused the
    // change, and listed no path; `perch set acme ssh.host github.com` was refused, and so was the
    // other order, though help lists both paths.
    @Test(
        "perch set: an unknown key is refused as unknown with the paths listed; ssh's fields one at a time; the object form where one cannot stand alone"
    )
    func setOneFieldAtATime() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(twoAccounts)
        let unknown = try cli.run(["set", "home", "nosuch.field", "1"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("accounts[1].nosuch: unknown key") && !unknown.stderr.contains("ignored"), "\(unknown.stderr)")
        #expect(
            unknown.stderr.contains("PATH is one of: name, handle,") && unknown.stderr.contains("ssh.host, ssh.identityFile"),
            "\(unknown.stderr)")
        let hostFirst = try cli.run(["set", "home", "ssh.host", "gitlab.com"])
        #expect(hostFirst.status == 2)
        #expect(
            hostFirst.stderr.contains(#"perch set home ssh '{"host": "gitlab.com", "identityFile": "…"}'"#), "\(hostFirst.stderr)")
        let file = try cli.run(["set", "home", "ssh.identityFile", "~/.ssh/id_home"])
        #expect(file.status == 0, "the key file alone stands (host github.com): \(file.stderr)")
        let host = try cli.run(["set", "home", "ssh.host", "gitlab.com"])
        #expect(host.status == 0, "\(host.stderr)")
        let text = try configText(cli)
        #expect(text.contains(#""ssh": {"identityFile": "~/.ssh/id_home", "host": "gitlab.com"}"#), "\(text)")
        let namespace = try cli.run(["set", "work", "kube.namespace", "web"])
        #expect(namespace.status == 2)
        #expect(namespace.stderr.contains(#"perch set work kube '{"namespace": "web", "context": "…"}'"#), "\(namespace.stderr)")
    }

    @Test("usage lines show required arguments without brackets: perch add ID --name NAME, perch setup TOOL")
    func usageShowsRequiredArguments() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let add = try cli.run(["add", "x"])
        #expect(add.stderr.contains("usage: perch add ID --name NAME [--config PATH]"), "\(add.stderr)")
        let setup = try cli.run(["setup"])
        #expect(setup.stderr.contains("usage: perch setup TOOL [--config PATH]"), "\(setup.stderr)")
    }

    /// The two accounts, work's git name equal to its id (a rename must leave that value alone).
    private var withGitNamedWork: String {
        twoAccounts.replacingOccurrences(
            of: #""handle": "@ada.work"}"#, with: #""handle": "@ada.work", "git": {"name": "work", "email": "ada@work.example"}}"#)
    }

    @Test("perch rename carries current, previous, history and pane state to the new id")
    func rename() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(withGitNamedWork)
        #expect(try cli.run(["switch", "work"]).status == 0)
        #expect(try cli.run(["switch", "home"]).status == 0)
        // Pane state as the interface keeps it (the Catalog's cursor for work).
        var state = try cli.state()
        state["panes"] = ["work": ["catalog": ["cursor": 3, "scroll": 1, "pinned": [String]()]]]
        try JSONSerialization.data(withJSONObject: state).write(to: URL(fileURLWithPath: cli.statePath))
        let renamed = try cli.run(["rename", "work", "job"])
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(renamed.stdout.contains("2 history entries"), "\(renamed.stdout)")
        #expect(try configText(cli).contains(#"{"id": "job", "name": "Work""#))
        let panes = try #require(try cli.state()["panes"] as? [String: Any])
        #expect(Set(panes.keys) == ["job"], "the Catalog pane state follows: \(panes)")
        // Perch's own files name the account by its new id; a tool's value equal to the old id stays.
        let undo = try String(contentsOfFile: cli.home.appendingPathComponent("state/perch/state.undo.json").path, encoding: .utf8)
        #expect(undo.contains(#""from" : "job""#), "\(undo)")
        #expect(undo.contains(#"the account \"job\""#), "the git file's header as it was, with the new id: \(undo)")
        #expect(!undo.contains(#""from" : "work""#) && !undo.contains(#"account \"work\""#), "\(undo)")
        #expect(
            try String(contentsOfFile: cli.configPath, encoding: .utf8).contains(#""git": {"name": "work""#),
            "a value equal to the old id stays")
        #expect(try cli.run(["history"]).stdout.contains("job → home"))
        #expect(!(try cli.run(["history"]).stdout.contains("work")))
        let back = try cli.run(["-"])
        #expect(back.status == 0, "perch - goes back to the renamed account: \(back.stderr)")
        #expect(try cli.run(["current", "--field", "id"]).stdout == "job\n")
        #expect(try cli.run(["rename", "job", "home"]).status == 1, "an id in use")
        #expect(try cli.run(["rename", "nope", "x"]).status == 1)
        let stderr = try cli.run(["list"]).stderr
        #expect(stderr.isEmpty, "no warning about a state naming an account that is gone: \(stderr)")
    }

    // Issue 33: after `perch remove acme --yes`, `perch undo` undid the switch before it without
    // a word, and `perch report --csv` listed the removed account with an empty name.
    @Test("perch undo after a removal says first which switch it undoes and that the removal stays; report names a removed account")
    func undoAfterRemove() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(twoAccounts)
        #expect(try cli.run(["switch", "work"]).status == 0)
        #expect(try cli.run(["switch", "home"]).status == 0)
        #expect(try cli.run(["remove", "home", "--yes"]).status == 0)
        let undo = try cli.run(["undo"])
        #expect(undo.status == 0, "\(undo.stderr)")
        let lines = undo.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("Undoing the last switch, work → home at ") == true, "\(undo.stdout)")
        #expect(lines.first?.hasSuffix("; home was removed since, and stays removed.") == true, "\(undo.stdout)")
        #expect(try cli.run(["current", "--field", "id"]).stdout == "work\n")
        // An hour in home, on a fixed day.
        let history = """
            {"account":"home","previous":null,"source":"cli","time":"2026-11-29T08:00:00Z"}
            {"account":"work","previous":"home","source":"cli","time":"2026-11-29T09:00:00Z"}

            """
        let folder = (cli.statePath as NSString).deletingLastPathComponent
        try history.write(toFile: folder + "/state.history.jsonl", atomically: true, encoding: .utf8)
        var utc = cli
        utc.extraEnvironment = ["TZ": "UTC"]
        let csv = try utc.run(["report", "--since", "2026-11-29", "--until", "2026-11-29", "--csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(csv.stdout.contains("\nhome,(removed),60,1.00\n"), "\(csv.stdout)")
    }

    @Test("perch remove asks first (--yes does not), says what becomes of the history, and forgets the pane state")
    func remove() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(twoAccounts)
        #expect(try cli.run(["switch", "home"]).status == 0)
        #expect(try cli.run(["switch", "work"]).status == 0)
        var state = try cli.state()
        state["panes"] = ["work": ["statsScroll": 2], "home": ["statsScroll": 1]]
        try JSONSerialization.data(withJSONObject: state).write(to: URL(fileURLWithPath: cli.statePath))
        let unasked = try cli.run(["remove", "work"])
        #expect(unasked.status == 2 && unasked.stderr.contains("--yes"), "without a terminal it needs --yes: \(unasked.stderr)")
        #expect(try configText(cli) == twoAccounts)
        let removed = try cli.run(["remove", "work", "--yes"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stdout.contains("Its 1 history entry stays (perch history lists it under work)"), "\(removed.stdout)")
        #expect(removed.stdout.contains("no account is current now"), "\(removed.stdout)")
        #expect(try cli.run(["list", "--format", "ids"]).stdout == "home\n")
        // Bug (issue 20): pane state was kept for removed accounts.
        let panes = try #require(try cli.state()["panes"] as? [String: Any])
        #expect(Set(panes.keys) == ["home"])
        #expect(try cli.run(["current"]).status == 1, "no account is current")
        #expect(try cli.run(["remove", "home", "--yes"]).status == 2, "the last account cannot go: the config would not load")
    }

    // Bug (issue 20): right after the first switch, `perch -` gave no hint that there was no earlier account yet.
    @Test("perch - right after the first switch says there is no earlier account yet")
    func previousAfterFirstSwitch() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(twoAccounts)
        #expect(try cli.run(["switch", "work"]).status == 0)
        let back = try cli.run(["-"])
        #expect(back.status == 1)
        #expect(back.stderr.contains("no earlier account yet"), "\(back.stderr)")
    }

    // Bug (issue 20): `perch swich` said only "unknown command".
    @Test("a mistyped command gets a did-you-mean")
    func didYouMean() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let run = try cli.run(["swich", "work"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("did you mean 'switch'?"), "\(run.stderr)")
    }
}
