extension CommandLineTool {
    /// `perch completion bash|zsh|fish`.
    func completion() -> Int32 {
        console.write(Completion.script(for: options.shell ?? .bash))
        return ExitStatus.ok
    }
}
