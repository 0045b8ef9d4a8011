import Glibc
import PerchIdentities

/// A program run on Perch's terminal and waited for: the editor (`perch config edit` and the
/// interface's `Edit config…`) and the Catalog's open command (`catalog.open`, with the
/// interface suspended). `/bin/sh -c SCRIPT` in Perch's process group with Perch's stdin,
/// stdout and stderr, waited for on the calling thread (the terminal is the program's
/// meanwhile). The one interactive-child sequence of Perch.
enum TerminalCommand {
    /// How the program ended.
    enum Ended: Hashable, Sendable {
        /// It ran and ended so.
        case ended(ChildEnd)
        /// `/bin/sh` could not be started (the reason from posix_spawn(3)).
        case notStarted(SpawnError)
        /// It could not be waited for (waitpid(2)'s reason).
        case notWaited(SpawnError)

        /// Why it failed (`exited with status 1`), or nil when it exited with status 0.
        var failure: String? {
            switch self {
            case .ended(.exited(0)): nil
            case .ended(.exited(let code)): "exited with status \(code)"
            case .ended(.signalled(let signal)): "was ended by signal \(signal)"
            case .notStarted(let error): "could not start /bin/sh: \(error)"
            case .notWaited(let error): "could not be waited for: \(error)"
            }
        }

        /// The status a shell gives it (128 plus the signal for one ended by a signal), 127 when
        /// it could not be started or waited for.
        var shellStatus: Int32 {
            if case .ended(let end) = self { end.shellStatus } else { 127 }
        }
    }

    /// Runs `script` (with `arguments` as `$1`…) with `variables` added to Perch's environment
    /// and waits for it. Ctrl-C and Ctrl-\ while it runs are the program's business, as with
    /// git's editor: Perch ignores SIGINT and SIGQUIT until it ends.
    static func run(_ script: String, arguments: [String] = [], variables: [(String, String)]) -> Ended {
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
            return .notStarted(error)
        }
        do {
            guard let end = try ChildEnd.wait(for: spawned.pid) else { return .notWaited(SpawnError(code: ECHILD)) }
            return .ended(end)
        } catch {
            return .notWaited(error)
        }
    }

    /// Runs `editor` (``ConfigEditPolicy/editor(visual:editor:)``) on the file at `path` and
    /// waits for it (``run(_:arguments:variables:)``). As git does, the editor setting is shell
    /// text (it may hold options) and the path an argument.
    static func edit(_ path: String, with editor: String) -> Ended {
        run(editor + " \"$1\"", arguments: [path], variables: [])
    }
}
