/// What a tool itself answers, asked here and now, beside what the account expects of it
/// (`perch verify`, and the guard before a commit or push): one line per tool (or per host of
/// a tool that has several).
public struct ToolAnswer: Hashable, Sendable, Codable {
    /// Whether the tool's answer agrees with the account.
    public enum Verdict: String, Hashable, Sendable, Codable {
        /// The tool will use the account's identity.
        case agrees
        /// The tool will use another identity: ``ToolAnswer/reason`` says why and
        /// ``ToolAnswer/fix`` what puts it right.
        case disagrees
        /// The tool cannot tell (not installed, a server not reached, nothing expected).
        case unknown
    }

    /// The tool (`git`), with the host when it is asked per host (`ssh github.com`,
    /// `git https github.com`).
    public var tool: String
    /// The tool's registry name (`git`, `ssh`), for `--json` and for grouping.
    public var kind: IdentityTool
    /// What the account expects, in the tool's words (`Ada <ada@work.example>`); empty when the
    /// account names nothing to expect (the answer is then shown, not judged).
    public var expected: String
    /// What the tool answered, or nil when it could not be asked.
    public var answer: String?
    public var verdict: Verdict
    /// Why they disagree, or why the tool could not tell.
    public var reason: String?
    /// The command that puts a disagreement right.
    public var fix: String?
    /// The command that was asked (`git var GIT_AUTHOR_IDENT`), for the reader to run again.
    public var asked: String
    /// Whether a server was asked (`perch verify --online`).
    public var online: Bool
    /// How long the asking took, in milliseconds.
    public var milliseconds: Int64

    public init(
        tool: String, kind: IdentityTool, expected: String, answer: String?, verdict: Verdict, reason: String? = nil, fix: String? = nil,
        asked: String, online: Bool = false, milliseconds: Int64 = 0
    ) {
        self.tool = tool
        self.kind = kind
        self.expected = expected
        self.answer = answer
        self.verdict = verdict
        self.reason = reason
        self.fix = fix
        self.asked = asked
        self.online = online
        self.milliseconds = milliseconds
    }

    /// `✓` agrees, `✗` disagrees, `–` cannot tell.
    public var mark: String {
        switch verdict {
        case .agrees: "✓"
        case .disagrees: "✗"
        case .unknown: "–"
        }
    }

    /// An answer judged against `expected`: agrees when equal, disagrees (with `reason` and
    /// `fix`) otherwise; not judged (``Verdict/unknown``) when nothing is expected.
    public static func judged(
        _ tool: String, kind: IdentityTool, expected: String, answer: String, agrees: Bool? = nil, reason: String, fix: String?,
        asked: String, online: Bool = false
    ) -> ToolAnswer {
        guard !expected.isEmpty else {
            return ToolAnswer(
                tool: tool, kind: kind, expected: "", answer: answer, verdict: .unknown, reason: "nothing expected: shown, not judged",
                asked: asked, online: online)
        }
        let same = agrees ?? (answer == expected)
        return ToolAnswer(
            tool: tool, kind: kind, expected: expected, answer: answer, verdict: same ? .agrees : .disagrees, reason: same ? nil : reason,
            fix: same ? nil : fix, asked: asked, online: online)
    }

    /// An answer the tool could not give: `reason` says why (`kubectl not found`).
    public static func unknown(_ tool: String, kind: IdentityTool, expected: String, reason: String, asked: String, online: Bool = false)
        -> ToolAnswer
    {
        ToolAnswer(tool: tool, kind: kind, expected: expected, answer: nil, verdict: .unknown, reason: reason, asked: asked, online: online)
    }
}
