import Glibc
import PerchCore

/// Asks the terminal at start whether it speaks the kitty keyboard protocol.
///
/// Sends the protocol's query (`CSI ? u`) and then a primary device attributes request
/// (`CSI c`), which every terminal answers (`CSI ? … c`). A terminal that speaks the protocol
/// answers the query first (`CSI ? flags u`); one that answers only the second does not speak
/// it; a terminal that answers neither is given up on after ``timeoutMilliseconds``, so start-up
/// never waits longer on a silent one. Reference: kitty "Comprehensive keyboard handling in
/// terminals", "Detection of support for this protocol"; xterm ctlseqs "Send Device Attributes
/// (Primary DA)".
struct KeyboardProtocolProbe {
    /// What the terminal answered.
    enum Answer: Hashable, Sendable {
        /// It answered the query: it speaks the protocol, with these flags in effect now.
        case kitty(flags: Int)
        /// It answered only the device attributes request.
        case primaryAttributesOnly
        /// It answered nothing in time.
        case silent

        /// How it was found, for `perch doctor`.
        var summary: String {
            switch self {
            case .kitty(let flags): "yes (answered CSI ? u with flags \(flags))"
            case .primaryAttributesOnly: "no (answered only CSI c)"
            case .silent: "unknown (no answer to CSI ? u or CSI c within \(KeyboardProtocolProbe.timeoutMilliseconds) ms)"
            }
        }
    }

    /// The query and the device attributes request, sent together.
    static let query: [UInt8] = Array("\u{1B}[?u\u{1B}[c".utf8)
    /// Longest wait for the answers, in milliseconds.
    static let timeoutMilliseconds: Int64 = 100
    /// The flags Perch pushes: disambiguate escape codes (1), report event types (2), report
    /// alternate keys (4), report all keys as escape codes (8) and report associated text (16).
    /// All keys as escape codes makes Enter, Tab and Backspace report releases too; alternate
    /// keys and associated text keep shifted and non-ASCII characters typed as they are.
    static let flags = KeyHoldPreference.keyboardFlags

    /// Bytes read so far.
    private(set) var received: [UInt8] = []

    /// Adds bytes read from the terminal; returns the answer once the device attributes reply
    /// has arrived, else nil.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> Answer? {
        received.append(contentsOf: bytes)
        var kittyFlags: Int?
        var index = 0
        while index < received.count {
            guard received[index] == 0x1B, index + 2 < received.count, received[index + 1] == UInt8(ascii: "["),
                received[index + 2] == UInt8(ascii: "?")
            else {
                index += 1
                continue
            }
            var end = index + 3
            while end < received.count, received[end] >= 0x20, received[end] < 0x40 { end += 1 }
            guard end < received.count else { break }
            let body = String(decoding: received[(index + 3)..<end], as: UTF8.self)
            switch received[end] {
            case UInt8(ascii: "u"): kittyFlags = Int(body) ?? 0
            case UInt8(ascii: "c"): return kittyFlags.map { .kitty(flags: $0) } ?? .primaryAttributesOnly
            default: break
            }
            index = end + 1
        }
        return nil
    }

    /// Whether `bytes` are the reply to the protocol query, `CSI ? flags u`.
    static func isFlagsReply(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && bytes.starts(with: [0x1B, UInt8(ascii: "["), UInt8(ascii: "?")]) && bytes.last == UInt8(ascii: "u")
            && bytes.dropFirst(3).dropLast().allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// What was read besides the two replies (keys typed during the probe), to be decoded as input.
    var otherInput: [UInt8] {
        var rest: [UInt8] = []
        var index = 0
        while index < received.count {
            if received[index] == 0x1B, index + 2 < received.count, received[index + 1] == UInt8(ascii: "["),
                received[index + 2] == UInt8(ascii: "?")
            {
                var end = index + 3
                while end < received.count, received[end] >= 0x20, received[end] < 0x40 { end += 1 }
                if end < received.count, received[end] == UInt8(ascii: "u") || received[end] == UInt8(ascii: "c") {
                    index = end + 1
                    continue
                }
            }
            rest.append(received[index])
            index += 1
        }
        return rest
    }

    /// Writes the query to `output` and reads `input` until both answers arrive or
    /// ``timeoutMilliseconds`` pass; returns the answer and the other bytes read.
    static func run(input: Int32, output: Int32, now: () -> Int64 = MonotonicClock.now) -> (Answer, [UInt8]) {
        var probe = KeyboardProtocolProbe()
        var offset = 0
        while offset < query.count {
            let n = query.withUnsafeBytes { write(output, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return (.silent, []) }
            offset += n
        }
        let deadline = now() + timeoutMilliseconds
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let left = deadline - now()
            guard left > 0 else { return (.silent, probe.otherInput) }
            var fd = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fd, 1, Int32(left))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR || errno == EAGAIN { continue }
            guard n > 0 else { return (.silent, probe.otherInput) }
            if let answer = probe.feed(buffer[0..<n]) { return (answer, probe.otherInput) }
        }
    }

    /// The key-hold mode for `requested` (`--key-hold`) and the terminal's answer: `auto` uses
    /// release events where the terminal speaks the protocol, else auto-repeat.
    static func mode(requested: KeyHoldPreference, answer: Answer?) -> KeyHoldMode {
        switch requested {
        case .auto: if case .kitty = answer { .releaseEvents } else { .autoRepeat }
        case .kitty: .releaseEvents
        case .repeat: .autoRepeat
        case .off: .off
        }
    }
}
