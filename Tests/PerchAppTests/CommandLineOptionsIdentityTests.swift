import PerchIdentities
import Testing

@testable import PerchApp

@Suite("CommandLineOptions: the tool identity commands")
struct CommandLineOptionsIdentityTests {
    @Test("each command and option parses into its field")
    func valid() throws {
        let dry = try CommandLineOptions(parsing: ["switch", "work", "--dry-run"])
        #expect(dry.command == .switchAccount && dry.account == "work" && dry.identity.dryRun && !dry.identity.force)
        #expect(try CommandLineOptions(parsing: ["--force", "switch", "work"]).identity.force)
        let status = try CommandLineOptions(parsing: ["status", "--json", "--files"])
        #expect(status.command == .status && status.json && status.identity.files)
        let env = try CommandLineOptions(parsing: ["env", "home", "--shell=fish"])
        #expect(env.command == .env && env.account == "home" && env.identity.shell == .fish)
        #expect(try CommandLineOptions(parsing: ["env"]).account == nil, "the account is optional")
        let initScript = try CommandLineOptions(parsing: ["shell-init", "zsh"])
        #expect(initScript.command == .shellInit && initScript.operand == "zsh")
        let setup = try CommandLineOptions(parsing: ["setup", "ssh", "--undo", "--yes"])
        #expect(setup.command == .setup && setup.operand == "ssh" && setup.identity.undo && setup.identity.yes)
        let importing = try CommandLineOptions(parsing: ["import", "--write"])
        #expect(importing.command == .importAccounts && importing.identity.write)
        #expect(try CommandLineOptions(parsing: ["help", "setup"]).request == .help)
    }

    @Test(
        "each misuse is refused with its message",
        arguments: [
            (["shell-init"], "'perch shell-init' needs a shell: bash, zsh or fish"),
            (["shell-init", "tcsh"], "'perch shell-init' knows bash, zsh and fish, not 'tcsh'"),
            (["setup"], "'perch setup' needs a tool: git or ssh"),
            (["setup", "kube"], "'perch setup' sets up git or ssh, not 'kube'"),
            (["env", "--shell", "csh"], "option --shell needs one of bash, zsh, fish, not 'csh'"),
            (["list", "--dry-run"], "option --dry-run does not apply to 'perch list'"),
            (["status", "--write"], "option --write does not apply to 'perch status'"),
            (["import", "x"], "unexpected argument 'x'"),
            (["env", "a", "b"], "unexpected argument 'b'"),
        ])
    func invalid(arguments: [String], message: String) {
        #expect(throws: CommandLineOptions.UsageError.self) { try CommandLineOptions(parsing: arguments) }
        do {
            _ = try CommandLineOptions(parsing: arguments)
        } catch {
            #expect(error.description == message)
        }
    }
}
