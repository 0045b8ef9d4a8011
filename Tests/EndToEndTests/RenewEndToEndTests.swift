import Foundation
import PerchTestSupport
import Testing

/// "There is no command that renews": Perch printed `aws sso login --profile …` for the person
/// to type. `perch renew` runs the tool's own login for the current account, in the foreground
/// on the terminal; fake `aws` and `gcloud` on PATH record their arguments, environment and
/// whether their stdin is the terminal.
@Suite("perch renew: the tool's own login", .serialized, .currentBinary)
struct RenewEndToEndTests {
    static func home() throws -> ScopedHome {
        let scoped = try ScopedHome(
            accounts: [
                #"{"id": "work", "name": "Work", "aws": "work-sso", "gcloud": "own"}"#,
                #"{"id": "role", "name": "Role", "aws": "admin"}"#,
                #"{"id": "plain", "name": "Plain", "env": {"WHO": "plain"}}"#,
            ], contexts: ["own"], configurations: ["own"])
        let home = scoped.home
        try FileManager.default.createDirectory(atPath: home + "/.aws", withIntermediateDirectories: true)
        try """
        [profile work-sso]
        sso_session = corp
        [sso-session corp]
        sso_start_url = https://corp.awsapps.com/start
        [profile admin]
        role_arn = arn:aws:iam::123456789012:role/Admin
        source_profile = work-sso

        """.write(toFile: home + "/.aws/config", atomically: true, encoding: .utf8)
        for program in ["aws", "gcloud"] {
            writeExecutable(
                """
                #!/bin/sh
                if [ -t 0 ]; then tty=terminal; else tty=none; fi
                echo "\(program) $* config=${CLOUDSDK_ACTIVE_CONFIG_NAME-} stdin=$tty" >> "$HOME/calls/\(program).log"
                echo "\(program) login ran"
                exit "${FAKE_STATUS:-0}"

                """, to: home + "/bin/" + program)
        }
        return scoped
    }

    static func calls(_ scoped: ScopedHome, _ program: String) -> [String] {
        ((try? String(contentsOfFile: scoped.home + "/calls/\(program).log", encoding: .utf8)) ?? "").split(separator: "\n").map(
            String.init)
    }

    @Test("perch renew runs aws sso login --profile P and gcloud auth login into the account's configuration, on the terminal")
    func renewsOnTheTerminal() throws {
        let scoped = try Self.home()
        defer { scoped.cli.remove() }
        #expect(try scoped.cli.run(["switch", "work", "--keep-going"]).status != 2)
        // On a terminal (tmux), as a person runs it: the login gets the terminal.
        let session = try TmuxSession(arguments: ["renew"], environment: scoped.cli.environment, home: scoped.cli.home)
        #expect(try session.waitUntil(timeout: 15) { $0.contains { $0.contains("gcloud login ran") } }, "\((try? session.screen()) ?? [])")
        #expect(Self.calls(scoped, "aws") == ["aws sso login --profile work-sso config= stdin=terminal"])
        #expect(Self.calls(scoped, "gcloud") == ["gcloud auth login config=own stdin=terminal"])
    }

    @Test("perch renew TOOL: one tool; what renews a role; a failing login's status; a tool the account does not name is exit 1")
    func oneTool() throws {
        let scoped = try Self.home()
        defer { scoped.cli.remove() }
        #expect(try scoped.cli.run(["switch", "work", "--keep-going"]).status != 2)
        let aws = try scoped.cli.run(["renew", "aws"])
        #expect(aws.status == 0, "\(aws.stderr)")
        #expect(aws.stdout.contains("aws: aws sso login --profile work-sso"), "\(aws.stdout)")
        #expect(Self.calls(scoped, "aws").count == 1 && Self.calls(scoped, "gcloud").isEmpty)
        var failing = scoped.cli
        failing.extraEnvironment["FAKE_STATUS"] = "5"
        let failed = try failing.run(["renew", "gcloud"])
        #expect(failed.status == 5 && failed.stderr.contains("gcloud auth login exited with status 5"), "\(failed.stderr)")
        // perch exec's account, not the global one: a role's renewal is said, nothing run.
        let role = try scoped.cli.run(["exec", "role", "--", TmuxSession.binary, "renew"])
        #expect(role.status == 0 && role.stdout.contains("the profile admin assumes a role"), "\(role.stdout)\(role.stderr)")
        #expect(Self.calls(scoped, "aws").count == 1)
        let none = try scoped.cli.run(["exec", "plain", "--", TmuxSession.binary, "renew", "aws"])
        #expect(none.status == 1 && none.stderr.contains("plain names no aws identity"), "\(none.stderr)")
        #expect(try scoped.cli.run(["renew", "docker"]).status == 2, "a tool perch renew does not know is bad usage")
    }
}
