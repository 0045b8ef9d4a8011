import Foundation
import Testing

/// Files under the home named as `~/…` in every command's rows, as setup git, guard status and
/// audit already named them. Bug (everyday issue): several rows printed absolute paths where
/// the rest used `~`.
@Suite(.serialized, .currentBinary, .enabled(if: ["git", "ssh", "ssh-keygen"].allSatisfy(ShellEndToEndTests.installed)))
struct HomePathsEndToEndTests {
    /// A scratch home with a key `~/.ssh/id_work`, and the accounts `work` (git and that key)
    /// and `home` (git).
    static func home() throws -> PerchCommandLine {
        var cli = try PerchCommandLine()
        cli.extraEnvironment["GIT_CONFIG_NOSYSTEM"] = "1"
        let ssh = cli.home.path + "/.ssh"
        try FileManager.default.createDirectory(atPath: ssh, withIntermediateDirectories: true)
        let key = try Spawn.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "ada@work.example", "-f", ssh + "/id_work"])
        #expect(key.status == 0, "\(key.stderr)")
        try cli.writeConfig(
            #"{"accounts": [{"id": "work", "name": "Work", "git": {"name": "Ada", "email": "ada@work.example"}, "ssh": {"host": "github.com", "identityFile": "~/.ssh/id_work"}}, {"id": "home", "name": "Home", "git": {"name": "Ada", "email": "ada@home.example"}}]}"#
        )
        return cli
    }

    /// No line of `text` names a file by the scratch home's whole path.
    static func noWholeHome(_ text: String, _ cli: PerchCommandLine) -> Bool { !text.contains(cli.home.path + "/") }

    @Test("perch setup ssh and its undo name ~/.ssh/config; the Include line is the one written")
    func setupSSH() throws {
        let cli = try Self.home()
        defer { cli.remove() }
        let setup = try cli.run(["setup", "ssh", "--yes"])
        #expect(setup.status == 0, "\(setup.stderr)")
        let written = try String(contentsOfFile: cli.home.path + "/.ssh/config", encoding: .utf8)
        let include = try #require(written.split(separator: "\n").first { $0.hasPrefix("Include ") })
        #expect(setup.stdout == "Added `\(include)` at the top of ~/.ssh/config.\n", "\(setup.stdout)")
        let again = try cli.run(["setup", "ssh", "--yes"])
        #expect(again.stdout.contains("~/.ssh/config already includes ~/config/perch/ssh/config"), "\(again.stdout)")
        let undo = try cli.run(["setup", "ssh", "--undo", "--yes"])
        #expect(undo.stdout == "Removed ~/.ssh/config, which only held the `\(include)` line Perch added.\n", "\(undo.stdout)")
    }

    @Test("perch status names the account's ssh key as ~/.ssh/id_work, as the switch does")
    func status() throws {
        let cli = try Self.home()
        defer { cli.remove() }
        #expect(try cli.run(["setup", "ssh", "--yes"]).status == 0)
        let switched = try cli.run(["switch", "work"])
        #expect(switched.stdout.contains("ssh: applied (~/.ssh/id_work for github.com)"), "\(switched.stdout)\(switched.stderr)")
        let status = try cli.run(["status"])
        #expect(status.stdout.contains("✓ ssh  ~/.ssh/id_work\n"), "\(status.stdout)")
        #expect(Self.noWholeHome(status.stdout, cli), "\(status.stdout)")
        // A key that is not there, as ssh itself would say it (ssh -G).
        try FileManager.default.removeItem(atPath: cli.home.path + "/.ssh/id_work")
        let missing = try cli.run(["status"])
        #expect(missing.stdout.contains("✗ ssh  expected ~/.ssh/id_work"), "\(missing.stdout)")
        #expect(Self.noWholeHome(missing.stdout, cli), "\(missing.stdout)")
    }

    @Test("perch config check names the config as ~/…")
    func configCheck() throws {
        let cli = try Self.home()
        defer { cli.remove() }
        let check = try cli.run(["config", "check"])
        #expect(check.stdout == "config ~/config/perch/accounts.json: valid, 2 accounts, 2 with tool identities.\n", "\(check.stdout)")
    }

    @Test("perch bind and unbind name the config and its backup as ~/…")
    func bind() throws {
        let cli = try Self.home()
        defer { cli.remove() }
        let repository = cli.home.path + "/src/r"
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        for arguments in [["init", "-q"], ["remote", "add", "origin", "git@github.com:acme/r.git"]] {
            #expect(try Spawn.run(["git", "-C", repository] + arguments, environment: cli.environment).status == 0)
        }
        let cd = "cd \(TmuxSession.quote(repository)) && exec \(TmuxSession.quote(TmuxSession.binary)) "
        let bound = try Spawn.run(["sh", "-c", cd + "bind work --yes"], environment: cli.environment)
        #expect(
            bound.stdout
                == "Bound the remote github.com/acme/r (origin) to work in ~/config/perch/accounts.json (the previous file is ~/config/perch/accounts.json.bak).\n",
            "\(bound.stdout)\(bound.stderr)")
        let unbound = try Spawn.run(["sh", "-c", cd + "unbind work"], environment: cli.environment)
        #expect(unbound.stdout.hasPrefix("Unbound the remote github.com/acme/r (origin) from work in ~/config/perch/accounts.json"))
        #expect(Self.noWholeHome(bound.stdout + unbound.stdout, cli))
    }

    @Test("perch add, set, rename and remove name the config as ~/…")
    func configWriters() throws {
        let cli = try Self.home()
        defer { cli.remove() }
        var said = ""
        for arguments in [
            ["add", "client", "--name", "Client"], ["set", "client", "git.email", "ada@client.example"],
            ["rename", "client", "acme"], ["remove", "acme", "--yes"],
        ] {
            let run = try cli.run(arguments)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(
                run.stdout.contains(" ~/config/perch/accounts.json (the previous file is ~/config/perch/accounts.json.bak)."),
                "\(arguments): \(run.stdout)")
            said += run.stdout
        }
        #expect(Self.noWholeHome(said, cli), "\(said)")
    }
}
