import Testing

@testable import PerchKit

@Suite("Key-repeat measurement (perch doctor)")
struct KeyRepeatMeasurementTests {
    let one = KeyEvent.char("1")

    @Test("auto-repeat at 660 ms then every 40 ms: delay 660, 25 per second, the hold seen at the first repeat past 500 ms")
    func autoRepeat() {
        let events = [(InputEvent.key(one), Int64(0))] + stride(from: Int64(660), through: 2000, by: 40).map { (InputEvent.key(one), $0) }
        let m = KeyRepeatMeasurement(key: one, events: events, mode: .autoRepeat, longPressMilliseconds: 500, end: 2500)
        #expect(m.delayMilliseconds == 660)
        #expect(m.repeatsPerSecond.map { abs($0 - 25) < 0.01 } == true)
        #expect(m.heldMilliseconds == nil)
        #expect(m.recognised && m.firedAfterMilliseconds == 700, "\(String(describing: m.firedAfterMilliseconds))")
    }

    @Test("release events: the hold fires at the duration, and a release reads as the time held")
    func releaseEvents() {
        let events: [(InputEvent, Int64)] =
            [(.key(one), 0)] + stride(from: Int64(660), through: 1960, by: 40).map { (.keyRepeat(one), $0) } + [(.keyRelease(one), 2000)]
        let m = KeyRepeatMeasurement(key: one, events: events, mode: .releaseEvents, longPressMilliseconds: 500, end: 2500)
        #expect(m.heldMilliseconds == 2000 && m.delayMilliseconds == 660)
        #expect(m.firedAfterMilliseconds == 500)
    }

    @Test("a hold shorter than the duration is not recognised, in either mode")
    func tooShort() {
        let events: [(InputEvent, Int64)] = [(.key(one), 0), (.keyRelease(one), 300)]
        #expect(!KeyRepeatMeasurement(key: one, events: events, mode: .releaseEvents, longPressMilliseconds: 500, end: 1000).recognised)
        #expect(
            !KeyRepeatMeasurement(key: one, events: [(.key(one), 0)], mode: .autoRepeat, longPressMilliseconds: 500, end: 1000).recognised)
    }
}
