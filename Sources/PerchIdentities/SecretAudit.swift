import Glibc
import PerchDomain
import PerchStore

/// One thing `perch audit` found: a secret kept in plain text, a file holding one that others
/// can read, an ssh key without a passphrase, or one of Perch's own files with a wider mode
/// than it is written with. It never holds the secret: at most its kind and last 4 characters.
public struct AuditFinding: Hashable, Sendable, Encodable {
    /// How much it matters. `high`: others on this machine can read a secret or change what
    /// Perch makes a tool run; `medium`: a secret in plain text that only you can read; `low`:
    /// one of Perch's own files is readable by others (it holds no secret).
    public enum Severity: String, Hashable, Sendable, Encodable, CaseIterable, Comparable {
        case high, medium, low
        public static func < (a: Severity, b: Severity) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// The file, as the tool names it (a path; a symbolic link's own path).
    public var file: String
    /// The file a symbolic link ``file`` points to (followed once), else nil.
    public var target: String?
    /// A stable name of what was found: `git-credentials`, `gh-token`, `docker-auth`,
    /// `aws-access-key`, `kube-token`, `kube-password`, `kube-client-key`, `ssh-key-no-passphrase`,
    /// `readable-by-others`, `perch-file-mode`.
    public var kind: String
    /// What is in it, in words, without the secret (`a long-lived access key for profile work`).
    public var what: String
    /// The secret's last 4 characters when it has at least 12 (fewer would show too much of
    /// it), else nil.
    public var last4: String?
    /// The ids of the accounts that depend on it, in config order (may be empty: the file is one
    /// the accounts' tools read, but no account names this entry).
    public var accounts: [String]
    public var severity: Severity
    /// What puts it right, as the tool's own documented command or setting.
    public var fix: String

    public init(
        file: String, target: String? = nil, kind: String, what: String, last4: String? = nil, accounts: [String], severity: Severity,
        fix: String
    ) {
        self.file = file
        self.target = target
        self.kind = kind
        self.what = what
        self.last4 = last4
        self.accounts = accounts
        self.severity = severity
        self.fix = fix
    }
}

/// Something `perch audit` could not read, or read only in part: the file, the line when
/// known (1-based), and why. Never the line's text.
public struct AuditNote: Hashable, Sendable, Encodable {
    public var file: String
    public var line: Int?
    public var message: String
}

/// What `perch audit` found and what it could not read.
public struct AuditReport: Sendable, Encodable {
    /// Most severe first, then by file.
    public var findings: [AuditFinding]
    public var notes: [AuditNote]
}

/// `perch audit`: where the tools the accounts name keep secrets in plain text or open to
/// others. Files are found as each tool finds them, in the given environment:
/// - git: `~/.git-credentials` and `$XDG_CONFIG_HOME/git/credentials` (git-credential-store(1),
///   "STORAGE FORMAT": `https://user:password@host` lines);
/// - gh: `$GH_CONFIG_DIR/hosts.yml`, else `$XDG_CONFIG_HOME/gh/hosts.yml` (`gh help environment`;
///   gh keeps `oauth_token` there only without a system keyring or with `--insecure-storage`);
/// - docker: `$DOCKER_CONFIG/config.json`, else `~/.docker/config.json` (docker login(1),
///   "Credential stores": `auths.REGISTRY.auth` is base64 `user:password` when no `credsStore`
///   or `credHelpers` entry names a helper);
/// - aws: `$AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`, and the config file
///   (`$AWS_CONFIG_FILE`; AWS CLI User Guide, "Configuration and credential file settings"):
///   `aws_access_key_id` values starting `AKIA` (long-lived IAM user keys) of a profile an
///   account names or that one names as `source_profile`;
/// - kube: each `$KUBECONFIG` file, else `~/.kube/config` (kubectl's "Organizing Cluster
///   Access Using kubeconfig Files"): `users[].user.token`, `password` and `client-key-data`;
/// - ssh: each account's `identityFile`, passphrase-free when `ssh-keygen -y -P "" -f KEY`
///   succeeds (ssh-keygen(1));
/// - a tool described as data (docs/tools.md): each file its description's `secrets` names,
///   for the accounts naming it, when group or others can read it;
/// - Perch's own files (``IdentityFiles``, the state file): modes wider than Perch writes them.
///
/// Each file is read at most ``readLimit`` bytes; a symbolic link is followed once and its
/// target reported; a file that cannot be read, or a line that cannot, is a note and the audit
/// goes on.
public enum SecretAudit {
    /// The most of a file that is read, in bytes (1 MiB).
    public static let readLimit = 1 << 20

    /// Whether an ssh private key can be loaded without a passphrase.
    public enum KeyCheck: Sendable, Equatable {
        case noPassphrase
        case hasPassphrase
        /// It could not be told (ssh-keygen missing, the key unreadable…): why.
        case unknown(String)
    }

    /// Audits the files of the tools `accounts` name, in `environment`.
    /// - Parameter checkKey: whether the private key at a path (to read, never printed) has a
    ///   passphrase; ``checkWithSSHKeygen(_:in:)`` by default.
    /// - Parameter folder: where git is asked for the URLs it reads (the repository standing
    ///   there included); the current folder by default.
    /// - Parameter adapters: the tools audited, each through its own ``SecretAuditing``
    ///   capability; the registry by default (a test adds a tool of its own).
    public static func audit(
        accounts: [Account], environment: IdentityEnvironment, checkKey: ((String) -> KeyCheck)? = nil, folder: String? = nil,
        adapters: [any ToolAdapter]? = nil
    ) -> AuditReport {
        var audit = Run(accounts: accounts, environment: environment, folder: folder ?? ProgramRunner.currentFolder())
        audit.checkKey = checkKey ?? { checkWithSSHKeygen($0, in: environment) }
        // Each tool says where it keeps secrets (no list of tools here); then the files any
        // account may hold whatever its tools (netrc, npmrc) and Perch's own.
        for adapter in adapters ?? ToolAdapters.registry {
            (adapter as? any SecretAuditing)?.auditSecrets(&audit)
        }
        audit.netrc()
        audit.npmrc()
        audit.perchFiles()
        let findings = audit.findings.enumerated().sorted {
            ($0.element.severity, $0.element.file, $0.offset) < ($1.element.severity, $1.element.file, $1.offset)
        }.map(\.element)
        return AuditReport(findings: findings, notes: audit.notes)
    }

    /// Asks `ssh-keygen -y -P "" -f KEY` (it prints the public key, which is dropped). A key
    /// others can read is refused by ssh-keygen whatever its passphrase ("bad permissions"), so
    /// such a key (at most 4 KiB) is given on a pipe instead (`-f /dev/stdin`), never copied.
    public static func checkWithSSHKeygen(_ key: String, in environment: IdentityEnvironment) -> KeyCheck {
        var info = stat()
        guard stat(key, &info) == 0 else { return .unknown(String(cString: strerror(errno))) }
        var result: ProgramResult
        if info.st_mode & 0o077 != 0 {
            guard let bytes = try? FileSystem.read(key, limit: 4096) else { return .unknown("cannot read it, or larger than 4 KiB") }
            result = ProgramRunner.run("ssh-keygen", ["-y", "-P", "", "-f", "/dev/stdin"], in: environment, timeout: 10_000, input: bytes)
            // From a pipe, ssh-keygen says "error in libcrypto" for an encrypted key (it tries
            // the other formats on a stream already read): the key's own header tells.
            if case .exited(let status, _, _) = result, status != 0, let check = headerCheck(bytes) { return check }
        } else {
            result = ProgramRunner.run("ssh-keygen", ["-y", "-P", "", "-f", key], in: environment, timeout: 10_000)
        }
        switch result {
        case .exited(0, _, _): return .noPassphrase
        case .exited(_, _, let stderr) where stderr.contains("passphrase"): return .hasPassphrase
        case .notFound: return .unknown("ssh-keygen is not installed")
        default: return .unknown("ssh-keygen could not load it: " + (result.failure ?? ""))
        }
    }

    /// Whether a private key's text says it is encrypted: the cipher name of an
    /// `openssh-key-v1` key (PROTOCOL.key: `none` when there is no passphrase), a PEM key's
    /// `Proc-Type: 4,ENCRYPTED`, or PKCS #8's `ENCRYPTED PRIVATE KEY`; nil when it is none of these.
    static func headerCheck(_ bytes: [UInt8]) -> KeyCheck? {
        let text = String(decoding: bytes, as: UTF8.self)
        if text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || text.contains("Proc-Type: 4,ENCRYPTED") { return .hasPassphrase }
        if text.contains("-----BEGIN RSA PRIVATE KEY-----") || text.contains("-----BEGIN EC PRIVATE KEY-----")
            || text.contains("-----BEGIN PRIVATE KEY-----")
        {
            return .noPassphrase
        }
        guard text.contains("-----BEGIN OPENSSH PRIVATE KEY-----") else { return nil }
        let body = text.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("-----") }.joined()
        guard let decoded = Run.base64Bytes(String(body)) else { return nil }
        let magic = Array("openssh-key-v1".utf8) + [0]
        guard decoded.count > magic.count + 4, Array(decoded.prefix(magic.count)) == magic else { return nil }
        let lengthBytes = decoded[magic.count..<magic.count + 4]
        let length = lengthBytes.reduce(0) { $0 << 8 | Int($1) }
        guard decoded.count >= magic.count + 4 + length else { return nil }
        let cipher = String(decoding: decoded[(magic.count + 4)..<(magic.count + 4 + length)], as: UTF8.self)
        return cipher == "none" ? .noPassphrase : .hasPassphrase
    }

    /// The last 4 characters of `secret` when it has at least 12, else nil.
    public static func last4(_ secret: some StringProtocol) -> String? {
        secret.count >= 12 ? String(secret.suffix(4)) : nil
    }
}

/// A file read for the audit: where it really is, its first bytes, and its mode.
struct AuditedFile {
    var path: String
    /// The target when ``path`` is a symbolic link.
    var target: String?
    var text: String
    /// Permission bits.
    var mode: UInt32
}

/// A tool adapter's capability: it knows where its tool keeps secrets, and audits those files
/// for the accounts that name it (``SecretAudit/audit(accounts:environment:checkKey:folder:adapters:)``
/// asks each adapter of the registry that has it; none is listed anywhere else).
protocol SecretAuditing {
    /// Adds to `run` the findings and notes of this tool's files.
    func auditSecrets(_ run: inout SecretAudit.Run)
}

extension GitAdapter: SecretAuditing {
    /// git's stored credentials and the URLs it reads them for.
    func auditSecrets(_ run: inout SecretAudit.Run) {
        run.gitCredentials()
        run.credentialURLs()
    }
}

extension SSHAdapter: SecretAuditing {
    /// The accounts' private keys: their modes and passphrases.
    func auditSecrets(_ run: inout SecretAudit.Run) { run.ssh(run.checkKey) }
}

extension KubeAdapter: SecretAuditing {
    /// Tokens and keys in the kubeconfigs.
    func auditSecrets(_ run: inout SecretAudit.Run) { run.kube() }
}

extension GitHubAdapter: SecretAuditing {
    /// gh's `hosts.yml`.
    func auditSecrets(_ run: inout SecretAudit.Run) { run.ghHosts() }
}

extension AWSAdapter: SecretAuditing {
    /// Keys in `credentials` and `config`, and the CLI's caches.
    func auditSecrets(_ run: inout SecretAudit.Run) {
        run.aws()
        run.awsCaches()
    }
}

extension DockerAdapter: SecretAuditing {
    /// Registry passwords in `config.json`.
    func auditSecrets(_ run: inout SecretAudit.Run) { run.docker() }
}

extension SecretAudit {
    /// One audit under way: the findings and notes so far.
    struct Run {
        let accounts: [Account]
        let environment: IdentityEnvironment
        var findings: [AuditFinding] = []
        var notes: [AuditNote] = []
        /// Where git is asked for the URLs it reads.
        let folder: String
        /// Whether a private key has a passphrase (``SecretAudit/checkWithSSHKeygen(_:in:)``).
        var checkKey: (String) -> SecretAudit.KeyCheck = { _ in .unknown("not asked") }

        init(accounts: [Account], environment: IdentityEnvironment, folder: String) {
            self.accounts = accounts
            self.environment = environment
            self.folder = folder
        }

        /// The ids of the accounts naming `tool`.
        func naming(_ tool: IdentityTool) -> [String] { accounts.filter { $0.identities[tool] != nil }.map(\.id) }

        mutating func note(_ file: String, line: Int? = nil, _ message: String) {
            notes.append(AuditNote(file: file, line: line, message: message))
        }

        /// Reads `path` for the audit: nil (and nothing said) when it does not exist; nil and a
        /// note when it cannot be read; a symbolic link followed once; at most ``readLimit``
        /// bytes, with a note when there is more.
        mutating func read(_ path: String) -> AuditedFile? {
            var info = stat()
            guard lstat(path, &info) == 0 else {
                if errno != ENOENT, errno != ENOTDIR { note(path, "cannot be read: \(String(cString: strerror(errno)))") }
                return nil
            }
            var target: String?
            if info.st_mode & S_IFMT == S_IFLNK {
                var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                let count = readlink(path, &buffer, buffer.count - 1)
                guard count > 0 else {
                    note(path, "is a symbolic link that cannot be read: \(String(cString: strerror(errno)))")
                    return nil
                }
                var link = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !link.hasPrefix("/") { link = FileSystem.directory(of: path) + "/" + link }
                target = link
                guard lstat(link, &info) == 0 else {
                    note(path, "is a symbolic link to \(link), which cannot be read: \(String(cString: strerror(errno)))")
                    return nil
                }
                guard info.st_mode & S_IFMT != S_IFLNK else {
                    note(path, "is a symbolic link to \(link), another link: followed once only, not read")
                    return nil
                }
            }
            let real = target ?? path
            guard info.st_mode & S_IFMT == S_IFREG else {
                note(path, "is not a regular file: not read")
                return nil
            }
            let fd = open(real, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
            guard fd >= 0 else {
                note(path, "cannot be read: \(String(cString: strerror(errno))); skipped")
                return nil
            }
            defer { close(fd) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            var more = false
            while true {
                let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    note(path, "cannot be read: \(String(cString: strerror(errno))); skipped")
                    return nil
                }
                if n == 0 { break }
                let room = SecretAudit.readLimit - bytes.count
                bytes.append(contentsOf: chunk[0..<min(n, room)])
                if n > room {
                    more = true
                    break
                }
            }
            if more { note(path, "is larger than 1 MiB: only its first 1 MiB was read") }
            return AuditedFile(
                path: path, target: target, text: String(decoding: bytes, as: UTF8.self), mode: UInt32(info.st_mode & 0o7777))
        }

        /// A finding for `file`, and one for its mode when group or others can read it.
        mutating func add(_ file: AuditedFile, kind: String, what: String, last4: String?, accounts: [String], fix: String) {
            findings.append(
                AuditFinding(
                    file: file.path, target: file.target, kind: kind, what: what, last4: last4, accounts: accounts, severity: .medium,
                    fix: fix))
            readableByOthers(file, accounts: accounts)
        }

        /// A `high` finding when group or others can read `file` (once per file; the accounts
        /// of every finding in it are gathered).
        mutating func readableByOthers(_ file: AuditedFile, accounts: [String]) {
            guard file.mode & 0o044 != 0 else { return }
            if let index = findings.firstIndex(where: { $0.kind == "readable-by-others" && $0.file == file.path }) {
                findings[index].accounts = self.accounts.map(\.id).filter { findings[index].accounts.contains($0) || accounts.contains($0) }
                return
            }
            let who = file.mode & 0o044 == 0o044 ? "group and others" : file.mode & 0o040 != 0 ? "its group" : "others"
            findings.append(
                AuditFinding(
                    file: file.path, target: file.target, kind: "readable-by-others",
                    what: "holds a secret and is readable by \(who) (mode \(Self.octal(file.mode)))", accounts: accounts, severity: .high,
                    fix: "chmod 600 \(file.target ?? file.path)"))
        }

        static func octal(_ mode: UInt32) -> String {
            let digits = String(mode, radix: 8)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }

        // MARK: git

        /// git-credential-store(1): each line `scheme://user:password@host[/path]`.
        mutating func gitCredentials() {
            let users = accounts.filter { $0.identities[.git] != nil || $0.identities[.gh] != nil }.map(\.id)
            guard !users.isEmpty else { return }
            var paths = [environment.home + "/.git-credentials", environment.configHome + "/git/credentials"]
            for path in storeHelperFiles() where !paths.contains(path) { paths.append(path) }
            for path in paths {
                guard let file = read(path) else { continue }
                for (index, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let line = line.trimmingWhitespace
                    guard !line.isEmpty, !line.hasPrefix("#") else { continue }
                    guard let schemeEnd = line.firstRange(of: "://"), let at = line.lastIndex(of: "@"), at > schemeEnd.upperBound else {
                        note(path, line: index + 1, "not a credential line (scheme://user:password@host); skipped")
                        continue
                    }
                    let userinfo = line[schemeEnd.upperBound..<at]
                    guard let colon = userinfo.firstIndex(of: ":") else {
                        // A token in the user-name slot, with no password after it.
                        let user = Self.percentDecoded(userinfo)
                        if EnvironmentEntry.looksLikeSecret(user) {
                            let host = line[line.index(after: at)...].prefix { $0 != "/" }
                            add(
                                file, kind: "git-credentials",
                                what:
                                    "a token in the user-name slot for \(line[..<schemeEnd.upperBound])\(host) in plain text (line \(index + 1))",
                                last4: SecretAudit.last4(user), accounts: users,
                                fix:
                                    "keep it in a helper that encrypts or holds it in memory (gitcredentials(7)), then remove the line from \(shown(path))"
                            )
                        }
                        continue
                    }
                    let user = Self.percentDecoded(userinfo[..<colon])
                    let password = Self.percentDecoded(userinfo[userinfo.index(after: colon)...])
                    let host = line[line.index(after: at)...].prefix { $0 != "/" }
                    // gh's accounts on this host, else every account with git.
                    let hosted = accounts.filter { account in
                        account.identities[.gh]?.value(as: GitHubAdapter.Setting.self).map { $0.hostname == host && $0.user == user }
                            ?? false
                    }.map(\.id)
                    add(
                        file, kind: "git-credentials",
                        what: "a password for \(line[..<schemeEnd.upperBound])\(user)@\(host) in plain text (git's store helper)",
                        last4: SecretAudit.last4(password), accounts: hosted.isEmpty ? users : hosted,
                        fix:
                            "keep it in a helper that encrypts or holds it in memory (gitcredentials(7)): git config --global credential.helper cache, or gh auth setup-git for a GitHub host; then remove the line from \(shown(path))"
                    )
                }
            }
        }

        static func percentDecoded(_ text: Substring) -> String { text.percentDecoded }

        /// `~/…` for a path under the home.
        func shown(_ path: String) -> String {
            let home = environment.home
            return path.hasPrefix(home + "/") ? "~" + path.dropFirst(home.count) : path
        }

        // MARK: gh

        /// `hosts.yml`: `HOST: {oauth_token, user, users: {USER: {oauth_token}}}`.
        mutating func ghHosts() {
            let users = naming(.gh)
            guard !users.isEmpty else { return }
            let path = ToolReaders.ghHostsFile(environment)
            guard let file = read(path) else { return }
            let yaml = YAMLKeyLines(file.text)
            for problem in yaml.problems { note(path, line: problem.line, problem.reason + "; skipped") }
            var active: [String: String] = [:]
            for entry in yaml.entries where entry.path.count == 2 && entry.key == "user" { active[entry.path[0]] = entry.value }
            // gh 2.40+ keeps the active user's token twice (under `users:` and beside `user:`): one finding.
            var seen = Set<[String]>()
            for entry in yaml.entries where entry.key == "oauth_token" && !entry.value.isEmpty {
                let host = entry.path[0]
                let user: String? =
                    entry.path.count == 4 && entry.path[1] == "users" ? entry.path[2] : entry.path.count == 2 ? active[host] : nil
                guard seen.insert([host, user ?? "", entry.value]).inserted else { continue }
                let owners = accounts.filter { account in
                    account.identities[.gh]?.value(as: GitHubAdapter.Setting.self).map {
                        $0.hostname == host && (user == nil || $0.user == user)
                    }
                        ?? false
                }.map(\.id)
                add(
                    file, kind: "gh-token", what: "gh's OAuth token for \(user ?? "a user") on \(host) in plain text (line \(entry.line))",
                    last4: SecretAudit.last4(entry.value), accounts: owners,
                    fix:
                        "gh auth login --hostname \(host) keeps the token in the system keyring (gh auth login: --insecure-storage is what writes it here); gh auth status says where each token is"
                )
            }
        }

        // MARK: docker

        /// `config.json`: `auths.REGISTRY.auth` (base64 `user:password`) and `identitytoken`,
        /// unless `credsStore` or a `credHelpers` entry for the registry names a helper.
        mutating func docker() {
            let users = naming(.docker)
            guard !users.isEmpty else { return }
            let folder = environment["DOCKER_CONFIG"].map(environment.expandingTilde) ?? environment.home + "/.docker"
            let path = folder + "/config.json"
            guard let file = read(path) else { return }
            let document: JSONDocument
            do {
                document = try JSONReader.read(Array(file.text.utf8))
            } catch {
                note(path, line: error.line, "is not valid JSON (line \(error.line), column \(error.column): \(error.message)); skipped")
                return
            }
            let root = document.root
            guard document.kind(root) == .object else {
                note(path, line: 1, "is not a JSON object; skipped")
                return
            }
            let store = document.value(of: root, forKey: "credsStore").flatMap(document.string) ?? ""
            let helpers = document.value(of: root, forKey: "credHelpers")
            guard store.isEmpty, let auths = document.value(of: root, forKey: "auths"), document.kind(auths) == .object else { return }
            for (key, value) in document.members(auths) {
                guard let registry = document.string(key), document.kind(value) == .object else { continue }
                if let helpers, document.kind(helpers) == .object, document.value(of: helpers, forKey: registry) != nil { continue }
                let fix =
                    "name a credential helper in \(shown(path)) (docker login, \"Credential stores\": \"credsStore\": \"pass\" or \"secretservice\"), then docker logout \(registry) && docker login \(registry)"
                if let auth = document.value(of: value, forKey: "auth").flatMap(document.string), !auth.isEmpty {
                    let decoded = Self.base64Decoded(auth)
                    let password = decoded.flatMap {
                        $0.firstIndex(of: ":").map { index in String(decoded![decoded!.index(after: index)...]) }
                    }
                    add(
                        file, kind: "docker-auth",
                        what: "a registry password for \(registry) in plain text (base64 in \"auth\", no credsStore or credHelpers)",
                        last4: SecretAudit.last4(password ?? auth), accounts: users, fix: fix)
                }
                if let token = document.value(of: value, forKey: "identitytoken").flatMap(document.string), !token.isEmpty {
                    add(
                        file, kind: "docker-auth", what: "an identity token for \(registry) in plain text (\"identitytoken\")",
                        last4: SecretAudit.last4(token), accounts: users, fix: fix)
                }
            }
        }

        /// RFC 4648 base64 (padding optional), as text; nil when it is not base64 of UTF-8.
        static func base64Decoded(_ text: String) -> String? { base64Bytes(text).flatMap { String(validating: $0, as: UTF8.self) } }

        /// RFC 4648 base64 (padding optional) as bytes; nil when a character is not base64.
        static func base64Bytes(_ text: String) -> [UInt8]? {
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
            var value: UInt32 = 0
            var bits = 0
            var bytes: [UInt8] = []
            for byte in text.utf8 where byte != UInt8(ascii: "=") {
                guard let index = alphabet.firstIndex(of: byte) else { return nil }
                value = value << 6 | UInt32(index)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    bytes.append(UInt8((value >> UInt32(bits)) & 0xFF))
                }
            }
            return bytes
        }

        // MARK: aws

        /// The INI sections of an AWS file and their keys; `[profile NAME]` read as `NAME` in the
        /// config file.
        static func iniSections(_ text: String, config: Bool) -> [(name: String, line: Int, keys: [String: String])] {
            var sections: [(name: String, line: Int, keys: [String: String])] = []
            for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = raw.trimmingWhitespace
                if line.hasPrefix("["), line.hasSuffix("]") {
                    var name = line.dropFirst().dropLast().trimmingWhitespace
                    if config, name.hasPrefix("profile ") { name = name.dropFirst(8).trimmingWhitespace }
                    sections.append((name, index + 1, [:]))
                } else if !sections.isEmpty, let equals = line.firstIndex(of: "="), !line.hasPrefix("#"), !line.hasPrefix(";") {
                    sections[sections.count - 1].keys[line[..<equals].trimmingWhitespace.lowercased()] =
                        line[line.index(after: equals)...].trimmingWhitespace
                }
            }
            return sections
        }

        /// Long-lived keys (`AKIA…`) of the profiles the accounts name, and of the profiles
        /// those name as `source_profile`.
        mutating func aws() {
            var profiles: [String: [String]] = [:]
            for account in accounts {
                if let profile = account.identities[.aws]?.value(as: String.self) { profiles[profile, default: []].append(account.id) }
            }
            guard !profiles.isEmpty else { return }
            let configPath = ToolReaders.awsConfigFile(environment)
            let credentialsPath =
                environment["AWS_SHARED_CREDENTIALS_FILE"].map(environment.expandingTilde) ?? environment.home + "/.aws/credentials"
            let configFile = read(configPath)
            let config = configFile.map { Self.iniSections($0.text, config: true) } ?? []
            // source_profile chains: an account's profile depends on the keys of its source.
            var dependents = profiles
            for _ in 0..<8 {
                for section in config {
                    if let source = section.keys["source_profile"], let ids = dependents[section.name] {
                        dependents[source, default: []] += ids.filter { !(dependents[source] ?? []).contains($0) }
                    }
                }
            }
            for (path, file, isConfig) in [(credentialsPath, read(credentialsPath), false), (configPath, configFile, true)] {
                _ = path
                guard let file else { continue }
                for section in Self.iniSections(file.text, config: isConfig) {
                    guard let ids = dependents[section.name], let key = section.keys["aws_access_key_id"], key.hasPrefix("AKIA") else {
                        continue
                    }
                    let secret = section.keys["aws_secret_access_key"] ?? ""
                    let ordered = accounts.map(\.id).filter(ids.contains)
                    add(
                        file, kind: "aws-access-key",
                        what:
                            "a long-lived access key (AKIA…\(SecretAudit.last4(key) ?? "")) and its secret for profile \(section.name) (line \(section.line))",
                        last4: SecretAudit.last4(secret), accounts: ordered,
                        fix:
                            "use short-lived credentials: aws configure sso --profile \(section.name) (IAM Identity Center) or credential_process; then remove the keys from \(shown(file.path)) and deactivate them: aws iam update-access-key --status Inactive (AWS's \"Best practices for managing access keys\")"
                    )
                }
            }
        }

        // MARK: kube

        /// `users[].user.token`, `password` and `client-key-data` of each kubeconfig file, with
        /// the accounts whose context uses that user.
        mutating func kube() {
            let users = naming(.kube)
            guard !users.isEmpty else { return }
            for path in ToolReaders.kubeconfigFiles(environment) {
                guard let file = read(path) else { continue }
                // kubectl reads every YAML style (a flow mapping `user: {token: …}` too); the
                // line reader below is for a machine without it.
                if let asked = kubeconfigSecrets(file.target ?? path) {
                    for secret in asked.users {
                        let owners = accounts.filter { account in
                            account.identities[.kube]?.value(as: KubeAdapter.Setting.self).map { asked.contexts[$0.context] == secret.name }
                                ?? false
                        }.map(\.id)
                        add(
                            file, kind: Self.kubeKinds[secret.key]!.kind,
                            what: "\(Self.kubeKinds[secret.key]!.words) for user \(secret.name)",
                            last4: secret.key == "client-key-data" ? nil : SecretAudit.last4(secret.value), accounts: owners,
                            fix: Self.kubeFix(secret.key, user: secret.name))
                    }
                    continue
                }
                let yaml = YAMLKeyLines(file.text)
                for problem in yaml.problems { note(path, line: problem.line, problem.reason + "; skipped") }
                var contextUser: [String: String] = [:]
                var contextNames: [Int: String] = [:]
                var contextUsers: [Int: String] = [:]
                var userNames: [Int: String] = [:]
                for entry in yaml.entries {
                    guard let item = entry.item else { continue }
                    switch entry.path {
                    case ["contexts", "-", "name"]: contextNames[item] = entry.value
                    case ["contexts", "-", "context", "user"]: contextUsers[item] = entry.value
                    case ["users", "-", "name"]: userNames[item] = entry.value
                    default: break
                    }
                }
                for (item, name) in contextNames { if let user = contextUsers[item] { contextUser[name] = user } }
                for entry in yaml.entries where entry.path.count == 4 && entry.path[0] == "users" && entry.path[2] == "user" {
                    guard let (kind, words) = Self.kubeKinds[entry.key], !entry.value.isEmpty, let item = entry.item else { continue }
                    let user = userNames[item] ?? "?"
                    let owners = accounts.filter { account in
                        account.identities[.kube]?.value(as: KubeAdapter.Setting.self).map { contextUser[$0.context] == user } ?? false
                    }.map(\.id)
                    let fix = Self.kubeFix(entry.key, user: user)
                    add(
                        file, kind: kind, what: "\(words) for user \(user) (line \(entry.line))",
                        last4: entry.key == "client-key-data" ? nil : SecretAudit.last4(entry.value), accounts: owners, fix: fix)
                }
            }
        }

        /// A kubeconfig user's inline secrets: the finding's kind and words, by key.
        static let kubeKinds = [
            "token": (kind: "kube-token", words: "an inline token"), "password": (kind: "kube-password", words: "an inline password"),
            "client-key-data": (kind: "kube-client-key", words: "an inline client key (client-key-data)"),
        ]

        /// What puts an inline kubeconfig secret of `key` right.
        static func kubeFix(_ key: String, user: String) -> String {
            key == "client-key-data"
                ? "keep the key in a file only you can read: kubectl config set-credentials \(user) --client-key=PATH --embed-certs=false, or use a credential plugin (users[].user.exec)"
                : "use a credential plugin (users[].user.exec, kubectl's \"client-go credential plugins\") or tokenFile with a 0600 file, instead of an inline \(key)"
        }

        // MARK: ssh

        /// Each account's `identityFile`: without a passphrase, or readable by others.
        mutating func ssh(_ checkKey: (String) -> SecretAudit.KeyCheck) {
            var keys: [(path: String, accounts: [String])] = []
            for account in accounts {
                guard let setting = account.identities[.ssh]?.value(as: SSHAdapter.Setting.self) else { continue }
                let path = environment.expandingTilde(setting.identityFile)
                if let index = keys.firstIndex(where: { $0.path == path }) {
                    keys[index].accounts.append(account.id)
                } else {
                    keys.append((path, [account.id]))
                }
            }
            for key in keys {
                var info = stat()
                guard lstat(key.path, &info) == 0 else {
                    note(key.path, "cannot be read: \(String(cString: strerror(errno))); skipped")
                    continue
                }
                var target: String?
                if info.st_mode & S_IFMT == S_IFLNK {
                    target = FileSystem.resolvingSymbolicLink(key.path)
                    guard stat(key.path, &info) == 0 else {
                        note(key.path, "is a symbolic link that leads nowhere; skipped")
                        continue
                    }
                }
                let file = AuditedFile(path: key.path, target: target, text: "", mode: UInt32(info.st_mode & 0o7777))
                switch checkKey(key.path) {
                case .noPassphrase:
                    add(
                        file, kind: "ssh-key-no-passphrase", what: "a private ssh key without a passphrase", last4: nil,
                        accounts: key.accounts,
                        fix:
                            "ssh-keygen -p -f \(shown(key.path)) gives it a passphrase (ssh-keygen(1)); ssh-add then keeps it unlocked in the agent"
                    )
                case .hasPassphrase:
                    readableByOthers(file, accounts: key.accounts)
                case .unknown(let why):
                    note(key.path, "whether it has a passphrase cannot be told: \(why)")
                    readableByOthers(file, accounts: key.accounts)
                }
            }
        }

        // MARK: Perch's own files

        /// Perch's generated files against the modes it writes them with: writable by group or
        /// others is `high` (a git include or hook decides what git runs), readable is `low`.
        mutating func perchFiles() {
            let files = IdentityFiles(environment)
            let all = accounts.map(\.id)
            var expected: [(path: String, mode: UInt32, accounts: [String])] = [
                (files.gitInclude, 0o644, naming(.git)), (files.gitDirectories, 0o644, naming(.git)), (files.gitGuard, 0o644, all),
                (files.sshInclude, 0o644, naming(.ssh)), (environment.statePath, 0o600, all), (files.results, 0o600, all),
                (files.journal, 0o600, all), (files.baseline, 0o600, all), (files.undo, 0o600, all), (files.scopes, 0o700, all),
                (files.answers, 0o700, all),
                (files.gitHooks, 0o755, all),
            ]
            for name in FileSystem.names(in: files.gitHooks).sorted() { expected.append((files.gitHooks + "/" + name, 0o755, all)) }
            for name in FileSystem.names(in: files.gitAccounts).sorted() {
                expected.append((files.gitAccounts + "/" + name, 0o644, accounts.map(\.id).filter { name == $0 + ".gitconfig" }))
            }
            for (path, mode, owners) in expected {
                var info = stat()
                guard lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFLNK else { continue }
                let actual = UInt32(info.st_mode & 0o7777)
                let extra = actual & ~mode & 0o777
                guard extra != 0 else { continue }
                let writable = extra & 0o022 != 0
                let group = extra & 0o070 != 0
                let others = extra & 0o007 != 0
                let who = group && others ? "group and others" : group ? "its group" : "others"
                findings.append(
                    AuditFinding(
                        file: path, kind: "perch-file-mode",
                        what:
                            "Perch's own file is \(writable ? "writable" : "readable") by \(who) (mode \(Self.octal(actual)); Perch writes it \(Self.octal(mode)))",
                        accounts: owners, severity: writable ? .high : .low, fix: "chmod \(String(mode, radix: 8)) \(path)"))
            }
        }
    }
}
