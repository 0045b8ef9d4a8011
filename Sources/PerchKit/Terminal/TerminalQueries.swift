/// A question Perch asks the terminal, answered on the input (``TerminalReply``).
public enum TerminalQuery: Hashable, Sendable, CaseIterable {
    /// Whether the terminal speaks the kitty keyboard protocol: `CSI ? u` followed by a primary
    /// device attributes request `CSI c`, which every terminal answers, so a terminal without the
    /// protocol still ends the wait (kitty "Detection of support for this protocol").
    case keyboardProtocol
    /// Where the cursor is: DSR 6, `CSI 6 n`, answered by `CSI row ; column R` (xterm ctlseqs).
    case cursorPosition
    /// The default background colour: OSC 11 with `?` (xterm ctlseqs "Operating System
    /// Commands", `Ps = 1 1`), answered `OSC 11 ; rgb:RRRR/GGGG/BBBB` by terminals that know it.
    /// Many do not answer (GNU screen, tmux without a client, the Linux console), so it is sent
    /// before a query that every terminal answers (``keyboardProtocol`` or ``deviceAttributes``,
    /// whose device attributes end the wait for it, or ``cursorPosition``).
    case backgroundColor
    /// The primary device attributes alone, `CSI c`, which every terminal answers: the end of
    /// the wait for ``backgroundColor`` where the keyboard protocol is not asked.
    case deviceAttributes

    /// The bytes sent.
    public var bytes: [UInt8] {
        switch self {
        case .keyboardProtocol: Array("\u{1B}[?u\u{1B}[c".utf8)
        case .cursorPosition: Array("\u{1B}[6n".utf8)
        case .backgroundColor: Array("\u{1B}]11;?\u{1B}\\".utf8)
        case .deviceAttributes: Array("\u{1B}[c".utf8)
        }
    }

    /// DECRQM for the DEC private mode `mode` (`CSI ? mode $ p`), answered `CSI ? mode ; value $ y`
    /// (xterm ctlseqs "Request DEC private mode"): a diagnosis asks it for SGR mouse (1006)
    /// and bracketed paste (2004), before ``keyboardProtocol``, whose device attributes end the wait.
    public static func privateModeRequest(_ mode: Int) -> [UInt8] { Array("\u{1B}[?\(mode)$p".utf8) }

    /// Whether `reply` ends the wait for this query: the device attributes end the keyboard
    /// query (the flags, when they come, come before them); they and the cursor's position end
    /// the background colour's (sent before them; a terminal answers in order).
    func isAnswered(by reply: TerminalReply) -> Bool {
        switch (self, reply) {
        case (.keyboardProtocol, .primaryDeviceAttributes), (.cursorPosition, .cursorPosition),
            (.backgroundColor, .backgroundColor), (.backgroundColor, .primaryDeviceAttributes), (.backgroundColor, .cursorPosition),
            (.deviceAttributes, .primaryDeviceAttributes):
            true
        default: false
        }
    }
}

/// The queries sent to the terminal and not answered yet, each with the time it was sent.
///
/// Nothing asked for is ever left for the shell: before the terminal is given back, the event
/// loop reads input until ``isWaiting`` is false, at most until ``deadline``. A query not
/// answered within ``replyTimeoutMilliseconds`` of being sent is taken as one the terminal does
/// not answer: it is waited for no more, and not asked again (``shouldAsk(_:)``). Pure: times are
/// inputs, in milliseconds on the loop's monotonic clock.
public struct TerminalQueries: Hashable, Sendable {
    /// Longest wait for an answer after its query was sent, in milliseconds.
    public static let replyTimeoutMilliseconds: Int64 = 500

    /// Queries sent and not yet answered, with when they were sent.
    public private(set) var waiting: [TerminalQuery: Int64] = [:]
    /// Queries the terminal did not answer in time.
    public private(set) var unanswered: Set<TerminalQuery> = []

    /// No query sent yet.
    public init() {}

    /// Whether `query` is worth sending: it is not already waiting for its answer, and the
    /// terminal has not let it go unanswered before.
    public func shouldAsk(_ query: TerminalQuery) -> Bool { waiting[query] == nil && !unanswered.contains(query) }

    /// Notes that `query` was sent at `time` (ms).
    public mutating func sent(_ query: TerminalQuery, at time: Int64) { waiting[query] = time }

    /// Takes in `reply`: the queries it answers wait no more (a late answer to one given up on
    /// included: the terminal does answer it after all).
    public mutating func received(_ reply: TerminalReply) {
        for query in waiting.keys where query.isAnswered(by: reply) { waiting[query] = nil }
        for query in unanswered where query.isAnswered(by: reply) { unanswered.remove(query) }
    }

    /// Gives up at `time` (ms) on every query sent ``replyTimeoutMilliseconds`` or more before.
    public mutating func expire(at time: Int64) {
        for (query, sentAt) in waiting where time - sentAt >= Self.replyTimeoutMilliseconds {
            waiting[query] = nil
            unanswered.insert(query)
        }
    }

    /// Whether an answer is still expected.
    public var isWaiting: Bool { !waiting.isEmpty }

    /// When the last wait ends (ms): the latest send plus ``replyTimeoutMilliseconds``; nil when
    /// nothing is waiting.
    public var deadline: Int64? { waiting.values.max().map { $0 + Self.replyTimeoutMilliseconds } }
}
