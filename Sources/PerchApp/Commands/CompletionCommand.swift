/// `perch completion SHELL`: the completion script for bash, zsh or fish (``Completion``).
struct CompletionCommand: PerchCommand {
    static let configuration = CommandConfiguration(
        name: "completion", summary: "print the completion script for bash, zsh or fish", operands: [.shell], touchesFiles: false,
        recoversInterruptedSwitch: false)
    static let details: String =
        "Load it with, for bash:  source <(perch completion bash)\n"
        + "  zsh:  source <(perch completion zsh)    fish:  perch completion fish | source\n"
        + "Completes commands, options, and the account ids and names of the config in use."
    /// The shell given; checked against ``CompletionShell`` by the parser.
    var shell: CompletionShell?
    mutating func bind(operands: [String]) { shell = operands.first.flatMap(CompletionShell.init(rawValue:)) }
    func run(_ tool: CommandLineTool) -> Int32 { tool.completion(shell ?? .bash) }
}

extension CommandLineTool {
    /// `perch completion bash|zsh|fish`.
    func completion(_ shell: CompletionShell) -> Int32 {
        console.write(Completion.script(for: shell))
        return ExitStatus.ok
    }
}
