/// Recognises taps, long-presses and key holds from timestamped input events.
///
/// Time is an input: every call carries the time of the event in milliseconds on a
/// monotonic clock, and ``nextDeadline`` tells the caller when to call ``expire(at:)``
/// if nothing else happens. Nothing here reads a clock or sleeps.
///
/// - Pointer: a primary-button press starts a gesture on the target under it. Releasing on
///   the same target is a tap. Holding on a target that ``HitTarget/acceptsLongPress`` until
///   the deadline fires a long-press while the button is still down; its release is then
///   swallowed. Dragging off the target cancels both. A new press always starts afresh, so a
///   release the terminal lost cannot leave a gesture stuck.
/// - Keys: terminals report a held key as a press, then (after the system's repeat delay,
///   roughly 250–660 ms) auto-repeats at 25–40 per second, and no release. A holdable key
///   is delivered at once as ``AppEvent/key(_:)``; if its repeats keep arriving until the
///   long-press duration has passed, ``AppEvent/keyHold(_:)`` fires once and the remaining
///   repeats are swallowed.
public struct GestureRecognizer: Sendable {
    /// Timing of the recogniser, in milliseconds.
    public struct Configuration: Sendable, Hashable {
        /// How long a press or key must be held to count as a long-press or hold (ms).
        public var longPressMilliseconds: Int64
        /// Longest gap between auto-repeats of a held key (ms); a longer gap means it was released.
        public var repeatGapMilliseconds: Int64
        /// Longest wait for the first auto-repeat after the press (ms), above common repeat delays.
        public var repeatDelayMilliseconds: Int64
        /// Keys whose hold is a gesture.
        public var holdableKeys: Set<KeyEvent>

        public init(
            longPressMilliseconds: Int64 = 500,
            repeatGapMilliseconds: Int64 = 150,
            repeatDelayMilliseconds: Int64 = 800,
            holdableKeys: Set<KeyEvent> = [.char("1")]
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
        var fired = false
        var cancelled = false
    }

    private struct KeyHold: Sendable {
        enum Phase { case awaitingRepeat, repeating, fired }
        var key: KeyEvent
        var start: Int64
        var last: Int64
        var phase: Phase
    }

    public var configuration: Configuration
    private var pointer: PointerGesture?
    private var hold: KeyHold?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The earliest time (ms) at which ``expire(at:)`` may fire a gesture, or nil when none is pending.
    public var nextDeadline: Int64? {
        var deadline: Int64?
        if let pointer, !pointer.fired, !pointer.cancelled, pointer.target.acceptsLongPress {
            deadline = pointer.start + configuration.longPressMilliseconds
        }
        if let hold, hold.phase == .repeating {
            let due = hold.start + configuration.longPressMilliseconds
            deadline = deadline.map { min($0, due) } ?? due
        }
        return deadline
    }

    /// Feeds one input event that arrived at `time` (ms); `hitTest` names the target under a
    /// cell in the current layout. Returns the events for the app, in order.
    public mutating func handle(
        _ event: InputEvent, at time: Int64, hitTest: (Position) -> HitTarget
    ) -> [AppEvent] {
        switch event {
        case .key(let key):
            return handleKey(key, at: time)
        case .mouse(let mouse):
            return handleMouse(mouse, at: time, hitTest: hitTest)
        case .paste(let text):
            return [.paste(text)]
        case .focus(let focused):
            return [.focus(focused)]
        case .unknown:
            return []
        }
    }

    /// Fires every gesture whose deadline is at or before `now` (ms). Never fires early.
    public mutating func expire(at now: Int64) -> [AppEvent] {
        var events: [AppEvent] = []
        if var gesture = pointer, !gesture.fired, !gesture.cancelled, gesture.target.acceptsLongPress,
            now >= gesture.start + configuration.longPressMilliseconds
        {
            gesture.fired = true
            pointer = gesture
            events.append(.longPress(gesture.target))
        }
        if var current = hold, current.phase == .repeating,
            now >= current.start + configuration.longPressMilliseconds
        {
            if now - current.last <= configuration.repeatGapMilliseconds {
                current.phase = .fired
                hold = current
                events.append(.keyHold(current.key))
            } else {
                hold = nil  // the repeats stopped: the key was released before the deadline
            }
        }
        return events
    }

    private mutating func handleKey(_ key: KeyEvent, at time: Int64) -> [AppEvent] {
        guard configuration.holdableKeys.contains(key) else {
            hold = nil
            return [.key(key)]
        }
        if var current = hold, current.key == key {
            let allowedGap =
                current.phase == .awaitingRepeat
                ? configuration.repeatDelayMilliseconds : configuration.repeatGapMilliseconds
            if time - current.last <= allowedGap {
                current.last = time
                if current.phase == .awaitingRepeat { current.phase = .repeating }
                var events: [AppEvent] = []
                if current.phase == .repeating, time >= current.start + configuration.longPressMilliseconds {
                    current.phase = .fired
                    events.append(.keyHold(key))
                }
                hold = current
                return events
            }
        }
        hold = KeyHold(key: key, start: time, last: time, phase: .awaitingRepeat)
        return [.key(key)]
    }

    private mutating func handleMouse(
        _ mouse: MouseEvent, at time: Int64, hitTest: (Position) -> HitTarget
    ) -> [AppEvent] {
        switch mouse.kind {
        case .press where mouse.button == .left:
            pointer = PointerGesture(target: hitTest(mouse.position), start: time)
            return []
        case .drag where mouse.button == .left:
            if var gesture = pointer, !gesture.fired, hitTest(mouse.position) != gesture.target {
                gesture.cancelled = true
                pointer = gesture
            }
            return []
        case .release where mouse.button == .left || mouse.button == .none:
            defer { pointer = nil }
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
