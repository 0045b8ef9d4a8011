import Glibc
import PerchDomain
import PerchStore

/// The files beyond each tool's own that the tools really read credentials from, each found by
/// asking where the tool looks: `~/.netrc` (or `NETRC`) that git's curl reads, the files a
/// `credential.helper "store --file PATH"` names (asked of `git config --get-all`), a token in
/// a URL's user-name slot or password in a remote URL or an `url.<base>.insteadOf` (asked of
/// `git config --show-origin`), `~/.npmrc` (or `NPM_CONFIG_USERCONFIG`), AWS's `cli/cache` and
/// `sso/cache`, and kubeconfig tokens in any YAML style (asked of `kubectl config view --raw`).
/// Nothing found is ever printed: at most its kind and last 4 characters.
extension SecretAudit.Run {
    // MARK: git's credential helpers and URLs

    /// The files git's `store` helper writes, beyond the default ones: each `--file PATH` (or
    /// `--file=PATH`) of a `credential.helper` or `credential.<url>.helper` git reads here
    /// (git-credential-store(1)). The value is never run.
    func storeHelperFiles() -> [String] {
        let run = ProgramRunner.run(
            "git", ["config", "--null", "--get-regexp", "^credential\\.(.*\\.)?helper$"], in: environment, folder: environment.home)
        var files: [String] = []
        for entry in (run.output ?? "").split(separator: "\0") {
            guard let newline = entry.firstIndex(of: "\n") else { continue }
            let words = entry[entry.index(after: newline)...].split(whereSeparator: { $0 == " " || $0 == "\t" }).map {
                $0.trimmingCharacters(in: "\"'")
            }
            guard words.first == "store" || words.first == "git-credential-store" else { continue }
            for (index, word) in words.enumerated() {
                var path: String?
                if word == "--file", index + 1 < words.count { path = words[index + 1] }
                if word.hasPrefix("--file=") { path = String(word.dropFirst("--file=".count)) }
                if let path, !path.isEmpty {
                    let full = environment.expandingTilde(path)
                    if full.hasPrefix("/"), !files.contains(full) { files.append(full) }
                }
            }
        }
        return files
    }

    /// URLs git reads here holding a credential: a remote's `url` or `pushurl` with a password
    /// (`https://user:secret@host/…`) or a token in its user-name slot
    /// (`https://ghp_…@github.com/…`), and the same in an `url.<base>.insteadOf` base. Asked of
    /// git in the current folder (so the repository you stand in is included) with the file
    /// each comes from; the file is named, its text never.
    mutating func credentialURLs() {
        let users = accounts.filter { $0.identities[.git] != nil || $0.identities[.gh] != nil }.map(\.id)
        guard !users.isEmpty else { return }
        let run = ProgramRunner.run(
            "git",
            [
                "config", "--null", "--show-origin", "--get-regexp",
                "^(remote\\..*\\.(url|pushurl)|url\\..*\\.(insteadof|pushinsteadof))$",
            ], in: environment, folder: folder)
        if case .notStarted(let why) = run { note(folder, "remote URLs not audited: \(why)") }
        let fields = (run.output ?? "").split(separator: "\0", omittingEmptySubsequences: false)
        var index = 0
        let here = folder
        while index + 1 < fields.count {
            defer { index += 2 }
            guard fields[index].hasPrefix("file:"), let newline = fields[index + 1].firstIndex(of: "\n") else { continue }
            var path = String(fields[index].dropFirst(5))
            if !path.hasPrefix("/") { path = here + "/" + path }
            let key = fields[index + 1][..<newline]
            let value = fields[index + 1][fields[index + 1].index(after: newline)...]
            // `url.<base>.insteadOf`: the URL is the base, inside the key.
            let lowered = key.lowercased()
            let url =
                lowered.hasPrefix("url.") ? String(key.dropFirst(4).dropLast(lowered.hasSuffix(".pushinsteadof") ? 14 : 10)) : String(value)
            guard let credential = Self.urlCredential(url) else { continue }
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            let file = AuditedFile(path: path, target: nil, text: "", mode: UInt32(info.st_mode & 0o7777))
            let name = key.split(separator: ".").first.map(String.init) ?? "url"
            let place = name == "url" ? "an url.<base>.insteadOf rule" : "a remote's URL"
            add(
                file, kind: "url-credential", what: "\(credential.what) in \(place) for \(credential.host) in plain text",
                last4: SecretAudit.last4(credential.secret), accounts: users,
                fix:
                    "take it out of the URL (git remote set-url NAME https://\(credential.host)/…, or edit the rule in \(shown(path))) and let a credential helper keep it (gitcredentials(7)), then revoke it where it was made"
            )
        }
    }

    /// The secret in `url`'s user information: the password after `user:`, or the user itself
    /// when it looks like a token (``EnvironmentEntry/looksLikeSecret(_:)``); with what it is
    /// and the host. Nil for none.
    static func urlCredential(_ url: String) -> (what: String, secret: String, host: String)? {
        guard let scheme = url.firstRange(of: "://") else { return nil }
        let rest = url[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" }
        guard let at = authority.lastIndex(of: "@") else { return nil }
        let userinfo = authority[..<at]
        let host = String(authority[authority.index(after: at)...])
        if let colon = userinfo.firstIndex(of: ":") {
            let password = percentDecoded(userinfo[userinfo.index(after: colon)...])
            guard !password.isEmpty else { return nil }
            return ("a password", password, host)
        }
        let user = percentDecoded(userinfo)
        guard EnvironmentEntry.looksLikeSecret(user) else { return nil }
        return ("a token in the user-name slot", user, host)
    }

    // MARK: netrc

    /// `~/.netrc`, or the file `NETRC` names: `machine HOST login USER password SECRET` (and
    /// `default`), which git's curl reads for https (curl(1) `--netrc`). Each password is a
    /// finding; `macdef` bodies are skipped.
    mutating func netrc() {
        let users = accounts.filter { $0.identities[.git] != nil || $0.identities[.gh] != nil }.map(\.id)
        guard !users.isEmpty else { return }
        let path = environment["NETRC"].map(environment.expandingTilde) ?? environment.home + "/.netrc"
        guard let file = read(path) else { return }
        var machine = "default"
        var login = ""
        var lines = file.text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        var number = 0
        while let line = lines.popFirst() {
            number += 1
            var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })[...]
            while let word = words.popFirst() {
                switch word {
                case "machine": machine = words.popFirst().map(String.init) ?? ""
                case "default": machine = "default"
                case "login": login = words.popFirst().map(String.init) ?? ""
                case "password":
                    guard let secret = words.popFirst(), !secret.isEmpty else { continue }
                    let owners = accounts.filter { account in
                        account.identities[.gh]?.value(as: GitHubAdapter.Setting.self).map { $0.hostname == machine && $0.user == login }
                            ?? false
                    }.map(\.id)
                    add(
                        file, kind: "netrc-password",
                        what: "a password for \(login.isEmpty ? "" : login + "@")\(machine) in plain text (line \(number))",
                        last4: SecretAudit.last4(secret), accounts: owners.isEmpty ? users : owners,
                        fix:
                            "keep it in a credential helper instead (gitcredentials(7); gh auth setup-git for a GitHub host), then remove the password from \(shown(path))"
                    )
                case "macdef":
                    // A macro runs to the next empty line.
                    while let next = lines.popFirst() {
                        number += 1
                        if next.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { break }
                    }
                    words = []
                default: break
                }
            }
        }
    }

    // MARK: npm

    /// `~/.npmrc`, or the file `NPM_CONFIG_USERCONFIG` names (npmrc(5)): `_authToken`,
    /// `_auth`, `_password` (base64) and `password`, plain or per registry
    /// (`//registry.npmjs.org/:_authToken=…`). A value that names a variable (`${NPM_TOKEN}`)
    /// holds no secret itself.
    mutating func npmrc() {
        let path = environment["NPM_CONFIG_USERCONFIG"].map(environment.expandingTilde) ?? environment.home + "/.npmrc"
        guard let file = read(path) else { return }
        for (index, raw) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingWhitespace
            guard !line.hasPrefix("#"), !line.hasPrefix(";"), let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingWhitespace
            var value = line[line.index(after: equals)...].trimmingWhitespace
            if value.count >= 2, value.first == "\"" || value.first == "'", value.last == value.first {
                value = String(value.dropFirst().dropLast())
            }
            let name = key.split(separator: ":").last.map(String.init) ?? key
            guard ["_authToken", "_auth", "_password", "password"].contains(name), !value.isEmpty, !value.hasPrefix("${") else { continue }
            let registry = key.contains(":") ? String(key[..<key.lastIndex(of: ":")!]) : "the default registry"
            add(
                file, kind: "npm-token", what: "npm's \(name) for \(registry) in plain text (line \(index + 1))",
                last4: SecretAudit.last4(value), accounts: [],
                fix:
                    "name a variable instead (\(key)=${NPM_TOKEN}, npmrc(5)) and keep the token in a secret manager; npm token revoke retires the old one"
            )
        }
    }

    // MARK: AWS caches

    /// `~/.aws/cli/cache/*.json` (assumed-role credentials: `Credentials.SecretAccessKey`,
    /// `SessionToken`) and `~/.aws/sso/cache/*.json` (`accessToken`, `refreshToken`,
    /// `clientSecret`), where the AWS CLI keeps them by design, mode 0600: a finding when
    /// group or others can read one holding a secret.
    mutating func awsCaches() {
        let users = naming(.aws)
        guard !users.isEmpty else { return }
        for folder in [environment.home + "/.aws/cli/cache", environment.home + "/.aws/sso/cache"] {
            for name in FileSystem.names(in: folder).sorted() where name.hasSuffix(".json") {
                let path = folder + "/" + name
                guard let file = read(path) else { continue }
                guard file.mode & 0o044 != 0 else { continue }
                guard let document = try? JSONReader.read(Array(file.text.utf8)), document.kind(document.root) == .object else {
                    note(path, "is not a JSON object; skipped")
                    continue
                }
                let root = document.root
                let credentials = document.value(of: root, forKey: "Credentials")
                let secrets =
                    ["accessToken", "refreshToken", "clientSecret"].compactMap { document.value(of: root, forKey: $0) }
                    + ["SecretAccessKey", "SessionToken"].compactMap { key in credentials.flatMap { document.value(of: $0, forKey: key) } }
                guard secrets.contains(where: { !(document.string($0) ?? "").isEmpty }) else { continue }
                readableByOthers(file, accounts: users)
            }
        }
    }

    // MARK: kube, as kubectl reads it

    /// A kubeconfig file's users with an inline `token`, `password` or `client-key-data`, as
    /// kubectl reads the file (`kubectl config view --raw -o json --kubeconfig FILE`): every
    /// YAML style, flow mappings included. Nil when kubectl cannot be asked here.
    func kubeconfigSecrets(_ path: String) -> (users: [(name: String, key: String, value: String)], contexts: [String: String])? {
        let run = ProgramRunner.run("kubectl", ["config", "view", "--raw", "-o", "json", "--kubeconfig", path], in: environment)
        guard case .exited(0, let stdout, _) = run, let document = try? JSONReader.read(Array(stdout.utf8)),
            document.kind(document.root) == .object
        else { return nil }
        var users: [(name: String, key: String, value: String)] = []
        var contexts: [String: String] = [:]
        if let list = document.value(of: document.root, forKey: "users"), document.kind(list) == .array {
            for item in document.elements(list) where document.kind(item) == .object {
                let name = document.value(of: item, forKey: "name").flatMap(document.string) ?? "?"
                guard let user = document.value(of: item, forKey: "user"), document.kind(user) == .object else { continue }
                for key in ["token", "password", "client-key-data"] {
                    if let value = document.value(of: user, forKey: key).flatMap(document.string), !value.isEmpty {
                        users.append((name, key, value))
                    }
                }
            }
        }
        if let list = document.value(of: document.root, forKey: "contexts"), document.kind(list) == .array {
            for item in document.elements(list) where document.kind(item) == .object {
                guard let name = document.value(of: item, forKey: "name").flatMap(document.string),
                    let context = document.value(of: item, forKey: "context"),
                    let user = document.value(of: context, forKey: "user").flatMap(document.string)
                else { continue }
                contexts[name] = user
            }
        }
        return (users, contexts)
    }
}

extension Substring {
    /// Without the characters of `set` at either end.
    func trimmingCharacters(in set: String) -> String {
        var text = self[...]
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
