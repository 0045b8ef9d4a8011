import PerchDomain
import PerchIdentities
import PerchStore

/// `perch setup TOOL`: Perch's git or ssh file included from the user's own config.
struct SetupCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "setup", summary: "include Perch's git or ssh file from your own config, once, with consent",
        // Optional: `perch setup --undo` with no tool is `perch reset` (checked in validate).
        operands: [
            Operand(
                name: "TOOL", optional: true, completion: .values(["git", "ssh"]), needs: "a tool: git or ssh",
                knows: "sets up git or ssh", shownRequired: true)
        ])
    static let details: String =
        "TOOL is git or ssh. git: puts [include] path = Perch's git file in your global git\n"
        + "config after your own [user] and before your includeIf rules, so they still win in\n"
        + "their folders (run it again to put it back there after git appended a [user]).\n"
        + "ssh: adds an Include line for Perch's ssh file at the top of ~/.ssh/config. Shows\n"
        + "the change and asks first on a terminal; --yes gives consent without asking.\n"
        + "--undo removes it again; --undo with no TOOL is perch reset. Nothing else of your\n"
        + "config is changed."
    var files = FileOptions()
    /// `git` or `ssh`; nil with `--undo` for every one (`perch reset`).
    var tool: String?
    /// `--undo`: remove the include.
    @Option(SharedOption.undo) var undo = false
    /// `--yes`: consent given here.
    @Option(SharedOption.yes) var yes = false

    mutating func bind(operands: [String]) { tool = operands.first }

    func validate() throws(UsageError) {
        if tool == nil, !undo { throw UsageError(description: "'perch setup' needs a tool: git or ssh") }
    }

    func run(_ tool: CommandLineTool) -> Int32 { tool.with(assumeYes: yes).setup(self) }
}

extension CommandLineTool {
    // MARK: perch setup

    func setup(_ options: SetupCommand) -> Int32 {
        guard let tool = options.tool.map(IdentityTool.init(rawValue:)) else {
            return options.undo ? reset() : ExitStatus.usage
        }
        // Setting up is asked for by name, so it needs no config: the files are Perch's own.
        let switcher = switcher(nil)
        let what = IdentitySetup.describe(tool, undo: options.undo, switcher)
        guard consent("perch setup \(tool.rawValue)", would: what) else { return ExitStatus.unmet }
        if tool == .git, !options.undo, let config = try? ConfigLoader.load(paths) { refreshGitDirectoryRules(config) }
        switch IdentitySetup.run(tool, undo: options.undo, switcher) {
        case .changed(let message):
            if !options.undo { switcher.recordSetUp(tool) }
            console.print(shown(message.prefix(1).uppercased() + message.dropFirst()) + ".")
            return ExitStatus.ok
        case .unchanged(let message):
            console.print("Nothing to do: " + shown(message) + ".")
            return ExitStatus.ok
        case .failed(let message):
            console.error("perch setup \(tool.rawValue): \(message)")
            return ExitStatus.unmet
        }
    }
}
