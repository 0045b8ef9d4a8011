import Glibc
import PerchDomain
import PerchStore

extension IdentityTool {
    public static let git = IdentityTool("git")
}

/// `git`: the author (`user.name`, `user.email`) and signing key, written to Perch's own include
/// file (``IdentityFiles/gitInclude``), which `perch setup git` includes from the user's global
/// config after their plain `[user]` and before their `includeIf` rules (git-config(1),
/// "Includes": the last value read wins). An account naming no git identity empties the file,
/// so git falls back to the user's own.
public struct GitAdapter: ToolAdapter {
    /// The account's git identity, as read from `"git": {"name": …, "email": …, "signingKey": …}`
    /// or with signing as one unit, `"signing": {"key": "~/.ssh/id_work.pub", "format": "ssh", "sign": true}`.
    public struct Setting: Hashable, Sendable {
        public var name: String?
        public var email: String?
        /// `user.signingkey`: a key id (openpgp, x509) or an ssh key's file.
        public var signingKey: String?
        /// `gpg.format` (`ssh`, `openpgp`, `x509`) when the account signs as one unit (the
        /// `signing` object); nil for the older `signingKey` alone, which sets only the key.
        public var signingFormat: String?
        /// `commit.gpgsign` and `tag.gpgsign` with ``signingFormat``.
        public var sign: Bool?
        public init(name: String? = nil, email: String? = nil, signingKey: String? = nil, signingFormat: String? = nil, sign: Bool? = nil) {
            self.name = name
            self.email = email
            self.signingKey = signingKey
            self.signingFormat = signingFormat
            self.sign = sign
        }
    }

    /// The formats of `gpg.format` (git-config(1)).
    public static let signingFormats = ["ssh", "openpgp", "x509"]

    public init() {}
    public var tool: IdentityTool { .git }
    /// How a scope carries it (the man page's SCOPES).
    public var scopeCarrier: String? { "GIT_CONFIG_COUNT entries" }
    /// Its member in the starter config, commented out.
    public var configExample: ToolConfigExample? {
        ToolConfigExample("\"git\": { \"name\": \"Your Name\", \"email\": \"you@work.example\" }")
    }
    public var fieldPaths: [String] {
        ["git.name", "git.email", "git.signingKey", "git.signing.key", "git.signing.format", "git.signing.sign"]
    }
    public var program: String? { "git" }
    /// Its state is Perch's own file: an account without git empties it, so nothing is kept.
    public var keepsBaseline: Bool { false }
    /// git-var(1) and git-commit-tree(1), "Commit information": these beat `user.*`.
    /// (`EMAIL` is read only when `user.email` is unset, so it never beats an account's email.)
    public var overrides: [ToolOverride] {
        ["GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"].map {
            ToolOverride($0, "git-commit-tree(1): the GIT_AUTHOR_* and GIT_COMMITTER_* variables beat user.name and user.email")
        }
    }

    /// The setting made from `value` (for tests and import).
    public static func setting(_ value: Setting) -> ToolSetting {
        var parts: [String] = []
        if let name = value.name { parts.append(name) }
        if let email = value.email { parts.append("<\(email)>") }
        if let key = value.signingKey {
            parts.append(
                value.signingFormat.map { "signs with \($0) key \(key)" + (value.sign == false ? " (when asked)" : "") } ?? "key \(key)")
        }
        let unit = value.signingFormat != nil
        let fields = [
            ("name", value.name), ("email", value.email), (unit ? "signing.key" : "signingKey", value.signingKey),
            ("signing.format", value.signingFormat), ("signing.sign", value.sign.map { $0 ? "true" : "false" }),
        ].compactMap { key, text in text.map { ToolField(key, $0) } }
        return ToolSetting(tool: .git, summary: parts.joined(separator: " "), fields: fields, value: value)
    }

    public func read(_ reader: inout ToolMemberReader) -> ToolSetting? {
        guard reader.expectObject(#"{"name": "Ada", "email": "ada@work.example"}"#) else { return nil }
        var git = Setting(name: reader.string("name"), email: reader.string("email"), signingKey: reader.string("signingKey"))
        let place = reader.place
        switch reader.member("signing") {
        case nil, .null?: break
        case .object(let members)?:
            var signing = ToolMemberReader(value: .object(members), place: place + ".signing", reportUnknownKeys: reader.reportUnknownKeys)
            _ = signing.expectObject(#"{"key": "~/.ssh/id_work.pub", "format": "ssh", "sign": true}"#)
            let key = signing.string("key", required: true)
            let format = signing.string("format")
            var sign = true
            switch signing.member("sign") {
            case nil, .null?: break
            case .bool(let value)?: sign = value
            // `perch set ID git.signing.sign true` writes the word as a string.
            case .string("true")?: sign = true
            case .string("false")?: sign = false
            case let other?: signing.problems.append("\(place).signing.sign: expected true or false, found \(other.kind)")
            }
            signing.finish(known: ["key", "format", "sign"])
            if let format, !Self.signingFormats.contains(format) {
                signing.problems.append(
                    "\(place).signing.format: \"\(format)\" is not one of \(Self.signingFormats.joined(separator: ", "))")
            }
            if git.signingKey != nil { signing.problems.append("\(place).signing: name the key once (signing.key), not also signingKey") }
            // git-config(1), user.signingKey: with gpg.format ssh, a key file or a literal key
            // (`ssh-ed25519 AAAA…`, `key::…`); a gpg key id there makes every signed commit fail.
            if format == "ssh", let key, Self.looksLikeGPGKeyID(key) {
                signing.problems.append(
                    "\(place).signing.key: \"\(key)\" is a gpg key id, but format is ssh: give the public key file (~/.ssh/id_work.pub), or format openpgp"
                )
            }
            reader.problems += signing.problems
            reader.warnings += signing.warnings
            if let key {
                git.signingKey = key
                // A key file ending in .pub, or a public key's text (`ssh-ed25519 AAAA…`, `key::…`,
                // the form 1Password gives), is an ssh key; otherwise a gpg key id
                // (git-config(1), gpg.format). Bug (guard issue): the text got openpgp, and every
                // commit failed while status and verify showed ✓.
                git.signingFormat = format ?? (key.hasSuffix(".pub") || Self.isSSHKeyText(key) ? "ssh" : "openpgp")
                git.sign = sign
            }
        case let other?:
            reader.problems.append(
                "\(place).signing: expected an object like {\"key\": \"~/.ssh/id_work.pub\", \"format\": \"ssh\"}, found \(other.kind)")
        }
        reader.finish(known: ["name", "email", "signingKey", "signing"])
        if git.name == nil, git.email == nil, git.signingKey == nil, reader.problems.isEmpty {
            reader.problems.append("\(reader.place): name at least one of name, email, signingKey")
        }
        if let email = git.email, !email.contains("@") { reader.problems.append("\(reader.place).email: \"\(email)\" has no @") }
        // git-config(1), "Syntax": a value is one line; a control character in it would reach
        // every commit and every program that prints one.
        for (key, text) in [("name", git.name), ("email", git.email), ("signing key", git.signingKey)] {
            if let text, AccountValidation.hasControlCharacter(text) {
                reader.problems.append("\(reader.place): the \(key) must not hold a control character (a line break, a tab, an escape)")
            }
        }
        return Self.setting(git)
    }

    public func json(_ setting: ToolSetting) -> String {
        let git = setting.value(as: Setting.self) ?? Setting()
        guard let format = git.signingFormat, let key = git.signingKey else {
            return IdentityConfig.object([("name", git.name), ("email", git.email), ("signingKey", git.signingKey)])
        }
        let base = IdentityConfig.object([("name", git.name), ("email", git.email)])
        let signing =
            "\"signing\": {\"key\": \(ConfigWriter.json(key)), \"format\": \(ConfigWriter.json(format)), \"sign\": \(git.sign == false ? "false" : "true")}"
        return base == "{}" ? "{\(signing)}" : String(base.dropLast()) + ", " + signing + "}"
    }

    // MARK: State

    /// The text of Perch's file when the account names no git identity: git then uses the user's own.
    static let ownHeader = "# Written by Perch: the current account names no git identity, so git uses your own.\n"

    /// Perch's file for an account naming no git identity: only the directory rules' include.
    static func ownText(_ files: IdentityFiles) -> String { ownHeader + directoriesInclude(files) }

    /// The end of Perch's file: the include of the bound folders' rules (``GitDirectoryRules``),
    /// after the account's `[user]`, so that in a bound folder its account wins.
    static func directoriesInclude(_ files: IdentityFiles) -> String {
        "[include]\n\tpath = \(quoted(files.gitDirectories))\n"
    }

    /// Whether `text` is Perch's file for an account naming no git identity.
    static func isOwnText(_ text: String?) -> Bool { text?.hasPrefix(ownHeader) == true }

    public func wanted(_ setting: ToolSetting?, account: Account, in context: ToolContext) -> ToolState? {
        guard let setting = setting?.value(as: Setting.self) else {
            return ToolState(["exists": "1", "file": Self.ownText(context.files)])
        }
        let git = Self.expanded(setting, context.environment)
        var state = ToolState([
            "exists": "1", "file": Self.includeText(git, account: account, files: context.files) + Self.directoriesInclude(context.files),
        ])
        if let name = git.name { state["user.name"] = name }
        if let email = git.email { state["user.email"] = email }
        if let key = git.signingKey { state["user.signingkey"] = key }
        if let format = git.signingFormat {
            state["gpg.format"] = format
            state["commit.gpgsign"] = git.sign == false ? "false" : "true"
            state["tag.gpgsign"] = git.sign == false ? "false" : "true"
            let userFile = format == "ssh" ? Self.values(byOrigin: context)?.own["gpg.ssh.allowedsignersfile"] : nil
            if let signers = Self.allowedSigners(
                git, account: account, files: context.files, environment: context.environment, userFile: userFile)
            {
                state["signers.path"] = signers.path
                state["signers.text"] = signers.text
            }
        }
        return state
    }

    /// Perch's file and, when the global config includes it, the identity git uses outside any
    /// directory rule (asked in `/`, where no `includeIf "gitdir:…"` applies).
    public func current(in context: ToolContext) -> Result<ToolState, ToolFailure> {
        var state = ToolState()
        if let bytes = try? FileSystem.read(context.files.gitInclude) {
            state["exists"] = "1"
            state["file"] = String(decoding: bytes, as: UTF8.self)
        } else {
            state["exists"] = "0"
            state["file"] = ""
        }
        // One git start for both: whether the global config includes Perch's file, and the values.
        let run = context.run(
            "git",
            [
                "config", "--includes", "--show-origin", "--get-regexp",
                "^(include\\.path|user\\.(name|email|signingkey)|gpg\\.format|(commit|tag)\\.gpgsign)$",
            ],
            in: "/")
        // Exit status 1 with nothing on stderr: no such key (git-config(1), "EXIT STATUS"); with a
        // message, git failed.
        guard case .exited(let status, let output, let errors) = run, status == 0 || (status == 1 && errors.isEmpty) else {
            if case .notFound = run { return .failure(ToolFailure("git not found")) }
            return .failure(ToolFailure(run.failure ?? "git config failed"))
        }
        state["included"] = "0"
        for (origin, key, value) in Self.originEntries(output) {
            if key == "include.path" {
                if context.files.userGitConfigs.contains(origin), context.environment.expandingTilde(value) == context.files.gitInclude {
                    state["included"] = "1"
                }
            } else {
                state[key] = value
            }
        }
        for key in ["user.name", "user.email", "user.signingkey"] + Self.signingKeys where state[key] == nil { state[key] = "" }
        return .success(state)
    }

    /// Whether `wanted` is met: Perch's file as wanted and, when it is included, git using the
    /// account's values (not included: only the file counts; `perch setup git` is the remedy).
    public func isMet(_ wanted: ToolState, by now: ToolState) -> Bool {
        // An absent file is as good as an empty one: git then uses the user's own.
        if Self.isOwnText(wanted["file"]), now["exists"] == "0" { return true }
        if now["included"] == "0" { return wanted["file"] == now["file"] && wanted["exists"] == now["exists"] }
        // The allowed-signers file is written with the include; git is not asked about it.
        return ToolState(wanted.values.filter { !$0.key.hasPrefix("signers.") }).isMet(by: now)
    }

    /// The signing keys a switch sets together (beside `user.signingkey`).
    static let signingKeys = ["gpg.format", "commit.gpgsign", "tag.gpgsign"]

    /// `git` with its signing key's `~` put in: git reads `user.signingkey` as it is written.
    static func expanded(_ git: Setting, _ environment: IdentityEnvironment) -> Setting {
        var git = git
        if git.signingFormat == "ssh", let key = git.signingKey { git.signingKey = environment.expandingTilde(key) }
        return git
    }

    /// The allowed-signers file of an account that signs with an ssh key (git-config(1),
    /// `gpg.ssh.allowedSignersFile`; ssh-keygen(1), "ALLOWED SIGNERS"): one line naming its
    /// email for its public key, so that `git log --show-signature` and `git verify-commit`
    /// verify its commits. Nil without an email, or when the public key cannot be read.
    ///
    /// `userFile`, the user's own `gpg.ssh.allowedSignersFile` (which Perch's setting replaces
    /// while the account is in effect), has its lines kept first, so teammates' commits still
    /// verify: Perch's file is added beside the user's, not instead of it.
    /// Whether `email` can stand as the principal of an allowed-signers line (ssh-keygen(1),
    /// ALLOWED SIGNERS: comma-separated patterns, then options): no white space, no `,` `*` `?`
    /// `!` (pattern syntax), no quote, backslash or control character.
    // Bug (hostile review): a registry's `git.email` of `*@* namespaces="git" KEY #` made the
    // line trust an attacker's key for every address.
    static func isPlainPrincipal(_ email: String) -> Bool {
        !email.isEmpty
            && email.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && !",*?!\"'\\".unicodeScalars.contains($0) }
    }

    static func allowedSigners(
        _ git: Setting, account: Account, files: IdentityFiles, environment: IdentityEnvironment, userFile: String? = nil
    ) -> (path: String, text: String)? {
        guard git.signingFormat == "ssh", let email = git.email, let key = git.signingKey else { return nil }
        let publicKey: String
        if isSSHKeyText(key) {
            // The key's own text (git-config(1), user.signingKey): no file to read.
            publicKey = key.hasPrefix("key::") ? String(key.dropFirst(5)) : key
        } else {
            let file = environment.expandingTilde(key)
            let publicFile = file.hasSuffix(".pub") ? file : file + ".pub"
            guard let bytes = try? FileSystem.read(publicFile) else { return nil }
            publicKey = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        }
        guard !publicKey.isEmpty, isPlainPrincipal(email) else { return nil }
        let own = "\(email) namespaces=\"git\" \(publicKey)"
        var text = ""
        // Bug (guard issue): the user's own allowed-signers file was replaced on a switch, and
        // teammates' commits then showed U.
        let path = files.gitAccounts + "/" + account.id + ".allowed_signers"
        if let userFile, !userFile.isEmpty, environment.expandingTilde(userFile) != path,
            let bytes = try? FileSystem.read(environment.expandingTilde(userFile), limit: 1 << 20)
        {
            for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) where line != own {
                text += line + "\n"
            }
        }
        return (path, text + own + "\n")
    }

    public func apply(_ state: ToolState, in context: ToolContext) -> ToolStep {
        let file = context.files.gitInclude
        do {
            if state["exists"] == "0" {
                if unlink(file) != 0, errno != ENOENT { return .failed("cannot remove \(file): \(String(cString: strerror(errno)))") }
            } else {
                if let path = state["signers.path"], let text = state["signers.text"] {
                    try FileSystem.writeAtomically(Array(text.utf8), to: path, mode: 0o644)
                }
                try FileSystem.writeAtomically(Array((state["file"] ?? "").utf8), to: file, mode: 0o644)
            }
        } catch {
            return .failed("\(error)")
        }
        if Self.isOwnText(state["file"]) || state["exists"] == "0" { return .applied("your own") }
        // Written but not verified is not applied: the switch puts the file back.
        let read = current(in: context)
        guard case .success(let now) = read else {
            if case .failure(let failure) = read { return .failed("git could not be asked after the change: \(failure)") }
            return .failed("git could not be asked after the change")
        }
        if now["included"] == "0" {
            return state["user.email"] == nil && state["user.name"] == nil
                ? .applied("your own")
                : .skipped("\(describe(Self.written(state, in: file, context))) written; run `perch setup git` to use it")
        }
        guard isMet(state, by: now) else {
            let key =
                (["user.email", "user.name", "user.signingkey"] + Self.signingKeys).first { state[$0] != nil && now[$0] != state[$0] }
                ?? "user.email"
            return .failed(
                "git uses \(key) \(now[key].map { $0.isEmpty ? "(none)" : $0 } ?? "?")\(Self.origin(of: key, in: "/", context).map { " from \($0)" } ?? ""), not the account's; `perch setup git` puts Perch's include after it"
            )
        }
        return .applied(describe(now))
    }

    /// `state` with the identity its file holds, as git reads the file just written at `file`:
    /// a state that was read (an undo's, a redo's) holds what git resolved, which is nothing
    /// while the file is not included.
    // Bug: undo then redo said "(none) written" of a file holding a name and an email.
    static func written(_ state: ToolState, in file: String, _ context: ToolContext) -> ToolState {
        guard state["user.name"]?.isEmpty != false, state["user.email"]?.isEmpty != false else { return state }
        let run = context.run("git", ["config", "--file", file, "--get-regexp", "^user\\.(name|email|signingkey)$"], in: "/")
        var read = state
        for line in (run.output ?? "").split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            read[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        return read
    }

    public func describe(_ state: ToolState) -> String {
        var parts: [String] = []
        if let name = state["user.name"], !name.isEmpty { parts.append(name) }
        if let email = state["user.email"], !email.isEmpty { parts.append("<\(email)>") }
        if let key = state["user.signingkey"], !key.isEmpty { parts.append("key \(key)") }
        if parts.isEmpty { return Self.isOwnText(state["file"]) || state["exists"] == "0" ? "your own" : "(none)" }
        return parts.joined(separator: " ")
    }

    // MARK: Status

    /// What git uses in the current folder and where from (`git config --show-origin`), and
    /// whether a directory rule of the user's (`includeIf`) or a file after Perch's include beats
    /// the account.
    public func check(_ setting: ToolSetting, in context: ToolContext) -> IdentityCheck {
        let expected = setting.summary
        guard let written = setting.value(as: Setting.self) else {
            return IdentityCheck(tool: .git, expected: expected, actual: nil, matches: nil)
        }
        // An ssh key is written to git with `~` put in: compared the same way.
        let git = Self.expanded(written, context.environment)
        guard context.environment.which("git") != nil else {
            return IdentityCheck(tool: .git, expected: expected, actual: nil, matches: nil, note: "git not found")
        }
        if let blocked = RepositoryConfig.blockingFile(in: ProgramRunner.currentFolder(), environment: context.environment) {
            return IdentityCheck(tool: .git, expected: expected, actual: nil, matches: nil, note: RepositoryConfig.note(blocked))
        }
        let wantedValues = [("user.name", git.name), ("user.email", git.email), ("user.signingkey", git.signingKey)].compactMap {
            key, value in
            value.map { (key, $0) }
        }
        func described(_ values: [String: String]) -> String {
            Self.describe(Setting(name: values["user.name"], email: values["user.email"], signingKey: values["user.signingkey"]))
        }
        let everywhere = Self.values(in: "/", context) ?? [:]
        let here = Self.values(in: nil, context) ?? [:]
        let meetsEverywhere = wantedValues.allSatisfy { everywhere[$0.0] == $0.1 }
        let meetsHere = wantedValues.allSatisfy { here[$0.0] == $0.1 }
        if !meetsEverywhere {
            var check = IdentityCheck(tool: .git, expected: expected, actual: described(everywhere), matches: false)
            if GitConfigFile.includeState(context) == .notIncluded {
                check.note = "run `perch setup git`"
                check.fix = "perch setup git"
            } else if let key = wantedValues.first(where: { everywhere[$0.0] != $0.1 })?.0,
                let origin = Self.origin(of: key, in: "/", context),
                !origin.hasPrefix(context.files.gitInclude)
            {
                check.note = "\(key) from \(origin) beats the account; run `perch setup git` (it puts Perch's include after it)"
                check.fix = "perch setup git"
            }
            return overridden(check, in: context)
        }
        if !meetsHere {
            let key = wantedValues.first { here[$0.0] != $0.1 }?.0 ?? "user.email"
            let origin = Self.origin(of: key, in: nil, context) ?? "a file of yours"
            let accounts = GitConfigFile.shown(context.files.gitAccounts, context.environment) + "/"
            if origin.hasPrefix(accounts) {
                // `ID.gitconfig:LINE`: an id may hold dots, so the suffix is cut, not the first dot.
                let file = origin.dropFirst(accounts.count).prefix { $0 != ":" }
                let bound = file.hasSuffix(".gitconfig") ? file.dropLast(".gitconfig".count) : file
                return IdentityCheck(
                    tool: .git, expected: expected, actual: described(here), matches: nil,
                    note:
                        "this folder is \(bound)'s (its \"directories\" or \"remotes\"), so git uses that account here; elsewhere the current one"
                )
            }
            return IdentityCheck(
                tool: .git, expected: expected, actual: described(here), matches: nil,
                note:
                    "in this folder \(key) comes from \(origin) (your includeIf or the repository's config), which beats the account here; elsewhere git uses the account's"
            )
        }
        if let beaten = Self.beatenRule(wanted: wantedValues, in: nil, context) {
            // The account is used here only because Perch's include comes after the user's
            // directory rule: their rule loses, which is never a ✓.
            return IdentityCheck(
                tool: .git, expected: expected, actual: described(here), matches: false,
                note:
                    "your includeIf in \(beaten.rule) gives \(beaten.key) \(beaten.value) in this folder, but Perch's include in \(beaten.include) is read after it and beats it; `perch setup git` puts the include before your rules"
            )
        }
        let origin = Self.origin(of: wantedValues.first?.0 ?? "user.email", in: nil, context)
        var check = IdentityCheck(tool: .git, expected: expected, actual: described(here), matches: true)
        if let origin { check.note = "from \(origin)" }
        return overridden(check, in: context)
    }

    /// A directory rule of the user's (`includeIf`) that applies in `folder` (nil: Perch's
    /// working directory) and sets one of `wanted`'s keys to another value, but is read before
    /// Perch's include, so the account beats it: the rule's file and line, the key and its value,
    /// and the file holding Perch's include. Nil when no rule of the user's loses here, or git
    /// cannot be asked. One `git config --includes --show-origin` run, whose entries come in the
    /// order git reads them, an `includeIf`'s file right after its `path` when it applies.
    static func beatenRule(wanted: [(String, String)], in folder: String?, _ context: ToolContext) -> (
        rule: String, key: String, value: String, include: String
    )? {
        let run = context.run(
            "git",
            [
                "config", "--includes", "--show-origin", "--get-regexp",
                "^(includeif\\..*\\.path|include\\.path|user\\.(name|email|signingkey))$",
            ],
            in: folder)
        guard case .exited(0, let output, _) = run else { return nil }
        let environment = context.environment
        var rule: (origin: String, file: String)?
        var beaten: (origin: String, key: String, value: String)?
        for (origin, key, value) in Self.originEntries(output) {
            if key.hasPrefix("includeif."), key.hasSuffix(".path") {
                let path = environment.expandingTilde(value)
                rule = (origin, path.hasPrefix("/") ? path : FileSystem.directory(of: origin) + "/" + path)
            } else if key == "include.path", environment.expandingTilde(value) == context.files.gitInclude {
                guard let beaten else { return nil }
                let line = GitConfigFile.firstRuleLine(in: beaten.origin)
                return (
                    GitConfigFile.shown(beaten.origin, environment) + (line.map { ":\($0)" } ?? ""), beaten.key, beaten.value,
                    GitConfigFile.shown(origin, environment)
                )
            } else if let rule, origin == rule.file, beaten == nil, let wantedValue = wanted.first(where: { $0.0 == key })?.1,
                wantedValue != value
            {
                beaten = (rule.origin, key, value)
            }
        }
        return nil
    }

    static func describe(_ git: Setting) -> String {
        let text = setting(git).summary
        return text.isEmpty ? "(none)" : text
    }

    /// The `user.*` values git uses in `folder` (nil: Perch's working directory), every scope
    /// and include followed; nil when git cannot be asked.
    static func values(in folder: String?, _ context: ToolContext) -> [String: String]? {
        let run = context.run("git", ["config", "--includes", "--get-regexp", "^user\\.(name|email|signingkey)$"], in: folder)
        // Exit status 1: no such key.
        guard case .exited(let status, let output, let errors) = run, status == 0 || (status == 1 && errors.isEmpty) else { return nil }
        var values: [String: String] = [:]
        for line in output.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: " ", maxSplits: 1)
            values[String(parts[0]).lowercased()] = parts.count > 1 ? String(parts[1]) : ""
        }
        return values
    }

    /// Where the value of `key` git uses in `folder` comes from: `~/.gitconfig-work:3` (the file
    /// from `git config --show-origin`, the line found by reading it), or nil.
    static func origin(of key: String, in folder: String?, _ context: ToolContext) -> String? {
        let run = context.run("git", ["config", "--includes", "--show-origin", "--get", key], in: folder)
        guard let output = run.output, let tab = output.firstIndex(of: "\t") else { return nil }
        var origin = String(output[..<tab])
        guard origin.hasPrefix("file:") else { return origin }
        origin.removeFirst(5)
        if origin.hasPrefix("\""), origin.hasSuffix("\"") { origin = String(origin.dropFirst().dropLast()) }
        let line = GitConfigFile.lastLine(of: key, in: origin)
        return GitConfigFile.shown(origin, context.environment) + (line.map { ":\($0)" } ?? "")
    }

    // MARK: Perch's file

    /// The git config text Perch includes: the account's `[user]` keys.
    /// With signing as one unit (``Setting/signingFormat``), its `gpg.format`, `commit.gpgsign`
    /// and `tag.gpgsign` follow, and for an ssh key the allowed-signers file Perch writes for the
    /// account (in `files`' account folder; left out without `files`).
    public static func includeText(_ git: Setting, account: Account, files: IdentityFiles? = nil) -> String {
        var text = "# Written by Perch for the account \"\(account.id)\"; replaced at each switch.\n[user]\n"
        if let name = git.name { text += "\tname = \(quoted(name))\n" }
        if let email = git.email { text += "\temail = \(quoted(email))\n" }
        if let key = git.signingKey { text += "\tsigningKey = \(quoted(key))\n" }
        if let format = git.signingFormat {
            let sign = git.sign == false ? "false" : "true"
            text += "[gpg]\n\tformat = \(format)\n"
            if format == "ssh", git.email != nil, let files {
                text += "[gpg \"ssh\"]\n\tallowedSignersFile = \(quoted(files.gitAccounts + "/" + account.id + ".allowed_signers"))\n"
            }
            text += "[commit]\n\tgpgsign = \(sign)\n[tag]\n\tgpgsign = \(sign)\n"
        }
        return text
    }

    /// A git config value in double quotes, with `\`, `"`, tabs and line ends escaped (git-config(1), "Syntax").
    static func quoted(_ value: String) -> String {
        var text = "\""
        for character in value {
            switch character {
            case "\\": text += "\\\\"
            case "\"": text += "\\\""
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            default: text.append(character)
            }
        }
        return text + "\""
    }

    // MARK: Scope

    /// The account's `user.*` as configuration from the environment (`GIT_CONFIG_COUNT`,
    /// `GIT_CONFIG_KEY_n`, `GIT_CONFIG_VALUE_n`; git-config(1), "ENVIRONMENT", git 2.31), added
    /// after the process's own entries: it beats every file, so `git config user.email`, `git
    /// var GIT_AUTHOR_IDENT` and a signature agree, and the `GIT_AUTHOR_*` and `GIT_COMMITTER_*`
    /// variables that would beat it are removed. An account naming no git identity gets the
    /// values git uses here without Perch's files (the user's own), so the global account's
    /// never leaks in.
    public func scope(_ setting: ToolSetting?, account: Account, over environment: [String: String], in context: ToolContext)
        -> Result<ToolScope, ToolFailure>
    {
        var values: [(String, String)] = []
        if let setting = setting?.value(as: Setting.self) {
            let git = Self.expanded(setting, context.environment)
            values = [("user.name", git.name), ("user.email", git.email), ("user.signingkey", git.signingKey)].compactMap { key, value in
                value.map { (key, $0) }
            }
            if let format = git.signingFormat {
                let sign = git.sign == false ? "false" : "true"
                values += [("gpg.format", format), ("commit.gpgsign", sign), ("tag.gpgsign", sign)]
                if let signers = Self.allowedSigners(git, account: account, files: context.files, environment: context.environment) {
                    try? FileSystem.writeAtomically(Array(signers.text.utf8), to: signers.path, mode: 0o644)
                    values.append(("gpg.ssh.allowedsignersfile", signers.path))
                }
            }
        }
        // Sealed: while a file of Perch's can give git an account's values (its include, which a
        // global switch rewrites at any moment, or a folder's rule), every identity key the
        // account does not name gets the user's own value, so the global account's never leaks in.
        let rules = (try? FileSystem.read(context.files.gitDirectories)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        if access(context.files.gitInclude, F_OK) == 0 || rules.contains("[includeIf") {
            guard let (own, _) = Self.values(byOrigin: context) else { return .failure(ToolFailure("git could not be asked")) }
            values += Self.ownIdentity(own, besides: values, in: context)
        } else if setting == nil {
            return .success(ToolScope())
        }
        var count = Int(environment["GIT_CONFIG_COUNT"] ?? "") ?? 0
        var variables = removedOverrides(environment)
        // `git -c` (or an inherited GIT_CONFIG_PARAMETERS) is read after GIT_CONFIG_COUNT's
        // entries and would beat them: the account's values go after its own, so they win there too.
        if let parameters = environment["GIT_CONFIG_PARAMETERS"], !parameters.isEmpty, !values.isEmpty {
            let added = values.map { "\(Self.singleQuoted($0.0))=\(Self.singleQuoted($0.1))" }.joined(separator: " ")
            variables.append(ScopeVariable("GIT_CONFIG_PARAMETERS", parameters + " " + added))
        }
        for (key, value) in values {
            variables.append(ScopeVariable("GIT_CONFIG_KEY_\(count)", key))
            variables.append(ScopeVariable("GIT_CONFIG_VALUE_\(count)", value))
            count += 1
        }
        variables.append(ScopeVariable("GIT_CONFIG_COUNT", String(count)))
        return .success(ToolScope(variables: variables))
    }

    /// Whether `key` reads as a gpg key id or fingerprint: 8 to 40 hexadecimal digits, with an
    /// optional `0x` and an optional `!` (gpg(1), "HOW TO SPECIFY A USER ID").
    /// Whether `key` is an ssh public key's text as git takes it in `user.signingKey`
    /// (git-config(1): `key::` followed by the key, or a key starting `ssh-` and the like).
    static func isSSHKeyText(_ key: String) -> Bool {
        key.hasPrefix("key::") || ["ssh-", "ecdsa-sha2-", "sk-ssh-", "sk-ecdsa-"].contains(where: key.hasPrefix) && key.contains(" ")
    }

    /// The signing git really does here, asked by signing (git-config(1), `gpg.format`): `git
    /// commit-tree -S` on the empty tree, as a commit signs, with the objects it writes sent to a
    /// folder of its own (`GIT_OBJECT_DIRECTORY`, removed after), so the repository is never
    /// written; in this environment, then for an ssh key without `SSH_AUTH_SOCK` as an editor or
    /// a GUI runs git. Outside a repository, in a new empty one of its own.
    static func askSigning(_ git: Setting, in context: ProofContext) -> ToolAnswer? {
        guard let format = git.signingFormat, let key = git.signingKey, git.sign != false else { return nil }
        let label = "git signs"
        // What git will do at a plain `git commit` here: a file of the user's after Perch's include
        // may turn signing off or choose another format, and wins. Bug (guard issue): with
        // `commit.gpgsign = false` in ~/.gitconfig no signing account could sign, and nothing said why.
        for (key, wanted) in [("commit.gpgsign", "true"), ("gpg.format", format)] {
            let run = context.run("git", ["config", "--includes", "--show-origin", "--get", key])
            guard let output = run.output?.trimmingWhitespace, let tab = output.firstIndex(of: "\t") else { continue }
            let value = output[output.index(after: tab)...].lowercased()
            let normalized = key == "commit.gpgsign" ? (["false", "no", "off", "0"].contains(value) ? "false" : "true") : value
            guard normalized != wanted else { continue }
            var origin = String(output[..<tab])
            guard origin.hasPrefix("file:") else {
                return ToolAnswer(
                    tool: label, kind: .git, expected: "\(key) \(wanted)", answer: "\(key) \(value)", verdict: .disagrees,
                    reason: "\(key) is \(value) from \(origin)",
                    fix: "unset GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT (a git -c or a variable sets it)",
                    asked: "git config --show-origin --get \(key)")
            }
            origin.removeFirst(5)
            if origin.hasPrefix("\""), origin.hasSuffix("\"") { origin = String(origin.dropFirst().dropLast()) }
            return ToolAnswer(
                tool: label, kind: .git, expected: "\(key) \(wanted)", answer: "\(key) \(value)", verdict: .disagrees,
                reason:
                    "\(key) = \(value) in \(GitConfigFile.shown(origin, context.tool.environment)) comes after Perch's include and wins",
                fix: "git config --file \(Self.shellPath(origin, context.tool.environment)) --unset \(key)",
                asked: "git config --show-origin --get \(key)")
        }
        let asked = "git commit-tree -S (a throwaway commit of the empty tree, kept out of the repository)"
        var template = Array(
            ((context.tool.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp") + "/perch-sign-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            return .unknown(label, kind: .git, expected: format + " " + key, reason: "no temporary folder", asked: asked)
        }
        let scratch = String(cString: made)
        defer { removeShallow(scratch) }
        let objects = scratch + "/objects"
        mkdir(objects, 0o700)
        let inRepository = context.run("git", ["rev-parse", "--git-dir"]).output != nil
        var extra = ["GIT_OBJECT_DIRECTORY": objects]
        if !inRepository {
            _ = context.run("git", ["init", "-q", "--bare", scratch + "/repository"])
            extra = ["GIT_DIR": scratch + "/repository"]
        }
        func sign(_ more: [String: String]) -> ProgramResult {
            context.run("git", ["commit-tree", "-S", "-m", "perch verify", emptyTree], extra: extra.merging(more) { $1 })
        }
        let here = sign([:])
        let expected = "\(format) \(key)"
        guard here.output != nil else {
            let why = (here.failure ?? "").split(whereSeparator: \.isNewline).first.map(String.init) ?? "git could not sign"
            return ToolAnswer(
                tool: label, kind: .git, expected: expected, answer: "cannot sign", verdict: .disagrees,
                reason: "git commit -S fails here: \(why)",
                fix: format == "ssh"
                    ? "ssh-add the key's private half (ssh-add \(key.hasSuffix(".pub") ? String(key.dropLast(4)) : "PRIVATE_KEY")), or name the private key file as the account's signing key, with format ssh"
                    : "make the key usable by \(format == "x509" ? "gpgsm" : "gpg") (gpg --list-secret-keys)",
                asked: asked)
        }
        guard format == "ssh", context.tool.environment["SSH_AUTH_SOCK"] != nil else {
            return ToolAnswer(tool: label, kind: .git, expected: expected, answer: "signs", verdict: .agrees, asked: asked)
        }
        let withoutAgent = sign(["SSH_AUTH_SOCK": ""])
        guard withoutAgent.output != nil else {
            let why = (withoutAgent.failure ?? "").split(whereSeparator: \.isNewline).first.map(String.init) ?? "it fails"
            return ToolAnswer(
                tool: label, kind: .git, expected: expected, answer: "signs here only", verdict: .disagrees,
                reason: "signs with the agent of this shell, not without SSH_AUTH_SOCK (an editor, a GUI, cron): \(why)",
                fix:
                    "name the private key file as the account's signing key, with format ssh (\"signing\": {\"key\": \"~/.ssh/KEY\", \"format\": \"ssh\"}: ssh-keygen reads it without an agent), or start the agent for your whole session",
                asked: asked)
        }
        return ToolAnswer(
            tool: label, kind: .git, expected: expected, answer: "signs, with or without the agent", verdict: .agrees, asked: asked)
    }

    /// `path` for a command line: `~/…` when under HOME and made of plain characters only (so
    /// the shell expands it), else the whole path in single quotes.
    static func shellPath(_ path: String, _ environment: IdentityEnvironment) -> String {
        let shown = GitConfigFile.shown(path, environment)
        let plain = shown.dropFirst(2).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._/-".contains($0)) }
        if shown.hasPrefix("~/"), plain { return shown }
        return ShellExports.posixQuoted(path)
    }

    /// git's empty tree, which every repository has without storing it.
    static let emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

    /// Removes `folder` and what a throwaway signing left in it (objects two levels deep, a bare
    /// repository's files): everything in it is Perch's own.
    static func removeShallow(_ folder: String) {
        func remove(_ path: String, depth: Int) {
            var info = stat()
            guard lstat(path, &info) == 0 else { return }
            if info.st_mode & S_IFMT == S_IFDIR, depth < 6, let handle = opendir(path) {
                var names: [String] = []
                while let entry = readdir(handle) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                    if name != "." && name != ".." { names.append(name) }
                }
                closedir(handle)
                for name in names { remove(path + "/" + name, depth: depth + 1) }
                rmdir(path)
            } else {
                unlink(path)
            }
        }
        remove(folder, depth: 0)
    }

    static func looksLikeGPGKeyID(_ key: String) -> Bool {
        var digits = Substring(key)
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        if digits.hasSuffix("!") { digits = digits.dropLast() }
        return (8...40).contains(digits.count) && digits.allSatisfy(\.isHexDigit)
    }

    /// `text` in single quotes as git writes GIT_CONFIG_PARAMETERS (quote.c, `sq_quote_buf`: a
    /// `'` becomes `'\''`).
    static func singleQuoted(_ text: String) -> String { "'" + text.replacing("'", with: "'\\''") + "'" }

    /// The user's own identity for each key of `user.name`, `user.email`, `user.signingkey`,
    /// `gpg.format`, `commit.gpgsign` and `tag.gpgsign` that `pinned` (the account's) does not
    /// set, as a global give-back
    /// leaves git: the user's value from their own files (`own`), else what git itself falls back
    /// on without any (the name and email it detects, ``detectedIdentity(in:)``; `openpgp`,
    /// `false`; for openpgp and x509 the committer's `Name <email>` as the signing key, git's own
    /// default). For openpgp and x509 a signing key is never empty (`git commit -S` would ask gpg
    /// for no key at all); with ssh signing and no key of the user's own it is pinned empty, so
    /// that git refuses to sign as it does with the user's files alone, unless the user's
    /// `gpg.ssh.defaultKeyCommand` chooses one (git-config(1), `user.signingKey`).
    static func ownIdentity(_ own: [String: String], besides pinned: [(String, String)], in context: ToolContext) -> [(String, String)] {
        ownIdentity(own, besides: pinned, detect: { Self.detectedIdentity(in: context) })
    }

    /// ``ownIdentity(_:besides:in:)`` with `detect` giving what git makes up (asked at most once,
    /// and only when `own` lacks a name or an email).
    static func ownIdentity(_ own: [String: String], besides pinned: [(String, String)], detect: () -> (name: String, email: String)?)
        -> [(String, String)]
    {
        let except = Set(pinned.map(\.0))
        func mine(_ key: String) -> String? { own[key].flatMap { $0.isEmpty ? nil : $0 } }
        var values: [(String, String)] = []
        var detected: (name: String, email: String)??
        func fallback(_ key: String) -> String {
            if detected == nil { detected = .some(detect()) }
            return (key == "user.name" ? detected!?.name : detected!?.email) ?? ""
        }
        // A value git cannot make up either is left unset: pinned empty, git would refuse every
        // commit ("empty ident name not allowed") where it detects the rest itself.
        for key in ["user.name", "user.email"] where !except.contains(key) {
            let value = mine(key) ?? fallback(key)
            if !value.isEmpty { values.append((key, value)) }
        }
        let defaults = ["gpg.format": "openpgp", "commit.gpgsign": "false", "tag.gpgsign": "false"]
        for key in signingKeys where !except.contains(key) { values.append((key, mine(key) ?? defaults[key]!)) }
        if !except.contains("user.signingkey") {
            let given = pinned + values
            let format = given.first { $0.0 == "gpg.format" }?.1 ?? "openpgp"
            if let key = mine("user.signingkey") {
                values.append(("user.signingkey", key))
            } else if format != "ssh" {
                let name = given.first { $0.0 == "user.name" }?.1 ?? ""
                let email = given.first { $0.0 == "user.email" }?.1 ?? ""
                if !name.isEmpty || !email.isEmpty { values.append(("user.signingkey", "\(name) <\(email)>")) }
            } else if mine("gpg.ssh.defaultkeycommand") == nil {
                // Bug: with ssh signing of your own and no key, the global account's key (from
                // Perch's include) signed an explicit `git commit -S` in a scope. Pinned empty,
                // git refuses to sign ("user.signingKey needs to be set for ssh signing") as it
                // does with your own files alone; a default key command of your own is left to
                // choose the key, as it does there.
                values.append(("user.signingkey", ""))
            }
        }
        return values
    }

    /// The name and email git makes up when no config names them (git-commit-tree(1), "Commit
    /// information": `EMAIL`, the password database's name, the user and host names), asked of
    /// `git var GIT_COMMITTER_IDENT` with no config file read. Where git cannot make up an email
    /// (a host name without a domain: "unable to auto-detect email address") the name alone,
    /// with the email empty; nil when git cannot make up a name either.
    static func detectedIdentity(in context: ToolContext) -> (name: String, email: String)? {
        var bare = context
        for name in ["GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_DIR"] {
            bare.environment.variables.removeValue(forKey: name)
        }
        bare.environment.variables["GIT_CONFIG_GLOBAL"] = "/dev/null"
        bare.environment.variables["GIT_CONFIG_NOSYSTEM"] = "1"
        // Kept (``AnswerCache``) while the variables, the host's name and the files git's guess
        // reads (the password database, the host's names and resolver) are as they were.
        var host = utsname()
        uname(&host)
        let nodename = withUnsafeBytes(of: host.nodename) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        func ident() -> (name: String, email: String)? {
            let question = AnswerCache.Question(
                program: "git", arguments: ["var", "GIT_COMMITTER_IDENT"], folder: "/",
                variables: ["HOME", "EMAIL", "USER", "LOGNAME", "GIT_*"],
                files: ["/etc/passwd", "/etc/hosts", "/etc/hostname", "/etc/resolv.conf", "/etc/nsswitch.conf", "/etc/mailname"],
                other: nodename, accepted: [0, 128])
            let run = AnswerCache.ask(question, in: bare)
            guard let line = run.output?.trimmingWhitespace, let open = line.firstIndex(of: "<"), let close = line.lastIndex(of: ">"),
                open < close
            else { return nil }
            return (String(line[..<open]).trimmingWhitespace, String(line[line.index(after: open)..<close]))
        }
        if let detected = ident() { return detected }
        // The name alone, asked with a stand-in EMAIL (git-commit-tree(1): EMAIL is its last resort).
        bare.environment.variables["EMAIL"] = "detected@name.invalid"
        return ident().map { ($0.name, "") }
    }

    /// The entries of `git config --show-origin --get-regexp` output, in git's order: each line's
    /// origin (``originPath(_:)``), key (lower-cased, as git compares them) and value ("" for a
    /// key with none); lines without the origin's tab are skipped.
    static func originEntries(_ output: String) -> [(origin: String, key: String, value: String)] {
        output.split(whereSeparator: \.isNewline).compactMap { line in
            guard let tab = line.firstIndex(of: "\t") else { return nil }
            let parts = line[line.index(after: tab)...].split(separator: " ", maxSplits: 1)
            guard let key = parts.first else { return nil }
            return (originPath(line[..<tab]), key.lowercased(), parts.count > 1 ? String(parts[1]) : "")
        }
    }

    /// The file of a `--show-origin` origin (`file:PATH`, quoted when it holds odd characters),
    /// or the origin as it is (`command line:`).
    static func originPath(_ origin: Substring) -> String {
        var origin = String(origin)
        if origin.hasPrefix("file:") { origin.removeFirst(5) }
        if origin.hasPrefix("\""), origin.hasSuffix("\""), origin.count >= 2 { origin = String(origin.dropFirst().dropLast()) }
        return origin
    }

    /// The user's own `user.*` (and signing and `core.sshCommand`) values, split by where they
    /// come from, from one `git config --global --includes --show-origin` run in `/`: `own`, the
    /// user's global files (the last value of each key whose origin is not one of Perch's git
    /// files), and `perchs`, Perch's files (the keys they set). Only the global files
    /// (`~/.gitconfig`, `$XDG_CONFIG_HOME/git/config`, `GIT_CONFIG_GLOBAL`) and what they include
    /// are read: never the repository Perch happens to run in, whose `.git/config` is data, not
    /// the user's own (docs/security.md). Nil when git cannot be asked.
    // Bug (trust issue): run in the current folder, a repository's own core.sshCommand and
    // user.email were taken as the user's and written into the file every bound folder includes.
    static func values(byOrigin context: ToolContext) -> (own: [String: String], perchs: [String: String])? {
        var global = context
        global.environment.variables.removeValue(forKey: "GIT_DIR")
        // Kept (``AnswerCache``) while the global files and every file they include are as they
        // were: the includes are asked too, so that a file included but setting none of these
        // keys yet is known.
        let environment = context.environment
        let question = AnswerCache.Question(
            program: "git",
            arguments: [
                "config", "--global", "--includes", "--show-origin", "--get-regexp",
                "^(include\\.path|includeif\\..*\\.path|user\\.(name|email|signingkey)|gpg\\.format|gpg\\.ssh\\.(defaultkeycommand|allowedsignersfile)|(commit|tag)\\.gpgsign|core\\.sshcommand)$",
            ], folder: "/", variables: ["HOME", "XDG_CONFIG_HOME", "GIT_*"], files: context.files.userGitConfigs,
            alsoRead: { output in
                Self.originEntries(output).flatMap { origin, key, value -> [String] in
                    guard key == "include.path" || (key.hasPrefix("includeif.") && key.hasSuffix(".path")) else { return [origin] }
                    let path = environment.expandingTilde(value)
                    return [origin, path.hasPrefix("/") ? path : FileSystem.directory(of: origin) + "/" + path]
                }.filter { $0.hasPrefix("/") }
            }, accepted: [0, 1])
        let run = AnswerCache.ask(question, in: global)
        guard case .exited(let status, let output, let errors) = run, status == 0 || (status == 1 && errors.isEmpty) else { return nil }
        let files = context.files
        let perch = [files.gitInclude, files.gitDirectories]
        var own: [String: String] = [:]
        var perchs: [String: String] = [:]
        for (origin, key, value) in Self.originEntries(output) where key != "include.path" && !key.hasPrefix("includeif.") {
            if perch.contains(origin) || origin.hasPrefix(files.gitAccounts + "/") { perchs[key] = value } else { own[key] = value }
        }
        return (own, perchs)
    }

    // MARK: Import

    /// One candidate per email (identities of the global config and its `includeIf` files that
    /// share an email are one, the first value of each field kept), and one per identity with no
    /// email. Named after the person (user.name, else the email's name part) and the email's
    /// domain, never the address itself (issue 22, item 7): a name is shown on screen and in prompts.
    /// The email in lowercase (identities sharing an email are one), else the name.
    public func importIdentity(_ setting: ToolSetting, in environment: IdentityEnvironment) -> String {
        guard let git = setting.value(as: Setting.self) else { return setting.summary }
        return git.email.map { "<" + $0.lowercased() + ">" } ?? git.name ?? ""
    }

    public func importCandidates(in context: ToolContext) -> [ImportCandidate] {
        Self.mergedByEmail(IdentityImport.gitIdentities(context.environment)).map { git in
            let parts = git.email.flatMap { email -> (local: String, domain: String)? in
                guard let at = email.lastIndex(of: "@") else { return nil }
                return (String(email[..<at]), String(email[email.index(after: at)...]))
            }
            let person = git.name ?? parts.map(\.local).flatMap { $0.isEmpty ? nil : $0 }
            let domain = parts.map(\.domain).flatMap { $0.isEmpty ? nil : $0 }
            let label: String
            switch (person, domain) {
            case (let person?, let domain?): label = "\(person) (\(domain))"
            case (let person?, nil): label = person
            case (nil, let domain?): label = "git (\(domain))"
            case (nil, nil): label = "git"
            }
            let base = domain ?? person ?? "git"
            return ImportCandidate(
                idBase: "git-" + base, name: label, group: "git", setting: Self.setting(git), keys: git.email.map { [$0] } ?? [],
                weakKeys: git.name.map { [$0] } ?? [])
        }
    }

    /// `identities` with those sharing an email folded into the first of them (a field it lacks
    /// taken from the later ones), in the order found.
    static func mergedByEmail(_ identities: [Setting]) -> [Setting] {
        var merged: [Setting] = []
        for git in identities {
            if let email = git.email, let index = merged.firstIndex(where: { $0.email?.lowercased() == email.lowercased() }) {
                merged[index].name = merged[index].name ?? git.name
                merged[index].signingKey = merged[index].signingKey ?? git.signingKey
            } else if !merged.contains(git) {
                merged.append(git)
            }
        }
        return merged
    }
}

/// The git side of the config's `"directories"`: Perch's rules file
/// (``IdentityFiles/gitDirectories``) holds one `[includeIf "gitdir:FOLDER/"]` per bound folder
/// of an account with a git identity, shallowest first so that the deepest folder's rule comes
/// last and wins (git-config(1), "Conditional includes": the trailing `/` takes in every folder
/// below), each including the account's own file in ``IdentityFiles/gitAccounts``. Perch's
/// include file includes the rules after the current account's `[user]`, so git follows the
/// folders with no shell hook; the user's own `includeIf` rules, after Perch's include, still win.
public enum GitDirectoryRules {
    /// Whether the user's global git config includes Perch's file (`perch setup git` was run),
    /// so that git follows the rules; nil when git cannot be asked.
    public static func isIncluded(in context: ToolContext) -> Bool? {
        switch GitConfigFile.includeState(context) {
        case .included: true
        case .notIncluded: false
        case .unknown: nil
        }
    }

    /// The user's own git values (from their files, ``GitAdapter/values(byOrigin:)``), and what
    /// git makes up where they set no name or email: what an account file gives for what its
    /// account does not name.
    public struct OwnGit: Sendable {
        /// Their files' values by key, lower-cased (`user.name`, `gpg.format`, `core.sshcommand`…).
        public var values: [String: String]
        /// The name and email git makes up without any config (``GitAdapter/detectedIdentity(in:)``).
        public var detectedName: String?
        public var detectedEmail: String?

        public init(values: [String: String], detectedName: String? = nil, detectedEmail: String? = nil) {
            self.values = values
            self.detectedName = detectedName
            self.detectedEmail = detectedEmail
        }
    }

    /// The rules file's text and each account file's text (by path), for `accounts`. An account
    /// file is sealed like a scope: every identity key its account does not name (`user.*`,
    /// `gpg.format`, `commit.gpgsign`, `tag.gpgsign`) gets `own`'s value, and an account naming
    /// no ssh gets ssh with your own configuration, so nothing of the global account's (whose
    /// include git reads before) reaches its folders and repositories. Without `own` (git could
    /// not be asked) an account naming no git identity has no rule.
    public static func texts(
        _ accounts: [Account], files: IdentityFiles, home: String, own: OwnGit? = nil, aliases: [String: String] = [:]
    ) -> (rules: String, accounts: [String: String]) {
        /// `own`'s values for what `pinned` does not set, as git config text.
        func ownText(besides pinned: [(String, String)]) -> String {
            guard let own else { return "" }
            let values = GitAdapter.ownIdentity(own.values, besides: pinned) {
                own.detectedName.map { ($0, own.detectedEmail ?? "") }
            }
            var text = ""
            var section = ""
            for (key, value) in values {
                let dot = key.firstIndex(of: ".")!
                let name = String(key[..<dot])
                if name != section {
                    text += "[\(name)]\n"
                    section = name
                }
                text += "\t\(key[key.index(after: dot)...]) = \(GitAdapter.quoted(value))\n"
            }
            return text.isEmpty ? "" : "# Your own, for what the account does not name.\n" + text
        }
        var rules =
            "# Written by Perch from the config's \"remotes\" and \"directories\": in those repositories and folders git uses their account.\n"
        var accountFiles: [String: String] = [:]
        /// The account file of `account` (made once), or nil when it has none to give.
        func accountFile(_ account: Account) -> String? {
            let path = files.gitAccounts + "/" + account.id + ".gitconfig"
            if accountFiles[path] != nil { return path }
            if let setting = account.identities[.git]?.value(as: GitAdapter.Setting.self) {
                let git = GitAdapter.expanded(setting, IdentityEnvironment(variables: ["HOME": home]))
                var pinned: [(String, String)] = [("user.name", git.name), ("user.email", git.email), ("user.signingkey", git.signingKey)]
                    .compactMap { key, value in value.map { (key, $0) } }
                if git.signingFormat != nil { pinned += GitAdapter.signingKeys.map { ($0, "") } }
                accountFiles[path] =
                    GitAdapter.includeText(git, account: account, files: files)
                    .replacing("; replaced at each switch.", with: "; used in its repositories and bound folders.")
                    + ownText(besides: pinned)
                if let signers = GitAdapter.allowedSigners(
                    git, account: account, files: files, environment: IdentityEnvironment(variables: ["HOME": home]),
                    userFile: own?.values["gpg.ssh.allowedsignersfile"])
                {
                    accountFiles[signers.path] = signers.text
                }
            } else if own != nil {
                let text = ownText(besides: [])
                guard !text.isEmpty else { return nil }
                accountFiles[path] =
                    "# Written by Perch for the account \"\(account.id)\", which names no git identity: your own, in its repositories and bound folders.\n"
                    + text
            } else {
                return nil
            }
            // git carries the account's ssh key too, so a push from its folders or repositories
            // uses it without the shell hook (an IDE, cron, a one-line cd && git push).
            if let ssh = account.identities[.ssh]?.value(as: SSHAdapter.Setting.self) {
                let environment = IdentityEnvironment(variables: ["HOME": home])
                var command = SSHAdapter.folderCommand(environment.expandingTilde(ssh.identityFile))
                if let agent = ssh.agent { command += " -o IdentityAgent=" + ShellExports.posixQuoted(environment.expandingTilde(agent)) }
                // ssh.variant: git would otherwise run the command with -G first to learn what it
                // is, since its first word (env) is not ssh (git-config(1), `ssh.variant`).
                accountFiles[path]! += "[core]\n\tsshCommand = \(GitAdapter.quoted(command))\n[ssh]\n\tvariant = ssh\n"
            } else if let own {
                // An account naming no ssh: your own ssh (your core.sshCommand, else ssh) with
                // PERCH_SCOPE set, so Perch's include, which follows the global account, is skipped.
                let command = SSHAdapter.folderPrefix + (own.values["core.sshcommand"].flatMap { $0.isEmpty ? nil : $0 } ?? "ssh")
                accountFiles[path]! += "[core]\n\tsshCommand = \(GitAdapter.quoted(command))\n"
            }
            return path
        }
        // Remotes first: a bound folder's rule, later, wins over a remote's (docs/scopes.md).
        for account in accounts where !account.identities.remotes.isEmpty {
            guard let path = accountFile(account) else { continue }
            for written in account.identities.remotes {
                rules += "# remote \(written)\n"
                for pattern in RemotePattern(written).gitPatterns {
                    rules += "[includeIf \(GitAdapter.quoted("hasconfig:remote.*.url:" + pattern))]\n\tpath = \(GitAdapter.quoted(path))\n"
                }
                // git's rules cannot run ssh: a rule per ssh alias of the pattern's host
                // (git@github.com-work:acme/site.git), as ssh resolves them (SSHAliases).
                let normalized = RemotePattern(written).normalized
                let host = String(normalized.prefix { $0 != "/" })
                for alias in aliases.filter({ $0.value == host }).keys.sorted()
                where RemotePattern.problem(alias + normalized.dropFirst(host.count)) == nil {
                    rules += "# remote \(written) through the ssh alias \(alias)\n"
                    for pattern in RemotePattern(alias + normalized.dropFirst(host.count)).gitPatterns {
                        rules +=
                            "[includeIf \(GitAdapter.quoted("hasconfig:remote.*.url:" + pattern))]\n\tpath = \(GitAdapter.quoted(path))\n"
                    }
                }
            }
        }
        for rule in DirectoryRules.rules(accounts, home: home) {
            guard let account = accounts.first(where: { $0.id == rule.account }), let path = accountFile(account) else { continue }
            rules += "[includeIf \(GitAdapter.quoted("gitdir:" + pattern(rule.folder) + "/"))]\n\tpath = \(GitAdapter.quoted(path))\n"
            // git matches gitdir: against the git folder with symlinks resolved: a folder bound
            // by a symlinked path gets its resolved path's rule too, so git binds it as the shell does.
            if let resolved = PlaceOwner.realPath(rule.folder), resolved != rule.folder {
                rules += "[includeIf \(GitAdapter.quoted("gitdir:" + pattern(resolved) + "/"))]\n\tpath = \(GitAdapter.quoted(path))\n"
            }
        }
        // The guard's hooks (perch guard install), while its file exists.
        if access(files.gitGuard, F_OK) == 0 { rules += "[include]\n\tpath = \(GitAdapter.quoted(files.gitGuard))\n" }
        return (rules, accountFiles)
    }

    /// `folder` as a `gitdir:` pattern matching itself only: git matches it with wildmatch, so
    /// `*`, `?`, `[` and `\\` are escaped with a backslash (git-config(1), "Conditional includes").
    static func pattern(_ folder: String) -> String {
        var text = ""
        for character in folder {
            if "*?[\\".contains(character) { text.append("\\") }
            text.append(character)
        }
        return text
    }

    /// Writes the rules and account files for `accounts` in `context` where they differ from
    /// what is there (and removes account files no rule names); whether anything changed. The
    /// user's own git identity is asked of git only when a bound account names none.
    /// - Throws: ``FileError`` when a file cannot be written.
    @discardableResult
    public static func write(_ accounts: [Account], in context: ToolContext) throws(FileError) -> Bool {
        let files = context.files
        // ssh is asked again only when the ssh config changed since the map was saved.
        var aliases: [String: String] = [:]
        if accounts.contains(where: { !$0.identities.remotes.isEmpty }) {
            if let saved = SSHAliases.load(files), !saved.stale {
                aliases = saved.aliases
            } else {
                aliases = SSHAliases.resolve(in: context)
                try SSHAliases.save(aliases, files: files)
            }
        }
        let (rules, accountFiles) = texts(
            accounts, files: files, home: context.environment.home, own: own(accounts, context), aliases: aliases)
        var changed = false
        for (path, text) in [(files.gitDirectories, rules)] + accountFiles.sorted(by: { $0.key < $1.key }) {
            if (try? FileSystem.read(path)).map({ String(decoding: $0, as: UTF8.self) }) == text { continue }
            try FileSystem.writeAtomically(Array(text.utf8), to: path, mode: 0o644)
            changed = true
        }
        if let folder = opendir(files.gitAccounts) {
            defer { closedir(folder) }
            while let entry = readdir(folder) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                let path = files.gitAccounts + "/" + name
                if name.hasSuffix(".gitconfig"), accountFiles[path] == nil {
                    unlink(path)
                    changed = true
                }
            }
        }
        return changed
    }

    /// Whether the files on disk are what `accounts` give in `context` (false: `perch setup
    /// git` or a switch writes them again).
    public static func isCurrent(_ accounts: [Account], in context: ToolContext) -> Bool {
        let (rules, accountFiles) = texts(
            accounts, files: context.files, home: context.environment.home, own: own(accounts, context),
            aliases: SSHAliases.load(context.files)?.aliases ?? [:])
        return ([(context.files.gitDirectories, rules)] + accountFiles.map { ($0.key, $0.value) }).allSatisfy { path, text in
            (try? FileSystem.read(path)).map { String(decoding: $0, as: UTF8.self) } == text
        }
    }

    /// The user's own git values, when an account is bound to folders or remotes; else nil. git
    /// is asked what it makes up only when their files name no name or no email.
    static func own(_ accounts: [Account], _ context: ToolContext) -> OwnGit? {
        guard accounts.contains(where: { !($0.identities.directories.isEmpty && $0.identities.remotes.isEmpty) }),
            let values = GitAdapter.values(byOrigin: context)?.own
        else { return nil }
        var own = OwnGit(values: values)
        if (values["user.name"] ?? "").isEmpty || (values["user.email"] ?? "").isEmpty,
            let detected = GitAdapter.detectedIdentity(in: context)
        {
            own.detectedName = detected.name
            own.detectedEmail = detected.email
        }
        return own
    }
}

// MARK: - Verify

extension GitAdapter {
    /// git itself, asked in the folder: `git var GIT_AUTHOR_IDENT` and `GIT_COMMITTER_IDENT`
    /// (git-var(1): the identity a commit made here gets, variables and `includeIf` rules
    /// included), and `user.signingkey` when the account names one. A disagreement names the
    /// file (`git config --show-origin`) or the variable the value came from.
    public func ask(_ setting: ToolSetting, in context: ProofContext) -> [ToolAnswer] {
        guard let git = setting.value(as: Setting.self) else { return [] }
        if let blocked = RepositoryConfig.blockingFile(in: context.folder, environment: context.tool.environment) {
            return [
                .unknown(
                    "git", kind: .git, expected: setting.summary, reason: RepositoryConfig.note(blocked),
                    asked: "stat(2) of the repository's config files")
            ]
        }
        var answers: [ToolAnswer] = []
        if git.name != nil || git.email != nil {
            answers.append(Self.askAuthor(git, in: context))
        }
        if let key = Self.expanded(git, context.tool.environment).signingKey {
            let asked = "git config --get user.signingkey"
            let run = context.run("git", ["config", "--get", "user.signingkey"])
            if case .notFound = run {
                answers.append(.unknown("git signing", kind: .git, expected: key, reason: "git not found", asked: asked))
            } else {
                let actual = run.output?.trimmingWhitespace ?? ""
                let origin = Self.origin(of: "user.signingkey", in: context)
                answers.append(
                    .judged(
                        "git signing", kind: .git, expected: key, answer: actual.isEmpty ? "(none)" : actual,
                        reason: "user.signingkey is \(actual.isEmpty ? "not set" : "\"\(actual)\"")\(origin.map { " (from \($0))" } ?? "")",
                        fix: Self.fix(origin: origin, key: "user.signingkey", context: context), asked: asked))
            }
            // Bug (guard issue): a named key that could not sign showed ✓; only signing tells.
            if answers.last?.verdict == .agrees, let signing = Self.askSigning(Self.expanded(git, context.tool.environment), in: context) {
                answers.append(signing)
            }
        }
        return answers
    }

    /// The author git resolves here, against the account's name and email.
    /// - Parameter inHook: asked from a hook of `git commit`, which exports the author it
    ///   resolved as `GIT_AUTHOR_*` (githooks(5)): those are git's own, not the user's, unless
    ///   they differ from what the config gives.
    static func askAuthor(_ git: Setting, in context: ProofContext, inHook: Bool = false) -> ToolAnswer {
        let asked = "git var GIT_AUTHOR_IDENT"
        let expected = [git.name, git.email.map { "<\($0)>" }].compactMap { $0 }.joined(separator: " ")
        // In a hook of git commit, git has exported the author it resolved: no git is started
        // for an author that agrees (the guard's whole cost to a commit).
        let environment = context.tool.environment.variables
        if inHook, let name = environment["GIT_AUTHOR_NAME"], let email = environment["GIT_AUTHOR_EMAIL"],
            git.name.map({ $0 == name }) ?? true, git.email.map({ $0.lowercased() == email.lowercased() }) ?? true
        {
            return ToolAnswer(
                tool: "git", kind: .git, expected: expected, answer: "\(name) <\(email)>", verdict: .agrees,
                asked: "GIT_AUTHOR_* of git commit")
        }
        let author = context.run("git", ["var", "GIT_AUTHOR_IDENT"])
        if case .notFound = author { return .unknown("git", kind: .git, expected: expected, reason: "git not found", asked: asked) }
        switch author {
        case .timedOut, .notStarted:
            return .unknown("git", kind: .git, expected: expected, reason: author.failure ?? "timed out", asked: asked)
        default: break
        }
        guard let authorText = author.output, let (name, email) = ident(authorText) else {
            // Bug: the fix offered was always a switch, which cannot help while the global git
            // config does not include Perch's file.
            let fix = GitConfigFile.includeState(context.tool) == .notIncluded ? "perch setup git" : "perch switch \(context.account.id)"
            return ToolAnswer(
                tool: "git", kind: .git, expected: expected, answer: nil, verdict: .disagrees,
                reason: "git has no author here: \(author.failure ?? "no identity")", fix: fix, asked: asked)
        }
        let committer = inHook ? nil : context.run("git", ["var", "GIT_COMMITTER_IDENT"]).output.flatMap(ident)
        let nameAgrees = git.name.map { $0 == name } ?? true
        let emailAgrees = git.email.map { $0.lowercased() == email.lowercased() } ?? true
        let committerAgrees =
            committer.map { c in (git.name.map { $0 == c.0 } ?? true) && (git.email.map { $0.lowercased() == c.1.lowercased() } ?? true) }
            ?? true
        var answer = "\(name) <\(email)>"
        if let committer, committer != (name, email) { answer += ", committer \(committer.0) <\(committer.1)>" }
        guard !(nameAgrees && emailAgrees && committerAgrees) else {
            return ToolAnswer(tool: "git", kind: .git, expected: expected, answer: answer, verdict: .agrees, asked: asked)
        }
        // Why: a variable first (git-var(1): they beat the config), else the file and line.
        var variables = ["GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"].filter {
            environment[$0] != nil
        }
        if inHook, !variables.isEmpty {
            // git exported them for this commit: given by --author (or variables of the shell's),
            // else from the config (then the file below says where).
            if context.run("git", ["config", "--get", "user.email"]).output?.trimmingWhitespace == email {
                variables = []
            } else {
                return ToolAnswer(
                    tool: "git", kind: .git, expected: expected, answer: answer, verdict: .disagrees,
                    reason: "this commit's author was given by --author, or by GIT_AUTHOR_* variables of this shell",
                    fix: "commit without --author (and unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL if your shell sets them)", asked: asked)
            }
        }
        if !variables.isEmpty {
            return ToolAnswer(
                tool: "git", kind: .git, expected: expected, answer: answer, verdict: .disagrees,
                reason: variables.map { "\($0)=\(environment[$0]!)" }.joined(separator: ", ")
                    + " in this environment beats user.name and user.email",
                fix: "unset " + variables.joined(separator: " "), asked: asked)
        }
        let key = emailAgrees ? "user.name" : "user.email"
        let origin = Self.origin(of: key, in: context)
        // A file of the user's own, included by one of their rules (an includeIf for this
        // folder): their rule wins here by design (Perch's include sits before it), as status says.
        if let origin, Self.isUsersOwnRule(origin, in: context) {
            return ToolAnswer(
                tool: "git", kind: .git, expected: expected, answer: answer, verdict: .unknown,
                reason: "your own rule wins in this folder: \(key) comes from \(origin)", asked: asked)
        }
        // Bug (guard issue, item 7): in a bound folder outside any repository, git takes the
        // global account's identity, since a folder's rule (`includeIf "gitdir:"`) applies only
        // inside a repository; verify printed `perch switch ACCOUNT`, which would only move the
        // global account. Nothing can be committed here: said, not ✗, with what does work.
        if !inHook, PlaceOwner.gitDirectory(above: context.folder) == nil,
            let rule = PlaceOwner.boundRule(
                context.folder, in: DirectoryRules.rules([context.account], home: context.tool.environment.home))
        {
            return ToolAnswer(
                tool: "git", kind: .git, expected: expected, answer: answer, verdict: .unknown,
                reason:
                    "not in a git repository: git applies the folder rule of \(rule.written) only inside one, so here it takes the global account's; a repository made here (git init, git clone) takes \(context.account.id)'s",
                asked: asked)
        }
        return ToolAnswer(
            tool: "git", kind: .git, expected: expected, answer: answer, verdict: .disagrees,
            reason: "\(key) comes from \(origin ?? "git's defaults (no user.email set)")",
            fix: fix(origin: origin, key: key, context: context),
            asked: asked)
    }

    /// `Name <email> 1700000000 +0000` as its name and email.
    static func ident(_ text: String) -> (String, String)? {
        let line = text.trimmingWhitespace
        guard let open = line.lastIndex(of: "<"), let close = line.lastIndex(of: ">"), open < close else { return nil }
        return (String(line[..<open].trimmingWhitespace), String(line[line.index(after: open)..<close]))
    }

    /// Where `key`'s value comes from here (`~/.gitconfig:3`, `command line`), from
    /// `git config --show-origin --show-scope`'s last line; nil when unset.
    static func origin(of key: String, in context: ProofContext) -> String? {
        let run = context.run("git", ["config", "--show-origin", "--get-all", key])
        guard let output = run.output, let last = output.split(whereSeparator: \.isNewline).last, let tab = last.firstIndex(of: "\t") else {
            return nil
        }
        let origin = last[..<tab]
        if origin.hasPrefix("file:") { return context.shown(originPath(origin)) }
        // `command line:` is git's way of saying it; shown without its colon.
        return origin.hasSuffix(":") ? String(origin.dropLast()) : String(origin)
    }

    /// Whether `origin` (as ``origin(of:in:)`` shows it) is a file of the user's that their own
    /// global config includes: not a global file itself, not Perch's, not the repository's, not
    /// the command line.
    static func isUsersOwnRule(_ origin: String, in context: ProofContext) -> Bool {
        let file = String(origin.prefix { $0 != ":" })
        guard file.hasPrefix("/") || file.hasPrefix("~") else { return false }
        let files = context.tool.files
        let path = context.expand(file)
        let perchs = [files.gitInclude, files.gitDirectories]
        return !files.userGitConfigs.contains(path) && !perchs.contains(path) && !path.hasPrefix(files.gitAccounts + "/")
    }

    /// The command that puts git right when its value comes from `origin`: Perch's own files are
    /// put right by a switch; a value from a file of the user's wins by the user's own rule
    /// (an `includeIf` for this folder), which only the user can change.
    static func fix(origin: String?, key: String, context: ProofContext) -> String {
        let files = context.tool.files
        let perchs = [files.gitInclude, files.gitDirectories, files.gitAccounts].map(context.shown)
        if let origin, origin.hasPrefix("command line") || origin.hasPrefix("command") {
            if context.tool.environment[IdentityScope.scopeVariable] == ScopeKind.directory.rawValue {
                return "this shell still has its last folder's account until its next prompt: run git there on a line of its own"
            }
            return "unset GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT (a git -c or a variable sets it)"
        }
        // The repository's own config (git config --local), found relative to it.
        if let origin, !origin.hasPrefix("/"), !origin.hasPrefix("~"), origin.hasSuffix("config") {
            return "git config --local --unset \(key) (this repository's own setting)"
        }
        if let origin, !perchs.contains(where: { origin.hasPrefix($0) }) {
            switch GitConfigFile.includeState(context.tool) {
            case .notIncluded: return "perch setup git"
            default:
                return
                    "edit \(origin.split(separator: ":").first.map(String.init) ?? origin) (your own rule sets it in this folder), or perch setup git"
            }
        }
        return "perch switch \(context.account.id)"
    }
}
