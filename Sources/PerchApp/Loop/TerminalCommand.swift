import Glibc

/// A command run on Perch's terminal while the interface is suspended (`catalog.open`):
/// `/bin/sh -c SCRIPT` in Perch's process group with Perch's stdin, stdout and stderr, waited
/// for on the event loop's thread (the terminal is the command's meanwhile).
enum TerminalCommand {
    /// Runs `script` with `variables` added to Perch's environment and waits for it; returns
    /// why it failed (`exited with status 1`), or nil. Ctrl-C and Ctrl-\ while it runs are the
    /// command's business: Perch ignores SIGINT and SIGQUIT until it ends.
    static func run(_ script: String, arguments: [String] = [], variables: [(String, String)]) -> String? {
        let previousInterrupt = signal(SIGINT, SIG_IGN)
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, previousInterrupt)
            signal(SIGQUIT, previousQuit)
        }
        let spawned: ShellSpawn.Spawned
        do {
            spawned = try ShellSpawn.spawn(
                script, arguments: arguments, environment: ShellSpawn.environment(adding: variables), mode: .interactive)
        } catch {
            return "could not start /bin/sh: \(error)"
        }
        var status: Int32 = 0
        while waitpid(spawned.pid, &status, 0) < 0 {
            if errno != EINTR { return "could not be waited for: \(String(cString: strerror(errno)))" }
        }
        if status & 0x7F != 0 { return "was ended by signal \(status & 0x7F)" }
        let code = (status >> 8) & 0xFF
        return code == 0 ? nil : "exited with status \(code)"
    }
}
