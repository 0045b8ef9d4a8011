/// `perch man-page`: the manual page in man(7) format (``ManPage``).
struct ManPageCommand: PerchCommand {
    static let configuration = CommandConfiguration(
        name: "man-page", summary: "print the manual page (roff), as installed as perch.1", touchesFiles: false,
        recoversInterruptedSwitch: false)
    static let details: String =
        "Prints perch(1) in man(7) format:  perch man-page | man -l -"
    func run(_ tool: CommandLineTool) -> Int32 {
        tool.console.write(ManPage.text)
        return ExitStatus.ok
    }
}
