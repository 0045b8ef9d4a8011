import PerchCore
import Testing

@testable import PerchApp

/// Issue 20: `perch doctor` lines fitted to the terminal's width.
@Suite("perch doctor's lines")
struct DoctorTests {
    static let value = "/home/ada.lovelace/.config/perch/accounts.json: a regular file, mode rw-r----- (owner only), yours"

    // Bug: doctor's lines were not fitted to the width and ran past the terminal's edge.
    @Test("every line fits the width; the value wraps under its first column", arguments: [100, 80, 60, 44])
    func fitsWidth(width: Int) {
        let lines = Doctor.fitted("config", Self.value, width: width)
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { DisplayWidth.columns(of: $0) <= width }, "\(lines)")
        #expect(lines[0].hasPrefix("  config            /home/"))
        for line in lines.dropFirst() {
            #expect(line.hasPrefix(String(repeating: " ", count: Doctor.valueColumn)) && line.dropFirst(Doctor.valueColumn).first != " ")
        }
        #expect(lines.joined().filter { $0 != " " } == ("config" + Self.value).filter { $0 != " " }, "nothing cut: \(lines)")
    }

    @Test("on a narrow terminal the value goes below the name, four columns in")
    func narrow() {
        let lines = Doctor.fitted("config", Self.value, width: 36)
        #expect(lines[0] == "  config")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("    ") && DisplayWidth.columns(of: $0) <= 36 }, "\(lines)")
    }

    @Test("a line that fits, and any line for a pipe (no width), is one line as before")
    func unchanged() {
        #expect(Doctor.fitted("long-press", "500 ms (the default)", width: 80) == ["  long-press        500 ms (the default)"])
        #expect(Doctor.fitted("config", Self.value, width: nil) == ["  config            " + Self.value])
    }
}
