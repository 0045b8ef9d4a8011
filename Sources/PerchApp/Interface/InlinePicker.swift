import Glibc
import PerchDomain
import PerchInterface
import PerchKit
import PerchKitLoop
import PerchKitTerminal

/// The account sheet drawn inline, below the cursor's line, as `fzf --height` draws: no
/// alternate screen and no ncurses. Its root model is ``AccountPicker`` (the interface's own
/// sheet, with the picker's filter, rules and block) on PerchKit's ``TerminalLoop`` (the
/// decoder, whose answers are replies and never keys; the gesture recogniser; the signal pipe, on
/// which every terminating signal ends it with status 128 + the signal and the rows cleared;
/// ``TerminalQueries``, so that the first frame is drawn before any answer and answers still
/// expected are read before the terminal is given back), with a ``LineModeBackend`` that takes
/// the rows below the line and clears them on every way out (fatal signals through
/// ``EmergencyRestore``).
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
        let picker = AccountPicker(accounts: accounts, saved: saved, terminal: size, height: requestedHeight, verb: verb)
        guard picker.mode.fits else {
            throw Failure(description: "the terminal is too small for the picker (\(size.width)×\(size.height))")
        }
        SignalPipe.install()
        defer { SignalPipe.uninstall() }
        guard terminal.enter() else {
            throw Failure(description: "cannot set the terminal to raw mode: \(String(cString: strerror(errno)))")
        }
        // No store: the picker records nothing; `perch switch` switches after it, as with an id.
        let (status, ended) = Self.run(picker, on: terminal, gestures: .perch)
        switch ended.outcome {
        case .picked(let id)?:
            guard let account = accounts.first(where: { $0.id == id }) else { return .cancelled }
            return .picked(account)
        case .cancelled?: return .cancelled
        case .interrupted?: return .signalled(SIGINT)
        case nil: return status > 128 ? .signalled(status - 128) : .cancelled
        }
    }

    /// Runs `picker` on `backend` until it ends (``AccountPicker/outcome``), a terminating signal
    /// or the end of input; shuts the backend down. The block's rows are taken before the first
    /// frame, and the cursor's position is asked after it. Returns the exit status (0; 128 + the
    /// signal; 128 + SIGHUP when the terminal went away) and the picker as it ended.
    /// - Parameter poller: the clock and the wait (``VirtualPoller`` in tests).
    static func run(
        _ picker: AccountPicker, on backend: TerminalBackend, gestures: GestureRecognizer.Configuration, poller: Poller = SystemPoller()
    ) -> (status: Int32, picker: AccountPicker) {
        let loop = TerminalLoop(root: picker, backend: backend, gestures: gestures, poller: poller)
        loop.perform = { [unowned loop] effect in
            switch effect.work {
            case .takeRows(let count, let clearingLine): backend.takeRows(count, clearingLine: clearingLine)
            case .setMouse(let on): backend.setMouse(on)
            case .ask(let query): loop.ask([query])
            case .quit: loop.quit()
            case .suspend: loop.suspend()
            case .job, .copyToClipboard, .pushKeyboardFlags, .say, .asked: break  // never asked by the picker
            }
        }
        for effect in picker.startupEffects { loop.perform(effect) }
        let status = loop.run(firstFrame: { [unowned loop] in loop.ask(loop.root.startupQueries) })
        backend.shutdown()
        return (status, loop.root)
    }
}
