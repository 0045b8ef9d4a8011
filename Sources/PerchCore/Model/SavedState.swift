/// What Perch remembers between runs: the current account and the switches made so far.
///
/// Stored as JSON (`state.json`): `{"version": 1, "currentAccount": "work", "switchCount": 3,
/// "switchesPerAccount": {"work": 2, "oss": 1}}`.
public struct SavedState: Codable, Hashable, Sendable {
    /// The format version this build writes.
    public static let currentVersion = 1

    public var version: Int
    /// Id of the current account, or nil before the first switch.
    public var currentAccount: String?
    /// Switches made so far, all accounts together.
    public var switchCount: Int
    /// Switches made so far, by the id of the account switched to.
    public var switchesPerAccount: [String: Int]

    public init(currentAccount: String? = nil, switchCount: Int = 0, switchesPerAccount: [String: Int] = [:]) {
        self.version = Self.currentVersion
        self.currentAccount = currentAccount
        self.switchCount = switchCount
        self.switchesPerAccount = switchesPerAccount
    }

    /// This state after a switch to `accountID`: it becomes current and both counters go up by one.
    public func recordingSwitch(to accountID: String) -> SavedState {
        var next = self
        next.version = Self.currentVersion
        next.currentAccount = accountID
        next.switchCount += 1
        next.switchesPerAccount[accountID, default: 0] += 1
        return next
    }
}
