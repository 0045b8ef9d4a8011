/// Recognises taps, long-presses and key holds from timestamped input events.
///
/// Time is an input: every call carries the time of the event in milliseconds on a
/// monotonic clock, and ``nextDeadline`` tells the caller when to call ``expire(at:)``
/// if nothing else happens. Nothing here reads a clock or sleeps.
///
/// - Pointer: a primary-button press starts a gesture on the target under it. Releasing on
///   the same target is a tap. Holding on a target that ``HitTarget/acceptsLongPress`` until
///   the deadline fires a long-press while the button is still down; its release is then
///   swallowed. Dragging off the target cancels both, except on a target that
///   ``HitTarget/acceptsDrag``: there each move is a ``UIEvent/drag(_:_:)`` and the release
///   ``UIEvent/dragEnded(_:_:)``. A new press starts afresh, so a release the terminal lost
///   cannot leave a gesture stuck, except a press report repeated at the same cell with no
///   release between (some terminals send one again): it continues the gesture. Other buttons
///   (middle, right, 8–11) neither tap nor long-press. A resize that moves the target from under
///   the press, or removes it, cancels the gesture (``layoutChanged(hitTest:)``).
/// - Keys: terminals report a held key as a press, then (after the system's repeat delay,
///   roughly 250–660 ms) auto-repeats at 25–40 per second, and no release. A holdable key
///   is delivered at once as ``UIEvent/key(_:)``. It becomes ``UIEvent/keyHold(_:)`` on the
///   first auto-repeat that arrives at or after the long-press duration, provided the repeats
///   have kept coming at an auto-repeat pace (a first repeat within the repeat delay, then each
///   within the repeat gap). So a hold released early never fires, two separate taps never
///   fire, and no timer is needed: the repeat itself proves the key is still down. The
///   remaining repeats are swallowed.
/// - Keys with release events (``KeyHoldMode/releaseEvents``, the kitty keyboard protocol): a
///   holdable key, where holding it means something, fires ``UIEvent/keyHold(_:)`` from
///   ``expire(at:)`` exactly at the long-press duration, whatever the repeat rate. One of
///   ``Configuration/tapFirstKeys`` (a tab's digit) is delivered at once as ``UIEvent/key(_:)``,
///   as from auto-repeat, so both modes do the same: the tab is selected, then its hold
///   follows. Any other is held back: released before the duration it is delivered then (a
///   tap), and held it is never delivered as a press. Focus going away cancels the hold; its
///   repeats are swallowed. Other keys are delivered at once, their repeats are presses, and
///   releases are dropped.
public struct GestureRecognizer: Sendable {
    /// Timing of the recogniser, in milliseconds.
    public struct Configuration: Sendable, Hashable {
        /// How long a press or key must be held to count as a long-press or hold (ms).
        public var longPressMilliseconds: Int64
        /// Longest gap between auto-repeats of a held key (ms); a longer gap means it was released.
        public var repeatGapMilliseconds: Int64
        /// Longest wait for the first auto-repeat after the press (ms), above common repeat delays.
        public var repeatDelayMilliseconds: Int64
        /// Keys whose hold is a gesture (none by default: the app names them).
        public var holdableKeys: Set<KeyEvent>
        /// How a key hold is recognised.
        public var keyHoldMode: KeyHoldMode = .autoRepeat
        /// Holdable keys whose press is delivered at once with release events too, as it is from
        /// auto-repeat, the hold following at the deadline: a tab's digit, whose press selects
        /// the tab and whose hold raises what the tab holds (none by default). Other holdable
        /// keys are held back with release events: their tap, or their hold, never both.
        public var tapFirstKeys: Set<KeyEvent> = []

        /// Timing in milliseconds: a press or key held `longPressMilliseconds` (500) is a
        /// long-press or hold; a held key's first auto-repeat comes within
        /// `repeatDelayMilliseconds` (800) and the next ones within `repeatGapMilliseconds` (150)
        /// of each other. No key is holdable unless named in `holdableKeys`; ``keyHoldMode``
        /// starts as ``KeyHoldMode/autoRepeat``.
        public init(
            longPressMilliseconds: Int64 = 500,
            repeatGapMilliseconds: Int64 = 150,
            repeatDelayMilliseconds: Int64 = 800,
            holdableKeys: Set<KeyEvent> = []
        ) {
            self.longPressMilliseconds = longPressMilliseconds
            self.repeatGapMilliseconds = repeatGapMilliseconds
            self.repeatDelayMilliseconds = repeatDelayMilliseconds
            self.holdableKeys = holdableKeys
        }
    }

    private struct PointerGesture: Sendable {
        var target: HitTarget
        var start: Int64
        /// Cell of the press, and when the last press report for it came (ms).
        var position: Position
        var lastReport: Int64
        var fired = false
        var cancelled = false
        var dragged = false
    }

    private struct KeyHold: Sendable {
        /// `down`: pressed with release events to come, waiting for the deadline.
        enum Phase { case awaitingRepeat, firstRepeat, repeating, fired, down }
        var key: KeyEvent
        var start: Int64
        var last: Int64
        var phase: Phase
        /// Whether the press was delivered already (``Configuration/tapFirstKeys``), so its
        /// release delivers nothing.
        var delivered = false
    }

    /// Its timing, holdable keys and key-hold mode. It may change between events (`TerminalLoop`
    /// asks the root after every update); a gesture under way is judged by it from then on.
    public var configuration: Configuration
    private var pointer: PointerGesture?
    private var hold: KeyHold?

    /// A recogniser with no gesture under way.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The earliest time (ms) at which ``expire(at:)`` may fire a gesture, or nil when none is
    /// pending: a pointer long-press, or a key held with release events
    /// (``KeyHoldMode/releaseEvents``). A hold recognised from auto-repeat fires on input and has none.
    public var nextDeadline: Int64? {
        let keyDeadline = hold.flatMap { $0.phase == .down ? $0.start + configuration.longPressMilliseconds : nil }
        guard let pointer, !pointer.fired, !pointer.cancelled, pointer.target.acceptsLongPress else { return keyDeadline }
        let pointerDeadline = pointer.start + configuration.longPressMilliseconds
        return keyDeadline.map { min($0, pointerDeadline) } ?? pointerDeadline
    }

    /// Feeds one input event that arrived at `time` (ms); `hitTest` names the target under a
    /// cell in the current layout, and `holdable` says whether holding a key means something in
    /// the current context (elsewhere every press and auto-repeat is delivered as a key, so a
    /// quick second `Enter` in a form is a second `Enter`). Returns the events for the app, in order.
    public mutating func handle(
        _ event: InputEvent, at time: Int64, hitTest: (Position) -> HitTarget, holdable: (KeyEvent) -> Bool = { _ in true }
    ) -> [UIEvent] {
        switch event {
        case .key(let key) where configuration.keyHoldMode == .releaseEvents:
            return handlePress(key, at: time, holdable: { holdable(key) })
        case .keyRepeat(let key) where configuration.keyHoldMode == .releaseEvents:
            if let current = hold, current.key == key { return [] }  // part of the hold
            return [.key(key)]
        case .keyRelease(let key):
            guard let current = hold, current.key == key else { return [] }
            hold = nil
            // Released before the long-press duration: a tap, delivered now unless it was at the press.
            return current.phase == .down && !current.delivered ? [.key(key)] : []
        case .key(let key), .keyRepeat(let key):
            if configuration.keyHoldMode == .off { return [.key(key)] }
            // The repeats of a hold that started where holding means something stay part of it
            // (after it fired, a layer may be up); only a new press asks `holdable`.
            return handleKey(key, at: time, holdable: { holdable(key) })
        case .mouse(let mouse):
            return handleMouse(mouse, at: time, hitTest: hitTest)
        case .paste(let text):
            return [.paste(text)]
        case .focus(let focused):
            // Keys let go while another window had the focus send no release here.
            if !focused, hold?.phase == .down { hold = nil }
            return [.focus(focused)]
        case .reply(let reply):
            return [.terminalReply(reply)]
        case .unknown:
            return []
        }
    }

    /// Tells that the layout changed (a resize): a pointer gesture whose target is no longer
    /// under its press is cancelled, so nothing fires on what moved or went away.
    public mutating func layoutChanged(hitTest: (Position) -> HitTarget) {
        guard var gesture = pointer, !gesture.dragged, hitTest(gesture.position) != gesture.target else { return }
        gesture.cancelled = true
        pointer = gesture
    }

    /// Fires every gesture whose deadline is at or before `now` (ms). Never fires early.
    public mutating func expire(at now: Int64) -> [UIEvent] {
        var events: [UIEvent] = []
        if var current = hold, current.phase == .down, now >= current.start + configuration.longPressMilliseconds {
            current.phase = .fired
            hold = current
            events.append(.keyHold(current.key))
        }
        return events + expirePointer(at: now)
    }

    private mutating func expirePointer(at now: Int64) -> [UIEvent] {
        guard var gesture = pointer, !gesture.fired, !gesture.cancelled, gesture.target.acceptsLongPress,
            now >= gesture.start + configuration.longPressMilliseconds
        else { return [] }
        gesture.fired = true
        pointer = gesture
        return [.longPress(gesture.target)]
    }

    private mutating func handleKey(_ key: KeyEvent, at time: Int64, holdable: () -> Bool) -> [UIEvent] {
        guard configuration.holdableKeys.contains(key) else {
            hold = nil
            return [.key(key)]
        }
        if var current = hold, current.key == key {
            let gap = time - current.last
            switch current.phase {
            case .awaitingRepeat where gap <= configuration.repeatDelayMilliseconds:
                current.phase = .firstRepeat
            case .firstRepeat where gap <= configuration.repeatGapMilliseconds,
                .repeating where gap <= configuration.repeatGapMilliseconds,
                .fired where gap <= configuration.repeatGapMilliseconds:
                if current.phase == .firstRepeat { current.phase = .repeating }
            case .firstRepeat where gap <= configuration.repeatDelayMilliseconds:
                // What looked like the first auto-repeat was a second press (a tap, then the key
                // held again): this is that press's first repeat, and the hold is timed from it.
                current.start = current.last
            default:
                return startHold(key, at: time, holdable: holdable())  // too slow for a repeat: a new press
            }
            current.last = time
            var events: [UIEvent] = []
            if current.phase == .repeating, time >= current.start + configuration.longPressMilliseconds {
                current.phase = .fired
                events.append(.keyHold(key))
            }
            hold = current
            return events
        }
        return startHold(key, at: time, holdable: holdable())
    }

    /// A press with release events to come. Where holding it means something it is timed; a
    /// key of ``Configuration/tapFirstKeys`` is delivered at once too (a tab's digit selects the
    /// tab, and its hold raises the tab's sheet), any other is held back: its release before the long-press
    /// duration delivers it as a tap (so `Enter` opens a list's item on release), and holding it
    /// fires the hold instead (the item's menu). Elsewhere it is delivered at once. A second
    /// press of the key still down (its release lost) does not restart it.
    private mutating func handlePress(_ key: KeyEvent, at time: Int64, holdable: () -> Bool) -> [UIEvent] {
        if let current = hold, current.key == key, current.phase == .down { return [] }
        guard configuration.holdableKeys.contains(key), holdable() else {
            hold = nil
            return [.key(key)]
        }
        let tapFirst = configuration.tapFirstKeys.contains(key)
        hold = KeyHold(key: key, start: time, last: time, phase: .down, delivered: tapFirst)
        return tapFirst ? [.key(key)] : []
    }

    /// A new press of `key`: delivered at once, and watched for auto-repeats when holding it
    /// means something (else its repeats are presses of their own).
    private mutating func startHold(_ key: KeyEvent, at time: Int64, holdable: Bool) -> [UIEvent] {
        hold = holdable ? KeyHold(key: key, start: time, last: time, phase: .awaitingRepeat) : nil
        return [.key(key)]
    }

    private mutating func handleMouse(
        _ mouse: MouseEvent, at time: Int64, hitTest: (Position) -> HitTarget
    ) -> [UIEvent] {
        switch mouse.kind {
        case .press where mouse.button == .left:
            if var gesture = pointer, gesture.position == mouse.position,
                time - gesture.lastReport < configuration.longPressMilliseconds
            {
                // The same press reported again: the gesture goes on, its deadline unchanged.
                gesture.lastReport = time
                pointer = gesture
                return []
            }
            pointer = PointerGesture(target: hitTest(mouse.position), start: time, position: mouse.position, lastReport: time)
            return []
        case .drag where mouse.button == .left:
            if var gesture = pointer, gesture.target.acceptsDrag {
                gesture.dragged = true
                pointer = gesture
                return [.drag(gesture.target, mouse.position)]
            }
            if var gesture = pointer, !gesture.fired, hitTest(mouse.position) != gesture.target {
                gesture.cancelled = true
                pointer = gesture
            }
            return []
        case .release where mouse.button == .left || mouse.button == .none:
            defer { pointer = nil }
            if let gesture = pointer, gesture.dragged { return [.dragEnded(gesture.target, mouse.position)] }
            guard let gesture = pointer, !gesture.fired, !gesture.cancelled,
                hitTest(mouse.position) == gesture.target
            else { return [] }
            return [.tap(gesture.target)]
        case .scrollUp:
            return [.scroll(hitTest(mouse.position), notches: -1)]
        case .scrollDown:
            return [.scroll(hitTest(mouse.position), notches: 1)]
        default:
            return []
        }
    }
}
