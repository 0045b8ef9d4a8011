import FoundationEssentials
import Glibc
import PerchDomain
import PerchStore

/// When one of an account's credentials ends, as its tool records it locally (no network call).
public struct SessionExpiry: Hashable, Sendable, Codable {
    /// The tool (`kube`, `aws`).
    public var tool: IdentityTool
    /// What ends (`certificate of user ada`, `SSO session`, `temporary credentials`).
    public var what: String
    /// When, in seconds since 1970 (UTC).
    public var ends: Int64
    /// The tool's own command that renews it (`aws sso login --profile work`), or nil.
    public var renew: String?

    public init(tool: IdentityTool, what: String, ends: Int64, renew: String?) {
        self.tool = tool
        self.what = what
        self.ends = ends
        self.renew = renew
    }

    /// The end as ISO 8601 in UTC (`2026-12-03T15:00:00Z`).
    public var endsText: String { Date(timeIntervalSince1970: TimeInterval(ends)).formatted(.iso8601) }

    /// Whether it has ended at `now` (seconds since 1970).
    public func hasEnded(at now: Int64) -> Bool { ends <= now }

    /// `certificate ends in 3 h`, `SSO session ended 2 d ago`, as of `now`.
    public func phrase(at now: Int64) -> String {
        let left = ends - now
        // Bug: "temporary credentials ends in …".
        let plural = what.hasSuffix("credentials")
        return left <= 0 ? "\(what) ended \(Self.span(-left)) ago" : "\(what) \(plural ? "end" : "ends") in \(Self.span(left))"
    }

    /// A span of seconds in the largest whole unit: `45 s`, `12 min`, `3 h`, `2 d`.
    static func span(_ seconds: Int64) -> String {
        switch seconds {
        case ..<60: "\(seconds) s"
        case ..<3600: "\(seconds / 60) min"
        case ..<86_400: "\(seconds / 3600) h"
        default: "\(seconds / 86_400) d"
        }
    }
}

/// Reading when an account's credentials end, where each tool keeps it, without a network call:
/// kube's client certificate (its `notAfter`, read by openssl from the kubeconfig's
/// `client-certificate-data` or `client-certificate`), and AWS's SSO session (`expiresAt` of the
/// token in `~/.aws/sso/cache/` for the profile's `sso_session` or `sso_start_url`) or the end
/// of temporary credentials a tool wrote beside them (`aws_expiration`, `x_security_token_expires`,
/// `expiration`) or the aws CLI cached for an assumed role (`cli/cache`). gcloud keeps its
/// tokens in SQLite databases, and gh's tokens do not end; for
/// them, and wherever nothing is recorded, nothing is shown.
/// A tool adapter's capability: it reads when the sessions its tool keeps end
/// (``SessionExpiries`` asks each adapter that has it; none is listed anywhere else).
protocol SessionExpiring {
    /// Whether it reads them (a described tool only when its description names an `expiry`).
    var readsSessionEnd: Bool { get }
    /// Where the end is read, as `perch verify` says it asked.
    var sessionEndSource: String { get }
    /// The ends of the sessions `setting` names, adding to `inputs` the files read that the
    /// environment alone does not name (for ``SessionExpiryCache``).
    func sessionEnds(_ setting: ToolSetting, in context: ToolContext, inputs: inout [String]) -> [SessionExpiry]
}

extension KubeAdapter: SessionExpiring {
    var readsSessionEnd: Bool { true }
    var sessionEndSource: String { "openssl x509 -enddate (the kubeconfig's client certificate)" }
    /// The end of the client certificate of the setting's context.
    func sessionEnds(_ setting: ToolSetting, in context: ToolContext, inputs: inout [String]) -> [SessionExpiry] {
        guard let kube = setting.value(as: Setting.self) else { return [] }
        return SessionExpiries.kubeCertificate(kube.context, in: context, inputs: &inputs).map { [$0] } ?? []
    }
}

extension AWSAdapter: SessionExpiring {
    var readsSessionEnd: Bool { true }
    var sessionEndSource: String { "~/.aws/sso/cache, ~/.aws/credentials, ~/.aws/cli/cache" }
    /// The ends of the profile's SSO session and temporary credentials.
    func sessionEnds(_ setting: ToolSetting, in context: ToolContext, inputs: inout [String]) -> [SessionExpiry] {
        setting.value(as: String.self).map { SessionExpiries.aws($0, in: context) } ?? []
    }
}

extension DescribedToolAdapter: SessionExpiring {
    var readsSessionEnd: Bool { description.expiry != nil }
    var sessionEndSource: String {
        description.expiry.map { "\($0.file) (\($0.path.joined(separator: ".")))" } ?? tool.rawValue
    }
    /// The end its description's `expiry` reads.
    func sessionEnds(_ setting: ToolSetting, in context: ToolContext, inputs: inout [String]) -> [SessionExpiry] {
        sessionEnd(setting, in: context, inputs: &inputs).map { [$0] } ?? []
    }
}

public enum SessionExpiries {
    /// Under this many seconds left, an end is marked (1 h).
    public static let warningSeconds: Int64 = 3600

    /// Whether the end of `tool`'s credentials is read: kube's and aws's, and a described tool's
    /// whose description names an `expiry`.
    public static func isRead(for tool: IdentityTool) -> Bool {
        ToolAdapters.adapters(for: tool).contains { ($0 as? any SessionExpiring)?.readsSessionEnd == true }
    }

    /// The ends of `account`'s credentials, in registry order (of `tool` only, when given).
    public static func read(_ account: Account, tool: IdentityTool? = nil, in context: ToolContext) -> [SessionExpiry] {
        var inputs: [String] = []
        return read(account, tool: tool, in: context, inputs: &inputs)
    }

    /// ``read(_:tool:in:)``, adding to `inputs` the files read that the environment alone does
    /// not name (a client certificate file a kubeconfig names), for ``SessionExpiryCache``.
    /// `adapters`: the tools asked, the registry's by default (a test adds one of its own).
    static func read(
        _ account: Account, tool: IdentityTool?, in context: ToolContext, inputs: inout [String], adapters: [any ToolAdapter]? = nil
    ) -> [SessionExpiry] {
        var ends: [SessionExpiry] = []
        // Each tool whose adapter reads when its sessions end (no list of tools here).
        for adapter in adapters?.filter({ tool == nil || $0.tool == tool }) ?? ToolAdapters.adapters(for: tool) {
            guard let expiring = adapter as? any SessionExpiring, expiring.readsSessionEnd, let setting = account.identities[adapter.tool]
            else { continue }
            ends += expiring.sessionEnds(setting, in: context, inputs: &inputs)
        }
        return ends
    }

    /// `end` as a line of `perch verify`: ✗ `expired` with the command that renews it once
    /// ended, else ✓ with the time left (marked `⚠` under ``warningSeconds``).
    public static func answer(_ end: SessionExpiry) -> ToolAnswer {
        let now = now()
        let label = "\(end.tool.rawValue) \(end.what.split(separator: " ").first.map(String.init) ?? end.what)"
        let asked =
            ToolAdapters.adapters(for: end.tool).lazy.compactMap { ($0 as? any SessionExpiring)?.sessionEndSource }.first
            ?? end.tool.rawValue
        if end.hasEnded(at: now) {
            return ToolAnswer(
                tool: label, kind: end.tool, expected: "not ended", answer: "expired: \(end.phrase(at: now)) (\(end.endsText))",
                verdict: .disagrees,
                reason: "\(end.what) has ended", fix: end.renew, asked: asked)
        }
        let soon = end.ends - now < warningSeconds ? "⚠ " : ""
        return ToolAnswer(
            tool: label, kind: end.tool, expected: "not ended", answer: "\(soon)\(end.phrase(at: now)) (\(end.endsText))", verdict: .agrees,
            asked: asked)
    }

    /// `check` with the ends of its tool's credentials in its note: said when far, marked `⚠`
    /// under ``warningSeconds``, and ✗ (not matching) with the command that renews it once ended.
    public static func annotated(_ check: IdentityCheck, _ ends: [SessionExpiry], now: Int64) -> IdentityCheck {
        var check = check
        for end in ends where end.tool == check.tool {
            var text = end.phrase(at: now)
            if end.hasEnded(at: now) {
                check.matches = false
                text += end.renew.map { "; renew: \($0)" } ?? ""
            } else if end.ends - now < warningSeconds {
                text = "⚠ " + text
            }
            check.note = check.note.map { $0 + "; " + text } ?? text
        }
        return check
    }

    /// Seconds since 1970 now.
    public static func now() -> Int64 { Int64(Date().timeIntervalSince1970) }

    // MARK: kube

    /// The end of the client certificate of `contextName`'s user: the kubeconfig as kubectl
    /// merges it (`kubectl config view --raw --minify --context`), then `openssl x509 -enddate`.
    static func kubeCertificate(_ contextName: String, in context: ToolContext, inputs: inout [String]) -> SessionExpiry? {
        // Most kubeconfigs authenticate by token or exec plugin: kubectl is asked only when a
        // file of `$KUBECONFIG` holds a client certificate at all (a switch stays fast).
        let holdsCertificate = ToolReaders.kubeconfigFiles(context.environment).contains { file in
            (try? FileSystem.read(file)).map { String(decoding: $0.prefix(1 << 20), as: UTF8.self).contains("client-certificate") } ?? false
        }
        guard holdsCertificate else { return nil }
        let format = #"{.users[0].name}{"\t"}{.users[0].user.client-certificate-data}{"\t"}{.users[0].user.client-certificate}"#
        guard
            let output = context.run(
                "kubectl", ["config", "view", "--raw", "--minify", "--context", contextName, "-o", "jsonpath=" + format]
            ).output
        else { return nil }
        let fields = output.split(separator: "\t", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace }
        guard fields.count == 3 else { return nil }
        var pem: [UInt8]?
        if !fields[1].isEmpty {
            pem = Data(base64Encoded: fields[1]).map { Array($0) }
        } else if !fields[2].isEmpty {
            let file = context.environment.expandingTilde(fields[2])
            inputs.append(file)
            pem = try? FileSystem.read(file)
        }
        guard let pem, let ends = certificateEnd(pem, in: context) else { return nil }
        return SessionExpiry(
            tool: .kube, what: "certificate of \(fields[0].isEmpty ? contextName : fields[0])", ends: ends,
            renew: "ask your cluster's administrator for a new certificate (it is in the kubeconfig's user \(fields[0]))")
    }

    /// A PEM certificate's `notAfter` (RFC 5280, 4.1.2.5), read by `openssl x509 -noout -enddate
    /// -dateopt iso_8601` (OpenSSL 3.0 or later); nil when it cannot be read.
    static func certificateEnd(_ pem: [UInt8], in context: ToolContext) -> Int64? {
        guard pem.count <= 60_000 else { return nil }
        var environment = context.environment
        environment.variables["OPENSSL_CONF"] = "/dev/null"
        let run = ProgramRunner.run(
            "openssl", ["x509", "-noout", "-enddate", "-dateopt", "iso_8601"], in: environment, timeout: context.timeout, input: pem)
        guard let line = run.output?.trimmingWhitespace, line.hasPrefix("notAfter=") else { return nil }
        // `2027-12-03 12:00:00Z`
        return iso8601(String(line.dropFirst(9)).replacing(" ", with: "T"))
    }

    /// An ISO 8601 time (`2026-12-03T12:00:00Z`, with fractions or an offset) as seconds since 1970.
    static func iso8601(_ text: String) -> Int64? {
        (try? Date(text.trimmingWhitespace, strategy: .iso8601)).map { Int64($0.timeIntervalSince1970) }
    }

    // MARK: aws

    /// The aws CLI's config file (`$AWS_CONFIG_FILE`, else `~/.aws/config`) and credentials file
    /// (`$AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`).
    static func awsFiles(_ environment: IdentityEnvironment) -> (config: String, credentials: String) {
        (
            environment["AWS_CONFIG_FILE"].map(environment.expandingTilde) ?? environment.home + "/.aws/config",
            environment["AWS_SHARED_CREDENTIALS_FILE"].map(environment.expandingTilde) ?? environment.home + "/.aws/credentials"
        )
    }

    /// The INI sections of an aws file, by name (`profile work`, `sso-session corp`, `work`), each
    /// key's value (keys lower-cased); comments (`#`, `;`) and blank lines skipped.
    static func sections(_ text: String) -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        var current: String?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingWhitespace
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                current = String(line.dropFirst().dropLast()).trimmingWhitespace
                continue
            }
            guard let current, let equals = line.firstIndex(of: "=") else { continue }
            result[current, default: [:]][line[..<equals].trimmingWhitespace.lowercased()] =
                line[line.index(after: equals)...].trimmingWhitespace
        }
        return result
    }

    /// The ends of `profile`'s SSO session and temporary credentials.
    static func aws(_ profile: String, in context: ToolContext) -> [SessionExpiry] {
        let files = awsFiles(context.environment)
        let config = sections((try? FileSystem.read(files.config)).map { String(decoding: $0.prefix(1 << 20), as: UTF8.self) } ?? "")
        let section = config[profile == "default" ? "default" : "profile \(profile)"] ?? [:]
        var ends: [SessionExpiry] = []
        // SSO: the session's start URL (sso-session section, or the legacy profile key).
        let session = section["sso_session"]
        let startURL = session.flatMap { config["sso-session \($0)"]?["sso_start_url"] } ?? section["sso_start_url"]
        if let startURL, let end = ssoCacheEnd(startURL: startURL, session: session, in: context.environment) {
            ends.append(SessionExpiry(tool: .aws, what: "SSO session", ends: end, renew: "aws sso login --profile \(profile)"))
        }
        let credentials = sections(
            (try? FileSystem.read(files.credentials)).map { String(decoding: $0.prefix(1 << 20), as: UTF8.self) } ?? "")
        if let keys = credentials[profile], keys["aws_session_token"] != nil,
            let text = keys["aws_expiration"] ?? keys["x_security_token_expires"] ?? keys["expiration"], let end = iso8601(text)
        {
            ends.append(
                SessionExpiry(
                    tool: .aws, what: "temporary credentials", ends: end, renew: "renew them with the tool that wrote them for \(profile)"))
        }
        // An assumed role (`role_arn`): the aws CLI's cache of the credentials it assumed.
        if let role = section["role_arn"], let end = roleCacheEnd(roleARN: role, in: context.environment) {
            ends.append(
                SessionExpiry(
                    tool: .aws, what: "assumed-role credentials", ends: end,
                    renew: "aws sts get-caller-identity --profile \(profile) (the aws CLI assumes the role again)"))
        }
        return ends
    }

    /// The keys of a `cli/cache` file Perch reads: when the credentials end and whose they are
    /// (the keys themselves are never decoded).
    struct RoleCache: Decodable {
        var expiration: String?
        var arn: String?
        enum Keys: String, CodingKey { case Credentials, AssumedRoleUser, Expiration, Arn }
        init(from decoder: any Decoder) throws {
            let keys = try decoder.container(keyedBy: Keys.self)
            expiration = try? keys.nestedContainer(keyedBy: Keys.self, forKey: .Credentials).decodeIfPresent(
                String.self, forKey: .Expiration)
            arn = try? keys.nestedContainer(keyedBy: Keys.self, forKey: .AssumedRoleUser).decodeIfPresent(String.self, forKey: .Arn)
        }
    }

    /// The latest `Credentials.Expiration` among the aws CLI's cached assumed-role credentials
    /// (`~/.aws/cli/cache/*.json`, one file per role and session) for `roleARN`
    /// (`arn:aws:iam::ACCOUNT:role/PATH/NAME`): those whose `AssumedRoleUser.Arn` is
    /// `arn:PARTITION:sts::ACCOUNT:assumed-role/NAME/SESSION` (the role's path is not in it).
    static func roleCacheEnd(roleARN: String, in environment: IdentityEnvironment) -> Int64? {
        let parts = roleARN.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "arn", parts[5].hasPrefix("role/"), let name = parts[5].split(separator: "/").last else {
            return nil
        }
        let assumed = "arn:\(parts[1]):sts::\(parts[4]):assumed-role/\(name)/"
        let folder = environment.home + "/.aws/cli/cache"
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var latest: Int64?
        while let entry = readdir(directory) {
            let file = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard file.hasSuffix(".json"), let bytes = try? FileSystem.read(folder + "/" + file), bytes.count <= 1 << 20,
                let cache = try? JSONDecoder().decode(RoleCache.self, from: Data(bytes)), cache.arn?.hasPrefix(assumed) == true,
                let text = cache.expiration, let end = iso8601(text)
            else { continue }
            latest = max(latest ?? end, end)
        }
        return latest
    }

    /// The keys of an SSO cache file Perch reads (the token itself is only looked for, never kept
    /// or shown).
    struct SSOToken: Decodable {
        var startUrl: String?
        var sessionName: String?
        var accessToken: String?
        var expiresAt: String?
    }

    /// The latest `expiresAt` among the SSO cache's tokens (`~/.aws/sso/cache/*.json`) for
    /// `startURL` (or the session's name): the aws CLI's cache, one JSON file per session.
    static func ssoCacheEnd(startURL: String, session: String?, in environment: IdentityEnvironment) -> Int64? {
        let folder = environment.home + "/.aws/sso/cache"
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var latest: Int64?
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasSuffix(".json"), let bytes = try? FileSystem.read(folder + "/" + name), bytes.count <= 1 << 20 else { continue }
            guard let token = try? JSONDecoder().decode(SSOToken.self, from: Data(bytes)) else { continue }
            let matches = token.startUrl == startURL || (session != nil && token.sessionName == session)
            guard matches, token.accessToken != nil, let text = token.expiresAt, let end = iso8601(text) else { continue }
            latest = max(latest ?? end, end)
        }
        return latest
    }
}
