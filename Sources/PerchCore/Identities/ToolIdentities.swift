/// The tools a switch can change, in the fixed order a switch applies them.
public enum IdentityTool: String, CaseIterable, Hashable, Sendable, Codable, Comparable {
    case git, ssh, kube, gcloud, gh, aws, env

    /// Whether the tool's setting belongs to one shell (exported by `perch env`), not to the
    /// whole machine.
    public var isPerShell: Bool { self == .aws || self == .env }

    /// The program the tool's identity is applied with, or nil when Perch only writes its own
    /// files or exports variables.
    public var program: String? {
        switch self {
        case .git: "git"
        case .ssh: nil
        case .kube: "kubectl"
        case .gcloud: "gcloud"
        case .gh: "gh"
        case .aws, .env: nil
        }
    }

    public static func < (a: IdentityTool, b: IdentityTool) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Who an account is in the tools people switch daily, all optional (an account without any
/// works as before): the git author, the SSH key for some hosts, the Kubernetes context, the
/// gcloud configuration, the AWS profile, the GitHub CLI user and environment variables. See
/// `docs/identities.md`.
public struct ToolIdentities: Hashable, Sendable {
    /// `git`: the author and signing key, written to Perch's own include file.
    public struct Git: Hashable, Sendable {
        public var name: String?
        public var email: String?
        public var signingKey: String?
        public init(name: String? = nil, email: String? = nil, signingKey: String? = nil) {
            self.name = name
            self.email = email
            self.signingKey = signingKey
        }
    }

    /// `ssh`: the identity file used for some hosts, written to Perch's own `Include`d file.
    public struct SSH: Hashable, Sendable {
        /// Host patterns, as ssh_config's `Host` takes them; at least one.
        public var hosts: [String]
        public var identityFile: String
        public init(hosts: [String], identityFile: String) {
            self.hosts = hosts
            self.identityFile = identityFile
        }
    }

    /// `kube`: a context of the kubeconfig, and optionally its namespace.
    public struct Kube: Hashable, Sendable {
        public var context: String
        public var namespace: String?
        public init(context: String, namespace: String? = nil) {
            self.context = context
            self.namespace = namespace
        }
    }

    /// `gh`: the GitHub CLI user, on a host (`github.com` when none is given).
    public struct GitHub: Hashable, Sendable {
        public var user: String
        public var host: String?
        public init(user: String, host: String? = nil) {
            self.user = user
            self.host = host
        }
        /// The host, `github.com` when none was given.
        public var hostname: String { host ?? "github.com" }
    }

    public var git: Git?
    public var ssh: SSH?
    public var kube: Kube?
    /// `gcloud`: the name of a gcloud configuration.
    public var gcloud: String?
    public var gh: GitHub?
    /// `aws`: the profile exported as `AWS_PROFILE`, per shell.
    public var aws: String?
    /// `env`: variables exported per shell and passed to hooks, sorted by name.
    public var env: [EnvironmentEntry]

    public init(
        git: Git? = nil, ssh: SSH? = nil, kube: Kube? = nil, gcloud: String? = nil, gh: GitHub? = nil, aws: String? = nil,
        env: [EnvironmentEntry] = []
    ) {
        self.git = git
        self.ssh = ssh
        self.kube = kube
        self.gcloud = gcloud
        self.gh = gh
        self.aws = aws
        self.env = env
    }

    /// No identity at all.
    public static let none = ToolIdentities()

    /// Whether no tool is named (checked without building ``tools``: every account made asks).
    public var isEmpty: Bool {
        git == nil && ssh == nil && kube == nil && gcloud == nil && gh == nil && aws == nil && env.isEmpty
    }

    /// The tools named, in the order a switch applies them.
    public var tools: [IdentityTool] {
        IdentityTool.allCases.filter { tool in
            switch tool {
            case .git: git != nil
            case .ssh: ssh != nil
            case .kube: kube != nil
            case .gcloud: gcloud != nil
            case .gh: gh != nil
            case .aws: aws != nil
            case .env: !env.isEmpty
            }
        }
    }

    /// The variables a shell gets for this account, besides `PERCH_ACCOUNT`: `AWS_PROFILE` and
    /// the `env` entries, sorted by name.
    public var exports: [EnvironmentEntry] {
        var result = env
        if let aws { result.append(EnvironmentEntry(name: "AWS_PROFILE", value: aws)) }
        return result.sorted { $0.name < $1.name }
    }
}

/// One environment variable: a name of `A`–`Z`, `a`–`z`, `0`–`9` and `_`, not starting with a
/// digit, and its value.
public struct EnvironmentEntry: Hashable, Sendable, Codable {
    public var name: String
    public var value: String
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Whether `name` can be exported by every shell Perch writes for (POSIX names).
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(first >= 0x30 && first <= 0x39) else { return false }
        return name.utf8.allSatisfy { ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
    }

    /// Names Perch sets itself, which `env` may not name.
    public static let reservedNames: Set<String> = ["PERCH_ACCOUNT", "PERCH_ENV_NAMES", "AWS_PROFILE", "PATH", "HOME"]

    /// Whether `value` looks like a secret (a token, a key): known token prefixes, or a long run of
    /// letters and digits without spaces. Secrets do not belong in the config, which is read by
    /// every `perch` and shown in `perch env`.
    public static func looksLikeSecret(_ value: String) -> Bool {
        let prefixes = ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "xoxb-", "xoxp-", "sk-", "AKIA", "ASIA", "AIza"]
        if prefixes.contains(where: { value.hasPrefix($0) && value.utf8.count >= 16 }) { return true }
        guard value.utf8.count >= 32, !value.contains(" "), !value.contains("/") || value.utf8.count >= 40 else { return false }
        // Long, with digits and letters of both cases mixed: a random string, not a word or a path.
        let bytes = value.utf8
        let digits = bytes.contains { $0 >= 0x30 && $0 <= 0x39 }
        let upper = bytes.contains { $0 >= 0x41 && $0 <= 0x5A }
        let lower = bytes.contains { $0 >= 0x61 && $0 <= 0x7A }
        return digits && upper && lower && !value.contains("://")
    }
}

/// One tool identity of an account, as a list shows it (`kube`, `prod, namespace web`).
public struct IdentityEntry: Hashable, Sendable {
    public var tool: IdentityTool
    /// What the account says the tool should have, in the words `perch status` uses.
    public var expected: String
    public init(tool: IdentityTool, expected: String) {
        self.tool = tool
        self.expected = expected
    }
}

extension ToolIdentities {
    /// The account's identities, one per tool, in the order a switch applies them: a pure list
    /// for panes (the Catalog, Overview). What each tool reports now comes from
    /// `IdentitySwitcher.check(_:of:)` in PerchIdentities, off the UI thread.
    public var entries: [IdentityEntry] {
        tools.map { IdentityEntry(tool: $0, expected: expected($0)) }
    }

    /// What `tool` should report for this account (empty when the account names none).
    public func expected(_ tool: IdentityTool) -> String {
        switch tool {
        case .git:
            guard let git else { return "" }
            var parts: [String] = []
            if let name = git.name { parts.append(name) }
            if let email = git.email { parts.append("<\(email)>") }
            if let key = git.signingKey { parts.append("key \(key)") }
            return parts.joined(separator: " ")
        case .ssh: return ssh?.identityFile ?? ""
        case .kube: return kube.map { $0.namespace.map { ns in "\(kube!.context), namespace \(ns)" } ?? $0.context } ?? ""
        case .gcloud: return gcloud ?? ""
        case .gh: return gh.map { "\($0.user) on \($0.hostname)" } ?? ""
        case .aws: return aws.map { "AWS_PROFILE=\($0)" } ?? ""
        case .env: return env.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
        }
    }
}
