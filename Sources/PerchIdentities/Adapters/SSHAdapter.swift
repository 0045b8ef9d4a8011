import Glibc
import PerchDomain
import PerchStore

extension IdentityTool {
    public static let ssh = IdentityTool("ssh")
}

/// `ssh`: the identity file used for some hosts, written to Perch's own file
/// (``IdentityFiles/sshInclude``), which `perch setup ssh` includes at the top of
/// `~/.ssh/config` (ssh_config(5), `Include`; the first value obtained wins). An account naming
/// no ssh identity empties the file.
public struct SSHAdapter: ToolAdapter {
    /// `"ssh": {"host": "github.com" | [...], "identityFile": "~/.ssh/id_work", "agent": "~/.1password/agent.sock"}`.
    public struct Setting: Hashable, Sendable {
        /// Host patterns, as ssh_config's `Host` takes them; at least one.
        public var hosts: [String]
        public var identityFile: String
        /// The ssh agent's socket for the account's hosts (ssh_config(5) `IdentityAgent`), or nil
        /// for the one `SSH_AUTH_SOCK` names.
        public var agent: String?
        public init(hosts: [String], identityFile: String, agent: String? = nil) {
            self.hosts = hosts
            self.identityFile = identityFile
            self.agent = agent
        }
    }

    public init() {}
    public var tool: IdentityTool { .ssh }
    /// How a scope carries it (the man page's SCOPES).
    public var scopeCarrier: String? { "git's key through GIT_SSH_COMMAND" }
    /// Its member in the starter config, commented out.
    public var configExample: ToolConfigExample? {
        ToolConfigExample("\"ssh\": { \"host\": \"github.com\", \"identityFile\": \"~/.ssh/id_work\" }")
    }
    /// Its proof asks the server whom the key or token belongs to: `expect` may name it.
    public var acceptsExpectation: Bool { true }
    public var title: String { "OpenSSH" }
    public var fieldPaths: [String] { ["ssh.host", "ssh.identityFile", "ssh.agent"] }
    public var program: String? { "ssh" }
    public var keepsBaseline: Bool { false }
    /// git(1), "Environment": `GIT_SSH_COMMAND` and `GIT_SSH` replace the ssh git runs, so its
    /// `-i` beats the config's `IdentityFile`; reported, never unset (they may carry other options).
    public var overrides: [ToolOverride] {
        [
            ToolOverride("GIT_SSH_COMMAND", "git(1): GIT_SSH_COMMAND replaces the ssh command git runs", unsetByShell: false),
            ToolOverride("GIT_SSH", "git(1): GIT_SSH replaces the ssh program git runs", unsetByShell: false),
        ]
    }

    public static func setting(_ value: Setting) -> ToolSetting {
        ToolSetting(
            tool: .ssh, summary: value.identityFile,
            fields: [ToolField("host", value.hosts.joined(separator: " ")), ToolField("identityFile", value.identityFile)]
                + (value.agent.map { [ToolField("agent", $0)] } ?? []), value: value)
    }

    public func read(_ reader: inout ToolMemberReader) -> ToolSetting? {
        let place = reader.place
        guard reader.expectObject(#"{"host": "github.com", "identityFile": "~/.ssh/id_work"}"#) else { return nil }
        var hosts: [String] = []
        switch reader.member("host") {
        case .string(let host)?: hosts = [host]
        case .array(let list)?:
            for (index, element) in list.enumerated() {
                if case .string(let host) = element {
                    hosts.append(host)
                } else {
                    reader.problems.append("\(place).host[\(index)]: expected a string")
                }
            }
            if list.isEmpty { reader.problems.append("\(place).host: the list is empty; name at least one host") }
        // Optional, so that `perch set ID ssh.identityFile FILE` stands alone: github.com, as import proposes.
        case nil, .null?: hosts = ["github.com"]
        case let other?: reader.problems.append("\(place).host: expected a string or a list of strings, found \(other.kind)")
        }
        // Bug (trust issue): "github.com=exec=CMD" passed and ssh read it as `Match … exec CMD`.
        for (index, host) in hosts.enumerated() {
            if let problem = ToolGrammar.sshPatternProblem(host) {
                reader.problems.append("\(place).host\(hosts.count > 1 ? "[\(index)]" : ""): \(problem)")
            }
        }
        let file = reader.string("identityFile", required: true)
        if let file, let problem = ToolGrammar.sshPathProblem(file) { reader.problems.append("\(place).identityFile: \(problem)") }
        let agent = reader.string("agent")
        if let agent, let problem = ToolGrammar.sshPathProblem(agent) { reader.problems.append("\(place).agent: \(problem)") }
        reader.finish(known: ["host", "identityFile", "agent"])
        guard let file else { return nil }
        return Self.setting(Setting(hosts: hosts, identityFile: file, agent: agent))
    }

    public func json(_ setting: ToolSetting) -> String {
        guard let ssh = setting.value(as: Setting.self) else { return "{}" }
        let hosts =
            ssh.hosts.count == 1 ? ConfigWriter.json(ssh.hosts[0]) : "[" + ssh.hosts.map(ConfigWriter.json).joined(separator: ", ") + "]"
        return "{\"host\": \(hosts), \"identityFile\": \(ConfigWriter.json(ssh.identityFile))"
            + (ssh.agent.map { ", \"agent\": \(ConfigWriter.json($0))" } ?? "") + "}"
    }

    static let ownHeader = "# Written by Perch: the current account names no ssh identity, so ssh uses your own.\n"

    /// The text of Perch's file for an account naming no ssh: the scopes' include alone.
    static func ownText(_ files: IdentityFiles) -> String { ownHeader + scopesInclude(files) }

    /// The `Include` of the scopes' ssh files (``scopeFile(_:files:)``), at the top of Perch's
    /// file, before any `Match` (an `Include` after one would belong to that block): in `perch
    /// exec`, `perch use` or a bound folder's shell of an account naming ssh, plain `ssh`, `scp`,
    /// `sftp` and `rsync` read that account's key and agent from there. Empty when the scopes'
    /// folder is not a path ssh_config(5) holds as a plain word (``ToolGrammar/sshPathProblem(_:)``,
    /// or a glob character, which `Include` would expand).
    static func scopesInclude(_ files: IdentityFiles) -> String {
        let folder = files.scopes
        guard ToolGrammar.sshPathProblem(folder) == nil, !folder.contains(where: { "*?[]".contains($0) }) else { return "" }
        return "# In a scope of Perch's of an account naming ssh (perch exec, perch use): that account's key, from its file there.\n"
            + "Include \(ToolGrammar.sshQuoted(folder + "/*" + scopeFileSuffix))\n"
    }

    /// The ssh_config text Perch includes: a `Match` block for the account's hosts with its
    /// `IdentityFile` and `IdentitiesOnly yes` (so the agent's other keys are not offered first).
    ///
    /// The block applies only outside a scope of Perch's (``scopeGuard``): in `perch exec`, `perch
    /// use` or a bound folder's shell (`PERCH_SCOPE` set), the global account's key never reaches
    /// ssh, so an account naming no ssh gets the user's own configuration there, and one naming
    /// ssh gets its own key alone (`GIT_SSH_COMMAND`).
    public static func includeText(_ ssh: Setting, account: Account, files: IdentityFiles? = nil) -> String {
        let file = ToolGrammar.sshQuoted(ssh.identityFile)
        let agent = ssh.agent.map { "\tIdentityAgent \(ToolGrammar.sshQuoted($0))\n" } ?? ""
        return "# Written by Perch for the account \"\(account.id)\"; replaced at each switch.\n" + (files.map(scopesInclude) ?? "")
            + "# Not in a scope of Perch's (perch exec, perch use, a bound folder's shell): it chooses its own key.\n"
            + "Match originalhost \(ssh.hosts.joined(separator: ",")) \(scopeGuard)\n\tIdentityFile \(file)\n\tIdentitiesOnly yes\n" + agent
    }

    /// The `Match` criterion that is true outside a scope of Perch's: `printenv` fails when
    /// `PERCH_SCOPE` is not set (ssh_config(5), `Match exec`, run by the user's shell, negated
    /// with `!`; a program, not shell syntax, so it means the same in sh, bash, zsh, fish and
    /// csh). ssh runs it only for the account's hosts: a criterion after a failed one is skipped
    /// (readconf.c, `match_cfg_line`).
    static let scopeGuard = "!exec \"printenv \(IdentityScope.scopeVariable)\""

    public func wanted(_ setting: ToolSetting?, account: Account, in context: ToolContext) -> ToolState? {
        guard let ssh = setting?.value(as: Setting.self) else { return ToolState(["exists": "1", "file": Self.ownText(context.files)]) }
        return ToolState(["exists": "1", "file": Self.includeText(ssh, account: account, files: context.files)])
    }

    /// An absent file is as good as an empty one: ssh then uses the user's own.
    public func isMet(_ wanted: ToolState, by now: ToolState) -> Bool {
        if wanted["file"]?.hasPrefix(Self.ownHeader) == true, now["exists"] == "0" { return true }
        return wanted.isMet(by: now)
    }

    public func current(in context: ToolContext) -> Result<ToolState, ToolFailure> {
        guard let bytes = try? FileSystem.read(context.files.sshInclude) else { return .success(ToolState(["exists": "0", "file": ""])) }
        return .success(ToolState(["exists": "1", "file": String(decoding: bytes, as: UTF8.self)]))
    }

    public func apply(_ state: ToolState, in context: ToolContext) -> ToolStep {
        let file = context.files.sshInclude
        do {
            if state["exists"] == "0" {
                if unlink(file) != 0, errno != ENOENT { return .failed("cannot remove \(file): \(String(cString: strerror(errno)))") }
            } else {
                try FileSystem.writeAtomically(Array((state["file"] ?? "").utf8), to: file, mode: 0o600)
            }
        } catch {
            return .failed("\(error)")
        }
        if state["file"]?.hasPrefix(Self.ownHeader) == true || state["exists"] == "0" { return .applied("your own") }
        var shown = describe(state)
        if let agent = Self.agentLine(state["file"] ?? ""), !Self.isSocket(context.environment.expandingTilde(agent)) {
            // Written all the same: the agent may start later (a password manager not yet open).
            shown += "; warning: its agent \(agent) is not a socket here (no agent listens there yet)"
        }
        return IdentitySetup.sshIncluded(context) ? .applied(shown) : .skipped("\(shown) written; run `perch setup ssh` to use it")
    }

    public func describe(_ state: ToolState) -> String {
        guard state["exists"] == "1", let text = state["file"], !text.hasPrefix(Self.ownHeader) else { return "your own" }
        let lines = text.split(separator: "\n")
        // `Match originalhost A,B !exec …`, or `Host A B` as written before scopes were guarded.
        let hosts: [Substring]
        if let match = lines.first(where: { $0.hasPrefix("Match originalhost ") }) {
            hosts = match.dropFirst(19).split(separator: " ").first?.split(separator: ",") ?? []
        } else {
            hosts = lines.first { $0.hasPrefix("Host ") }.map { $0.dropFirst(5).split(separator: " ") } ?? []
        }
        let file = lines.first { $0.trimmingWhitespace.hasPrefix("IdentityFile ") }.map { $0.trimmingWhitespace.dropFirst(13) } ?? ""
        return "\(file) for \(hosts.joined(separator: ", "))"
    }

    /// The `GIT_SSH_COMMAND` a scope gives git for the key at `key` (absolute).
    static func scopeCommand(_ key: String) -> String { "ssh -i \(ShellExports.posixQuoted(key)) -o IdentitiesOnly=yes" }

    /// The `core.sshCommand` a bound folder's or a remote-owned repository's git include gives
    /// git for the key at `key` (absolute): ``scopeCommand(_:)`` with `PERCH_SCOPE=directory` in
    /// its environment (env(1)), so that Perch's include, which follows the global account, is
    /// skipped there (``scopeGuard``): a key the server refuses is never followed by the global
    /// account's, which would push as someone else.
    static func folderCommand(_ key: String) -> String { folderPrefix + scopeCommand(key) }

    /// `env PERCH_SCOPE=directory `: what a folder's `core.sshCommand` starts with.
    static let folderPrefix = "env \(IdentityScope.scopeVariable)=\(ScopeKind.directory.rawValue) "

    /// The `IdentityAgent` of Perch's file text, or nil.
    static func agentLine(_ text: String) -> String? {
        text.split(separator: "\n").first { $0.trimmingWhitespace.hasPrefix("IdentityAgent ") }.map {
            var value = String($0.trimmingWhitespace.dropFirst("IdentityAgent ".count))
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value
        }
    }

    /// Whether `path` is a Unix socket.
    static func isSocket(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
    }

    /// What `ssh -G HOST` resolves as the first identity file for each of the account's hosts.
    public func check(_ setting: ToolSetting, in context: ToolContext) -> IdentityCheck {
        guard let ssh = setting.value(as: Setting.self) else { return IdentityCheck(tool: .ssh, expected: "", actual: nil, matches: nil) }
        let environment = context.environment
        let expected = environment.expandingTilde(ssh.identityFile)
        // Bug (everyday issue): status named the key by its whole path where the switch said `~/…`.
        let shown = { (path: String) in GitConfigFile.shown(path, environment) }
        // Bug: a key file that does not exist was shown as ✓ when ssh -G named it.
        if access(expected, F_OK) != 0 {
            return IdentityCheck(tool: .ssh, expected: shown(expected), actual: nil, matches: false, note: "the key file does not exist")
        }
        var actuals: [String] = []
        // As git runs ssh here: through GIT_SSH_COMMAND when it is set (a scope's `-i KEY`).
        var words = ["ssh"] + (access(context.files.userSSHConfig, F_OK) == 0 ? ["-F", context.files.userSSHConfig] : [])
        if let command = environment["GIT_SSH_COMMAND"], let given = IdentityProof.shellWords(command), !given.isEmpty { words = given }
        for host in ssh.hosts {
            let run = context.run(words[0], Array(words.dropFirst()) + ["-G", host])
            if case .notFound = run {
                return IdentityCheck(tool: .ssh, expected: ssh.identityFile, actual: nil, matches: nil, note: "ssh not found")
            }
            guard let output = run.output else {
                return IdentityCheck(tool: .ssh, expected: ssh.identityFile, actual: nil, matches: nil, note: run.failure)
            }
            actuals.append(ToolReaders.sshIdentityFiles(fromSSHG: output).first.map(environment.expandingTilde) ?? "(none)")
        }
        var matches = actuals.allSatisfy { $0 == expected }
        var fix = !matches && !IdentitySetup.sshIncluded(context) ? "perch setup ssh" : nil
        var note = fix.map { "run `\($0)`" }
        if matches, let agent = ssh.agent, !Self.isSocket(environment.expandingTilde(agent)) {
            matches = false
            note = "its agent \(agent) is not a socket: start the agent, or fix the account's ssh.agent"
            fix = nil
        }
        let check = IdentityCheck(
            tool: .ssh, expected: shown(expected), actual: Array(Set(actuals.map(shown))).sorted().joined(separator: ", "),
            matches: matches,
            note: note, fix: fix)
        // In a scope of this account, the GIT_SSH_COMMAND Perch set is the expected state.
        let scoped = context.environment["PERCH_SCOPE"] != nil ? ["GIT_SSH_COMMAND": Self.scopeCommand(expected)] : [:]
        return overridden(check, in: context, own: scoped)
    }

    /// ssh keys and `Host` blocks: a candidate per `~/.ssh/*.pub` whose private key is beside
    /// it, and per existing file a `Host` block of `~/.ssh/config` names as its `IdentityFile`.
    /// Its hosts are the patterns of the blocks naming the key (without wildcards or negations);
    /// a key no block names is proposed for `github.com`, where people most often hold one key
    /// per account. Known by its file name, its comment (often an email) and its hosts.
    /// The key's file, `~` expanded and without `.pub` (an account may name the public half
    /// for a key kept in an agent), whatever hosts it is for.
    public func importIdentity(_ setting: ToolSetting, in environment: IdentityEnvironment) -> String {
        guard let ssh = setting.value(as: Setting.self) else { return setting.summary }
        let path = environment.expandingTilde(ssh.identityFile)
        return path.hasSuffix(".pub") ? String(path.dropLast(4)) : path
    }

    public func importCandidates(in context: ToolContext) -> [ImportCandidate] {
        let environment = context.environment
        let blocks = ToolReaders.sshHostBlocks(ToolReaders.read(context.files.userSSHConfig) ?? "")
        var keys = ToolReaders.sshKeys(environment)
        for block in blocks {
            for file in block.identityFiles {
                let path = environment.expandingTilde(file)
                if access(path, F_OK) == 0, !keys.contains(where: { $0.path == path }) { keys.append((path, "")) }
            }
        }
        let sshFolder = environment.home + "/.ssh/"
        return keys.map { key in
            var hosts: [String] = []
            for block in blocks where block.identityFiles.contains(where: { environment.expandingTilde($0) == key.path }) {
                for pattern in block.patterns where !pattern.contains(where: { "*?!".contains($0) }) && !hosts.contains(pattern) {
                    hosts.append(pattern)
                }
            }
            let shown = key.path.hasPrefix(sshFolder) ? "~/.ssh/" + key.path.dropFirst(sshFolder.count) : key.path
            let file = String(key.path.split(separator: "/").last ?? "key")
            let setting = Setting(hosts: hosts.isEmpty ? ["github.com"] : hosts, identityFile: shown)
            let base = file.hasPrefix("id_") ? String(file.dropFirst(3)) : file
            return ImportCandidate(
                idBase: "ssh-" + base, name: "ssh key \(file)", group: "ssh", setting: Self.setting(setting),
                keys: [file, key.comment].filter { !$0.isEmpty } + hosts)
        }
    }

    // MARK: Scope

    /// `GIT_SSH_COMMAND` = `ssh -i KEY -o IdentitiesOnly=yes` (git(1), "Environment"; ssh(1)
    /// `-i`, ssh_config(5) `IdentitiesOnly`): git's ssh in that process offers the account's key
    /// only. ssh run by hand (and `scp`, `sftp`, `rsync`, which run ssh) reads the scope's ssh
    /// file (``scopeFile(_:files:)``, written here) through Perch's include: its `Match` block
    /// holds for the account's hosts while ``scopeMarker(_:)`` is set, which the scope sets.
    /// Nothing but your own for an account naming no ssh (``ownScope(over:in:)``).
    public func scope(_ setting: ToolSetting?, account: Account, over environment: [String: String], in context: ToolContext)
        -> Result<ToolScope, ToolFailure>
    {
        let others = Self.otherMarkers(in: environment, besides: account.id)
        guard let ssh = setting?.value(as: Setting.self) else {
            var own = ownScope(over: environment, in: context)
            own.variables = others + own.variables
            return .success(own)
        }
        let key = context.environment.expandingTilde(ssh.identityFile)
        let agent = ssh.agent.map(context.environment.expandingTilde)
        var variables = others + [ScopeVariable("GIT_SSH_COMMAND", Self.scopeCommand(key))]
        // The account's agent for every ssh the process runs (ssh-agent(1), SSH_AUTH_SOCK).
        if let agent { variables.append(ScopeVariable("SSH_AUTH_SOCK", agent)) }
        // Paths `~` expanded here: ssh would expand `~` to the password database's home, not $HOME.
        if ToolGrammar.sshPathProblem(key) == nil, agent.flatMap(ToolGrammar.sshPathProblem) == nil {
            let path = Self.scopeFile(account.id, files: context.files)
            let text = Self.scopeText(hosts: ssh.hosts, key: key, agent: agent, account: account)
            do {
                if (try? FileSystem.read(path)).map({ String(decoding: $0, as: UTF8.self) }) != text {
                    try FileSystem.createDirectory(context.files.scopes)
                    try FileSystem.writeAtomically(Array(text.utf8), to: path, mode: 0o600)
                }
            } catch {
                return .failure(ToolFailure("\(error)"))
            }
            variables.append(ScopeVariable(Self.scopeMarker(account.id), "1"))
        }
        return .success(ToolScope(variables: variables))
    }

    /// What the scopes' ssh files end with (`ID.ssh_config`), as Perch's include names them.
    static let scopeFileSuffix = ".ssh_config"

    /// The scope's ssh file of the account `id`, in ``IdentityFiles/scopes`` (mode 0600).
    static func scopeFile(_ id: String, files: IdentityFiles) -> String { files.scopes + "/" + id + scopeFileSuffix }

    /// The prefix of ``scopeMarker(_:)``'s names.
    static let markerPrefix = "PERCH_SSH_SCOPE_"

    /// The variable a scope of the account `id` sets (to `1`) and its ssh file's `Match exec
    /// "printenv NAME"` asks for: `PERCH_SSH_SCOPE_` and the id, with `_` written `__`, `.` `_d`
    /// and `-` `_h` (a variable name every shell takes, one per id). `printenv` is a program,
    /// not shell syntax, so the test means the same under every user's shell; ssh 9.2's `Match`
    /// takes no quote inside a quoted command, so a comparison such as `test "$X" = ID` cannot be
    /// written there. The id's grammar (``Account/isValidID(_:)``) leaves nothing else.
    static func scopeMarker(_ id: String) -> String {
        var name = markerPrefix
        for character in id {
            switch character {
            case "_": name += "__"
            case ".": name += "_d"
            case "-": name += "_h"
            default: name.append(character)
            }
        }
        return name
    }

    /// The markers of other accounts' scopes in `environment` (a scope made inside another),
    /// removed: scopes never stack.
    static func otherMarkers(in environment: [String: String], besides id: String) -> [ScopeVariable] {
        let own = scopeMarker(id)
        return environment.keys.filter { $0.hasPrefix(markerPrefix) && $0 != own }.sorted().map { ScopeVariable($0, nil) }
    }

    /// The scope's ssh file: for the account's hosts, while its marker is set, its key with
    /// `IdentitiesOnly yes` and its agent, as Perch's include gives the global account's.
    /// `key` and `agent` are absolute and pass ``ToolGrammar/sshPathProblem(_:)``.
    static func scopeText(hosts: [String], key: String, agent: String?, account: Account) -> String {
        "# Written by Perch for `perch exec` and `perch use` of the account \"\(account.id)\"; read through Perch's ssh include.\n"
            + "Match originalhost \(hosts.joined(separator: ",")) exec \"printenv \(scopeMarker(account.id))\"\n"
            + "\tIdentityFile \(ToolGrammar.sshQuoted(key))\n\tIdentitiesOnly yes\n"
            + (agent.map { "\tIdentityAgent \(ToolGrammar.sshQuoted($0))\n" } ?? "")
    }
}

extension SSHAdapter {
    /// For an account naming no ssh: while a folder's or a remote's rule of Perch's may give git
    /// another account's `core.sshCommand` (Perch's rules file has one), `GIT_SSH_COMMAND` =
    /// your own `core.sshCommand`, else `ssh`, which beats it (git(1), "Environment"); in the
    /// scope, ssh skips Perch's include (``scopeGuard``). Nothing when your own `GIT_SSH_COMMAND`
    /// or `GIT_SSH` is set (it beats the rule already) or no rule exists.
    func ownScope(over environment: [String: String], in context: ToolContext) -> ToolScope {
        guard (environment["GIT_SSH_COMMAND"] ?? "").isEmpty, (environment["GIT_SSH"] ?? "").isEmpty,
            let rules = try? FileSystem.read(context.files.gitDirectories), String(decoding: rules, as: UTF8.self).contains("[includeIf")
        else { return ToolScope() }
        let own = GitAdapter.values(byOrigin: context)?.own["core.sshcommand"].flatMap { $0.isEmpty ? nil : $0 }
        return ToolScope(variables: [ScopeVariable("GIT_SSH_COMMAND", own ?? "ssh")])
    }
}

// MARK: - Verify

extension SSHAdapter {
    /// What `ssh -G HOST` resolves for each of the account's hosts (ssh(1) `-G`: the
    /// configuration after every `Host`, `Match` and `Include`, with nothing connected), run as
    /// git would run it here: through `GIT_SSH_COMMAND` when it is set (`perch exec`). The first
    /// identity file must be the account's; when `IdentitiesOnly` is off, the agent's keys come
    /// first (sshconnect2.c, `pubkey_prepare`), so the first key `ssh-add -l` lists must be the
    /// account's too.
    public func ask(_ setting: ToolSetting, in context: ProofContext) -> [ToolAnswer] {
        guard let ssh = setting.value(as: Setting.self) else { return [] }
        return ssh.hosts.map { Self.askHost($0, ssh, in: context) }
    }

    /// The ssh command git runs here, as words (`GIT_SSH_COMMAND`, else `ssh`, with the user's
    /// `~/.ssh/config` named when `$HOME` is not the password database's home); nil when the
    /// repository here names its own (`core.sshCommand` in its `.git/config` or a file it
    /// includes) and it is not plain ssh (``plainSSHOptions(_:)``): a check never runs it.
    static func command(in context: ProofContext) -> [String]? {
        // As the shell git runs it through would: `~/` at a word's start is the home folder.
        givenCommand(in: context).map { words in words.map { $0.hasPrefix("~/") ? context.expand($0) : $0 } }
    }

    /// Why no ssh check runs here: the repository's config names its own ssh command.
    static let repositoryCommandReason =
        "this repository sets core.sshCommand in its own config, not plain ssh: not run (git runs that command instead of ssh for fetch and push here; see it with git config --show-origin core.sshCommand)"

    static func givenCommand(in context: ProofContext) -> [String]? {
        if let command = context.tool.environment["GIT_SSH_COMMAND"], let words = IdentityProof.shellWords(command), !words.isEmpty {
            return words
        }
        if let program = context.tool.environment["GIT_SSH"] { return [program] }
        // git's core.sshCommand here (a bound folder's or a remote-owned clone's include sets it),
        // unless the repository's own config names it: a check never runs a repository's command.
        // Bug (trust issue): perch verify ran a repository's core.sshCommand.
        let run = context.run("git", ["config", "--includes", "--show-scope", "--get", "core.sshCommand"])
        if let line = run.output?.trimmingWhitespace, let tab = line.firstIndex(of: "\t") {
            let scope = line[..<tab]
            let words = IdentityProof.shellWords(String(line[line.index(after: tab)...])) ?? []
            if scope == "local" || scope == "worktree" {
                // The repository's own command is never run. When it is plain ssh with options that
                // only choose a key, a user or a port, the real ssh is asked with them instead.
                return plainSSHOptions(words).map { ["ssh"] + $0 }
            }
            if !words.isEmpty { return words }
        }
        let config = context.tool.files.userSSHConfig
        return access(config, F_OK) == 0 ? ["ssh", "-F", config] : ["ssh"]
    }

    /// The options of `words` (a command line, as the shell splits it) when it is plain `ssh`
    /// whose options only choose a key, a user, a port or an agent (`-i`, `-l`, `-p`, `-4`,
    /// `-6`, `-T`, `-o` with `IdentitiesOnly`, `IdentityFile`, `IdentityAgent`, `User`, `Port`,
    /// `BatchMode`, `StrictHostKeyChecking`): none of these makes `ssh -G` run anything. Nil
    /// for anything else (another program, `-F`, `-J`, `-o ProxyCommand`, …), which a check
    /// never runs.
    static func plainSSHOptions(_ words: [String]) -> [String]? {
        // The bare word only: `./ssh` or `/any/path/ssh` is the repository's own program.
        guard words.first == "ssh" else { return nil }
        let valued: Set<String> = ["-i", "-l", "-p"]
        let flags: Set<String> = ["-4", "-6", "-T"]
        let keys: Set<String> = ["identitiesonly", "identityfile", "identityagent", "user", "port", "batchmode", "stricthostkeychecking"]
        var options: [String] = []
        var index = 1
        while index < words.count {
            let word = words[index]
            if flags.contains(word) {
                options.append(word)
            } else if valued.contains(word) || word == "-o", index + 1 < words.count {
                let value = words[index + 1]
                if word == "-o" {
                    let key = value.prefix { $0 != "=" && $0 != " " }.lowercased()
                    guard keys.contains(key) else { return nil }
                }
                options += [word, value]
                index += 1
            } else {
                return nil
            }
            index += 1
        }
        return options
    }

    /// The values of `ssh -G` output: every `identityfile`, and the last value of other keys.
    static func resolved(_ output: String) -> (identityFiles: [String], values: [String: String]) {
        var values: [String: String] = [:]
        for line in output.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { continue }
            values[String(parts[0])] = String(parts[1])
        }
        return (ToolReaders.sshIdentityFiles(fromSSHG: output), values)
    }

    static func askHost(_ host: String, _ ssh: Setting, in context: ProofContext) -> ToolAnswer {
        let label = "ssh \(host)"
        let expected = context.expand(ssh.identityFile)
        let shownExpected = context.shown(expected)
        guard let words = command(in: context) else {
            return .unknown(
                label, kind: .ssh, expected: shownExpected, reason: repositoryCommandReason,
                asked: "git config --show-scope core.sshCommand")
        }
        let asked = (words + ["-G", host]).joined(separator: " ")
        let run = context.run(words[0], Array(words.dropFirst()) + ["-G", host])
        if case .notFound = run {
            return .unknown(label, kind: .ssh, expected: shownExpected, reason: "\(words[0]) not found", asked: asked)
        }
        guard let output = run.output else {
            return .unknown(label, kind: .ssh, expected: shownExpected, reason: run.failure ?? "ssh -G failed", asked: asked)
        }
        let (files, values) = resolved(output)
        let first = files.first.map(context.expand)
        let identitiesOnly = values["identitiesonly"] == "yes"
        let user = values["user"] ?? ""
        var answer = "\(first.map(context.shown) ?? "(no identity file)"), IdentitiesOnly \(identitiesOnly ? "yes" : "no")"
        if !user.isEmpty { answer += ", user \(user)" }
        if let agent = values["identityagent"], agent != "SSH_AUTH_SOCK" { answer += ", agent \(context.shown(agent))" }
        if let agent = ssh.agent, !isSocket(context.expand(agent)) {
            return ToolAnswer(
                tool: label, kind: .ssh, expected: shownExpected + ", agent \(agent)", answer: answer, verdict: .disagrees,
                reason: "the account's agent \(agent) is not a socket: no agent listens there",
                fix: "start the agent (or fix ssh.agent in the config)",
                asked: asked)
        }
        guard first == expected else {
            // Bug (guard issue): a GIT_SSH_COMMAND of the shell's was the cause, and the fix
            // offered a switch, which cannot change it. Outside a scope (whose command Perch set),
            // the variable is named with the unset that removes it.
            let variables = context.tool.environment
            if variables["PERCH_SCOPE"] == nil, let given = ["GIT_SSH_COMMAND", "GIT_SSH"].first(where: { !(variables[$0] ?? "").isEmpty })
            {
                return ToolAnswer(
                    tool: label, kind: .ssh, expected: shownExpected, answer: answer, verdict: .disagrees,
                    reason:
                        "\(given) in this environment replaces the ssh git runs, and it offers \(first.map(context.shown) ?? "no identity file") first for \(host)",
                    fix: "unset \(given)", asked: asked)
            }
            let fix = IdentitySetup.sshIncluded(context.tool) ? "perch switch \(context.account.id)" : "perch setup ssh"
            return ToolAnswer(
                tool: label, kind: .ssh, expected: shownExpected, answer: answer, verdict: .disagrees,
                reason: "ssh offers \(first.map(context.shown) ?? "no identity file") first for \(host)", fix: fix, asked: asked)
        }
        guard !identitiesOnly else {
            return ToolAnswer(tool: label, kind: .ssh, expected: shownExpected, answer: answer, verdict: .agrees, asked: asked)
        }
        // IdentitiesOnly off: the agent's keys are offered in the agent's order, before the files.
        let agentKeys = agentFingerprints(values["identityagent"], in: context)
        guard let firstKey = agentKeys.first else {
            return ToolAnswer(tool: label, kind: .ssh, expected: shownExpected, answer: answer, verdict: .agrees, asked: asked)
        }
        let own = fingerprint(expected, in: context)
        answer += "; the agent offers \(firstKey.shown) first"
        if let own, firstKey.fingerprint == own {
            return ToolAnswer(
                tool: label, kind: .ssh, expected: shownExpected, answer: answer, verdict: .agrees, asked: asked + "; ssh-add -l")
        }
        return ToolAnswer(
            tool: label, kind: .ssh, expected: shownExpected, answer: answer, verdict: .disagrees,
            reason: "IdentitiesOnly is off, so the agent's \(firstKey.shown) is offered before \(shownExpected)",
            fix: IdentitySetup.sshIncluded(context.tool)
                ? "IdentitiesOnly yes for \(host) in your ~/.ssh/config (an IdentitiesOnly no there comes first), or take the agent's \(firstKey.shown) out of it (ssh-add -d with its file)"
                : "perch setup ssh (its include sets IdentitiesOnly yes)",
            asked: asked + "; ssh-add -l")
    }

    /// The agent's keys in the order it offers them (`ssh-add -l`), from `identityAgent` (the
    /// resolved `IdentityAgent`) or `SSH_AUTH_SOCK`; empty when there is none or it is empty.
    static func agentFingerprints(_ identityAgent: String?, in context: ProofContext) -> [(fingerprint: String, shown: String)] {
        var extra: [String: String] = [:]
        if let agent = identityAgent, agent != "SSH_AUTH_SOCK" {
            if agent == "none" { return [] }
            extra["SSH_AUTH_SOCK"] = context.expand(agent)
        }
        guard (extra["SSH_AUTH_SOCK"] ?? context.tool.environment["SSH_AUTH_SOCK"]) != nil else { return [] }
        guard let output = context.run("ssh-add", ["-l"], extra: extra).output else { return [] }
        return output.split(whereSeparator: \.isNewline).compactMap { line in
            // `256 SHA256:… comment (ED25519)`
            let parts = line.split(separator: " ")
            guard parts.count >= 2 else { return nil }
            let comment = parts.count > 3 ? parts[2..<(parts.count - 1)].joined(separator: " ") : String(parts[1])
            return (String(parts[1]), "key \(comment)")
        }
    }

    /// The SHA256 fingerprint of the key at `path` (its `.pub` beside it when there is one),
    /// from `ssh-keygen -l -f`; nil when it cannot be read.
    static func fingerprint(_ path: String, in context: ProofContext) -> String? {
        let file = access(path + ".pub", R_OK) == 0 ? path + ".pub" : path
        guard let output = context.run("ssh-keygen", ["-l", "-f", file]).output else { return nil }
        let parts = output.split(separator: " ")
        return parts.count >= 2 ? String(parts[1]) : nil
    }

    /// `ssh -T git@HOST` (the account's `expect.ssh` names the user the greeting should name),
    /// with `BatchMode=yes` (nothing asked), `StrictHostKeyChecking=yes` and
    /// `UpdateHostKeys=no` (no host key accepted or written): the server's greeting, read in
    /// GitHub's, GitLab's, Bitbucket's and Gitea's forms, or shown as it came.
    public func askServer(_ setting: ToolSetting, in context: ProofContext) -> [ToolAnswer] {
        guard let ssh = setting.value(as: Setting.self) else { return [] }
        let expected = context.account.identities.expect["ssh"] ?? ""
        return ssh.hosts.filter { !$0.contains(where: { "*?!".contains($0) }) }.map { host in
            let label = "ssh \(host) (server)"
            guard let words = Self.command(in: context) else {
                return .unknown(
                    label, kind: .ssh, expected: expected, reason: Self.repositoryCommandReason,
                    asked: "git config --show-scope core.sshCommand", online: true)
            }
            let seconds = max(1, (context.tool.timeout + 999) / 1000)
            let options = [
                "-T", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes", "-o", "UpdateHostKeys=no", "-o",
                "ConnectTimeout=\(seconds)",
            ]
            let target = host.contains("@") ? host : "git@" + host
            let asked = (words + options + [target]).joined(separator: " ")
            let run = context.run(words[0], Array(words.dropFirst()) + options + [target])
            let text: String
            switch run {
            case .notFound:
                return .unknown(label, kind: .ssh, expected: expected, reason: "\(words[0]) not found", asked: asked, online: true)
            case .timedOut:
                return .unknown(
                    label, kind: .ssh, expected: expected, reason: "could not reach \(host): no answer in time", asked: asked, online: true)
            case .notStarted(let why): return .unknown(label, kind: .ssh, expected: expected, reason: why, asked: asked, online: true)
            case .exited(_, let stdout, let stderr): text = stdout + "\n" + stderr
            }
            switch SSHGreeting.read(text) {
            case .user(let user, let form):
                return .judged(
                    label, kind: .ssh, expected: expected, answer: "\(user) (\(form))", agrees: user.lowercased() == expected.lowercased(),
                    reason: "the server knows the key ssh offers as \(user), not \(expected)",
                    fix:
                        "perch switch \(context.account.id) if the ssh line above is ✗; else register \(context.shown(context.expand(ssh.identityFile))).pub with \(expected) on \(host)",
                    asked: asked, online: true)
            case .refused:
                return ToolAnswer(
                    tool: label, kind: .ssh, expected: expected, answer: "permission denied", verdict: .disagrees,
                    reason: "the server took none of the keys offered",
                    fix: "add \(context.shown(context.expand(ssh.identityFile))).pub to the account on \(host)",
                    asked: asked, online: true)
            case .hostKeyUnknown:
                return .unknown(
                    label, kind: .ssh, expected: expected,
                    reason: "the host key of \(host) is not known here (ssh \(target) once checks and keeps it)",
                    asked: asked, online: true)
            case .unreachable(let why):
                return .unknown(
                    label, kind: .ssh, expected: expected, reason: "could not reach \(host): \(why)", asked: asked, online: true)
            case .configError(let line):
                return .unknown(
                    label, kind: .ssh, expected: expected, reason: "ssh could not read its config: \(line)", asked: asked, online: true)
            case .other(let line):
                return ToolAnswer(
                    tool: label, kind: .ssh, expected: expected, answer: line, verdict: .unknown,
                    reason: "a greeting in a form Perch does not know",
                    asked: asked, online: true)
            }
        }
    }
}

/// What an ssh git server said to `ssh -T`: the user its greeting names, in the forms the
/// hosts document (GitHub "Testing your SSH connection", GitLab "Verify that you can connect",
/// Bitbucket "Set up SSH", Gitea and Forgejo's `serv` greeting), or why there was none.
public enum SSHGreeting: Hashable, Sendable {
    /// The greeting named a user; `form` is the host kind (`GitHub`).
    case user(String, form: String)
    /// `Permission denied (publickey)`: no key offered was taken.
    case refused
    /// `Host key verification failed`: the server's key is not in known_hosts.
    case hostKeyUnknown
    /// The connection failed (refused, no route, no such host): the last line.
    case unreachable(String)
    /// ssh stopped at its own configuration (`… line 9: no argument after keyword "port"`).
    case configError(String)
    /// Something else: its first line, shown as it came (control characters as `?`).
    case other(String)

    /// The greeting in `text` (ssh's stdout and stderr), read strictly: a line names a user only
    /// when it is a known greeting as a whole (GitHub's `Hi USER! You've successfully
    /// authenticated…`, Gitea's and Forgejo's `Hi there, USER! You've successfully
    /// authenticated…`, GitLab's `Welcome to GitLab, @USER!`, Bitbucket's `logged in as USER.`)
    /// and the user is a plain name (ASCII letters, digits, `.`, `_`, `-`). Anything else, a
    /// banner line (`Hi all!`) or a name with control characters, is not judged.
    // Bug (trust issue): a banner line "Hi all!" printed before the greeting was read as the user
    // "all", and a user name holding control characters was judged as that name.
    public static func read(_ text: String) -> SSHGreeting {
        let lines = text.split(whereSeparator: \.isNewline).map { String($0).trimmingWhitespace }.filter { !$0.isEmpty }
        /// `name` when it is a plain user name.
        func plain(_ name: Substring) -> String? {
            guard !name.isEmpty, name.utf8.count <= 100,
                name.utf8.allSatisfy({
                    ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D
                })
            else { return nil }
            return String(name)
        }
        let authenticated = "! You've successfully authenticated"
        for line in lines {
            // GitHub: "Hi USER! You've successfully authenticated, but GitHub does not provide shell access."
            // Gitea/Forgejo: "Hi there, USER! You've successfully authenticated with the key named …"
            if line.hasPrefix("Hi "), let end = line.firstRange(of: authenticated) {
                var user = line[line.index(line.startIndex, offsetBy: 3)..<end.lowerBound]
                let form: String
                if user.hasPrefix("there, ") {
                    user = user.dropFirst(7)
                    form = line.contains("Forgejo") ? "Forgejo" : "Gitea"
                } else {
                    form = line.contains("GitHub") ? "GitHub" : "GitHub-like"
                }
                if let user = plain(user) { return .user(user, form: form) }
            }
            // GitLab: "Welcome to GitLab, @USER!"
            if line.hasPrefix("Welcome to GitLab, @"), line.hasSuffix("!"), let user = plain(line.dropFirst(20).dropLast()) {
                return .user(user, form: "GitLab")
            }
            // Bitbucket: "logged in as USER." (and "authenticated via ssh key." with no user)
            if line.hasPrefix("logged in as "), line.hasSuffix("."), let user = plain(line.dropFirst(13).dropLast()) {
                return .user(user, form: "Bitbucket")
            }
        }
        if let line = lines.first(where: {
            $0.contains("Bad configuration option") || $0.contains("no argument after keyword") || $0.contains("terminating, ")
                || ($0.contains("config line ") && $0.contains(": "))
        }) {
            return .configError(ProgramResult.lastLine(line) ?? line)
        }
        if lines.contains(where: {
            $0.contains("Host key verification failed") || $0.contains("No ED25519 host key is known")
                || $0.contains("host key for") && $0.contains("not known")
        }) {
            return .hostKeyUnknown
        }
        if lines.contains(where: { $0.contains("Permission denied (") }) { return .refused }
        if let line = lines.first(where: {
            $0.contains("Connection refused") || $0.contains("Could not resolve hostname") || $0.contains("No route to host")
                || $0.contains("Connection timed out") || $0.contains("Network is unreachable") || $0.contains("Connection closed")
        }) {
            return .unreachable(line)
        }
        return .other(ProgramResult.lastLine(lines.first ?? "") ?? "(nothing)")
    }
}

// MARK: - Agents

extension SSHAdapter {
    /// git's ssh with no key at all: not the user's config (`-F /dev/null`), no agent, and no
    /// default key file (ssh_config(5): `IdentitiesOnly`, `IdentityAgent none`); the user's
    /// agent socket removed.
    public func closed(in folder: String) throws(ToolFailure) -> [ScopeVariable] {
        [
            ScopeVariable("GIT_SSH_COMMAND", "ssh -F /dev/null -o IdentitiesOnly=yes -o IdentityAgent=none -o IdentityFile=/dev/null"),
            ScopeVariable("SSH_AUTH_SOCK", nil),
        ]
    }
}
