import CSystem
import Glibc
import PerchIdentities
import Synchronization

/// One run of a Catalog command (`catalog.command` or `catalog.preview`): `/bin/sh -c SCRIPT`
/// in a new session without a controlling terminal (so it can never write to the screen),
/// stdin from `/dev/null`, stdout kept (up to ``outputLimit`` bytes) and the end of stderr kept,
/// killed with its process group (SIGKILL) past the timeout. Blocks the calling thread (the
/// effect worker's), waiting with one poll(2) over the pipes and a pidfd: no polling.
public enum CapturedCommand {
    /// How it ended, what it printed, and the end of its stderr.
    struct Output {
        var result: HookResult
        var stdout: [UInt8]
        /// The last lines of stderr (at most ``stderrTailBytes`` bytes), as written.
        var stderrTail: String

        /// Why it failed, with the end of its stderr on the lines after; nil when it succeeded.
        var failure: String? {
            guard let phrase = result.failure else { return nil }
            let tail = stderrTail.split(whereSeparator: \.isNewline).suffix(CapturedCommand.stderrTailLines).joined(separator: "\n")
            return tail.isEmpty ? phrase : phrase + "\n" + tail
        }
    }

    /// Most stdout bytes kept: more is read and dropped (a runaway source cannot fill memory).
    static let outputLimit = 64 << 20
    /// Most stderr bytes kept for the failure (the end is kept).
    static let stderrTailBytes = 4096
    /// Most stderr lines shown with a failure.
    static let stderrTailLines = 12
    /// How long a Catalog command may run, in milliseconds.
    public static let timeoutMilliseconds: Int64 = 10_000

    /// The process groups of the commands one worker runs now, so that quitting ends them.
    final class Running: Sendable {
        private let groups = Mutex<(running: Set<pid_t>, stopped: Bool)>(([], false))

        /// Lists the process group `pid` as running; after ``killAll()``, kills it at once.
        func add(_ pid: pid_t) {
            // Bug: a source spawned just as Perch quit was listed after killAll had run, and
            // outlived Perch until its own timeout.
            let stopped = groups.withLock { groups in
                if !groups.stopped { groups.running.insert(pid) }
                return groups.stopped
            }
            if stopped { kill(-pid, SIGKILL) }
        }

        func remove(_ pid: pid_t) { groups.withLock { _ = $0.running.remove(pid) } }

        /// Kills (SIGKILL) every command still running and what it started, and any listed
        /// later: Perch is quitting, and a hanging source must not outlive it.
        func killAll() {
            groups.withLock { groups in
                groups.stopped = true
                for group in groups.running { kill(-group, SIGKILL) }
            }
        }
    }

    /// Runs `script` with `variables` added to Perch's environment.
    /// - Parameter timeout: how long it may run, in milliseconds, before its process group is killed.
    /// - Parameter running: where the command is listed while it runs.
    static func run(_ script: String, variables: [(String, String)], timeout: Int64, running: Running? = nil) -> Output {
        let spawned: ShellSpawn.Spawned
        do {
            spawned = try ShellSpawn.spawn(script, environment: ShellSpawn.environment(adding: variables), mode: .captured)
        } catch {
            return Output(result: .notStarted(error.description), stdout: [], stderrTail: "")
        }
        let pid = spawned.pid
        running?.add(pid)
        defer { running?.remove(pid) }
        let collected = ProcessSpawn.collect(spawned, timeout: timeout, stdoutLimit: outputLimit, stderrTail: stderrTailBytes)
        let stdout = collected.stdout
        let stderr = collected.stderr
        let text = String(decoding: stderr, as: UTF8.self)
        return Output(result: HookResult(collected.ending, timeout: timeout, lastLine: nil), stdout: stdout, stderrTail: text)
    }
}
