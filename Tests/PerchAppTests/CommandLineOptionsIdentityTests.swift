import PerchIdentities
import Testing

@testable import PerchApp

@Suite("CommandLineOptions: the tool identity commands")
struct CommandLineOptionsIdentityTests {
    @Test("each command and option parses into its field")
    func valid() throws {
        let dry = try #require(CommandLineParser.parse(["switch", "work", "--dry-run"]).command as? SwitchCommand)
        #expect(dry.account == "work" && dry.switching.dryRun && !dry.switching.force)
        #expect(try (CommandLineParser.parse(["--force", "switch", "work"]).command as? SwitchCommand)?.switching.force == true)
        let status = try #require(CommandLineParser.parse(["status", "--json", "--files"]).command as? StatusCommand)
        #expect(status.json && status.listFiles)
        let env = try #require(CommandLineParser.parse(["env", "home", "--shell=fish"]).command as? EnvCommand)
        #expect(env.account == "home" && env.shell == .fish)
        #expect(try CommandLineParser.parse(["env"]).account == nil, "the account is optional")
        let initScript = try #require(CommandLineParser.parse(["shell-init", "zsh"]).command as? ShellInitCommand)
        #expect(initScript.shell == "zsh")
        let setup = try #require(CommandLineParser.parse(["setup", "ssh", "--undo", "--yes"]).command as? SetupCommand)
        #expect(setup.tool == "ssh" && setup.undo && setup.yes)
        let importing = try #require(CommandLineParser.parse(["import", "--write"]).command as? ImportCommand)
        #expect(importing.write)
        #expect(try CommandLineParser.parse(["help", "setup"]).request == .help)
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
        #expect(throws: UsageError.self) { try CommandLineParser.parse(arguments) }
        do {
            _ = try CommandLineParser.parse(arguments)
        } catch {
            #expect(error.description == message)
        }
    }
}
