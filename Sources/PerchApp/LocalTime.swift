import Glibc
import PerchDomain
import PerchInterface

/// The wall clock and the local time zone (from `TZ`, else the system's), for Stats and
/// `perch report`: the core gets them as values (``WallTime``).
enum LocalTime {
    /// Now, with the local zone's offset and abbreviation at this moment.
    /// - Parameter monotonic: the loop's monotonic clock now, in milliseconds.
    static func now(monotonic: Int64 = 0) -> WallTime {
        at(Int64(time(nil)), monotonic: monotonic)
    }

    /// The local zone's offset and abbreviation at `seconds` since the epoch (localtime_r(3)).
    static func at(_ seconds: Int64, monotonic: Int64 = 0) -> WallTime {
        var t = time_t(seconds)
        var parts = tm()
        guard localtime_r(&t, &parts) != nil else { return WallTime(seconds: seconds, monotonic: monotonic) }
        let zone = parts.tm_zone.map { String(cString: $0) } ?? "UTC"
        return WallTime(seconds: seconds, utcOffset: Int(parts.tm_gmtoff), zone: zone, monotonic: monotonic)
    }

    /// Seconds since the epoch of local midnight at the start of a date (mktime(3), so a
    /// daylight-saving change is taken into account), or nil when it does not exist.
    static func startOfDay(year: Int, month: Int, day: Int) -> Int64? {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_isdst = -1
        let result = mktime(&parts)
        return result == -1 ? nil : Int64(result)
    }

    /// `seconds` since the epoch as local date and time to the minute: `2026-12-06 19:50 CET`.
    static func describe(seconds: Int64) -> String {
        let wall = at(seconds)
        let date = wall.localDate(seconds)
        let clock = wall.localClock(seconds)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(date.year)-\(two(date.month))-\(two(date.day)) \(two(clock.hour)):\(two(clock.minute)) \(wall.zone)"
    }
}
