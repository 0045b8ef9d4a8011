import PerchDomain
import PerchIdentities
import PerchInterface
import PerchKit
import PerchStore

/// `perch doctor`: what this terminal gives Perch, and a key-repeat test (``Doctor``).
struct DoctorCommand: TakesHoldSettings {
    static let configuration = CommandConfiguration(
        name: "doctor", summary: "what this terminal gives Perch, and a key-repeat test")
    static let details: String =
        "Prints, one per line with how each was found: TERM and terminfo, colours, SGR mouse,\n"
        + "bracketed paste, the kitty keyboard protocol and the key-hold mode, OSC 52, the\n"
        + "locale's UTF-8, and the config and state paths with their permissions. On a\n"
        + "terminal it then asks you to hold the 1 key for 2 seconds and reports the repeat\n"
        + "delay and rate, and whether the hold would be recognised with --long-press-ms."

    var files = FileOptions()
    /// `--long-press-ms N`, in milliseconds: the hold the key-repeat test judges by.
    @Option(SharedOption.longPress) var longPressMilliseconds = SharedOption.defaultLongPress
    /// `--key-hold MODE`.
    @Option(SharedOption.keyHold) var keyHold: KeyHoldPreference = .auto
    /// The settings given as flags, which override the saved ones.
    var flaggedSettings: Set<SettingKey> { $longPressMilliseconds.isGiven ? [.longPress] : [] }

    func run(_ tool: CommandLineTool) -> Int32 {
        var doctor = Doctor(options: self, console: tool.console, paths: tool.paths)
        doctor.toolLines = Self.toolLines(tool)
        return doctor.run()
    }

    /// A line for each tool the accounts name that this machine cannot switch as they need: gh's
    /// (missing, or before 2.40, which has no `gh auth switch`), asked of the gh on `PATH`. None
    /// for the samples, or when the config cannot be read (its own line says so).
    static func toolLines(_ tool: CommandLineTool) -> [(String, String)] {
        guard let config = try? ConfigLoader.load(tool.paths), !config.isSamples else { return [] }
        let ids = config.accounts.filter { $0.identities[.gh] != nil }.map(\.id)
        // Bug (everyday issue): a gh too old for several accounts (Debian's 2.23) was named only
        // by status, after a switch that could not work.
        let context = tool.switcher(config).context
        var lines = GitHubAdapter.doctorLine(accounts: ids, in: context).map { [("gh", $0)] } ?? []
        // A described tool (docs/tools.md) whose program is not installed: its whoami cannot be asked.
        for adapter in ToolAdapters.described {
            let naming = config.accounts.filter { $0.identities[adapter.tool] != nil }.map(\.id)
            guard !naming.isEmpty, let program = adapter.program, context.environment.which(program) == nil else { continue }
            let description = adapter.description
            lines.append(
                (
                    description.tool,
                    "\(program) not found on PATH (\(naming.joined(separator: ", ")) name \(description.title)); verify cannot ask it"
                ))
        }
        return lines
    }
}
