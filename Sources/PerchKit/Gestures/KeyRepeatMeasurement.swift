/// What a held key sent, measured for a diagnosis (an app's diagnostic command): the repeat delay and rate, how long it was
/// down (with release events), and whether the ``GestureRecognizer`` would have taken it as a hold.
public struct KeyRepeatMeasurement: Hashable, Sendable {
    /// Milliseconds from the press to the first auto-repeat, or nil when none came.
    public var delayMilliseconds: Int64?
    /// Auto-repeats per second after the first, or nil with fewer than two repeats.
    public var repeatsPerSecond: Double?
    /// Auto-repeats received.
    public var repeatCount: Int
    /// Milliseconds from the press to the release, or nil when no release event came.
    public var heldMilliseconds: Int64?
    /// Whether a hold fired, with this mode and duration.
    public var recognised: Bool
    /// When the hold fired, in milliseconds after the press, or nil.
    public var firedAfterMilliseconds: Int64?

    /// Measures `events` of `key` (each with its time in milliseconds; the first is the press),
    /// and replays them through a ``GestureRecognizer`` with `mode` and `longPressMilliseconds`,
    /// calling ``GestureRecognizer/expire(at:)`` at its deadlines as the event loop does, up to
    /// `end` (ms). Events of other keys are left out.
    public init(key: KeyEvent, events: [(InputEvent, Int64)], mode: KeyHoldMode, longPressMilliseconds: Int64, end: Int64) {
        var press: Int64?
        var repeats: [Int64] = []
        var release: Int64?
        for (event, time) in events {
            switch event {
            case .key(let k) where k == key:
                if press == nil { press = time } else if release == nil { repeats.append(time) }
            case .keyRepeat(let k) where k == key && press != nil && release == nil:
                repeats.append(time)
            case .keyRelease(let k) where k == key && press != nil && release == nil:
                release = time
            default:
                break
            }
        }
        let start = press ?? 0
        delayMilliseconds = repeats.first.map { $0 - start }
        repeatCount = repeats.count
        if repeats.count >= 2, let first = repeats.first, let last = repeats.last, last > first {
            repeatsPerSecond = Double(repeats.count - 1) * 1000 / Double(last - first)
        }
        heldMilliseconds = release.map { $0 - start }

        var configuration = GestureRecognizer.Configuration(longPressMilliseconds: longPressMilliseconds)
        configuration.keyHoldMode = mode
        configuration.holdableKeys = [key]
        var recognizer = GestureRecognizer(configuration: configuration)
        var fired: Int64?
        func note(_ output: [UIEvent], at time: Int64) {
            if fired == nil, output.contains(.keyHold(key)) { fired = time }
        }
        for (event, time) in events {
            while let deadline = recognizer.nextDeadline, deadline <= time { note(recognizer.expire(at: deadline), at: deadline) }
            note(recognizer.handle(event, at: time, hitTest: { _ in .none }), at: time)
        }
        while let deadline = recognizer.nextDeadline, deadline <= end { note(recognizer.expire(at: deadline), at: deadline) }
        recognised = fired != nil
        firedAfterMilliseconds = fired.map { $0 - start }
    }
}
