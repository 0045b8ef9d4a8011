import FoundationEssentials
import Glibc
import PerchDomain
import PerchInterface
import PerchStore

/// `perch report`: the time spent in each account, for timesheets.
struct ReportCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "report", summary: "print the time spent in each account (for timesheets)")
    static let details: String =
        "Time in an account runs from a switch to it until the next switch (or now).\n"
        + "Dates are local (TZ, else the system's zone), shown with the zone; --since is the\n"
        + "first day (default: 29 days before today), --until the last day, included\n"
        + "(default: today). --csv prints id,name,minutes,hours; --json an object with\n"
        + "since, until, timeZone, utcOffset, accounts [{id, name, seconds}] and totalSeconds."

    /// An option whose value is a local day, `YYYY-MM-DD`.
    private static func date(_ name: String, help: String) -> OptionDefinition<ReportDate> {
        OptionDefinition(
            info: OptionInfo(names: [name], valueName: "DATE", help: help),
            parse: { value throws(UsageError) in
                guard let date = ReportDate(value) else {
                    throw UsageError(description: "option \(name) needs a date as YYYY-MM-DD, not '\(value)'")
                }
                return date
            })
    }

    var files = FileOptions()
    /// `--since DATE`: the first local day; nil for 29 days before `until`.
    @Option(date("--since", help: "from this local day (YYYY-MM-DD)")) var since: ReportDate? = nil
    /// `--until DATE`: the last local day, included; nil for today.
    @Option(date("--until", help: "to this local day, included (YYYY-MM-DD)")) var until: ReportDate? = nil
    /// `--json`.
    @Option(SharedOption.json) var json = false
    /// `--csv`.
    @Option(.flag("--csv", help: "print CSV instead of text")) var csv = false

    func validate() throws(UsageError) {
        if json, csv { throw UsageError(description: "options --json and --csv do not go together") }
        if let since, let until, until < since {
            throw UsageError(description: "--until \(until) is before --since \(since)")
        }
    }

    func run(_ tool: CommandLineTool) -> Int32 { tool.report(self) }
}

/// `perch report`: the time spent in each account between two local dates, from the history
/// (the same computation as the Stats pane, ``SwitchHistory/timeSpent(from:to:now:)``).
extension CommandLineTool {
    func report(_ options: ReportCommand) -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        let records: [SwitchRecord]
        do {
            records = try StateStore(path: paths.state).history.read()
        } catch {
            console.error("cannot read the history: \(error)")
            return ExitStatus.unmet
        }
        let now = LocalTime.now()
        let todayParts = now.localDate(now.seconds)
        let today = ReportDate(year: todayParts.year, month: todayParts.month, day: todayParts.day)
        let until = options.until ?? today
        let since = options.since ?? until.adding(days: -29)
        let dayAfter = until.adding(days: 1)
        guard let from = LocalTime.startOfDay(year: since.year, month: since.month, day: since.day),
            let to = LocalTime.startOfDay(year: dayAfter.year, month: dayAfter.month, day: dayAfter.day)
        else {
            console.error("cannot find the local start of \(since) or \(dayAfter)")
            return ExitStatus.unmet
        }
        // The zone as it is at the end of the period (a daylight-saving change inside it is
        // taken into account day by day; the label names the end).
        let zone = LocalTime.at(min(to - 1, now.seconds))
        let spent = SwitchHistory(records: records).timeSpent(from: from, to: to, now: now.seconds)
        let names = Dictionary(config.accounts.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        // An account no longer in the config (bug: listed with an empty name in the CSV and the table).
        let shownNames = Dictionary(
            spent.map { ($0.account, names[$0.account] ?? Self.removedName) }, uniquingKeysWith: { first, _ in first })
        let total = spent.reduce(0) { $0 + $1.seconds }
        if options.json {
            return printJSON(
                ReportJSON(
                    since: since.description, until: until.description, timeZone: zone.zone, utcOffset: zone.offsetText,
                    accounts: spent.map { ReportJSON.Entry(id: $0.account, name: names[$0.account], seconds: $0.seconds) },
                    totalSeconds: total))
        }
        if options.csv {
            console.print("id,name,minutes,hours")
            for entry in spent {
                let minutes = entry.seconds / 60
                console.print(
                    [entry.account, shownNames[entry.account] ?? "", String(minutes), Self.hours(entry.seconds)].map(Self.csvField).joined(
                        separator: ","))
            }
            return ExitStatus.ok
        }
        console.print("Time per account, \(since) to \(until) (\(shown(zone.zone)), UTC\(zone.offsetText))")
        if spent.isEmpty {
            console.print("No time recorded in this period.")
            return ExitStatus.ok
        }
        let idWidth = spent.map { columns(shown($0.account)) }.max() ?? 0
        let nameWidth = spent.map { columns(shown(shownNames[$0.account] ?? "")) }.max() ?? 0
        for entry in spent {
            let id = shown(entry.account)
            let name = shown(shownNames[entry.account] ?? "")
            console.print(
                "  " + id.padded(toColumns: idWidth + 2) + name.padded(toColumns: nameWidth + 2) + Self.right(durationText(entry.seconds)))
        }
        console.print("  " + "total".padded(toColumns: idWidth + 2 + nameWidth + 2) + Self.right(durationText(total)))
        return ExitStatus.ok
    }

    /// The name shown for an account that is no longer in the config (`--json` gives null).
    static let removedName = "(removed)"

    /// Hours with two decimals (`4.50`), for a spreadsheet.
    static func hours(_ seconds: Int64) -> String {
        let hundredths = (seconds * 100 + 1800) / 3600
        let rest = hundredths % 100
        return "\(hundredths / 100).\(rest < 10 ? "0" : "")\(rest)"
    }

    /// A duration right-aligned in 9 columns.
    static func right(_ text: String) -> String { String(repeating: " ", count: max(0, 9 - text.count)) + text }

    /// A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. A field
    /// that starts with `=`, `+`, `-` or `@` gets a leading `'` so a spreadsheet does not run it.
    static func csvField(_ text: String) -> String {
        var text = PerchApp.visibleControls(text)
        if let first = text.first, "=+-@".contains(first) { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" }) else { return text }
        return "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}

/// What `perch report --json` prints.
private struct ReportJSON: Encodable {
    struct Entry: Encodable {
        var id: String
        var name: String?
        var seconds: Int64
    }
    var since: String
    var until: String
    var timeZone: String
    var utcOffset: String
    var accounts: [Entry]
    var totalSeconds: Int64
}
