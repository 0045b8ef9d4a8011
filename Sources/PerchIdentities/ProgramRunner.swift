import CSystem
import Glibc

/// How a program started by ``ProgramRunner`` ended.
public enum ProgramResult: Hashable, Sendable {
    /// It ran to its end: the exit status (128 + N when ended by signal N) and its output.
    case exited(status: Int32, stdout: String, stderr: String)
    /// It was not on `PATH`.
    case notFound(program: String)
    /// It ran longer than the timeout (in milliseconds) and was killed with its process group.
    case timedOut(milliseconds: Int64)
    /// It could not be started (the system's reason).
    case notStarted(String)

    /// Standard output when it exited with status 0, else nil.
    public var output: String? {
        if case .exited(0, let stdout, _) = self { return stdout }
        return nil
    }

    /// Why it did not succeed, as a phrase (`exited with status 1: error: no context "x"`), or
    /// nil when it exited with status 0.
    public var failure: String? {
        switch self {
        case .exited(0, _, _): return nil
        case .exited(let status, let stdout, let stderr):
            let line = ProgramResult.lastLine(stderr) ?? ProgramResult.lastLine(stdout)
            return "exited with status \(status)" + (line.map { ": " + $0 } ?? "")
        case .notFound(let program): return "\(program) not found"
        case .timedOut(let milliseconds):
            return "timed out after " + (milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms") + " and was killed"
        case .notStarted(let reason): return "could not be started: \(reason)"
        }
    }

    /// The last non-blank line of `text`, at most 200 characters, its control characters shown
    /// as `?` (a program's output goes into messages printed on a terminal).
    static func lastLine(_ text: String) -> String? {
        text.split(whereSeparator: \.isNewline).last { !$0.allSatisfy(\.isWhitespace) }.map { line in
            String(line.prefix(200).map { $0.isASCII && ($0.asciiValue! < 0x20 || $0.asciiValue! == 0x7F) ? "?" : $0 })
        }
    }
}

/// Runs a program found on the environment's `PATH` with arguments (no shell), stdin from
/// `/dev/null`, stdout and stderr captured (at most 1 MiB each), in a process group of its own
/// that is killed (SIGKILL) at the timeout, through ``ProcessSpawn``. Blocks the calling thread: the interface calls it on
/// its effect worker, never on the event loop's thread.
public enum ProgramRunner {
    /// The process's working folder (getcwd(3)), or `/` when it cannot be read.
    static func currentFolder() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// How long one tool's program may run by default, in milliseconds.
    public static let defaultTimeoutMilliseconds: Int64 = 10_000
    public static let outputLimit = 1 << 20

    /// Runs `program` with `arguments` in `environment`; see ``ProgramRunner``.
    /// - Parameters:
    ///   - timeout: in milliseconds.
    ///   - folder: the working directory of the program (nil: Perch's own).
    ///   - keeping: descriptors the program inherits (``ProcessSpawn/spawn(_:_:environment:attachment:folder:keeping:input:)``).
    ///   - input: what the program reads on stdin (at most 60,000 bytes); nil: `/dev/null`.
    ///   - detached: in a new session with no controlling terminal (setsid): a credential helper,
    ///     askpass or ssh that would prompt on `/dev/tty` cannot, and fails at once.
    ///   - stdoutLimit: the most bytes of standard output kept (1 MiB by default).
    public static func run(
        _ program: String, _ arguments: [String], in environment: IdentityEnvironment,
        timeout: Int64 = defaultTimeoutMilliseconds, folder: String? = nil, keeping: [Int32] = [], input: [UInt8]? = nil,
        detached: Bool = false, stdoutLimit: Int = outputLimit
    ) -> ProgramResult {
        guard let path = environment.which(program) else { return .notFound(program: program) }
        // Bug (trust issue): a FIFO reached through a repository's config ([include] path = fifo,
        // or the config itself) froze the prompt for 20 s and perch status for 30 s.
        if program == "git", let blocked = RepositoryConfig.blockingFile(in: folder ?? currentFolder(), environment: environment) {
            return .notStarted("git was not asked in this repository: \(blocked)")
        }
        let spawned: ProcessSpawn.Spawned
        do {
            spawned = try ProcessSpawn.spawn(
                path, [program] + arguments, environment: environment.entries, attachment: detached ? .capturedDetached : .captured,
                folder: folder, keeping: keeping,
                input: input)
        } catch {
            return .notStarted(error.description)
        }
        let collected = ProcessSpawn.collect(spawned, timeout: timeout, stdoutLimit: stdoutLimit, stderrTail: outputLimit)
        switch collected.ending {
        case .timedOut: return .timedOut(milliseconds: timeout)
        case .signalled(let signal):
            return .exited(
                status: 128 + signal, stdout: String(decoding: collected.stdout, as: UTF8.self),
                stderr: String(decoding: collected.stderr, as: UTF8.self))
        case .exited(let code):
            return .exited(
                status: code, stdout: String(decoding: collected.stdout, as: UTF8.self),
                stderr: String(decoding: collected.stderr, as: UTF8.self))
        }
    }
}
