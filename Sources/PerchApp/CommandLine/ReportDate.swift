import PerchDomain
import PerchInterface

/// A calendar date given on the command line (`2026-11-30`), read in the local time zone.
public struct ReportDate: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Reads `YYYY-MM-DD`; nil when it is not a date that exists.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), year >= 1970, (1...12).contains(month)
        else { return nil }
        // A day that does not exist (2026-02-30) comes back as another date.
        let civil = WallTime.civil(fromDays: WallTime.days(year: year, month: month, day: day))
        guard civil.year == year, civil.month == month, civil.day == day else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))"
    }

    /// Days since 1970-01-01.
    public var days: Int64 { WallTime.days(year: year, month: month, day: day) }

    /// The date `count` days later.
    public func adding(days count: Int64) -> ReportDate {
        let civil = WallTime.civil(fromDays: days + count)
        return ReportDate(year: civil.year, month: civil.month, day: civil.day)
    }

    public static func < (a: ReportDate, b: ReportDate) -> Bool { a.days < b.days }
}
