/// One switch of the history, with its time as a number.
public struct SwitchEvent: Hashable, Sendable {
    /// Id of the account switched to.
    public var account: String
    /// When, in seconds since the epoch.
    public var time: Int64
    /// Where it was made.
    public var source: SwitchSource
    /// Whether this interface made it (rather than another window's or the command line).
    public var here: Bool

    public init(account: String, time: Int64, source: SwitchSource, here: Bool = false) {
        self.account = account
        self.time = time
        self.source = source
        self.here = here
    }

    /// Where it was made, as Stats shows it.
    public var sourceText: String {
        here ? "this window" : source == .cli ? source.title : "another window"
    }
}

/// The switch history as Stats and `perch report` read it: the time spent in each account is
/// the interval from a switch to it until the next switch (or now, for the last one).
public struct SwitchHistory: Hashable, Sendable {
    /// Switches, oldest first (records whose time cannot be read are left out).
    public private(set) var events: [SwitchEvent] {
        didSet { reindex() }
    }
    /// The accounts of ``events``, each once, and each event's account as an index in it, so
    /// that summing time per account adds into an array (a frame of Stats over 10,000 switches
    /// hashes no string).
    private var ids: [String] = []
    private var slots: [Int] = []

    public init(events: [SwitchEvent] = []) {
        self.events = events.sorted { $0.time < $1.time }
        reindex()
    }

    private mutating func reindex() {
        var index: [String: Int] = [:]
        ids = []
        slots = events.map { event in
            if let slot = index[event.account] { return slot }
            index[event.account] = ids.count
            ids.append(event.account)
            return ids.count - 1
        }
    }

    /// The history log's records, in order; those with an unreadable time are skipped.
    public init(records: [SwitchRecord]) {
        var events: [SwitchEvent] = []
        events.reserveCapacity(records.count)
        for record in records {
            guard let time = WallTime.parseISO8601(record.time) else { continue }
            events.append(SwitchEvent(account: record.account, time: time, source: record.source))
        }
        self.init(events: events)
    }

    /// Adds a switch (one made now, or read from the log after another process made it).
    public mutating func append(_ event: SwitchEvent) {
        if let last = events.last, last.time > event.time {
            events.insert(event, at: events.firstIndex { $0.time > event.time } ?? events.endIndex)
        } else {
            events.append(event)
        }
        if events.count > SavedState.historyLimit { events.removeFirst(events.count - SavedState.historyLimit) }
    }

    /// Seconds spent in each account within `from..<to` (seconds since the epoch), counting the
    /// last switch's account until `now`; accounts with time, the most first (ties by id).
    public func timeSpent(from: Int64, to: Int64, now: Int64) -> [(account: String, seconds: Int64)] {
        var totals = [Int64](repeating: 0, count: ids.count)
        // Only switches before `to` matter, and of those before `from` only the last.
        var first = events.partitionIndex { $0.time >= from }
        if first > 0 { first -= 1 }
        var index = first
        while index < events.count, events[index].time < to {
            let start = max(events[index].time, from)
            let end = min(index + 1 < events.count ? events[index + 1].time : max(now, events[index].time), to)
            if end > start { totals[slots[index]] += end - start }
            index += 1
        }
        return totals.indices.filter { totals[$0] > 0 }.map { (ids[$0], totals[$0]) }.sorted {
            $0.seconds != $1.seconds ? $0.seconds > $1.seconds : $0.account < $1.account
        }
    }

    /// Number of switches in each of the days that start at `dayStarts` (ascending; each day
    /// ends where the next starts, the last at `end`).
    public func switchesPerDay(dayStarts: [Int64], end: Int64) -> [Int] {
        var counts = [Int](repeating: 0, count: dayStarts.count)
        guard let first = dayStarts.first else { return counts }
        var index = events.partitionIndex { $0.time >= first }
        var day = 0
        while index < events.count, events[index].time < end {
            while day + 1 < dayStarts.count, events[index].time >= dayStarts[day + 1] { day += 1 }
            counts[day] += 1
            index += 1
        }
        return counts
    }
}

extension Array {
    /// The first index whose element satisfies `predicate`, for a predicate that is false then
    /// true along the array (binary search).
    func partitionIndex(where predicate: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

/// Hours and minutes as Stats and `perch report` write them: `2h 05m`, `45m`; under a minute,
/// seconds (`40s`), so that rows under a total of `1m` do not all read `0m`; `0m` for none.
public func durationText(_ seconds: Int64) -> String {
    if seconds > 0 && seconds < 60 { return "\(seconds)s" }
    let minutes = max(0, seconds) / 60
    guard minutes >= 60 else { return "\(minutes)m" }
    let m = minutes % 60
    return "\(minutes / 60)h \(m < 10 ? "0" : "")\(m)m"
}
