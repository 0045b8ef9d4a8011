import Glibc
import Testing

@testable import PerchKitTerminal

/// ``LineModeBackend/say(_:)``, the accessible mode's output (issue 51): plain lines, and never a
/// control character from what it is given.
@Suite("LineModeBackend.say")
struct LineModeBackendSayTests {
    /// What `say(line)` writes, read back from a pipe.
    private func written(_ line: String) throws -> String {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let backend = LineModeBackend(input: fds[0], output: fds[1], colors: false)
        backend.say(line)
        close(fds[1])
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fds[0], &buffer, buffer.count)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(
        "a line is written whole at the line's start and ended; C0, DEL and C1 controls are made visible",
        arguments: [
            ("Signed in as Work.", "\rSigned in as Work.\r\n"),
            ("evil\u{1B}[2Jname", "\revil^[[2Jname\r\n"),
            ("bell\u{07}del\u{7F}", "\rbell^Gdel^?\r\n"),
            ("csi\u{9B}31m", "\rcsi\\u{9B}31m\r\n"),
            ("two\nlines", "\rtwo^Jlines\r\n"),
        ])
    func saysPlainLines(line: String, expected: String) throws {
        #expect(try written(line) == expected)
    }
}
