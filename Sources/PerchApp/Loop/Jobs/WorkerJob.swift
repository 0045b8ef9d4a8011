import PerchDomain
import PerchInterface
import PerchKit

/// How the event loop's worker performs a ``Job``: on which of its queues, and what it posts
/// back. Each job conforms beside the others of its kind in this folder; the worker finds the
/// conformance through the job (``EffectWorker/perform(_:accounts:)``), never through a list of
/// every job.
protocol WorkerJob: Job {
    /// Starts the job on one of `worker`'s queues, or does nothing when it cannot run here (no
    /// store, no config); `answer` posts each outcome, in order, to the model that asked.
    /// - Parameter accounts: the accounts as the interface has them (hooks and Catalog commands
    ///   are looked up there, and a new config without a file starts from them).
    func start(on worker: EffectWorker, accounts: [Account], answer: @escaping @Sendable (Outcome) -> Void)
}

/// How the event loop runs a ``Job`` on the terminal: the interface is suspended (modes off, the
/// main screen) while it runs, then the terminal is taken back and redrawn.
protocol TerminalJob: Job {
    /// Runs the job on the loop's thread and returns how it went.
    func run(in loop: PerchRunner) -> Outcome
}
