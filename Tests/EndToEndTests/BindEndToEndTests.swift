import Foundation
import Testing

/// `perch bind` and `perch unbind` with the real git, in a scratch HOME (GIT_CONFIG_NOSYSTEM=1):
/// what git really uses afterwards in the repository (`git var GIT_AUTHOR_IDENT`).
@Suite(
    "perch bind and unbind, with the real git", .serialized, .enabled(if: ShellEndToEndTests.installed("git"), "needs git"), .currentBinary)
struct BindEndToEndTests {
    /// A HOME with a global identity of the user's own, a config of two accounts with a
    /// comment, `perch setup git` done, and a clone at ~/src/site whose remote uses an ssh alias.
    private static func home() throws -> PerchCommandLine {
        var cli = try PerchCommandLine()
        cli.extraEnvironment = ["GIT_CONFIG_NOSYSTEM": "1", "KUBECONFIG": cli.home.appendingPathComponent(".kube/config").path]
        try "[user]\n\tname = Me\n\temail = me@home.example\n".write(
            to: cli.home.appendingPathComponent(".gitconfig"), atomically: true, encoding: .utf8)
        try cli.writeConfig(
            "// mine\n{\"accounts\": [\n  {\"id\": \"work\", \"name\": \"Work\", \"git\": {\"name\": \"Ada W\", \"email\": \"ada@work.example\"}}, // kept\n"
                + "  {\"id\": \"home\", \"name\": \"Home\", \"git\": {\"name\": \"Ada H\", \"email\": \"ada@home.example\"}}\n]}\n")
        #expect(try cli.run(["setup", "git", "--yes"]).status == 0)
        let site = cli.home.appendingPathComponent("src/site").path
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        #expect(try git(cli, "src/site", "init", "-q").status == 0)
        #expect(try git(cli, "src/site", "remote", "add", "origin", "git@github.com:Acme/Site.git").status == 0)
        return cli
    }

    private static func git(_ cli: PerchCommandLine, _ folder: String, _ arguments: String...) throws -> Spawn.Result {
        try Spawn.run(["git", "-C", cli.home.appendingPathComponent(folder).path] + arguments, environment: cli.environment)
    }

    /// `perch ARGUMENTS` run from ~/src/site.
    private static func perch(_ cli: PerchCommandLine, _ arguments: String...) throws -> Spawn.Result {
        try Spawn.run(
            ["sh", "-c", "cd \"$HOME/src/site\" && exec \"$@\"", "sh", TmuxSession.binary] + arguments, environment: cli.environment)
    }

    private static func author(_ cli: PerchCommandLine) throws -> String {
        try git(cli, "src/site", "var", "GIT_AUTHOR_IDENT").stdout.split(separator: " <").first.map(String.init) ?? ""
    }

    @Test("bind ACCOUNT from inside a clone binds its remote: git uses the account there; unbind gives the config and git back")
    func bindByRemote() throws {
        let cli = try Self.home()
        defer { cli.remove() }
        let before = try String(contentsOfFile: cli.configPath, encoding: .utf8)
        #expect(try Self.author(cli) == "Me")
        let refused = try Self.perch(cli, "bind", "work")
        #expect(refused.status == 1, "no terminal and no --yes: nothing changes")
        #expect(refused.stderr.contains("would bind the remote github.com/acme/site (origin) to work"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: cli.configPath, encoding: .utf8) == before)
        let bound = try Self.perch(cli, "bind", "work", "--yes")
        #expect(bound.status == 0, "\(bound.stderr)")
        let after = try String(contentsOfFile: cli.configPath, encoding: .utf8)
        #expect(after.contains("\"remotes\": [\"github.com/acme/site\"]}, // kept"), "comments kept: \(after)")
        #expect(try Self.author(cli) == "Ada W", "git itself uses the account in the clone")
        let other = try Self.perch(cli, "bind", "home", "--yes")
        #expect(other.status == 1)
        #expect(other.stderr.contains("bound to work already"), "\(other.stderr)")
        let unbound = try Self.perch(cli, "unbind", "work")
        #expect(unbound.status == 0, "\(unbound.stderr)")
        #expect(try String(contentsOfFile: cli.configPath, encoding: .utf8) == before, "the config as it was, byte for byte")
        #expect(try Self.author(cli) == "Me")
        #expect(try Self.perch(cli, "unbind", "work").status == 1, "nothing left to unbind")
    }

    @Test(
        "each form of remote URL binds by the one pattern the config and git's rules take, and git follows it",
        arguments: [
            ("https://github.com/acme/site", "github.com/acme/site"),
            ("https://ada@GitHub.com:443/Acme/Site.git/", "github.com/acme/site"),
            ("ssh://git@github.com:22/acme/site.git", "github.com/acme/site"),
            ("git@github.com:/acme/site", "github.com/acme/site"),
            ("git@github.com-work:acme/site.git", "github.com/acme/site"),
            ("https://gitlab.example.com/team/sub/site.git", "gitlab.example.com/team/sub/site"),
        ])
    func urlForms(_ url: String, _ pattern: String) throws {
        if url.contains("github.com-work"), !ShellEndToEndTests.installed("ssh") { return }
        let cli = try Self.home()
        defer { cli.remove() }
        // An ssh host alias, as people name one per account.
        try FileManager.default.createDirectory(atPath: cli.home.path + "/.ssh", withIntermediateDirectories: true)
        try "Host github.com-work\n  HostName github.com\n".write(toFile: cli.home.path + "/.ssh/config", atomically: true, encoding: .utf8)
        #expect(try Self.git(cli, "src/site", "remote", "set-url", "origin", url).status == 0)
        let bound = try Self.perch(cli, "bind", "work", "--yes")
        #expect(bound.status == 0, "\(bound.stderr)")
        #expect(bound.stdout.contains("Bound the remote \(pattern) (origin) to work"), "\(bound.stdout)")
        #expect(try Self.author(cli) == "Ada W", "git follows the rule for \(url)")
        #expect(try Self.perch(cli, "unbind", "work").status == 0)
        #expect(try Self.author(cli) == "Me")
    }

    @Test("a remote that makes no plain pattern (a local path, a quote, a control character) is refused with --folder as the way")
    func unusableRemotes() throws {
        let cli = try Self.home()
        defer { cli.remove() }
        for url in ["/srv/git/site.git", "https://github.com/acme/si\"te", "https://github.com/acme/\u{1b}[31msite"] {
            #expect(try Self.git(cli, "src/site", "remote", "set-url", "origin", url).status == 0)
            let refused = try Self.perch(cli, "bind", "work", "--yes")
            #expect(refused.status == 1, "\(url): \(refused.stderr)")
            #expect(refused.stderr.contains("--folder binds its folder instead"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("\u{1b}"), "never printed raw")
        }
    }

    @Test("on a terminal, bind shows the pattern and asks; n changes nothing, y binds")
    func asksOnTerminal() throws {
        let cli = try Self.home()
        defer { cli.remove() }
        let site = cli.home.appendingPathComponent("src/site").path
        let before = try String(contentsOfFile: cli.configPath, encoding: .utf8)
        let declined = try TmuxSession(
            width: 120, height: 20, arguments: ["bind", "work", site], environment: cli.extraEnvironment, home: cli.home)
        #expect(try declined.waitFor("Perch will bind the remote github.com/acme/site (origin) to work (Work)."))
        try declined.expectAfter("n", "Enter", shows: "Nothing changed.")
        #expect(try declined.waitFor("EXIT=1"))
        #expect(try String(contentsOfFile: cli.configPath, encoding: .utf8) == before)
        let agreed = try TmuxSession(
            width: 120, height: 20, arguments: ["bind", "work", site], environment: cli.extraEnvironment, home: cli.home)
        #expect(try agreed.waitFor("Go ahead? [y/N]"))
        try agreed.expectAfter("y", "Enter", shows: "Bound the remote github.com/acme/site (origin) to work")
        #expect(try agreed.waitFor("EXIT=0"))
        #expect(try Self.author(cli) == "Ada W")
    }

    @Test("bind says so when git still uses another email there: the user's own includeIf, read after Perch's rules, wins")
    func ownRuleWins() throws {
        let cli = try Self.home()
        defer { cli.remove() }
        let gitconfig = cli.home.appendingPathComponent(".gitconfig").path
        var text = try String(contentsOfFile: gitconfig, encoding: .utf8)
        text += "[includeIf \"gitdir:~/src/\"]\n\tpath = ~/.gitconfig-src\n"
        try text.write(toFile: gitconfig, atomically: true, encoding: .utf8)
        try "[user]\n\temail = old@client.example\n".write(
            toFile: cli.home.appendingPathComponent(".gitconfig-src").path, atomically: true, encoding: .utf8)
        let bound = try Self.perch(cli, "bind", "work", "--yes")
        #expect(bound.status == 0, "\(bound.stderr)")
        #expect(
            bound.stderr.contains("git here still uses <old@client.example>, not work's <ada@work.example>"),
            "\(bound.stdout)\(bound.stderr)")
        let quiet = try Self.home()
        defer { quiet.remove() }
        let fine = try Self.perch(quiet, "bind", "work", "--yes")
        #expect(!fine.stderr.contains("still uses"), "\(fine.stderr)")
    }

    @Test("bind --folder with PATH binds the repository's folder; outside a repository without --folder it says how, exit 1")
    func bindByFolder() throws {
        let cli = try Self.home()
        defer { cli.remove() }
        let bound = try cli.run(["bind", "home", cli.home.appendingPathComponent("src/site").path, "--folder", "--yes"])
        #expect(bound.status == 0, "\(bound.stderr)")
        #expect(try String(contentsOfFile: cli.configPath, encoding: .utf8).contains("\"directories\": [\"~/src/site\"]"))
        #expect(try Self.author(cli) == "Ada H")
        #expect(try cli.run(["unbind", "home", cli.home.appendingPathComponent("src/site").path, "--folder"]).status == 0)
        #expect(try Self.author(cli) == "Me")
        let outside = try cli.run(["bind", "work", cli.home.path, "--yes"])
        #expect(outside.status == 1)
        #expect(outside.stderr.contains("is not in a git repository; --folder binds the folder itself"), "\(outside.stderr)")
        let unknown = try cli.run(["bind", "nobody", "--yes"])
        #expect(unknown.status == 1)
        #expect(try cli.run(["bind"]).status == 2, "an account is needed")
    }
}
