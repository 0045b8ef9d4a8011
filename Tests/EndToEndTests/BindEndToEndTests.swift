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
