import Foundation
import Testing

/// Issue 19: `perch current`, `perch status` and `perch env` in a shell with an account of its
/// own, and `perch status` in a bound folder.
@Suite("Scoped commands", .serialized, .currentBinary)
struct ScopedCommandTests {
    func home() throws -> ScopedHome {
        try ScopedHome(
            accounts: [
                #"{"id": "work", "name": "Work", "git": {"email": "ada@work.example"}, "kube": {"context": "prod"}, "gh": {"user": "ada-work"}, "aws": "work-admin", "directories": ["~/proj"]}"#,
                #"{"id": "personal", "name": "Personal", "kube": {"context": "dev"}, "aws": "home"}"#,
            ], contexts: ["dev", "prod"], configurations: ["home"])
    }

    /// Runs `perch arguments` in `folder` with `extra` variables.
    func run(_ home: ScopedHome, _ arguments: [String], in folder: String? = nil, extra: [String: String] = [:]) throws -> Spawn.Result {
        var environment = home.cli.environment
        environment.merge(extra) { $1 }
        let quoted = ([TmuxSession.binary] + arguments).map(TmuxSession.quote).joined(separator: " ")
        return try Spawn.run(["sh", "-c", "cd \(TmuxSession.quote(folder ?? home.home)) && exec \(quoted)"], environment: environment)
    }

    @Test(
        "in a pinned shell, perch current and perch status give this shell's account; --global the global one",
        .enabled(if: ShellEndToEndTests.installed("kubectl")))
    func pinnedShell() throws {
        let home = try home()
        defer { home.cli.remove() }
        #expect(try home.cli.run(["switch", "personal"]).status == 0)
        // The environment perch use gives a shell, as a shell would have it.
        let script = try run(home, ["use", "work", "--shell", "bash"])
        #expect(script.status == 0, "\(script.stderr)")
        let pinned = try Spawn.run(
            [
                "bash", "--norc", "-c", "eval \"$1\"; \"$2\" current --field id; \"$2\" current --global --field id; \"$2\" status", "-",
                script.stdout,
                TmuxSession.binary,
            ], environment: home.cli.environment)
        let lines = pinned.stdout.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(2)) == ["work", "personal"], "\(pinned.stdout)\(pinned.stderr)")
        #expect(pinned.stdout.contains("This shell: work: Work (pinned by perch use; the global account is personal)"), "\(pinned.stdout)")
        // gh's token is the function's, which no file shows: not a drift, and said so.
        #expect(pinned.stdout.contains("– gh") && pinned.stdout.contains("gets the account's token from perch"), "\(pinned.stdout)")
        #expect(
            pinned.stdout.contains("✓ kube    prod") && pinned.stdout.contains("✓ git     <ada@work.example>  (from command line:)"),
            "checked in this shell's scope: \(pinned.stdout)")
        // gcloud, which work names nothing for, is sealed on the user's own configuration.
        #expect(pinned.stdout.contains("✓ gcloud  your own: home  (sealed: a global switch does not reach this scope)"), "\(pinned.stdout)")
        // perch env in it keeps the pin (the shell-init function runs it after each command).
        let env = try Spawn.run(
            ["bash", "--norc", "-c", "eval \"$1\"; \"$2\" env --shell bash", "-", script.stdout, TmuxSession.binary],
            environment: home.cli.environment)
        #expect(!env.stdout.contains("PERCH_SCOPE") && !env.stdout.contains("AWS_PROFILE='home'"), "nothing to change: \(env.stdout)")
        // A global switch from the pinned shell: made in the environment before the pin, and said.
        let switched = try Spawn.run(
            ["bash", "--norc", "-c", "eval \"$1\"; \"$2\" switch work", "-", script.stdout, TmuxSession.binary],
            environment: home.cli.environment)
        #expect(switched.status == 0, "\(switched.stdout)\(switched.stderr)")
        #expect(try Spawn.run(["kubectl", "config", "current-context"], environment: home.cli.environment).stdout == "prod\n")
    }

    @Test("perch status in a bound folder says which rule holds there")
    func boundFolder() throws {
        let home = try home()
        defer { home.cli.remove() }
        try FileManager.default.createDirectory(atPath: home.home + "/proj/api", withIntermediateDirectories: true)
        #expect(try home.cli.run(["switch", "personal"]).status == 0)
        // Bug: status said git used the folder's account through perch setup git when setup had not been run.
        let before = try run(home, ["status"], in: home.home + "/proj/api")
        #expect(
            before.stdout.contains(
                "Folder: ~/proj is bound to work (its \"directories\"); git will use it here once perch setup git has been run"),
            "\(before.stdout)\(before.stderr)")
        #expect(try home.cli.run(["setup", "git", "--yes"]).status == 0)
        #expect(try home.cli.run(["switch", "personal", "--force"]).status == 0)
        let inside = try run(home, ["status"], in: home.home + "/proj/api")
        #expect(
            inside.stdout.contains("Folder: ~/proj is bound to work (its \"directories\"); git uses it here"),
            "\(inside.stdout)\(inside.stderr)")
        let outside = try run(home, ["status"])
        #expect(!outside.stdout.contains("Folder:"), "\(outside.stdout)")
    }

    // Bug: the git note in a bound folder cut an id at its first dot ("bound to my"); and
    // outside a hooked shell its line named the global account's identity.
    @Test("in a folder bound to an id with dots, the git line names the whole id", .enabled(if: ShellEndToEndTests.installed("git")))
    func dottedID() throws {
        let home = try ScopedHome(
            accounts: [
                #"{"id": "my.work-1", "name": "Work", "git": {"email": "ada@work.example"}, "directories": ["~/proj"]}"#,
                #"{"id": "personal", "name": "Personal", "git": {"email": "ada@home.example"}}"#,
            ], contexts: ["dev"], configurations: ["home"])
        defer { home.cli.remove() }
        try FileManager.default.createDirectory(atPath: home.home + "/proj/api", withIntermediateDirectories: true)
        #expect(try Spawn.run(["git", "init", "-q", home.home + "/proj/api"], environment: home.cli.environment).status == 0)
        #expect(try home.cli.run(["setup", "git", "--yes"]).status == 0)
        #expect(try home.cli.run(["switch", "personal"]).status == 0)
        let status = try run(home, ["status"], in: home.home + "/proj/api")
        #expect(status.stdout.contains("✓ git  my.work-1's (this folder's): <ada@work.example>"), "\(status.stdout)\(status.stderr)")
    }

    @Test("directories are validated: relative, / and a folder bound twice are refused with where")
    func validation() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        try cli.writeConfig(
            #"{"accounts": [{"id": "a", "name": "A", "directories": ["work", "/"]}, {"id": "b", "name": "B", "directories": ["~/x"]}, {"id": "c", "name": "C", "directories": ["~/x/"]}, {"id": "d", "name": "D", "directories": ["~/y"]}, {"id": "e", "name": "E", "directories": ["\#(cli.home.path)/y"]}]}"#
        )
        let check = try cli.run(["config", "check"])
        #expect(check.status == 2)
        #expect(check.stderr.contains("accounts[0].directories[0]: \"work\" is not an absolute path"), "\(check.stderr)")
        #expect(check.stderr.contains("accounts[0].directories[1]: \"/\" would bind every folder"))
        #expect(check.stderr.contains("\"~/x/\" is in the directories of both \"b\" and \"c\""))
        // Bug: the same folder written as ~/y and as an absolute path was taken for two folders.
        #expect(check.stderr.contains("is in the directories of both \"d\" and \"e\""), "\(check.stderr)")
    }
}
