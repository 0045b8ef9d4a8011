/// A tool a switch can change, named by its key in an account's config (`git`, `kube`,
/// `docker`). The core knows no tool by name: each is described by the adapter that reads its
/// config member (PerchIdentities' `ToolAdapter`), and the adapters' registry gives their order.
public struct IdentityTool: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The config key (`kube`).
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ name: String) { self.rawValue = name }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// One named value of a tool setting (`context` = `prod`), as `perch current --field kube.context`
/// and `perch list --json` give it.
public struct ToolField: Hashable, Sendable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// What an account says one tool should have, as read from its config member by the tool's
/// adapter: the adapter's own typed value, and what the rest of Perch needs to show it (a
/// summary, its fields, the variables a shell gets) without knowing the tool.
public struct ToolSetting: Hashable, @unchecked Sendable {
    public var tool: IdentityTool
    /// Whether the setting belongs to one shell (exported by `perch env`), not to the machine.
    public var isPerShell: Bool
    /// What the tool should report, in the words `perch status` uses (`prod, namespace web`).
    public var summary: String
    /// The setting's values by name, in the order written (`context`, `namespace`).
    public var fields: [ToolField]
    /// The variables a shell (and a hook) gets for this setting, sorted by name.
    public var exports: [EnvironmentEntry]
    /// The adapter's own value; only that adapter reads it. Equality and hashing use the other
    /// properties, which describe it whole.
    public var value: any Sendable

    public init(
        tool: IdentityTool, isPerShell: Bool = false, summary: String, fields: [ToolField], exports: [EnvironmentEntry] = [],
        value: any Sendable
    ) {
        self.tool = tool
        self.isPerShell = isPerShell
        self.summary = summary
        self.fields = fields
        self.exports = exports
        self.value = value
    }

    public static func == (a: ToolSetting, b: ToolSetting) -> Bool {
        a.tool == b.tool && a.isPerShell == b.isPerShell && a.summary == b.summary && a.fields == b.fields && a.exports == b.exports
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(tool)
        hasher.combine(fields)
    }

    /// A per-shell setting that is nothing but variables (`env`): its value is `entries`,
    /// sorted by name, and its fields and exports are the same variables.
    public static func exporting(_ entries: [EnvironmentEntry], as tool: IdentityTool) -> ToolSetting {
        let sorted = entries.sorted { $0.name < $1.name }
        // Bug (trust issue): a token in `env` was printed whole on status's "Last applied" lines,
        // by list --json and current --json, on Overview and in the Catalog. What is shown is
        // masked here, once; only the exports hold the value.
        return ToolSetting(
            tool: tool, isPerShell: true, summary: sorted.map { "\($0.name)=\($0.shown)" }.joined(separator: " "),
            fields: sorted.map { ToolField($0.name, $0.shown) }, exports: sorted, value: sorted)
    }

    /// The adapter's value as `T`, or nil when it is another type.
    public func value<T>(as type: T.Type) -> T? { value as? T }
}

/// Who an account is in the tools people switch daily (git, ssh, kube, gcloud, aws, gh, docker,
/// environment variables…): one setting per tool the account names, in the order of the
/// adapters' registry, all optional (an account without any works as before). See
/// docs/identities.md.
public struct ToolIdentities: Hashable, Sendable {
    /// One setting per tool named, in the order a switch takes the tools.
    public var settings: [ToolSetting]

    /// The folders the account is bound to (the config's `"directories"`), as written (`~/work`,
    /// an absolute path or one starting with `~/`): in them, git (through `perch setup git`'s
    /// `includeIf` rules) and a shell with `perch shell-init` use this account. Empty for none.
    public var directories: [String]

    /// The repositories the account owns by remote (the config's `"remotes"`), as written
    /// (`github.com/acme/*`: a host, a path, `*` for one path component and `**` for several):
    /// in any clone with a matching remote, git (through `perch setup git`'s `includeIf
    /// "hasconfig:remote.*.url:…"` rules) and a shell with `perch shell-init` use this account.
    public var remotes: [String]

    /// What each server should answer for this account when asked (`perch verify --online`),
    /// by tool (`ssh`: the user its greeting names; `aws`: the account number or ARN; `kube`:
    /// the user name; `gh`: the login, else `gh.user`). Empty: answers are shown, not judged.
    public var expect: [String: String]

    /// Whether the account is a coding agent's (the config's `"agent": true`): `perch exec`
    /// then gives it an agent's scope, as `--agent` does (docs/scopes.md, "Agents").
    public var agent: Bool

    /// The person an agent's commits name as co-author (`Co-authored-by: Name <email>`, the
    /// config's `"agent": {"coAuthoredBy": …}`), added by the guard's `commit-msg` hook; nil for none.
    public var coAuthoredBy: String?

    public init(
        _ settings: [ToolSetting] = [], directories: [String] = [], remotes: [String] = [], expect: [String: String] = [:],
        agent: Bool = false, coAuthoredBy: String? = nil
    ) {
        self.settings = settings
        self.directories = directories
        self.remotes = remotes
        self.expect = expect
        self.agent = agent
        self.coAuthoredBy = coAuthoredBy
    }

    /// No identity at all.
    public static let none = ToolIdentities()

    /// Whether no tool is named and no folder bound.
    public var isEmpty: Bool { settings.isEmpty && directories.isEmpty && remotes.isEmpty && expect.isEmpty && !agent }

    /// The tools named, in the order a switch takes them.
    public var tools: [IdentityTool] { settings.map(\.tool) }

    /// The setting for `tool`, or nil when the account names none.
    public subscript(_ tool: IdentityTool) -> ToolSetting? { settings.first { $0.tool == tool } }

    /// These identities with `tool`'s setting replaced by `setting` (removed when nil); a new
    /// tool goes last.
    public func setting(_ tool: IdentityTool, to setting: ToolSetting?) -> ToolIdentities {
        var result = self
        if let index = result.settings.firstIndex(where: { $0.tool == tool }) {
            if let setting { result.settings[index] = setting } else { result.settings.remove(at: index) }
        } else if let setting {
            result.settings.append(setting)
        }
        return result
    }

    /// The variables a shell gets for this account, besides `PERCH_ACCOUNT`: every setting's,
    /// sorted by name.
    public var exports: [EnvironmentEntry] {
        settings.flatMap(\.exports).sorted { $0.name < $1.name }
    }

    /// What `tool` should report for this account (empty when the account names none).
    public func expected(_ tool: IdentityTool) -> String { self[tool]?.summary ?? "" }

    /// The account's identities, one per tool, in the order a switch takes them: a pure list
    /// for panes (the Catalog, Overview). What each tool reports now comes from the adapters in
    /// PerchIdentities, off the UI thread.
    public var entries: [IdentityEntry] {
        settings.map { IdentityEntry(tool: $0.tool, expected: $0.summary, isPerShell: $0.isPerShell) }
    }

    /// The value of `path` (`kube.context`, `git.email`, `env.TEAM`), or nil when the account
    /// sets none.
    public func field(_ path: String) -> String? {
        guard let dot = path.firstIndex(of: ".") else { return nil }
        let tool = IdentityTool(String(path[..<dot]))
        let name = String(path[path.index(after: dot)...])
        return self[tool]?.fields.first { $0.name == name }?.value
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

    /// Whether `value` looks like a secret (a token, a key): known token prefixes, or a long run of
    /// letters and digits without spaces. Secrets do not belong in the config, which is read by
    /// every `perch` and shown in `perch env`.
    public static func looksLikeSecret(_ value: String) -> Bool {
        let prefixes = [
            "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-", "sk-", "AKIA",
            "ASIA", "AIza", "npm_", "eyJ",
        ]
        if prefixes.contains(where: { value.hasPrefix($0) && value.utf8.count >= 16 }) { return true }
        if value.hasPrefix("xox"), value.utf8.count >= 10, value.dropFirst(4).first == "-" { return true }
        // A URL with a password (`postgres://user:secret@db/x`), or an HTTP credential (`Bearer …`).
        if let scheme = value.firstRange(of: "://"), let at = value[scheme.upperBound...].firstIndex(of: "@"),
            value[scheme.upperBound..<at].contains(":")
        {
            return true
        }
        if value.hasPrefix("Bearer ") || value.hasPrefix("Basic ") { return true }
        // A long run of hexadecimal digits (a hex-encoded key or token).
        if value.utf8.count >= 32, value.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }) {
            return true
        }
        guard value.utf8.count >= 32, !value.contains(" "), !value.contains("/") || value.utf8.count >= 40 else { return false }
        // Long, with digits and letters of both cases mixed: a random string, not a word or a path.
        let bytes = value.utf8
        let digits = bytes.contains { $0 >= 0x30 && $0 <= 0x39 }
        let upper = bytes.contains { $0 >= 0x41 && $0 <= 0x5A }
        let lower = bytes.contains { $0 >= 0x61 && $0 <= 0x7A }
        return digits && upper && lower && !value.contains("://")
    }

    /// `value` as Perch may print it: a value that looks like a secret (``looksLikeSecret(_:)``)
    /// as `…` and its last 4 characters, anything else as it is.
    public static func masked(_ value: String) -> String {
        looksLikeSecret(value) ? "…" + String(value.suffix(4)) : value
    }

    /// Variables a shell, a dynamic loader, an interpreter or git acts on as code or as the
    /// place code comes from (bash(1) `PROMPT_COMMAND`, `BASH_ENV`, `ENV`, the prompts, whose
    /// `$(…)` a shell runs; ld.so(8) `LD_*`; git(1) `GIT_SSH_COMMAND`, `GIT_EXEC_PATH`, the
    /// editors and pagers; python's, perl's, ruby's and node's start-up options). An `env`
    /// naming one needs trust: the config must be the user's alone (docs/security.md).
    public static let codeBearingNames: Set<String> = [
        "PROMPT_COMMAND", "PS0", "PS1", "PS2", "PS3", "PS4", "PROMPT", "PROMPT2", "PROMPT3", "PROMPT4", "RPROMPT", "RPROMPT2", "RPS1",
        "RPS2", "SPROMPT", "ENV", "ZDOTDIR", "FPATH", "MODULE_PATH", "NULLCMD", "READNULLCMD", "POSTEDIT", "SHELLOPTS",
        "BASHOPTS", "IFS", "CDPATH", "SHELL", "INPUTRC", "FCEDIT", "GLOBIGNORE", "fish_function_path", "EDITOR", "VISUAL",
        "PAGER", "MANPAGER", "MANOPT", "BROWSER", "VIMINIT", "EXINIT", "MYVIMRC", "KUBECONFIG", "TMPDIR", "SUDO_ASKPASS", "LOCPATH",
        "CLASSPATH", "JDK_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "DOTNET_STARTUP_HOOKS", "IRBRC", "PHPRC",
        "BUNDLE_GEMFILE", "GEM_HOME", "GEM_PATH", "R_PROFILE_USER", "LUA_INIT", "LUA_PATH", "LUA_CPATH", "GNUPGHOME",
        "FZF_DEFAULT_COMMAND", "FZF_DEFAULT_OPTS", "STARSHIP_CONFIG", "SSLKEYLOGFILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE",
        "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR", "https_proxy", "http_proxy", "all_proxy", "ftp_proxy", "no_proxy",
        "KUBE_EDITOR", "RSYNC_RSH", "RSYNC_CONNECT_PROG", "CVS_RSH", "SYSTEMD_PAGER", "SYSTEMD_EDITOR", "SUDO_EDITOR", "CURL_HOME",
        "WGETRC", "NETRC", "HGRCPATH", "RUSTC_WRAPPER", "CC", "CXX", "MAKEFLAGS", "GOFLAGS", "CARGO_HOME", "GOPATH", "TERMINFO",
        "EMACSLOADPATH", "VIMRUNTIME", "KRB5_CONFIG", "HELM_PLUGINS", "MAVEN_OPTS", "R_LIBS_USER", "JULIA_DEPOT_PATH", "PIP_INDEX_URL",
        "HOSTALIASES", "MAILPATH", "MAIL", "MAILCHECK", "GOPROXY", "GONOSUMDB", "GONOSUMCHECK", "GOSUMDB", "GOTOOLCHAIN",
        "GOINSECURE", "RUSTFLAGS", "RUSTDOCFLAGS", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "ANSIBLE_CONFIG", "TERMINFO_DIRS",
    ]

    /// The prefixes of variables a shell, a loader, an interpreter or a tool Perch switches acts
    /// on as code or as where code and credentials come from (`LD_PRELOAD`, every `GIT_*`,
    /// `PYTHONSTARTUP`, `NODE_OPTIONS`, `AWS_CONFIG_FILE`, `CLOUDSDK_PYTHON`, `SSH_AUTH_SOCK`,
    /// `LESSOPEN`, `BASH_ENV` and bash's exported functions `BASH_FUNC_name%%`, the proxies).
    static let codeBearingPrefixes = [
        "LD_", "DYLD_", "BASH_", "GIT_", "SSH_", "PYTHON", "PERL", "RUBY", "NODE_", "NPM_CONFIG_", "npm_config_", "LESS", "XDG_",
        "AWS_", "CLOUDSDK_", "GH_", "GITHUB_", "DOCKER_", "OPENSSL_", "GLIBC_", "GCONV_", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
        "NO_PROXY", "ZSH_", "HIST",
    ]

    /// Whether a variable named `name` changes how a shell, a loader or a tool runs code
    /// (``codeBearingNames``, ``codeBearingPrefixes``): an `env` naming one is refused unless
    /// the config is the user's alone.
    public static func isCodeBearingName(_ name: String) -> Bool {
        codeBearingNames.contains(name) || codeBearingPrefixes.contains { name.hasPrefix($0) }
    }

    /// The words in a variable's name that say its value is secret (`GH_TOKEN`,
    /// `AWS_SECRET_ACCESS_KEY`, `DB_PASSWORD`), upper-cased.
    static let secretNameWords = [
        "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "_PWD", "KEY", "CREDENTIAL", "PRIVATE", "COOKIE", "AUTHZ", "BEARER",
    ]

    /// Whether a variable named `name` holds a secret by its name: it contains one of
    /// ``secretNameWords``, in any case.
    public static func isSecretName(_ name: String) -> Bool {
        let upper = name.uppercased()
        return secretNameWords.contains { upper.contains($0) }
    }

    /// Whether this entry is secret, by its name (``isSecretName(_:)``) or by its value's shape
    /// (``looksLikeSecret(_:)``).
    public var isSecret: Bool { Self.isSecretName(name) || Self.looksLikeSecret(value) }

    /// The value as Perch may print it: a secret (``isSecret``) as `…` and its last 4
    /// characters (`…` alone when it has 8 or fewer), anything else as it is.
    public var shown: String { Self.shown(name, value) }

    /// `value` of the variable `name` as Perch may print it (``shown``).
    public static func shown(_ name: String, _ value: String) -> String {
        guard !value.isEmpty, isSecretName(name) || looksLikeSecret(value) else { return value }
        return value.count > 8 ? "…" + String(value.suffix(4)) : "…"
    }
}

/// One tool identity of an account, as a list shows it (`kube`, `prod, namespace web`).
public struct IdentityEntry: Hashable, Sendable {
    public var tool: IdentityTool
    /// What the account says the tool should have, in the words `perch status` uses.
    public var expected: String
    /// Whether the tool is set per shell (`perch env`), so nothing global is checked.
    public var isPerShell: Bool
    public init(tool: IdentityTool, expected: String, isPerShell: Bool = false) {
        self.tool = tool
        self.expected = expected
        self.isPerShell = isPerShell
    }
}
