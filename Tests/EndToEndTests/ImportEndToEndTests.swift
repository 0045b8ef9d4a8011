import Foundation
import PerchTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A scratch HOME holding one person's identities in real files, as the tools write them: a
/// global git config with an `includeIf` file, a kubeconfig with three contexts, a
/// `CLOUDSDK_CONFIG` folder with two configurations, an AWS config with three profiles, two ssh
/// keys and an ssh config with a `Host` block, and gh's hosts.yml; a fake `gh` on PATH (gh is
/// not installed here) changes hosts.yml as `gh auth switch` does. git, kubectl and ssh are the
/// real ones.
private struct ImportHome {
    var cli: PerchCommandLine
    var home: URL { cli.home }
    var bin: String { home.appendingPathComponent("bin").path }

    init() throws {
        cli = try PerchCommandLine()
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        writeExecutable(
            "#!/bin/sh\n[ \"$1 $2\" = \"auth switch\" ] && printf '%s:\\n    users:\\n        ada:\\n        ada-work:\\n    user: %s\\n' \"$4\" \"$6\" > \"$GH_CONFIG_DIR/hosts.yml\"\nexit 0\n",
            to: bin + "/gh")
        try write(
            "[user]\n\tname = Ada Lovelace\n\temail = ada@home.example\n[includeIf \"gitdir:~/work/\"]\n\tpath = ~/.gitconfig-work\n",
            ".gitconfig")
        try write("[user]\n\temail = ada@work.example\n", ".gitconfig-work")
        let contexts = ["work-prod", "work-staging", "minikube"].map { "- context:\n    cluster: local\n    user: ada\n  name: \($0)\n" }
            .joined()
        try write(
            "apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://127.0.0.1:1\n  name: local\ncontexts:\n\(contexts)"
                + "current-context: minikube\nusers:\n- name: ada\n  user: {}\n", ".kube/config")
        try write("[core]\naccount = ada@home.example\n", "gcloud/configurations/config_default")
        try write("[core]\naccount = ada@work.example\nproject = work-project\n", "gcloud/configurations/config_work")
        try write("default", "gcloud/active_config")
        try write(
            "[default]\nregion = eu-west-1\n\n[profile work-admin]\nregion = eu-west-1\n\n[profile home]\nregion = us-east-1\n",
            ".aws/config")
        try write("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIWork ada@work.example\n", ".ssh/id_ed25519_work.pub")
        try write("-----BEGIN OPENSSH PRIVATE KEY-----\nwork\n", ".ssh/id_ed25519_work")
        try write("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHome ada@home.example\n", ".ssh/id_ed25519.pub")
        try write("-----BEGIN OPENSSH PRIVATE KEY-----\nhome\n", ".ssh/id_ed25519")
        try write("Host github-work\n  HostName github.com\n  IdentityFile ~/.ssh/id_ed25519_work\n", ".ssh/config")
        try write("github.com:\n    users:\n        ada:\n        ada-work:\n    user: ada\n", "gh/hosts.yml")
        cli.extraEnvironment = environment
    }

    /// The tools' variables, all pointing into the scratch HOME.
    var environment: [String: String] {
        [
            "PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "KUBECONFIG": home.appendingPathComponent(".kube/config").path, "CLOUDSDK_CONFIG": home.appendingPathComponent("gcloud").path,
            "GH_CONFIG_DIR": home.appendingPathComponent("gh").path, "AWS_CONFIG_FILE": home.appendingPathComponent(".aws/config").path,
            "GIT_CONFIG_NOSYSTEM": "1", "SHELL": "/bin/sh",
        ]
    }

    func write(_ text: String, _ relative: String) throws {
        let url = home.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func run(_ arguments: String...) throws -> Spawn.Result { try cli.run(arguments) }

    /// Runs a tool of the machine in this HOME's environment, from the HOME folder.
    func tool(_ argv: String...) throws -> Spawn.Result {
        try Spawn.run(["sh", "-c", "cd \"$HOME\" && exec \"$@\"", "sh"] + argv, environment: cli.environment)
    }

    /// The ids of the accounts of the config, in order (`perch list --json`).
    func configIDs() throws -> [String] {
        let list = try run("list", "--json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]], "\(list.stderr)")
        return json.compactMap { $0["id"] as? String }
    }
}

/// gh `ada` goes with `home` (its git identity is Ada Lovelace <ada@home.example>): a group takes in what a person's
/// name links to it for a tool it lacks.
private let proposedIDs = ["work", "home", "kube-work-staging", "kube-minikube", "gcloud-default", "aws-default"]

@Suite(
    "perch import from a HOME of real tool files", .serialized,
    .enabled(if: ShellEndToEndTests.installed("git"), "git is not installed: the git identities would be missing"), .currentBinary)
struct ImportEndToEndTests {
    @Test("without a terminal, import prints one account per person, with ssh settings, and changes nothing")
    func printsProposals() throws {
        let scratch = try ImportHome()
        defer { scratch.cli.remove() }
        let result = try scratch.run("import")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "// work: git, ssh, kube, gcloud, gh, aws")
        #expect(
            lines.contains(
                #"{"id": "work", "name": "Work", "handle": "@ada-work", "git": {"email": "ada@work.example"}, "ssh": {"host": "github-work", "identityFile": "~/.ssh/id_ed25519_work"}, "kube": {"context": "work-prod"}, "gcloud": {"configuration": "work"}, "gh": {"user": "ada-work"}, "aws": {"profile": "work-admin"}},"#
            ), "\(result.stdout)")
        #expect(
            lines.contains(
                #"{"id": "home", "name": "Home", "handle": "@ada", "git": {"name": "Ada Lovelace", "email": "ada@home.example"}, "ssh": {"host": "github.com", "identityFile": "~/.ssh/id_ed25519"}, "gh": {"user": "ada"}, "aws": {"profile": "home"}},"#
            ), "\(result.stdout)")
        let ids = lines.compactMap { line -> String? in
            guard line.hasPrefix(#"{"id": ""#) else { return nil }
            return String(line.dropFirst(8).prefix { $0 != "\"" })
        }
        #expect(ids == proposedIDs)
        #expect(!result.stdout.contains("\"name\": \"ada@"), "no account is named after an email address")
        #expect(
            result.stderr.contains("Nothing changed; `perch import --write` adds these 6 accounts to ~/config/perch/accounts.json."),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.cli.configPath))
    }

    /// The real tools the switch is checked with, or the first one missing.
    static let missingTool = ["kubectl", "ssh"].first { !ShellEndToEndTests.installed($0) }

    @Test(
        "--write with no config of one's own writes only the imported accounts, never the samples; a switch then reaches git, kube, gcloud, gh, ssh and aws",
        .enabled(if: missingTool == nil, "\(missingTool ?? "") is not installed"))
    func writeThenSwitch() throws {
        let scratch = try ImportHome()
        defer { scratch.cli.remove() }
        let samples = try scratch.run("list", "--json")
        #expect(samples.stdout.contains("\"id\""), "the samples are in use before")
        let written = try scratch.run("import", "--write")
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stderr.contains("Added 6 accounts to ~/config/perch/accounts.json."), "\(written.stderr)")
        #expect(try scratch.configIDs() == proposedIDs, "only the imported accounts")
        #expect(!FileManager.default.fileExists(atPath: scratch.cli.configPath + ".bak"), "there was no file to keep")
        #expect(try scratch.run("import").stdout.contains("Found no identities to import"), "what is in the config is not proposed again")

        #expect(try scratch.run("setup", "git", "--yes").status == 0)
        #expect(try scratch.run("setup", "ssh", "--yes").status == 0)
        let switched = try scratch.run("switch", "work")
        #expect(switched.status == 0, "\(switched.stdout)\(switched.stderr)")
        let author = try scratch.tool("git", "var", "GIT_AUTHOR_IDENT")
        #expect(author.stdout.hasPrefix("Ada Lovelace <ada@work.example> "), "\(author.stdout)\(author.stderr)")
        let context = try scratch.tool("kubectl", "config", "current-context")
        #expect(context.stdout == "work-prod\n", "\(context.stderr)")
        #expect(try String(contentsOf: scratch.home.appendingPathComponent("gcloud/active_config"), encoding: .utf8) == "work")
        #expect(try String(contentsOf: scratch.home.appendingPathComponent("gh/hosts.yml"), encoding: .utf8).contains("user: ada-work"))
        // ssh reads the passwd entry's home, not HOME: the scratch config is named with -F.
        let ssh = try scratch.tool("ssh", "-F", scratch.home.appendingPathComponent(".ssh/config").path, "-G", "github-work")
        let first = ssh.stdout.split(separator: "\n").first { $0.hasPrefix("identityfile ") }
        #expect(first?.hasSuffix("/.ssh/id_ed25519_work") == true, "\(ssh.stdout)")
        #expect(try scratch.run("env").stdout.contains("AWS_PROFILE"))
        let status = try scratch.run("status")
        #expect(status.status == 0, "every tool uses the imported identity: \(status.stdout)\(status.stderr)")

        #expect(try scratch.run("switch", "home").status == 0)
        #expect(try scratch.tool("git", "var", "GIT_AUTHOR_IDENT").stdout.hasPrefix("Ada Lovelace <ada@home.example> "))
        #expect(try scratch.tool("kubectl", "config", "current-context").stdout == "minikube\n", "home names no context: the baseline")
    }

    @Test("--write into a config of one's own keeps its comments and leaves the previous file as .bak")
    func writeKeepsComments() throws {
        let scratch = try ImportHome()
        defer { scratch.cli.remove() }
        let original = "// my accounts\n{\"accounts\": [\n  {\"id\": \"mine\", \"name\": \"Mine\"}, // kept\n]}\n"
        try scratch.cli.writeConfig(original)
        let written = try scratch.run("import", "--write")
        #expect(written.status == 0, "\(written.stderr)")
        let text = try String(contentsOfFile: scratch.cli.configPath, encoding: .utf8)
        #expect(text.hasPrefix("// my accounts\n") && text.contains("// kept"))
        #expect(try String(contentsOfFile: scratch.cli.configPath + ".bak", encoding: .utf8) == original)
        #expect(try scratch.configIDs() == ["mine"] + proposedIDs)
    }

    @Test("on a terminal each proposal is reviewed with real keys: an id and a name edited, an invalid id refused, one skipped, q stops")
    func reviewInTmux() throws {
        let scratch = try ImportHome()
        defer { scratch.cli.remove() }
        let original = "{\"accounts\": [\n  // mine\n  {\"id\": \"mine\", \"name\": \"Mine\"}\n]}\n"
        try scratch.cli.writeConfig(original)
        let session = try TmuxSession(width: 100, height: 40, arguments: ["import"], environment: scratch.environment, home: scratch.home)
        #expect(try session.waitFor("1 of 6: work  Work  @ada-work"))
        #expect(try session.waitFor("kube    work-prod"))
        /// Answers `key` (i or n), then types `text` at the prompt that asks for it.
        func edit(_ key: String, prompt: String, typing text: String, shows result: String) throws {
            try session.expectAfter(key, "Enter", shows: prompt)
            try session.sendLiteral(text)
            try session.expectAfter("Enter", shows: result)
        }
        try edit("i", prompt: "Id [work]:", typing: "Bad Id", shows: "id: \"Bad Id\" may hold only")
        // Bug: an existing id was refused as the target; it now makes the proposal an addition to that account.
        try edit("i", prompt: "Id [work]:", typing: "mine", shows: "1 of 6: adds to mine  Mine")
        try edit("i", prompt: "Id [mine]:", typing: "job", shows: "1 of 6: job  Work")
        try edit("e", prompt: "Name [Work]:", typing: "Day job", shows: "1 of 6: job  Day job")
        try session.expectAfter("y", "Enter", shows: "2 of 6: home  Home")
        try session.expectAfter("s", "Enter", shows: "3 of 6: kube-work-staging")
        try session.expectAfter("Enter", shows: "4 of 6: kube-minikube")
        try session.expectAfter("q", "Enter", shows: "EXIT=0")
        let screen = try session.screen().joined(separator: "\n")
        #expect(screen.contains("Added 2 accounts to ~/config/perch/accounts.json"), "\(screen)")
        #expect(try scratch.configIDs() == ["mine", "job", "kube-work-staging"])
        let text = try String(contentsOfFile: scratch.cli.configPath, encoding: .utf8)
        #expect(text.contains("// mine") && text.contains(#""name": "Day job""#))
        #expect(try String(contentsOfFile: scratch.cli.configPath + ".bak", encoding: .utf8) == original)
    }

    // Issue 33: `n` at `Add it? [Y/i/n/s/q]` asked for a new name instead of declining.
    @Test("on a terminal, n at the import prompt declines the proposal instead of asking for a name")
    func reviewNDeclines() throws {
        let scratch = try ImportHome()
        defer { scratch.cli.remove() }
        let session = try TmuxSession(width: 100, height: 40, arguments: ["import"], environment: scratch.environment, home: scratch.home)
        #expect(try session.waitFor("1 of 6: work"))
        try session.expectAfter("n", "Enter", shows: "2 of 6: home")
        #expect(!(try session.screen()).contains { $0.contains("Name [") }, "no name prompt")
        try session.expectAfter("no", "Enter", shows: "3 of 6: kube-work-staging")
        try session.expectAfter("q", "Enter", shows: "EXIT=0")
        #expect(try session.waitFor("Nothing changed."))
        #expect(!FileManager.default.fileExists(atPath: scratch.cli.configPath))
    }

    @Test("bug: on a terminal, an existing account's id typed at i was refused; it adds the proposal's tools to that account")
    func reviewAddsToExisting() throws {
        let scratch = try ImportHome()
        defer { scratch.cli.remove() }
        try scratch.cli.writeConfig("{\"accounts\": [\n  {\"id\": \"mine\", \"name\": \"Mine\", \"aws\": \"home\"} // mine\n]}\n")
        let session = try TmuxSession(width: 100, height: 40, arguments: ["import"], environment: scratch.environment, home: scratch.home)
        #expect(try session.waitFor("1 of 6: work  Work  @ada-work"), "home's aws profile is mine's: home is an addition to mine")
        try session.expectAfter("n", "Enter", shows: "2 of 6: adds to mine  Mine")
        try session.expectAfter("y", "Enter", shows: "3 of 6: kube-work-staging")
        try session.expectAfter("q", "Enter", shows: "EXIT=0")
        let text = try String(contentsOfFile: scratch.cli.configPath, encoding: .utf8)
        #expect(text.contains("// mine"), "comments kept: \(text)")
        #expect(try scratch.configIDs() == ["mine"])
        let list = try scratch.run("list", "--json")
        #expect(list.stdout.contains("ada@home.example"), "home's git identity added to mine: \(list.stdout)")
        #expect(list.stdout.contains("id_ed25519"), "the key whose comment is home's email: \(list.stdout)")
    }

    @Test("on a terminal, skipping every proposal changes nothing")
    func reviewSkipAll() throws {
        let scratch = try ImportHome()
        defer { scratch.cli.remove() }
        let session = try TmuxSession(width: 100, height: 40, arguments: ["import"], environment: scratch.environment, home: scratch.home)
        #expect(try session.waitFor("1 of 6: work"))
        try session.expectAfter("q", "Enter", shows: "EXIT=0")
        #expect(try session.waitFor("Nothing changed."))
        #expect(!FileManager.default.fileExists(atPath: scratch.cli.configPath))
    }
}
