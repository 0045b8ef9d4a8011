import Foundation
import Testing

/// End-to-end, issue 11 §6: a name of one letter under 600,000 combining marks.
@Suite(.serialized, .currentBinary)
struct LongClusterEndToEndTests {
    @Test("perch list and current print such a name cut to 32 scalars per cluster, not whole")
    func listAndCurrent() throws {
        let perch = try PerchCommandLine()
        defer { try? FileManager.default.removeItem(at: perch.home) }
        let marks = String(repeating: "\\u0301", count: 600_000)
        try perch.writeConfig(#"{"accounts": [{"id": "z", "name": "x\#(marks) tail", "handle": "@z"}]}"#)
        let list = try perch.run(["list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.unicodeScalars.count < 200, "\(list.stdout.unicodeScalars.count) scalars printed")
        #expect(list.stdout.contains(" tail"))
        #expect(try perch.run(["switch", "z"]).status == 0)
        let current = try perch.run(["current", "--field", "name"])
        #expect(current.stdout.unicodeScalars.count == 32 + " tail\n".unicodeScalars.count, "\(current.stdout.unicodeScalars.count)")
    }
}
