import PerchCore

/// `perch doctor`: what this terminal gives Perch, and a key-repeat test (``Doctor``).
struct DoctorCommand: TakesHoldSettings {
    static let configuration = CommandConfiguration(
        name: "doctor", summary: "what this terminal gives Perch, and a key-repeat test")
    static var details: String { CommandDetails.doctor }

    static let options: [CommandOption<Self>] = fileOptions + holdOptions

    var files = FileOptions()
    /// `--long-press-ms N`, in milliseconds: the hold the key-repeat test judges by.
    var longPressMilliseconds = SharedOption.defaultLongPress
    /// `--key-hold MODE`.
    var keyHold: KeyHoldPreference = .auto
    /// The settings given as flags, which override the saved ones.
    var flaggedSettings: Set<SettingKey> = []

    func run(_ tool: CommandLineTool) -> Int32 { Doctor(options: self, console: tool.console, paths: tool.paths).run() }
}
