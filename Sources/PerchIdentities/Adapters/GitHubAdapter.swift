import PerchCore
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
            if case .notFound = run { return .skipped("gh not found") }
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

    public func check(_ setting: ToolSetting, in context: ToolContext) -> IdentityCheck {
        guard let gh = setting.value(as: Setting.self) else { return IdentityCheck(tool: .gh, expected: "", actual: nil, matches: nil) }
        let actual = ToolReaders.ghActiveUser(context.environment, host: gh.hostname)
        let check = IdentityCheck(
            tool: .gh, expected: setting.summary, actual: actual.map { "\($0) on \(gh.hostname)" } ?? "(none)", matches: actual == gh.user)
        return overridden(check, in: context)
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
        return .success(ToolScope(secrets: ["gh": entries]))
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
