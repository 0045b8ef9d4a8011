/// The wall clock as the event loop read it: the core has no clock of its own, so Stats and
/// the Catalog get the time as an input (a ``WallTime`` outcome for the root).
public struct WallTime: Hashable, Sendable {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var seconds: Int64
    /// The local time zone's offset from UTC at that moment, in seconds (east is positive).
    public var utcOffset: Int
    /// The zone's abbreviation (`CET`, `UTC`), shown beside local dates.
    public var zone: String
    /// The loop's monotonic clock when it was read, in milliseconds: the wall time of a later
    /// moment on that clock is `seconds` plus the milliseconds since.
    public var monotonic: Int64

    public init(seconds: Int64, utcOffset: Int = 0, zone: String = "UTC", monotonic: Int64 = 0) {
        self.seconds = seconds
        self.utcOffset = utcOffset
        self.zone = zone
        self.monotonic = monotonic
    }

    /// The wall time at `clock` milliseconds on the loop's monotonic clock, in seconds.
    public func seconds(at clock: Int64) -> Int64 { seconds + max(0, clock - monotonic) / 1000 }

    /// The start of the local day holding `time` (seconds since the epoch), with this offset.
    public func startOfDay(_ time: Int64) -> Int64 {
        let local = time + Int64(utcOffset)
        return local - Self.floorMod(local, 86_400) - Int64(utcOffset)
    }

    /// The offset as `+01:00`.
    public var offsetText: String {
        let sign = utcOffset < 0 ? "-" : "+"
        let minutes = abs(utcOffset) / 60
        let h = minutes / 60
        let m = minutes % 60
        return "\(sign)\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m)"
    }

    static func floorMod(_ a: Int64, _ b: Int64) -> Int64 { ((a % b) + b) % b }

    /// Year, month and day of the local date holding `time` (seconds since the epoch).
    public func localDate(_ time: Int64) -> (year: Int, month: Int, day: Int) {
        Self.civil(fromDays: (time + Int64(utcOffset) - Self.floorMod(time + Int64(utcOffset), 86_400)) / 86_400)
    }

    /// Hours and minutes of the local time of `time`.
    public func localClock(_ time: Int64) -> (hour: Int, minute: Int) {
        let second = Int(Self.floorMod(time + Int64(utcOffset), 86_400))
        return (second / 3600, second % 3600 / 60)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    public static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date of a day count since 1970-01-01 (`civil_from_days`).
    public static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (Int(yoe + era * 400 + (m <= 2 ? 1 : 0)), Int(m), Int(d))
    }

    /// Seconds since the epoch of an ISO 8601 UTC time as the history writes it
    /// (`2026-11-30T08:31:12Z`, fractions of a second ignored), or nil when it is not one.
    public static func parseISO8601(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54 || bytes[10] == 0x20, bytes[13] == 0x3A,
            bytes[16] == 0x3A, bytes.last == 0x5A
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(bytes[index]) - 0x30
                guard digit >= 0, digit <= 9 else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19), (1...12).contains(month), (1...31).contains(day), hour < 24,
            minute < 60, second < 61
        else { return nil }
        return days(year: year, month: month, day: day) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }
}
