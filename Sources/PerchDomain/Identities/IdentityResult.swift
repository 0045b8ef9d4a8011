/// How applying one tool's identity went, as recorded with the switch and shown in Overview and
/// `perch status`.
public struct IdentityResult: Hashable, Sendable, Codable {
    /// What happened.
    public enum Status: String, Hashable, Sendable, Codable {
        /// The tool now has the account's identity.
        case applied
        /// Nothing was done: the program is not installed, or the tool is per shell.
        case skipped
        /// The tool was asked and failed, or timed out.
        case failed
        /// The tool already had what the switch asks for: nothing was done.
        case unchanged
        /// The account names nothing for the tool: it was given back what it had before Perch
        /// first changed it (the user's own baseline).
        case restored
        /// The tool was changed, then put back as it was because another tool failed.
        case rolledBack = "rolled back"
        /// Being applied now (the interface shows each step as it comes back).
        case pending
    }

    public var tool: IdentityTool
    public var status: Status
    /// What was set (`ada@work.example`), why it was skipped (`kubectl not found`) or why it
    /// failed (`exited with status 1: no context "prod"`).
    public var detail: String

    public init(tool: IdentityTool, status: Status, detail: String) {
        self.tool = tool
        self.status = status
        self.detail = detail
    }

    /// One line: `kube: applied (prod)`, `gh: skipped (gh not found)`, `git: failed (…)`,
    /// `gcloud: back to your own (default)`.
    public var summary: String {
        let verb = status == .restored ? "back to your own" : status.rawValue
        return "\(tool.rawValue): \(verb)" + (detail.isEmpty || detail == "your own" ? "" : " (\(detail))")
    }

    /// Whether the tool now has what the switch asked for (applied, unchanged or restored).
    public var succeeded: Bool { status == .applied || status == .unchanged || status == .restored }
}

/// The results of applying one account's identities after a switch.
public struct IdentityReport: Hashable, Sendable, Codable {
    /// The account switched to.
    public var accountID: String
    /// One result per tool the account names, in the order applied.
    public var results: [IdentityResult]

    public init(accountID: String, results: [IdentityResult]) {
        self.accountID = accountID
        self.results = results
    }

    /// The results that failed.
    public var failures: [IdentityResult] { results.filter { $0.status == .failed } }
}

/// What a tool reports now, next to what Perch expects of it (`perch status`, Overview).
public struct IdentityCheck: Hashable, Sendable, Codable {
    public var tool: IdentityTool
    /// What the account says the tool should have (`prod`, `ada@work.example`).
    public var expected: String
    /// What the tool reports now, or nil when it could not be read (then `note` says why).
    public var actual: String?
    /// Whether the two match; nil when not checkable here (a per-shell tool outside a shell set
    /// up with `perch shell-init`, a program not installed).
    public var matches: Bool?
    /// Why it could not be checked, or a hint (`run perch setup git`).
    public var note: String?
    /// The command that puts a mismatch right when a switch cannot (`perch setup git`), which
    /// ``note`` names too; nil when a switch is the fix, or nothing Perch runs is.
    public var fix: String?

    public init(tool: IdentityTool, expected: String, actual: String?, matches: Bool?, note: String? = nil, fix: String? = nil) {
        self.tool = tool
        self.expected = expected
        self.actual = actual
        self.matches = matches
        self.note = note
        self.fix = fix
    }

    /// `✓`, `✗`, or `–` when not checked.
    public var mark: String {
        switch matches {
        case true?: "✓"
        case false?: "✗"
        case nil: "–"
        }
    }
}

/// The current account's tool identities as the interface knows them: being applied, the last
/// report, and what the tools reported when last checked.
public struct IdentityStatus: Hashable, Sendable {
    public var accountID: String
    /// The results of the last apply, or nil before one in this run.
    public var report: IdentityReport?
    /// What each tool reported when last checked, or nil before a check.
    public var checks: [IdentityCheck]?
    /// Whether an apply is under way.
    public var applying: Bool
    /// What each tool itself answered when last verified (`v` in Overview), or nil before.
    public var answers: [ToolAnswer]?
    /// Whether a verification is under way, and whether it asks the servers too.
    public var verifying: Bool = false
    public var verifyingOnline: Bool = false

    public init(accountID: String, report: IdentityReport? = nil, checks: [IdentityCheck]? = nil, applying: Bool = false) {
        self.accountID = accountID
        self.report = report
        self.checks = checks
        self.applying = applying
    }
}
