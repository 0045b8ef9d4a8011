import PerchIdentities
import PerchStore

/// `perch shell-init SHELL`: the shell functions that keep a shell's variables in step.
struct ShellInitCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "shell-init", summary: "print a shell function that keeps this shell's variables in step", operands: [.shell],
        recoversInterruptedSwitch: false)
    static let details: String =
        "SHELL is bash, zsh or fish.\n"
        + "Add to ~/.bashrc:  eval \"$(perch shell-init bash)\"\n"
        + "        ~/.zshrc:   eval \"$(perch shell-init zsh)\"\n"
        + "        config.fish: perch shell-init fish | source\n"
        + "Then, in that shell: perch use ID makes it that account's (perch use --global\n"
        + "follows the global one again); a switch made anywhere reaches it at the next prompt;\n"
        + "and in a folder of an account's \"directories\" it is that account's (one line says\n"
        + "so; PERCH_DIRECTORY_NOTICE=0 turns it off). When nothing changed, the prompt hook\n"
        + "compares file times and starts no process. PERCH_SCOPE is pinned, directory or\n"
        + "exec when the shell has its own account, unset when it follows the global one."
    var files = FileOptions()
    /// The shell as given (bash, zsh or fish: checked by the parser).
    var shell: String?

    mutating func bind(operands: [String]) { shell = operands.first }
    func run(_ tool: CommandLineTool) -> Int32 { tool.shellInit(self) }
}

extension CommandLineTool {
    func shellInit(_ options: ShellInitCommand) -> Int32 {
        guard let shell = options.shell.flatMap(ShellKind.init(rawValue:)) else { return ExitStatus.usage }
        let files = switcher(nil).files
        // The files given on this command line are the ones the functions use too.
        let quote = shell == .fish ? ShellExports.fishQuoted : ShellExports.posixQuoted
        let program =
            "perch" + (options.files.config.map { _ in " --config " + quote(paths.config) } ?? "")
            + (options.files.state.map { _ in " --state " + quote(paths.state) } ?? "")
        console.write(ShellExports.initScript(shell, program: program, state: paths.state, config: paths.config, markers: files.shells))
        return ExitStatus.ok
    }
}
