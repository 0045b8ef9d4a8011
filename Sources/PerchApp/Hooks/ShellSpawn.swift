import Glibc
import PerchIdentities

/// Starts `/bin/sh -c SCRIPT` children (hooks, Catalog sources and the config editor) through
/// the one spawner, ``ProcessSpawn``.
enum ShellSpawn {
    /// How the child is attached to Perch's terminal.
    enum Mode: Equatable {
        /// In Perch's process group with Perch's stdin, stdout and stderr (an editor).
        case interactive
        /// stdin from `/dev/null`, stdout and stderr Perch's own, in a process group of its own
        /// (a hook run by the command line), the terminal's foreground group when `terminal` is
        /// a descriptor of it.
        case passThrough(terminal: Int32?)
        /// stdin from `/dev/null`, stdout and stderr on pipes, in a new session without a
        /// controlling terminal (setsid), so it cannot write to the terminal at all (a hook or a
        /// Catalog source run by the interface).
        case captured
    }

    typealias Spawned = ProcessSpawn.Spawned

    /// Perch's environment with `added` set (replacing variables of the same names), as `NAME=value`.
    static func environment(adding added: [(String, String)]) -> [String] {
        let names = Set(added.map { $0.0 })
        var result: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if !names.contains(name) { result.append(text) }
            entry += 1
        }
        return result + added.map { "\($0.0)=\($0.1)" }
    }

    /// Spawns `/bin/sh -c script sh arguments…` with `environment` (`NAME=value` entries).
    /// - Throws: ``SpawnError`` when the pipes or the process cannot be created.
    static func spawn(_ script: String, arguments: [String] = [], environment: [String], mode: Mode) throws(SpawnError) -> Spawned {
        let attachment: ProcessSpawn.Attachment
        switch mode {
        case .interactive: attachment = .interactive
        case .passThrough(let terminal): attachment = .passThrough(terminal: terminal)
        case .captured: attachment = .capturedDetached
        }
        return try ProcessSpawn.spawn("/bin/sh", ["/bin/sh", "-c", script, "sh"] + arguments, environment: environment, attachment: attachment)
    }
}
