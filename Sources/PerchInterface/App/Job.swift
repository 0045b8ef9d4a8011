import PerchDomain

// Slow work is a job of the asking model's own type (PerchKit's `Job`, with its `Outcome`):
// a component asks with `Reaction.perform(_:then:)`, and the app layer says how each is done
// (`WorkerJob`, `TerminalJob` in PerchApp), handing each outcome back to the component that asked
// as the message it named.

/// An outcome that wrote the config (an account added or removed, the config edited): the root
/// adopts the accounts it left even when the layer that asked was dismissed before it came back.
public protocol WritesConfig {
    /// The config's accounts and the file now in use, when it was written; nil when it was not.
    var writtenAccounts: (accounts: [Account], configPath: String)? { get }
}
