/// Work a component asks for that only says what to do (a file to write, a program to run), for
/// an app whose pure core holds no file, process or store: unlike ``Work``, which performs
/// itself, a job is done by the app layer (a `JobPerformer` the runner is given), which finds
/// how through the job's own type, never through a list of every job. Each component declares
/// its jobs beside it, each with its own ``Outcome``; ``Reaction/perform(_:then:)-(J,_)`` asks
/// for one and maps its outcomes to the component's message.
public protocol Job: Hashable, Sendable {
    /// How it went, as the asker takes it; a job that reports nothing says `Never`. A job may
    /// report more than once (progress, then the end).
    associatedtype Outcome: Hashable & Sendable = Never
}

/// A ``Job`` with its type erased: equal when the jobs are of the same type and equal.
public struct AnyJob: Hashable, Sendable {
    /// The job.
    public let base: any Job

    /// `base`, erased.
    public init(_ base: some Job) { self.base = base }

    /// The job when it is a `J`, else nil.
    public func `as`<J: Job>(_ type: J.Type) -> J? { base as? J }

    /// Equal when both jobs are of the same type and equal as that type.
    public static func == (lhs: AnyJob, rhs: AnyJob) -> Bool { AnyHashable(lhs.base) == AnyHashable(rhs.base) }
    /// Hashes the job as `AnyHashable` does, its type included.
    public func hash(into hasher: inout Hasher) { AnyHashable(base).hash(into: &hasher) }
}

/// How a job went (its ``Job/Outcome``), or another event for a model, with its type erased; the
/// model takes the types it knows with ``as(_:)``, and nothing lists them all.
public struct AnyOutcome: Hashable, Sendable {
    /// The outcome.
    public let base: any Hashable & Sendable

    /// `base`, erased.
    public init(_ base: some Hashable & Sendable) { self.base = base }

    /// The outcome when it is a `T`, else nil.
    public func `as`<T>(_ type: T.Type) -> T? { base as? T }

    /// Equal when both outcomes are of the same type and equal as that type.
    public static func == (lhs: AnyOutcome, rhs: AnyOutcome) -> Bool { AnyHashable(lhs.base) == AnyHashable(rhs.base) }
    /// Hashes the outcome as `AnyHashable` does, its type included.
    public func hash(into hasher: inout Hasher) { AnyHashable(base).hash(into: &hasher) }
}
