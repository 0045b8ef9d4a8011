import Foundation
import Testing

/// The functions Perch's hot paths run are linked first, next to each other, in the order of
/// `Sources/perch/symbol-order.txt` (lld's `--symbol-ordering-file`, Package.swift): a start then
/// touches fewer of the pages of the binary's 18 MiB of code (docs/performance.md). Checked on the
/// binary under test with `nm`, which lists its functions' addresses, and `objdump`, which lists
/// the shared libraries it needs.
@Suite("Link order of the hot paths' functions", .currentBinary)
struct LinkOrderTests {
    /// The ordering file, beside the `perch` target's sources.
    static let orderFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/perch/symbol-order.txt").path

    /// Why the suite cannot run here, or nil.
    static let missing: String? = {
        guard FileManager.default.isExecutableFile(atPath: TmuxSession.binary) else { return "no perch binary is built" }
        return ShellEndToEndTests.installed("nm") ? nil : "nm is not installed (binutils)"
    }()

    @Test(
        "the listed functions come first in the code: 90% of them within its first 6 MiB of 18",
        .enabled(if: missing == nil, "\(missing ?? "")"))
    func hotFunctionsFirst() throws {
        let listed = try String(contentsOfFile: Self.orderFile, encoding: .utf8).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        try #require(listed.count > 500, "the ordering file lists \(listed.count) functions")
        let symbols = try Spawn.run(["nm", "--defined-only", TmuxSession.binary])
        try #require(symbols.status == 0, "\(symbols.stderr)")
        var address: [String: UInt64] = [:]
        var lowest = UInt64.max
        for line in symbols.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 3, "tTwW".contains(parts[1]), let value = UInt64(parts[0], radix: 16) else { continue }
            address[String(parts[2])] = value
            lowest = min(lowest, value)
        }
        let placed = listed.compactMap { address[$0] }.map { $0 - lowest }.sorted()
        #expect(placed.count * 10 >= listed.count * 9, "\(placed.count) of \(listed.count) listed functions are in the binary")
        // A function moves with the section it was compiled into, and the Swift runtime's and
        // the C library's sections hold several (one of 1.4 MiB): the listed ones gather in the
        // first 5 MiB. Linked in the compiler's order they spread over the whole code (90% of
        // them within 17 MiB).
        let ninetieth = placed.isEmpty ? UInt64.max : placed[placed.count * 9 / 10]
        #expect(ninetieth < 6 << 20, "90% of the listed functions lie within \(ninetieth >> 10) KiB of the code's start")
    }

    /// Linked statically, a start maps no shared library: the dynamic loader's work (mapping,
    /// relocating and binding the C++ runtime, libm, libgcc_s, ncurses, terminfo and the C library)
    /// cost 3 ms of CPU and 2.5 MiB of resident pages a start (docs/performance.md).
    @Test(
        "the binary is statically linked: it needs no shared library",
        .enabled(if: missing == nil && ShellEndToEndTests.installed("objdump"), "\(missing ?? "objdump is not installed")"))
    func staticallyLinked() throws {
        let headers = try Spawn.run(["objdump", "-p", TmuxSession.binary])
        try #require(headers.status == 0, "\(headers.stderr)")
        let needed = headers.stdout.split(separator: "\n").filter { $0.split(separator: " ").first == "NEEDED" }
        #expect(needed.isEmpty, "\(needed.joined(separator: "\n"))")
        #expect(!headers.stdout.contains("INTERP"), "the binary names a dynamic loader")
    }
}
