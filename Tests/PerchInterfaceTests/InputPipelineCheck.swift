// Test code, not part of Perch: compiled into the unit tests and, with the core's sources, into
// the libFuzzer target (`make fuzz`), where it is one module with them.
#if canImport(PerchInterface)
    @testable import PerchDomain
    @testable import PerchInterface
    @testable import PerchKit
#endif

/// Drives bytes through ``InputDecoder``, ``GestureRecognizer`` and ``TabApp/update(_:)`` as the
/// event loop does, and checks the properties that must hold for any byte stream whatsoever.
/// Shared by the fuzz test and the libFuzzer target (`make fuzz`), so both check the same things.
///
/// Checked after every chunk: every byte fed is either taken out of the input or still held for
/// an incomplete sequence; at most ``InputDecoder/maximumSequenceLength`` bytes are held outside
/// a paste and ``InputDecoder/maximumPasteBytes`` inside one; mouse events name cells at or past
/// (0, 0); one input event gives at most one app event; a long-press never fires before its
/// deadline; the state keeps at most ``maximumDepth`` presented layers and valid cursors; and, every
/// `renderEvery` chunks, every rendered row is exactly the screen's width. ``finish()`` checks
/// that nothing is left stuck: after the input ends, Escape, a click on the Catalog tab and a key
/// act as they would on a fresh start.
public struct InputPipelineCheck {
    /// A property that did not hold.
    public struct Violation: Error, CustomStringConvertible {
        public var description: String
    }

    public private(set) var decoder = InputDecoder()
    public private(set) var recognizer: GestureRecognizer
    public private(set) var state: TabApp
    /// Every event the decoder delivered, in order.
    public private(set) var events: [InputEvent] = []
    /// Whether ``events`` is kept (it grows with the input).
    public var recordsEvents: Bool
    /// Render and check the screen after every this many chunks (0: never).
    public var renderEvery: Int
    private var fedByteCount = 0
    private var chunkCount = 0
    private var lastPress: Int64?

    /// A check on a state with the sample accounts at `size` (columns × rows).
    public init(size: Size = Size(width: 80, height: 24), recordsEvents: Bool = false, renderEvery: Int = 0) {
        state = TabApp.perch(accounts: Account.samples, size: size)
        recognizer = GestureRecognizer(configuration: .perch)
        self.recordsEvents = recordsEvents
        self.renderEvery = renderEvery
    }

    /// Feeds one chunk of input that arrived at `time` (ms); with `thenQuiet`, the input then
    /// stays quiet past the decoder's timeout, so what it holds is flushed as the event loop would.
    /// - Throws: ``Violation`` naming the first property that did not hold.
    public mutating func feed(_ bytes: [UInt8], at time: Int64, thenQuiet: Bool = false) throws(Violation) {
        chunkCount += 1
        fedByteCount += bytes.count
        try deliver(decoder.feed(bytes), at: time)
        try checkDecoder()
        if thenQuiet {
            let quiet = time + (decoder.pendingTimeoutMilliseconds ?? 0)
            try expire(at: quiet)
            try deliver(decoder.flush(), at: quiet)
            try checkDecoder()
        }
        if renderEvery > 0, chunkCount % renderEvery == 0 { try checkRender() }
    }

    /// Applies a resize, as SIGWINCH does.
    public mutating func resize(to size: Size) {
        _ = state.update(.resize(size))
    }

    /// Ends the input at `time` (ms): flushes the decoder and checks that every byte was taken
    /// and that Escape, a click on the Catalog tab and a key still act.
    /// - Throws: ``Violation`` naming the first property that did not hold.
    public mutating func finish(at time: Int64) throws(Violation) {
        try deliver(decoder.flush(), at: time)
        try checkDecoder()
        guard decoder.unreadByteCount == 0, decoder.pasteByteCount == nil, decoder.consumedByteCount == fedByteCount else {
            throw Violation(description: "after the final flush \(decoder.consumedByteCount) of \(fedByteCount) bytes were taken")
        }
        resize(to: Size(width: 80, height: 24))
        let later = time + 10_000
        let column = Layout(size: state.size).tabColumns(.catalog).lowerBound + 1
        let click = "\u{1B}[<0;\(column + 1);24M\u{1B}[<0;\(column + 1);24m"
        let before = events.count
        // Esc dismisses only the top layer (or clears a sheet's filter first): one per possible layer.
        for step in 0..<Self.escapesToClose {
            try feed(Array(("\u{1B}" as String).utf8), at: later + Int64(step) * 100, thenQuiet: true)
        }
        try feed(Array(click.utf8), at: later + 1_000)
        try feed(Array("x".utf8), at: later + 1_100)
        guard state.presented.isEmpty, state.selectedTab == .catalog else {
            throw Violation(
                description: "Escape and a click on the Catalog tab did not act after the input: \(state.presented), \(state.selectedTab)")
        }
        if recordsEvents, events.count - before != Self.escapesToClose + 3 {
            throw Violation(description: "the closing input decoded to \(events[before...])")
        }
    }

    /// Escapes that close everything that can be presented at once: a cover, a sheet over it
    /// whose filter is being typed, and the help over the sheet.
    static let escapesToClose = 4

    /// Most layers presented at once: a cover, the account sheet over it and the help over that.
    static let maximumDepth = 3

    private mutating func deliver(_ decoded: [InputEvent], at time: Int64) throws(Violation) {
        if recordsEvents { events += decoded }
        for event in decoded {
            switch event {
            case .mouse(let mouse):
                guard mouse.position.column >= 0, mouse.position.row >= 0 else {
                    throw Violation(description: "mouse event off the screen's origin: \(mouse)")
                }
                if mouse.kind == .press, mouse.button == .left { lastPress = time }
            case .unknown(let bytes) where bytes.isEmpty:
                throw Violation(description: "an unknown sequence of no bytes")
            default: break
            }
            try expire(at: time)
            let state = self.state
            let appEvents = recognizer.handle(event, at: time, hitTest: state.hitTest, holdable: state.acceptsKeyHold)
            guard appEvents.count <= 1 else { throw Violation(description: "\(event) gave \(appEvents)") }
            try apply(appEvents.map(AppEvent.init), at: time)
        }
    }

    private mutating func expire(at time: Int64) throws(Violation) {
        let deadline = recognizer.nextDeadline
        if let deadline, let lastPress, deadline > lastPress + recognizer.configuration.longPressMilliseconds {
            throw Violation(description: "a long-press deadline \(deadline) later than its press \(lastPress) allows")
        }
        let fired = recognizer.expire(at: time)
        if !fired.isEmpty {
            guard let deadline, time >= deadline else { throw Violation(description: "a long-press fired at \(time), before its deadline") }
        }
        try apply(fired.map(AppEvent.init), at: time)
    }

    private mutating func apply(_ appEvents: [AppEvent], at time: Int64) throws(Violation) {
        for event in appEvents { _ = state.update(event, at: time) }
        guard state.presented.count <= Self.maximumDepth else {
            throw Violation(description: "\(state.presented.count) layers presented: \(state.presented.map(\.title))")
        }
        let lists = [
            (state.catalog, state.catalogItems.count), (state.stats, state.accounts.count),
            (state.settings, SettingsAction.allCases.count),
            (state.sheet?.cursor ?? ListCursor(), state.sheet?.rowCount(accounts: state.accounts.count) ?? 0),
        ]
        for (list, count) in lists where list.cursor < 0 || list.cursor >= max(1, count) || list.scroll < 0 {
            throw Violation(description: "a cursor out of its list: \(list) of \(count)")
        }
    }

    private func checkDecoder() throws(Violation) {
        guard decoder.consumedByteCount + decoder.unreadByteCount == fedByteCount else {
            throw Violation(
                description:
                    "bytes unaccounted for: \(fedByteCount) fed, \(decoder.consumedByteCount) taken, \(decoder.unreadByteCount) held")
        }
        guard decoder.unreadByteCount <= InputDecoder.maximumSequenceLength else {
            throw Violation(description: "\(decoder.unreadByteCount) bytes held outside a paste")
        }
        guard (decoder.pasteByteCount ?? 0) <= InputDecoder.maximumPasteBytes else {
            throw Violation(description: "a paste of \(decoder.pasteByteCount ?? 0) bytes held")
        }
    }

    private func checkRender() throws(Violation) {
        let screen = state.render()
        for line in screen.lines where DisplayWidth.columns(of: line) != screen.size.width {
            throw Violation(description: "a row of \(DisplayWidth.columns(of: line)) columns at \(screen.size): \(line.debugDescription)")
        }
    }
}
