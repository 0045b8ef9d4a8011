import Foundation
import Testing

/// `perch report` against a fixed history, read in several time zones.
@Suite("perch report", .currentBinary)
struct ReportTests {
    /// Four switches around the end of November 2026, in UTC.
    static let history = """
        {"account":"work","previous":null,"source":"tui","time":"2026-11-29T08:00:00Z"}
        {"account":"personal","previous":"work","source":"cli","time":"2026-11-29T17:30:00Z"}
        {"account":"work","previous":"personal","source":"tui","time":"2026-11-30T22:30:00Z"}
        {"account":"oss","previous":"work","source":"tui","time":"2026-11-30T23:30:00Z"}

        """

    func withHistory(_ body: (PerchCommandLine) throws -> Void) throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let folder = (cli.statePath as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Self.history.write(toFile: folder + "/state.history.jsonl", atomically: true, encoding: .utf8)
        try body(cli)
    }

    /// The same two days give different totals in different zones: the days start at local midnight.
    @Test(
        "two local days in UTC, Paris, New York and Tokyo",
        arguments: [
            ("UTC", "UTC+00:00", ["work": 37_800, "personal": 104_400, "oss": 1_800]),
            // Paris (UTC+1): the 29th starts at 23:00Z on the 28th, the 30th ends at 23:00Z.
            ("Europe/Paris", "UTC+01:00", ["work": 36_000, "personal": 104_400]),
            // New York (UTC-5): from 05:00Z on the 29th to 05:00Z on 1 December.
            ("America/New_York", "UTC-05:00", ["work": 34_200 + 3_600, "personal": 104_400, "oss": 19_800]),
            // Tokyo (UTC+9): from 15:00Z on the 28th to 15:00Z on the 30th.
            ("Asia/Tokyo", "UTC+09:00", ["work": 34_200, "personal": 77_400]),
        ] as [(String, String, [String: Int])])
    func zones(_ zone: String, _ offset: String, _ expected: [String: Int]) throws {
        try withHistory { cli in
            var cli = cli
            cli.extraEnvironment = ["TZ": zone]
            let json = try cli.run(["report", "--since", "2026-11-29", "--until", "2026-11-30", "--json"])
            #expect(json.status == 0, "\(json.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let accounts = try #require(object["accounts"] as? [[String: Any]])
            var seconds: [String: Int] = [:]
            for entry in accounts { seconds[entry["id"] as? String ?? ""] = entry["seconds"] as? Int }
            #expect(seconds == expected, "\(zone): \(json.stdout)")
            #expect(object["totalSeconds"] as? Int == expected.values.reduce(0, +))
            #expect("UTC" + (object["utcOffset"] as? String ?? "") == offset)
            let text = try cli.run(["report", "--since", "2026-11-29", "--until", "2026-11-30"])
            #expect(text.status == 0)
            #expect(text.stdout.hasPrefix("Time per account, 2026-11-29 to 2026-11-30 ("), "\(text.stdout)")
            #expect(text.stdout.contains(offset), "the zone is shown: \(text.stdout)")
        }
    }

    @Test("CSV has a header, minutes and hours with two decimals")
    func csv() throws {
        try withHistory { cli in
            var cli = cli
            cli.extraEnvironment = ["TZ": "UTC"]
            let result = try cli.run(["report", "--since", "2026-11-29", "--until", "2026-11-30", "--csv"])
            #expect(result.status == 0)
            #expect(result.stdout == "id,name,minutes,hours\npersonal,Personal,1740,29.00\nwork,Work,630,10.50\noss,Open Source,30,0.50\n")
        }
    }

    @Test(
        "bad dates and --json with --csv are usage errors (status 2)",
        arguments: [
            ["report", "--since", "2026-02-30"], ["report", "--until", "yesterday"], ["report", "--json", "--csv"],
            ["report", "--since", "2026-12-02", "--until", "2026-12-01"],
        ])
    func usage(_ arguments: [String]) throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let result = try cli.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("perch: "))
        #expect(result.stderr.contains("usage: perch report"))
    }
}
