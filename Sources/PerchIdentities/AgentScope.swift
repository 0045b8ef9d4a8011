import Glibc
import PerchDomain
import PerchStore

/// `perch exec ACCOUNT --agent -- COMMAND`: a coding agent's command, given its account in
/// every tool and no way back to the user's own, failing closed. Over `perch exec`'s scope
/// (``IdentityScope/scoped(_:kind:over:in:adapters:)``):
/// - git's author and committer are fixed by `GIT_AUTHOR_NAME`, `GIT_AUTHOR_EMAIL`,
///   `GIT_COMMITTER_NAME` and `GIT_COMMITTER_EMAIL` (git-commit-tree(1), "Commit Information":
///   they beat every config file, a repository's and `-c` included), so the account must name
///   git's name and email;
/// - the user's global git config is read through a file of Perch's that includes it
///   (`GIT_CONFIG_GLOBAL`, git-config(1) "FILES"), written afresh at each start, so `git config
///   --global` (or `gh auth setup-git`) inside writes there and never into the user's files;
/// - each tool the account names nothing for is closed (``ToolAdapter/closed(in:)``: empty
///   config of Perch's, the user's variables removed) instead of sealed on the user's own;
/// - it fails closed: a tool whose part cannot be made, an ssh key file or agent that is not
///   there, or a session that has ended (``SessionExpiryCache``) refuses the command before it
///   starts, whatever `--keep-going` says.
/// The files live in `STATE.scopes/ID.agent/` (mode 0700).
public enum AgentScope {
    /// Set to `1` in an agent's environment.
    public static let agentVariable = "PERCH_AGENT"
    /// The person the guard's `commit-msg` hook names in a `Co-authored-by:` trailer of an
    /// agent's commits (the account's `"agent": {"coAuthoredBy": …}`).
    public static let coAuthorVariable = "PERCH_CO_AUTHORED_BY"

    /// What an agent's command is given.
    public struct Given: Sendable {
        /// Its whole environment, secrets included (for execve(2) only).
        public var variables: [String: String]
        /// One line of JSON saying which identity each tool was given (`{"account": "bot",
        /// "agent": true, "tools": {"git": "Bot <bot@example.org>", …}, "closed": ["aws", …]}`),
        /// with no secret: no variable's value, no token; for `perch exec --json`.
        public var record: String
    }

    /// Why an agent's command was not started: one line per reason, each with what puts it right.
    public struct Refusal: Error, Sendable {
        public var reasons: [String]
    }

    /// The environment for `account`'s agent over `scoped` (its `perch exec` scope), or why it
    /// cannot start. `now` is seconds since the epoch.
    public static func give(
        _ scoped: ScopedEnvironment, account: Account, adapters: [any ToolAdapter] = ToolAdapters.registry, in context: ToolContext,
        now: Int64 = SessionExpiries.now()
    ) -> Result<Given, Refusal> {
        var reasons = scoped.failures.map { "\($0.tool.rawValue): \($0.why)" }
        let git = account.identities[.git]?.value(as: GitAdapter.Setting.self)
        let name = git?.name.flatMap { $0.isEmpty ? nil : $0 }
        let email = git?.email.flatMap { $0.isEmpty ? nil : $0 }
        if name == nil || email == nil {
            reasons.append(
                "git: an agent's account names git's name and email, so that its commits are its own (\(account.id) names \(git == nil ? "no git" : name == nil ? "no name" : "no email"))"
            )
        }
        let ssh = account.identities[.ssh]?.value(as: SSHAdapter.Setting.self)
        if let ssh {
            // Bug (agents, review): a key path naming a folder or /dev/null, and an agent socket
            // nobody listens on, let the command start.
            let key = context.environment.expandingTilde(ssh.identityFile)
            var info = stat()
            if stat(key, &info) != 0 || info.st_mode & S_IFMT != S_IFREG || access(key, R_OK) != 0 {
                reasons.append("ssh: the key \(GitConfigFile.shown(key, context.environment)) is not there (not a file it can read)")
            } else if ssh.agent == nil, key.hasSuffix(".pub") {
                reasons.append(
                    "ssh: \(ssh.identityFile) is a public key and the account names no agent of its own (ssh.agent): an agent never uses yours"
                )
            }
            if let agent = ssh.agent, !listening(context.environment.expandingTilde(agent)) {
                reasons.append("ssh: its agent \(agent) is not running (nothing answers on that socket): start it")
            }
        }
        for tool in [IdentityTool.kube, .aws] where account.identities[tool] != nil {
            let text = SessionExpiryCache(statePath: context.environment.statePath, tool: tool).answer(account, in: context)
            if let end = SessionExpiries.iso8601(text), end <= now {
                let renew = SessionExpiries.read(account, tool: tool, in: context).first { $0.hasEnded(at: now) }?.renew
                reasons.append("\(tool.rawValue): its session ended at \(text)" + (renew.map { "; renew it: \($0)" } ?? ""))
            }
        }
        for adapter in adapters {
            guard let described = adapter as? DescribedToolAdapter else { continue }
            if let setting = account.identities[adapter.tool] {
                reasons += described.agentRefusals(setting, in: context, now: now)
            } else if let why = described.cannotClose {
                reasons.append(why)
            }
        }
        guard reasons.isEmpty, let name, let email else { return .failure(Refusal(reasons: reasons)) }
        let folder = context.files.scopes + "/" + account.id + ".agent"
        var variables = scoped.variablesWithSecrets
        var closed: [String] = []
        do throws(ToolFailure) {
            for adapter in adapters where account.identities[adapter.tool] == nil {
                let given = try adapter.closed(in: folder)
                guard !given.isEmpty else { continue }
                closed.append(adapter.tool.rawValue)
                for variable in given {
                    if let value = variable.value { variables[variable.name] = value } else { variables.removeValue(forKey: variable.name) }
                }
            }
            // Bug (review): a described tool the account names only in part passed your own
            // values of its other settings (ACME_PROFILE=myprod) through: those are closed too.
            for adapter in adapters {
                guard let described = adapter as? DescribedToolAdapter, let setting = account.identities[adapter.tool] else { continue }
                for variable in try described.closedRest(setting, in: folder) {
                    if let value = variable.value { variables[variable.name] = value } else { variables.removeValue(forKey: variable.name) }
                }
            }
            variables["GIT_CONFIG_GLOBAL"] = try globalGitConfig(account, in: folder, context: context)
            if let ssh {
                // Bug (agents, review): git's ssh read your ~/.ssh/config, whose IdentityFile and
                // IdentityAgent for the same host would be offered after the account's key, and
                // your SSH_AUTH_SOCK reached the command. Only the account's key and agent now.
                variables["GIT_SSH_COMMAND"] = try sshCommand(ssh, in: folder, context: context)
                if ssh.agent == nil { variables.removeValue(forKey: "SSH_AUTH_SOCK") }
            }
        } catch {
            return .failure(
                Refusal(reasons: ["cannot write the agent's files in \(GitConfigFile.shown(folder, context.environment)): \(error)"]))
        }
        // Bug (agents, review): your credential helpers (credential.helper "store", a per-URL
        // one) and http.extraHeader came with your global config, so an https push went out as
        // you. Empty values reset both lists (git-config(1)); gh's helper, with the account's
        // token in GH_TOKEN, when it names gh.
        var pins = [("credential.helper", ""), ("http.extraHeader", "")]
        if account.identities[.gh] != nil { pins.append(("credential.helper", "!gh auth git-credential")) }
        // Signing: only as the account says; your own key (and commit.gpgsign) never reach an
        // agent, pinned off after everything the process had (git-config(1), GIT_CONFIG_COUNT).
        if git?.signingKey == nil { pins += [("commit.gpgsign", "false"), ("tag.gpgsign", "false"), ("user.signingkey", "")] }
        var count = Int(variables["GIT_CONFIG_COUNT"] ?? "") ?? 0
        for (key, value) in pins {
            variables["GIT_CONFIG_KEY_\(count)"] = key
            variables["GIT_CONFIG_VALUE_\(count)"] = value
            count += 1
        }
        variables["GIT_CONFIG_COUNT"] = String(count)
        // Programs git and ssh would ask for a secret of yours.
        for name in ["GIT_ASKPASS", "SSH_ASKPASS", "SSH_ASKPASS_REQUIRE"] { variables.removeValue(forKey: name) }
        for (key, value) in [("NAME", name), ("EMAIL", email)] {
            variables["GIT_AUTHOR_" + key] = value
            variables["GIT_COMMITTER_" + key] = value
        }
        variables[agentVariable] = "1"
        if let person = account.identities.coAuthoredBy {
            variables[coAuthorVariable] = person
        } else {
            variables.removeValue(forKey: coAuthorVariable)
        }
        var tools: [(String, String?)] = []
        for adapter in adapters {
            guard let setting = account.identities[adapter.tool] else { continue }
            // A per-shell tool's values may be secrets (an env's DB_PASSWORD): its names only.
            let shown = adapter.isPerShell ? setting.exports.map(\.name).joined(separator: " ") : setting.summary
            tools.append((adapter.tool.rawValue, adapter.tool == .git ? "\(name) <\(email)>" : shown))
        }
        let record =
            "{\"account\": \(ConfigWriter.json(account.id)), \"agent\": true, \"tools\": \(IdentityConfig.object(tools)), \"closed\": ["
            + closed.map(ConfigWriter.json).joined(separator: ", ") + "]"
            + (account.identities.coAuthoredBy.map { ", \"coAuthoredBy\": \(ConfigWriter.json($0))" } ?? "") + "}"
        return .success(Given(variables: variables, record: record))
    }

    /// Whether something listens on the Unix socket at `path` (connect(2) succeeds).
    static func listening(_ path: String) -> Bool {
        guard SSHAdapter.isSocket(path) else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
    }

    /// git's ssh for an agent whose account names ssh: its own config file of Perch's
    /// (`folder/ssh_config`, `-F`), never yours, holding for each of the account's hosts only how
    /// to reach it as your config says (`ssh -G HOST`: HostName, Port, User,
    /// UserKnownHostsFile, HostKeyAlias, each checked against ssh_config's grammar, any other
    /// left out: a ProxyCommand is a command), then the account's key alone, `IdentitiesOnly`,
    /// and its agent or none.
    static func sshCommand(_ ssh: SSHAdapter.Setting, in folder: String, context: ToolContext) throws(ToolFailure) -> String {
        let environment = context.environment
        let key = environment.expandingTilde(ssh.identityFile)
        let agent = ssh.agent.map(environment.expandingTilde) ?? "none"
        var text = "# Written by Perch for perch exec --agent: how to reach the account's hosts, and its key alone.\n"
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:@".unicodeScalars)
        for host in ssh.hosts where ToolGrammar.sshPatternProblem(host) == nil && !host.contains(where: { "*?![]".contains($0) }) {
            guard let output = context.run("ssh", ["-G", host]).output else { continue }
            var lines: [String] = []
            for line in output.split(whereSeparator: \.isNewline) {
                let parts = line.split(separator: " ", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let name = parts[0].lowercased()
                let value = String(parts[1])
                switch name {
                case "hostname", "port", "user", "hostkeyalias":
                    if value.unicodeScalars.allSatisfy(plain.contains) { lines.append("  \(name) \(value)") }
                case "userknownhostsfile":
                    let files = value.split(separator: " ").map(String.init).filter { ToolGrammar.sshPathProblem($0) == nil }
                    if !files.isEmpty { lines.append("  userknownhostsfile " + files.map(ToolGrammar.sshQuoted).joined(separator: " ")) }
                default: continue
                }
            }
            text += "Host \(host)\n" + lines.joined(separator: "\n") + "\n"
        }
        guard ToolGrammar.sshPathProblem(key) == nil, ToolGrammar.sshPathProblem(agent) == nil else {
            throw ToolFailure("the key's or agent's path cannot be written into ssh's config")
        }
        text +=
            "Host *\n  IdentitiesOnly yes\n  IdentityFile \(ToolGrammar.sshQuoted(key))\n  IdentityAgent \(ToolGrammar.sshQuoted(agent))\n"
        return "ssh -F \(ShellExports.posixQuoted(try file("ssh_config", in: folder, text: text)))"
    }

    /// Writes the agent's global git config (`folder/global.gitconfig`): an include of each of
    /// the user's global files, in git's order; its path.
    static func globalGitConfig(_ account: Account, in folder: String, context: ToolContext) throws(ToolFailure) -> String {
        var text =
            "# Written by Perch for perch exec --agent of \"\(account.id)\", again at each start: your own global git config is\n# included; git config --global inside writes here, never into your files.\n"
        for file in context.files.userGitConfigs { text += "[include]\n\tpath = \(GitAdapter.quoted(file))\n" }
        return try file("global.gitconfig", in: folder, text: text)
    }

    /// A file or folder of Perch's for an agent: `folder/name`, made (mode 0700) as a folder when
    /// `text` is nil, else a file (mode 0600) holding `text`, written only when it differs (the
    /// agent may have written into it; each write syncs to disk); its path.
    /// - Throws: ``ToolFailure`` when it cannot be made.
    static func file(_ name: String, in folder: String, text: String? = nil) throws(ToolFailure) -> String {
        let path = folder + "/" + name
        do {
            try FileSystem.createDirectory(text == nil ? path : folder)
            if let text, (try? FileSystem.read(path)).map({ String(decoding: $0, as: UTF8.self) }) != text {
                try FileSystem.writeAtomically(Array(text.utf8), to: path, mode: 0o600)
            }
        } catch {
            throw ToolFailure("\(error)")
        }
        return path
    }
}
