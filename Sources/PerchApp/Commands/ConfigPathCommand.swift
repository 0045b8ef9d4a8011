import PerchStore

/// `perch config path`: where the config is.
struct ConfigPathCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "config path", summary: "print the path of the config file", recoversInterruptedSwitch: false)
    var files = FileOptions()
    func run(_ tool: CommandLineTool) -> Int32 {
        tool.console.print(tool.paths.config)
        return ExitStatus.ok
    }
}
