/// Slow work a model asks the event loop to do (a file written, a program run, the tools asked):
/// a type of its own, declared beside the model that asks for it, with its own ``Outcome``. The
/// model asks with ``Effect/perform(_:)``; whatever performs it (the event loop's worker, or the
/// loop itself for work on the terminal) finds how through the job's own conformance in the app
/// layer, never through a list of every job, and hands each outcome back to the model that asked
/// (``AppEvent/outcome(_:for:)``, ``ScreenModel/take(_:_:)``).
///
/// Unlike PerchKit's `Work`, which performs itself, a job only says what to do: the pure core
/// holds no file, process or store, so its performance lives in the app layer (`WorkerJob`,
/// `TerminalJob` in PerchApp).
public protocol Job: Hashable, Sendable {
    /// How it went, as the asker takes it; a job that reports nothing says `Never`.
    associatedtype Outcome: Hashable & Sendable = Never
}

/// A ``Job`` with its type erased, as an ``Effect`` carries it: equal when the jobs are of the
/// same type and equal.
public struct AnyJob: Hashable, Sendable {
    /// The job.
    public let base: any Job

    /// `base`, erased.
    public init(_ base: some Job) { self.base = base }

    /// The job when it is a `J`, else nil.
    public func `as`<J: Job>(_ type: J.Type) -> J? { base as? J }

    public static func == (lhs: AnyJob, rhs: AnyJob) -> Bool { AnyHashable(lhs.base) == AnyHashable(rhs.base) }
    public func hash(into hasher: inout Hasher) { AnyHashable(base).hash(into: &hasher) }
}

/// How a job went (its ``Job/Outcome``), or another event for the root (the state file changed,
/// the wall clock read), with its type erased, as ``AppEvent/outcome(_:for:)`` carries it to the
/// model it is for. The model takes the types it knows with ``as(_:)``; nothing lists them all.
public struct AnyOutcome: Hashable, Sendable {
    /// The outcome.
    public let base: any Hashable & Sendable

    /// `base`, erased.
    public init(_ base: some Hashable & Sendable) { self.base = base }

    /// The outcome when it is a `T`, else nil.
    public func `as`<T>(_ type: T.Type) -> T? { base as? T }

    public static func == (lhs: AnyOutcome, rhs: AnyOutcome) -> Bool { AnyHashable(lhs.base) == AnyHashable(rhs.base) }
    public func hash(into hasher: inout Hasher) { AnyHashable(base).hash(into: &hasher) }
}

/// An outcome that wrote the config (an account added or removed, the config edited): the root
/// adopts the accounts it left even when the layer that asked was dismissed before it came back.
public protocol WritesConfig {
    /// The config's accounts and the file now in use, when it was written; nil when it was not.
    var writtenAccounts: (accounts: [Account], configPath: String)? { get }
}
