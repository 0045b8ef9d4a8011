import Glibc
import PerchCore
import PerchKitTerminal

/// The account sheet drawn inline, below the cursor's line, as `fzf --height` draws: no
/// alternate screen and no ncurses. It is the interface's own stack run in the picker's mode:
/// the root model in ``InlinePickerMode`` (its sheet, filter, rules and block), the
/// ``EventLoop`` (the decoder, whose answers are replies and never keys; the gesture recogniser;
/// the signal pipe, on which every terminating signal ends it with status 128 + the signal and
/// the rows cleared; ``TerminalQueries``, so that the first frame is drawn before any answer and
/// answers still expected are read before the terminal is given back), and a
/// ``LineModeBackend`` that takes the rows below the line and clears them on every way out
/// (fatal signals through ``EmergencyRestore``).
///
/// Keys: printable keys type into the filter at once, ↑ ↓ PgUp PgDn Home End move, `Enter`
/// picks, `Esc` and `Ctrl-C` cancel. The mouse (SGR reports, xterm ctlseqs modes 1000 and
/// 1006) clicks rows and scrolls with the wheel once the terminal has answered the cursor
/// position report (DSR 6) that places the rows on the screen; it is asked in passing.
final class InlinePicker {
    /// How the picker ended.
    enum Outcome: Equatable {
        case picked(Account)
        case cancelled
        /// A terminating signal ended it (the rows cleared, the terminal restored).
        case signalled(Int32)
    }

    /// Why the picker could not run.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let accounts: [Account]
    private let saved: SavedState
    private let terminal: LineModeBackend
    private let requestedHeight: Int?
    /// What `Enter` does, for the footer: `switch` or `pick`.
    private let verb: String

    /// - Parameters:
    ///   - input: the terminal to read keys from (standard input).
    ///   - output: the terminal to draw on (standard output, or standard error for `perch pick`).
    ///   - height: `--height`, the most rows to take; nil for the default cap.
    ///   - verb: what `Enter` does, shown in the footer (`switch`, `pick`).
    init(accounts: [Account], saved: SavedState, input: Int32, output: Int32, height: Int?, colors: Bool, verb: String) {
        self.accounts = accounts
        self.saved = saved
        self.verb = verb
        terminal = LineModeBackend(input: input, output: output, colors: colors)
        requestedHeight = height
    }

    /// Runs until an account is picked, the picker is cancelled or a signal ends it; the
    /// terminal is restored and the rows cleared before it returns.
    /// - Throws: ``Failure`` when the terminal cannot be used (too small, no size, no raw mode).
    func run() throws(Failure) -> Outcome {
        let size = terminal.size
        guard size.width > 0 else { throw Failure(description: "cannot read the terminal's size") }
        let state = AppState(picking: accounts, saved: saved, terminal: size, height: requestedHeight, verb: verb)
        guard let mode = state.inlinePicker, mode.fits else {
            throw Failure(description: "the terminal is too small for the picker (\(size.width)×\(size.height))")
        }
        SignalPipe.install()
        defer { SignalPipe.uninstall() }
        guard terminal.enter() else {
            throw Failure(description: "cannot set the terminal to raw mode: \(String(cString: strerror(errno)))")
        }
        // No store: the picker records nothing; `perch switch` switches after it, as with an id.
        let loop = EventLoop(state: state, backend: terminal, store: nil, gestures: .perch)
        let status = loop.run()
        switch loop.state.inlinePicker?.outcome {
        case .picked(let id)?:
            guard let account = accounts.first(where: { $0.id == id }) else { return .cancelled }
            return .picked(account)
        case .cancelled?: return .cancelled
        case nil: return status > 128 ? .signalled(status - 128) : .cancelled
        }
    }
}
