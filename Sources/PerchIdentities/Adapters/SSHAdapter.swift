import Glibc
import PerchCore
import PerchStore

extension IdentityTool {
    public static let ssh = IdentityTool("ssh")
}

/// `ssh`: the identity file used for some hosts, written to Perch's own file
/// (``IdentityFiles/sshInclude``), which `perch setup ssh` includes at the top of
/// `~/.ssh/config` (ssh_config(5), `Include`; the first value obtained wins). An account naming
/// no ssh identity empties the file.
public struct SSHAdapter: ToolAdapter {
    /// `"ssh": {"host": "github.com" | [...], "identityFile": "~/.ssh/id_work"}`.
    public struct Setting: Hashable, Sendable {
        /// Host patterns, as ssh_config's `Host` takes them; at least one.
        public var hosts: [String]
        public var identityFile: String
        public init(hosts: [String], identityFile: String) {
            self.hosts = hosts
            self.identityFile = identityFile
        }
    }

    public init() {}
    public var tool: IdentityTool { .ssh }
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
            fields: [ToolField("host", value.hosts.joined(separator: " ")), ToolField("identityFile", value.identityFile)], value: value)
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
        for (index, host) in hosts.enumerated() where host.isEmpty || host.contains(where: { $0 == " " || $0 == "\t" || $0.isNewline }) {
            reader.problems.append(
                "\(place).host\(hosts.count > 1 ? "[\(index)]" : ""): \"\(host)\" must be one host pattern, without spaces")
        }
        let file = reader.string("identityFile", required: true)
        if let file, file.contains(where: \.isNewline) { reader.problems.append("\(place).identityFile: must be one line") }
        reader.finish(known: ["host", "identityFile"])
        guard let file else { return nil }
        return Self.setting(Setting(hosts: hosts, identityFile: file))
    }

    public func json(_ setting: ToolSetting) -> String {
        guard let ssh = setting.value(as: Setting.self) else { return "{}" }
        let hosts =
            ssh.hosts.count == 1 ? ConfigWriter.json(ssh.hosts[0]) : "[" + ssh.hosts.map(ConfigWriter.json).joined(separator: ", ") + "]"
        return "{\"host\": \(hosts), \"identityFile\": \(ConfigWriter.json(ssh.identityFile))}"
    }

    static let ownText = "# Written by Perch: the current account names no ssh identity, so ssh uses your own.\n"

    /// The ssh_config text Perch includes: `Host` with the account's hosts, its `IdentityFile`
    /// and `IdentitiesOnly yes` (so the agent's other keys are not offered first).
    public static func includeText(_ ssh: Setting, account: Account) -> String {
        let file = ssh.identityFile.contains(" ") ? "\"\(ssh.identityFile)\"" : ssh.identityFile
        return "# Written by Perch for the account \"\(account.id)\"; replaced at each switch.\n"
            + "Host \(ssh.hosts.joined(separator: " "))\n\tIdentityFile \(file)\n\tIdentitiesOnly yes\n"
    }

    public func wanted(_ setting: ToolSetting?, account: Account, in context: ToolContext) -> ToolState? {
        guard let ssh = setting?.value(as: Setting.self) else { return ToolState(["exists": "1", "file": Self.ownText]) }
        return ToolState(["exists": "1", "file": Self.includeText(ssh, account: account)])
    }

    /// An absent file is as good as an empty one: ssh then uses the user's own.
    public func isMet(_ wanted: ToolState, by now: ToolState) -> Bool {
        if wanted["file"] == Self.ownText, now["exists"] == "0" { return true }
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
        if state["file"] == Self.ownText || state["exists"] == "0" { return .applied("your own") }
        let shown = describe(state)
        return IdentitySetup.sshIncluded(context) ? .applied(shown) : .skipped("\(shown) written; run `perch setup ssh` to use it")
    }

    public func describe(_ state: ToolState) -> String {
        guard state["exists"] == "1", let text = state["file"], text != Self.ownText else { return "your own" }
        let lines = text.split(separator: "\n")
        let hosts = lines.first { $0.hasPrefix("Host ") }.map { $0.dropFirst(5) } ?? ""
        let file = lines.first { $0.trimmingWhitespace.hasPrefix("IdentityFile ") }.map { $0.trimmingWhitespace.dropFirst(13) } ?? ""
        return "\(file) for \(hosts.split(separator: " ").joined(separator: ", "))"
    }

    /// What `ssh -G HOST` resolves as the first identity file for each of the account's hosts.
    public func check(_ setting: ToolSetting, in context: ToolContext) -> IdentityCheck {
        guard let ssh = setting.value(as: Setting.self) else { return IdentityCheck(tool: .ssh, expected: "", actual: nil, matches: nil) }
        let environment = context.environment
        let expected = environment.expandingTilde(ssh.identityFile)
        // Bug: a key file that does not exist was shown as ✓ when ssh -G named it.
        if access(expected, F_OK) != 0 {
            return IdentityCheck(tool: .ssh, expected: expected, actual: nil, matches: false, note: "the key file does not exist")
        }
        var actuals: [String] = []
        for host in ssh.hosts {
            var arguments = ["-G", host]
            if access(context.files.userSSHConfig, F_OK) == 0 { arguments = ["-F", context.files.userSSHConfig] + arguments }
            let run = context.run("ssh", arguments)
            if case .notFound = run {
                return IdentityCheck(tool: .ssh, expected: ssh.identityFile, actual: nil, matches: nil, note: "ssh not found")
            }
            guard let output = run.output else {
                return IdentityCheck(tool: .ssh, expected: ssh.identityFile, actual: nil, matches: nil, note: run.failure)
            }
            actuals.append(ToolReaders.sshIdentityFiles(fromSSHG: output).first.map(environment.expandingTilde) ?? "(none)")
        }
        let matches = actuals.allSatisfy { $0 == expected }
        let note = !matches && !IdentitySetup.sshIncluded(context) ? "run `perch setup ssh`" : nil
        let check = IdentityCheck(
            tool: .ssh, expected: expected, actual: Array(Set(actuals)).sorted().joined(separator: ", "), matches: matches, note: note)
        return overridden(check, in: context)
    }

    /// ssh keys and `Host` blocks: a candidate per `~/.ssh/*.pub` whose private key is beside
    /// it, and per existing file a `Host` block of `~/.ssh/config` names as its `IdentityFile`.
    /// Its hosts are the patterns of the blocks naming the key (without wildcards or negations);
    /// a key no block names is proposed for `github.com`, where people most often hold one key
    /// per account. Known by its file name, its comment (often an email) and its hosts.
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
    /// only. ssh run by hand still follows the ssh config. Nothing for an account naming no ssh.
    public func scope(_ setting: ToolSetting?, account: Account, over environment: [String: String], in context: ToolContext)
        -> Result<ToolScope, ToolFailure>
    {
        guard let ssh = setting?.value(as: Setting.self) else { return .success(ToolScope()) }
        let key = context.environment.expandingTilde(ssh.identityFile)
        return .success(
            ToolScope(variables: [ScopeVariable("GIT_SSH_COMMAND", "ssh -i \(ShellExports.posixQuoted(key)) -o IdentitiesOnly=yes")]))
    }
}
