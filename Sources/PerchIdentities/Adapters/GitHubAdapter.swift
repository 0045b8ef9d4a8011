import PerchDomain
import PerchStore

extension IdentityTool {
    public static let gh = IdentityTool("gh")
}

/// `gh`: the GitHub CLI's active user on a host, switched with `gh auth switch` and read from
/// gh's `hosts.yml` (`$GH_CONFIG_DIR`, else `$XDG_CONFIG_HOME/gh`).
public struct GitHubAdapter: ToolAdapter {
    /// `"gh": {"user": "ada", "host": "github.com"}`.
    public struct Setting: Hashable, Sendable {
        public var user: String
        public var host: String?
        public init(user: String, host: String? = nil) {
            self.user = user
            self.host = host
        }
        /// The host, `github.com` when none was given.
        public var hostname: String { host ?? "github.com" }
    }

    public init() {}
    public var tool: IdentityTool { .gh }
    /// How a scope carries it (the man page's SCOPES).
    public var scopeCarrier: String? { "its token, for gh alone" }
    /// Its member in the starter config, commented out.
    public var configExample: ToolConfigExample? { ToolConfigExample("\"gh\": { \"user\": \"you-at-work\" }") }
    /// Its proof asks the server whom the key or token belongs to: `expect` may name it.
    public var acceptsExpectation: Bool { true }
    public var title: String { "GitHub CLI" }
    public var fieldPaths: [String] { ["gh.user", "gh.host"] }
    public var program: String? { "gh" }
    /// gh help environment: `GH_TOKEN`, `GITHUB_TOKEN` (github.com) and `GH_ENTERPRISE_TOKEN`,
    /// `GITHUB_ENTERPRISE_TOKEN` (other hosts) take precedence over stored credentials.
    public var overrides: [ToolOverride] {
        ["GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"].map {
            ToolOverride($0, "gh help environment: a token in it takes precedence over the stored user")
        }
    }

    public static func setting(_ value: Setting) -> ToolSetting {
        ToolSetting(
            tool: .gh, summary: "\(value.user) on \(value.hostname)",
            fields: [ToolField("user", value.user)] + (value.host.map { [ToolField("host", $0)] } ?? []), value: value)
    }

    public func read(_ reader: inout ToolMemberReader) -> ToolSetting? {
        guard reader.expectObject(#"{"user": "ada", "host": "github.com"}"#) else { return nil }
        let user = reader.string("user", required: true)
        let host = reader.string("host")
        for (key, text) in [("user", user), ("host", host)] {
            if let text, let problem = ToolGrammar.plainNameProblem(text) { reader.problems.append("\(reader.place).\(key): \(problem)") }
        }
        reader.finish(known: ["user", "host"])
        return user.map { Self.setting(Setting(user: $0, host: host)) }
    }

    public func json(_ setting: ToolSetting) -> String {
        let gh = setting.value(as: Setting.self)
        return IdentityConfig.object([("user", gh?.user), ("host", gh?.host)])
    }

    public func wanted(_ setting: ToolSetting?, account: Account, in context: ToolContext) -> ToolState? {
        guard let gh = setting?.value(as: Setting.self) else { return nil }
        return ToolState(["user@" + gh.hostname: gh.user])
    }

    /// The active user of every host in `hosts.yml`, as `user@HOST` keys.
    public func current(in context: ToolContext) -> Result<ToolState, ToolFailure> {
        var state = ToolState()
        for host in ToolReaders.ghHosts(context.environment) { state["user@" + host.host] = host.active ?? "" }
        if state.values.isEmpty { state["user@github.com"] = "" }
        return .success(state)
    }

    /// A host that had no user cannot be given "no user" back by a switch (that is `gh auth
    /// logout`): such a wanted value is left out.
    public func isMet(_ wanted: ToolState, by now: ToolState) -> Bool {
        ToolState(wanted.values.filter { !$0.value.isEmpty }).isMet(by: now)
    }

    public func apply(_ state: ToolState, in context: ToolContext) -> ToolStep {
        for (key, user) in state.values.sorted(by: { $0.key < $1.key }) where key.hasPrefix("user@") && !user.isEmpty {
            let host = String(key.dropFirst(5))
            let run = context.run("gh", ["auth", "switch", "--hostname", host, "--user", user])
            // Bug: a switch with gh not installed skipped it, and status then said a switch would put it right.
            if case .notFound = run { return .failed(SwitchSession.unreadableDetail(self, ToolFailure("gh not found"), in: context)) }
            // gh before 2.40 (Debian's 2.23) has one account per host: no gh auth switch. Bug
            // (everyday issue): the real gh's error is its first line, then its usage, and the
            // failure kept only the last line (`exited with status 1:   token`), so the switch
            // never said why.
            if case .exited(let status, _, let stderr) = run, status != 0, stderr.contains("unknown command \"switch\"") {
                return .failed(Self.tooOld)
            }
            if let failure = run.failure { return .failed(failure) }
        }
        guard case .success(let now) = current(in: context), isMet(state, by: now) else {
            return .failed("gh reports another user after gh auth switch")
        }
        return .applied(describe(state))
    }

    public func describe(_ state: ToolState) -> String {
        let users = state.values.sorted { $0.key < $1.key }.filter { $0.key.hasPrefix("user@") }
        return users.map { "\($0.value.isEmpty ? "(none)" : $0.value) on \($0.key.dropFirst(5))" }.joined(separator: ", ")
    }

    /// Why a gh without `gh auth switch` cannot be switched, with what to do.
    static let tooOld =
        "this gh has no gh auth switch (several accounts per host came in gh 2.40): upgrade gh, or leave gh out of the account"

    public func check(_ setting: ToolSetting, in context: ToolContext) -> IdentityCheck {
        guard let gh = setting.value(as: Setting.self) else { return IdentityCheck(tool: .gh, expected: "", actual: nil, matches: nil) }
        let actual = ToolReaders.ghActiveUser(context.environment, host: gh.hostname)
        guard context.environment.which("gh") != nil else {
            // Bug: Overview showed ✗ with no reason, and status said a switch would put it right.
            let check = IdentityCheck(
                tool: .gh, expected: setting.summary, actual: actual.map { "\($0) on \(gh.hostname)" }, matches: nil,
                note: "gh is not installed (not on this PATH): a switch cannot change it; install gh, or leave gh out of the account")
            return overridden(check, in: context)
        }
        var check = IdentityCheck(
            tool: .gh, expected: setting.summary, actual: actual.map { "\($0) on \(gh.hostname)" } ?? "(none)", matches: actual == gh.user)
        // A gh that cannot switch (before 2.40): the hint, not a switch that cannot work; asked only on a mismatch.
        if actual != gh.user, Self.canSwitch(in: context) == false {
            check.note = Self.tooOld
            check.fix = "upgrade gh to 2.40 or later"
        }
        return overridden(check, in: context)
    }

    /// Whether the gh on `PATH` has `gh auth switch` (gh 2.40 and later): true when `gh auth
    /// switch --help` succeeds, false when gh answers `unknown command "switch"` (as 2.23 does),
    /// nil when gh is missing or says something else.
    public static func canSwitch(in context: ToolContext) -> Bool? {
        canSwitch(answer: context.run("gh", ["auth", "switch", "--help"]))
    }

    /// ``canSwitch(in:)`` from gh's answer to `gh auth switch --help` (asked by a check without a
    /// terminal, ``ProofContext/run(_:_:input:extra:)``).
    static func canSwitch(answer: ProgramResult) -> Bool? {
        switch answer {
        case .exited(0, _, _): true
        case .exited(_, _, let stderr) where stderr.contains("unknown command"): false
        default: nil
        }
    }

    /// The version `gh --version` gives (`gh version 2.23.0 (2023-02-27 Debian …)` → `2.23.0`),
    /// digits and dots only (what gh prints is data, never printed raw), or nil.
    public static func version(in context: ToolContext) -> String? {
        guard let output = context.run("gh", ["--version"]).output else { return nil }
        let words = output.prefix { $0 != "\n" }.split(separator: " ")
        guard words.count >= 3, words[0] == "gh", words[1] == "version" else { return nil }
        let number = words[2].hasPrefix("v") ? words[2].dropFirst() : words[2]
        guard !number.isEmpty, number.count <= 20, number.first?.isNumber == true,
            number.allSatisfy({ $0 == "." || ("0"..."9").contains($0) })
        else { return nil }
        return String(number)
    }

    /// `perch doctor`'s line on gh for the accounts that name it (`accounts`, their ids): the gh
    /// on `PATH`, its version, and whether it can switch between them; when it cannot (missing,
    /// or older than 2.40: no `gh auth switch`), what to do. Nil when no account names gh.
    public static func doctorLine(accounts: [String], in context: ToolContext) -> String? {
        guard !accounts.isEmpty else { return nil }
        let named = (accounts.count > 3 ? accounts.prefix(3) + ["…"] : accounts[...]).joined(separator: ", ")
        let whose = accounts.count == 1 ? "(account \(named) names gh)" : "(accounts \(named) name gh)"
        guard let path = context.environment.which("gh") else {
            return
                "not installed (not on this PATH) \(whose): a switch cannot change it; install gh 2.40 or later, or leave gh out of the account"
        }
        let at = "\(version(in: context).map { "gh \($0)" } ?? "gh") at \(GitConfigFile.shown(path, context.environment))"
        switch canSwitch(in: context) {
        case true?: return "\(at) \(whose): has gh auth switch (gh 2.40 or later), so a switch can change the user"
        case false?: return "\(at) \(whose): \(tooOld)"
        case nil: return "\(at) \(whose): cannot tell whether it has gh auth switch (gh auth switch --help failed)"
        }
    }

    /// The user's token, asked of gh (`gh auth token --hostname HOST --user USER`), given to gh
    /// only, as `GH_TOKEN` for github.com, else `GH_ENTERPRISE_TOKEN` with `GH_HOST` (gh help
    /// environment: a token there takes precedence over the stored credentials). It is never
    /// written to a file (see DECISIONS.md). A failure when gh is missing or has no token.
    public func scope(_ setting: ToolSetting?, account: Account, over environment: [String: String], in context: ToolContext)
        -> Result<ToolScope, ToolFailure>
    {
        guard let gh = setting?.value(as: Setting.self) else { return .success(ToolScope()) }
        let run = context.run("gh", ["auth", "token", "--hostname", gh.hostname, "--user", gh.user])
        if case .notFound = run { return .failure(ToolFailure("gh not found")) }
        guard let token = run.output?.trimmingWhitespace, run.failure == nil, !token.isEmpty else {
            return .failure(ToolFailure("gh has no token for \(gh.user) on \(gh.hostname) (gh auth login --hostname \(gh.hostname))"))
        }
        let entries =
            gh.hostname == "github.com"
            ? [EnvironmentEntry(name: "GH_TOKEN", value: token)]
            : [EnvironmentEntry(name: "GH_ENTERPRISE_TOKEN", value: token), EnvironmentEntry(name: "GH_HOST", value: gh.hostname)]
        let reader = ["gh", "auth", "token", "--hostname", gh.hostname, "--user", gh.user]
        // Every token variable gh reads is removed from the process (the account's goes to gh
        // alone): GITHUB_TOKEN is treated as GH_TOKEN is, and another identity's token never
        // stays beside the account's (gh help environment). Bug (trust issue): it stayed set in perch exec.
        let others = overrides.map { ScopeVariable($0.name, nil) }
        return .success(
            ToolScope(
                variables: others, secrets: ["gh": entries],
                readers: Dictionary(uniqueKeysWithValues: entries.filter(\.isSecret).map { ($0.name, reader) })))
    }

    /// The user's own active user on github.com, else on their only host; nil when a token
    /// variable of the user's own already chooses (gh help environment), or no host has a user.
    /// Hosts besides that one are not sealed: one process has one token variable for them.
    public func ownSetting(_ own: ToolState, over environment: [String: String]) -> ToolSetting? {
        guard !overrides.contains(where: { !(environment[$0.name] ?? "").isEmpty }) else { return nil }
        let users = own.values.filter { $0.key.hasPrefix("user@") && !$0.value.isEmpty }
        if let user = users["user@github.com"] { return Self.setting(Setting(user: user)) }
        guard users.count == 1, let (key, user) = users.first else { return nil }
        return Self.setting(Setting(user: user, host: String(key.dropFirst(5))))
    }

    /// The user on its host (`github.com` when none is named), in lowercase as GitHub compares logins.
    public func importIdentity(_ setting: ToolSetting, in environment: IdentityEnvironment) -> String {
        guard let gh = setting.value(as: Setting.self) else { return setting.summary }
        return (gh.user + "@" + gh.hostname).lowercased()
    }

    public func importCandidates(in context: ToolContext) -> [ImportCandidate] {
        ToolReaders.ghHosts(context.environment).flatMap { host in
            (host.users.isEmpty ? host.active.map { [$0] } ?? [] : host.users).map { user in
                ImportCandidate(
                    idBase: "gh-" + user, name: "\(user) on \(host.host)", group: "GitHub", handle: "@" + user,
                    setting: Self.setting(Setting(user: user, host: host.host == "github.com" ? nil : host.host)),
                    keys: host.host == "github.com" ? [user] : [user, host.host])
            }
        }
    }
}

// MARK: - Verify

extension GitHubAdapter {
    /// gh itself: `gh config get user -h HOST` (the active user gh keeps for the host), and git
    /// over https: `git credential fill` for the host (gitcredentials(7)), the user name only;
    /// the password or token it may return is dropped unread, and nothing prompts.
    public func ask(_ setting: ToolSetting, in context: ProofContext) -> [ToolAnswer] {
        guard let gh = setting.value(as: Setting.self) else { return [] }
        return [askUser(gh, in: context), Self.askCredential(url: "https://\(gh.hostname)", expected: gh.user, in: context)]
    }

    func askUser(_ gh: Setting, in context: ProofContext) -> ToolAnswer {
        let expected = "\(gh.user) on \(gh.hostname)"
        let asked = "gh config get user -h \(gh.hostname)"
        let environment = context.tool.environment
        if let token = overrides.map(\.name).first(where: { environment[$0] != nil }) {
            return .unknown(
                "gh", kind: .gh, expected: expected,
                reason:
                    "\(token) (…\(environment[token]!.suffix(4))) in this environment is used instead of the stored user; perch verify --online asks whose it is",
                asked: asked)
        }
        let run = context.run("gh", ["config", "get", "user", "-h", gh.hostname])
        if case .notFound = run { return .unknown("gh", kind: .gh, expected: expected, reason: "gh not found", asked: asked) }
        let user = run.output?.trimmingWhitespace ?? ""
        // Bug (guard issue, item 7): with a gh before 2.40 (Debian's 2.23), verify's fix was
        // `perch switch ACCOUNT`, which cannot work there: no gh auth switch.
        if user != gh.user, Self.canSwitch(answer: context.run("gh", ["auth", "switch", "--help"])) == false {
            return ToolAnswer(
                tool: "gh", kind: .gh, expected: expected, answer: user.isEmpty ? "(none) on \(gh.hostname)" : "\(user) on \(gh.hostname)",
                verdict: .disagrees, reason: Self.tooOld, fix: "upgrade gh to 2.40 or later", asked: asked)
        }
        return .judged(
            "gh", kind: .gh, expected: expected, answer: user.isEmpty ? "(none) on \(gh.hostname)" : "\(user) on \(gh.hostname)",
            reason: "gh's active user on \(gh.hostname) is \(user.isEmpty ? "none" : user)", fix: "perch switch \(context.account.id)",
            asked: asked)
    }

    /// The user git's credential helper gives for `https://HOST`.
    static func askCredential(url: String, expected: String, in context: ProofContext) -> ToolAnswer {
        let host = GitGuard.urlHost(url) ?? url
        let label = "git https \(host)"
        let asked = "git credential fill (url=\(url))"
        // Bug (trust issue): perch verify and the guard ran a repository's credential.helper.
        if context.repositorySets("^credential\\..*helper$").contains(where: { $0.hasSuffix(".helper") }) {
            return .unknown(
                label, kind: .gh, expected: expected,
                reason:
                    "this repository sets credential.helper in its own config: not run (git runs it on fetch and push here; see it with git config --show-origin --get-regexp 'credential\\..*helper')",
                asked: "git config --show-scope --get-regexp 'credential\\..*helper'")
        }
        // The whole URL, as git gives it when it pushes (git-credential(1), `url=`): git itself
        // keeps the path only where credential.useHttpPath applies and takes the URL's user name,
        // so the helper is asked exactly what a push would ask it. A line break in the URL would
        // be a second attribute: such a URL is not asked about.
        guard !url.contains(where: { $0.isNewline || $0 == "\0" }) else {
            return .unknown(label, kind: .gh, expected: expected, reason: "the URL holds a line break: not asked", asked: asked)
        }
        let run = context.run("git", ["-c", "credential.interactive=never", "credential", "fill"], input: "url=\(url)\n\n")
        switch run {
        case .notFound: return .unknown(label, kind: .gh, expected: expected, reason: "git not found", asked: asked)
        case .exited(0, let stdout, _):
            let user =
                stdout.split(whereSeparator: \.isNewline).first { $0.hasPrefix("username=") }.map { String($0.dropFirst(9)) } ?? ""
            guard !user.isEmpty else {
                return .unknown(label, kind: .gh, expected: expected, reason: "no stored credential names a user", asked: asked)
            }
            // Bug (guard issue): the fix offered was `git credential reject`, which erased the
            // stored credential. Nothing suggested removes one.
            return .judged(
                label, kind: .gh, expected: expected, answer: user,
                reason: "git's credential helper gives \(user)'s credential for \(url)",
                fix:
                    "gh auth setup-git --hostname \(host) (then gh auth switch), or give this remote the user in its URL (https://\(expected)@\(host)/…) so git asks the helper for that user's credential",
                asked: asked)
        case .exited(_, _, let stderr)
        where stderr.contains("terminal prompts disabled") || stderr.contains("/dev/tty")
            || stderr.contains("No such device or address"):
            return .unknown(
                label, kind: .gh, expected: expected,
                reason: "would prompt: no stored credential answers for \(url) without asking on the terminal", asked: asked)
        default:
            return .unknown(label, kind: .gh, expected: expected, reason: "no credential stored for \(url)", asked: asked)
        }
    }

    /// `gh api user`: the login the server gives for gh's credentials here (`expect.gh`, else
    /// `gh.user`, names who it should be).
    public func askServer(_ setting: ToolSetting, in context: ProofContext) -> [ToolAnswer] {
        guard let gh = setting.value(as: Setting.self) else { return [] }
        let expected = context.account.identities.expect["gh"] ?? gh.user
        let asked = "gh api user --hostname \(gh.hostname)"
        let run = context.run("gh", ["api", "user", "--hostname", gh.hostname, "--jq", ".login"])
        switch run {
        case .notFound: return [.unknown("gh (server)", kind: .gh, expected: expected, reason: "gh not found", asked: asked, online: true)]
        case .exited(0, let stdout, _) where !stdout.trimmingWhitespace.isEmpty:
            let login = stdout.trimmingWhitespace
            return [
                .judged(
                    "gh (server)", kind: .gh, expected: expected, answer: login, agrees: login.lowercased() == expected.lowercased(),
                    reason: "the server knows gh's token as \(login)", fix: "gh auth switch --hostname \(gh.hostname) --user \(gh.user)",
                    asked: asked, online: true)
            ]
        default:
            return [
                .unknown(
                    "gh (server)", kind: .gh, expected: expected, reason: "could not ask \(gh.hostname): \(run.failure ?? "no answer")",
                    asked: asked,
                    online: true)
            ]
        }
    }
}

// MARK: - Agents

extension GitHubAdapter {
    /// An empty gh config folder of Perch's, and no token of the user's (gh help environment).
    public func closed(in folder: String) throws(ToolFailure) -> [ScopeVariable] {
        [ScopeVariable("GH_CONFIG_DIR", try closedFile("gh", in: folder))]
            + ["GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN", "GH_HOST"].map { ScopeVariable($0, nil) }
    }
}
