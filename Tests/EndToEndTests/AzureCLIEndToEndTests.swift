import Foundation
import Testing

/// The shipped description of the Azure CLI (docs/tools.md), with the real `az` from PyPI: each
/// account's `AZURE_CONFIG_DIR` holds an `azureProfile.json` of its own (as `az login` leaves
/// it), and `az account show`, which reads that file without the network, says who it is.
/// Nothing in Perch knows az but its JSON description.
@Suite("Azure CLI as a described tool", .serialized, .currentBinary, .enabled(if: ShellEndToEndTests.installed("az")))
struct AzureCLIEndToEndTests {
    /// A scratch home with the user's own `~/.azure` (signed in as `own@home.example`) and two
    /// accounts' folders, `work` and `lab`.
    func home(lab user: String = "lab@lab.example") throws -> PerchCommandLine {
        var cli = try PerchCommandLine()
        let home = cli.home.path
        for (folder, name) in [(".azure", "own@home.example"), (".azure-work", "ada@work.example"), (".azure-lab", "lab@lab.example")] {
            try FileManager.default.createDirectory(atPath: home + "/" + folder, withIntermediateDirectories: true)
            try Self.profile(name).write(toFile: "\(home)/\(folder)/azureProfile.json", atomically: true, encoding: .utf8)
        }
        try cli.writeConfig(
            """
            {"version": 1, "accounts": [
              {"id": "work", "name": "Work", "az": {"configDir": "~/.azure-work", "user": "ada@work.example"}},
              {"id": "lab", "name": "Lab", "az": {"configDir": "~/.azure-lab", "user": "\(user)"}},
              {"id": "bot", "name": "Bot", "agent": true, "git": {"name": "Bot", "email": "bot@agents.example"}}
            ]}
            """)
        // No telemetry, no colour: az asked as a script would.
        cli.extraEnvironment = ["GIT_CONFIG_NOSYSTEM": "1", "AZURE_CORE_COLLECT_TELEMETRY": "false", "AZURE_CORE_NO_COLOR": "true"]
        return cli
    }

    /// An `azureProfile.json` with one default subscription whose user is `user`.
    static func profile(_ user: String) -> String {
        #"{"installationId": "11111111-1111-1111-1111-111111111111", "subscriptions": [{"id": "00000000-0000-0000-0000-000000000001", "name": "Sub", "state": "Enabled", "user": {"name": "\#(user)", "type": "user"}, "isDefault": true, "tenantId": "22222222-2222-2222-2222-222222222222", "environmentName": "AzureCloud", "homeTenantId": "22222222-2222-2222-2222-222222222222", "managedByTenants": []}]}"#
    }

    /// The user az answers with in `perch exec ACCOUNT`, or its error.
    func azUser(_ cli: PerchCommandLine, _ exec: [String]) throws -> String {
        let run = try cli.run(["exec"] + exec + ["--", "az", "account", "show", "--query", "user.name", "-o", "tsv"])
        return run.status == 0 ? run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : "error: " + run.stderr
    }

    @Test("perch exec gives az each account's folder; az itself answers with that account's user, and yours outside")
    func execGivesEachAccount() throws {
        let cli = try home()
        defer { cli.remove() }
        #expect(try azUser(cli, ["work"]) == "ada@work.example")
        #expect(try azUser(cli, ["lab"]) == "lab@lab.example")
        let own = try Spawn.run(["az", "account", "show", "--query", "user.name", "-o", "tsv"], environment: cli.environment)
        #expect(own.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "own@home.example", "your own az is left alone")
        let env = try cli.run(["env", "work"])
        #expect(env.stdout.contains("export AZURE_CONFIG_DIR='\(cli.home.path)/.azure-work'"))
    }

    @Test("verify asks az who it is: ✓ for the account's user, ✗ and exit 3 when az answers another")
    func verifyAsksAz() throws {
        let cli = try home(lab: "someone@else.example")
        defer { cli.remove() }
        let good = try cli.run(["verify", "--as-exec", "work"])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        #expect(good.stdout.contains("✓ az whoami") && good.stdout.contains("ada@work.example"), "\(good.stdout)")
        let bad = try cli.run(["verify", "--as-exec", "lab"])
        #expect(bad.status == 3, "\(bad.stdout)\(bad.stderr)")
        #expect(bad.stdout.contains("✗ az whoami"), "\(bad.stdout)")
        #expect(bad.stdout.contains("lab@lab.example") && bad.stdout.contains("someone@else.example"), "\(bad.stdout)")
    }

    @Test("an agent whose account names no az never reaches your ~/.azure; one whose folder is gone does not start")
    func agentsAreClosed() throws {
        let cli = try home()
        defer { cli.remove() }
        let closed = try azUser(cli, ["bot", "--agent"])
        #expect(closed.hasPrefix("error:") && closed.contains("az login"), "az in a closed folder: \(closed)")
        #expect(!closed.contains("own@home.example"))
        try cli.writeConfig(
            """
            {"version": 1, "accounts": [
              {"id": "bot", "name": "Bot", "agent": true, "git": {"name": "Bot", "email": "bot@agents.example"}, "az": {"configDir": "~/.azure-gone"}}
            ]}
            """)
        let marker = cli.home.path + "/started"
        let refused = try cli.run(["exec", "bot", "--", "touch", marker])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("az: its folder ~/.azure-gone (configDir) is not there"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker), "the command never started")
    }

    @Test("perch audit names az's token cache when others can read it, not when it is yours alone")
    func auditTokenCache() throws {
        let cli = try home()
        defer { cli.remove() }
        let cache = cli.home.path + "/.azure-work/msal_token_cache.json"
        try #"{"AccessToken": {}}"#.write(toFile: cache, atomically: true, encoding: .utf8)
        chmod(cache, 0o600)
        #expect(!(try cli.run(["audit"])).stdout.contains("msal_token_cache.json"))
        chmod(cache, 0o644)
        let audit = try cli.run(["audit"])
        #expect(audit.stdout.contains("msal_token_cache.json") && audit.stdout.contains("readable by"), "\(audit.stdout)")
        #expect(audit.stdout.contains("work"), "the account it serves")
    }
}
