import FoundationEssentials
import Glibc
import PerchCore
import PerchStore

/// Applies, plans and checks an account's tool identities: the one function both `perch switch`
/// and the interface (on its effect worker) call after a switch is saved, before the `onSwitch`
/// hook. Tools are taken in a fixed order (``IdentityTool/allCases``: git, ssh, kube, gcloud, gh,
/// aws, env), each program with its own timeout. A program that is not installed is a skip, not
/// a failure.
public struct IdentitySwitcher: Sendable {
    public var environment: IdentityEnvironment
    /// How long one tool's program may run, in milliseconds.
    public var timeout: Int64
    /// Whether the accounts are the embedded samples (no config): then nothing but Perch's own
    /// results file is written and no program is started, whatever the accounts say.
    public var samplesOnly: Bool

    public init(environment: IdentityEnvironment, timeout: Int64 = ProgramRunner.defaultTimeoutMilliseconds, samplesOnly: Bool = false) {
        self.environment = environment
        self.timeout = timeout
        self.samplesOnly = samplesOnly
    }

    public var files: IdentityFiles { IdentityFiles(environment) }

    // MARK: Applying

    /// Applies `account`'s identities, tool by tool, and records the report in Perch's results
    /// file (atomically). Perch's own git and ssh files are emptied when the account names no
    /// git or ssh identity, so the previous account's never lingers. Two Perch processes never
    /// apply at once: an exclusive lock (`state.identities.json.lock`) is held meanwhile, and
    /// the temporary files of a writer killed mid-write are removed under it.
    public func apply(_ account: Account) -> IdentityReport {
        let files = self.files
        do {
            // Waits for another process's whole apply, each of whose tools may take `timeout`.
            let wait = Int(clamping: timeout * Int64(IdentityTool.allCases.count) + 2000)
            return try FileSystem.withExclusiveLock(files.results + ".lock", timeoutMilliseconds: wait) {
                for file in files.all { FileSystem.removeStaleTemporaryFiles(of: file) }
                return applyLocked(account)
            }
        } catch {
            let reason = "not applied: \(error)"
            return IdentityReport(
                accountID: account.id, results: account.identities.tools.map { IdentityResult(tool: $0, status: .failed, detail: reason) })
        }
    }

    private func applyLocked(_ account: Account) -> IdentityReport {
        var results: [IdentityResult] = []
        let identities = account.identities
        if !samplesOnly {
            if identities.git == nil { clearOwnFile(files.gitInclude, account: account) }
            if identities.ssh == nil { clearOwnFile(files.sshInclude, account: account) }
        }
        for tool in identities.tools {
            if samplesOnly, !tool.isPerShell {
                results.append(IdentityResult(tool: tool, status: .skipped, detail: "sample accounts never change a tool"))
                continue
            }
            results.append(apply(tool, of: account))
        }
        let report = IdentityReport(accountID: account.id, results: results)
        record(report)
        return report
    }

    private func apply(_ tool: IdentityTool, of account: Account) -> IdentityResult {
        let identities = account.identities
        func result(_ run: ProgramResult, applied detail: String) -> IdentityResult {
            if case .notFound(let program) = run { return IdentityResult(tool: tool, status: .skipped, detail: "\(program) not found") }
            if let failure = run.failure { return IdentityResult(tool: tool, status: .failed, detail: failure) }
            return IdentityResult(tool: tool, status: .applied, detail: detail)
        }
        switch tool {
        case .git:
            guard let git = identities.git else { break }
            do {
                try FileSystem.writeAtomically(Array(Self.gitInclude(git, account: account).utf8), to: files.gitInclude, mode: 0o644)
            } catch {
                return IdentityResult(tool: .git, status: .failed, detail: "\(error)")
            }
            let shown = git.email ?? git.name ?? git.signingKey ?? ""
            switch gitIncludeState() {
            case .included: return IdentityResult(tool: .git, status: .applied, detail: shown)
            case .notIncluded:
                return IdentityResult(tool: .git, status: .skipped, detail: "\(shown) written; run `perch setup git` to use it")
            case .unknown(let why): return IdentityResult(tool: .git, status: .skipped, detail: why)
            }
        case .ssh:
            guard let ssh = identities.ssh else { break }
            do {
                try FileSystem.writeAtomically(Array(Self.sshInclude(ssh, account: account).utf8), to: files.sshInclude, mode: 0o600)
            } catch {
                return IdentityResult(tool: .ssh, status: .failed, detail: "\(error)")
            }
            let shown = ssh.identityFile + " for " + ssh.hosts.joined(separator: ", ")
            if IdentitySetup.sshIncluded(self) { return IdentityResult(tool: .ssh, status: .applied, detail: shown) }
            return IdentityResult(tool: .ssh, status: .skipped, detail: "\(shown) written; run `perch setup ssh` to use it")
        case .kube:
            guard let kube = identities.kube else { break }
            let use = ProgramRunner.run("kubectl", ["config", "use-context", kube.context], in: environment, timeout: timeout)
            guard use.failure == nil, let namespace = kube.namespace else { return result(use, applied: kube.context) }
            let set = ProgramRunner.run(
                "kubectl", ["config", "set-context", "--current", "--namespace", namespace], in: environment, timeout: timeout)
            return result(set, applied: "\(kube.context), namespace \(namespace)")
        case .gcloud:
            guard let name = identities.gcloud else { break }
            let run = ProgramRunner.run(
                "gcloud", ["config", "configurations", "activate", name, "--quiet"], in: environment, timeout: timeout)
            return result(run, applied: name)
        case .gh:
            guard let gh = identities.gh else { break }
            let run = ProgramRunner.run(
                "gh", ["auth", "switch", "--hostname", gh.hostname, "--user", gh.user], in: environment, timeout: timeout)
            return result(run, applied: "\(gh.user) on \(gh.hostname)")
        case .aws:
            guard let profile = identities.aws else { break }
            return IdentityResult(tool: .aws, status: .applied, detail: "AWS_PROFILE=\(profile): per shell with perch env")
        case .env:
            let names = identities.env.map(\.name).joined(separator: ", ")
            return IdentityResult(tool: .env, status: .applied, detail: "\(names): per shell with perch env, and in hooks")
        }
        return IdentityResult(tool: tool, status: .skipped, detail: "nothing to apply")
    }

    /// Writes an empty own file (a comment only) where one exists, so that a previous account's
    /// identity does not stay in use.
    private func clearOwnFile(_ path: String, account: Account) {
        guard let bytes = try? FileSystem.read(path), !bytes.isEmpty else { return }
        let text = "# Written by Perch: the account \"\(account.id)\" names no identity for this tool.\n"
        try? FileSystem.writeAtomically(Array(text.utf8), to: path, mode: path == files.sshInclude ? 0o600 : 0o644)
    }

    /// Keeps `report` in Perch's results file (atomically), with the time, for `perch status`
    /// and Overview.
    public func record(_ report: IdentityReport) {
        struct Record: Encodable {
            var account: String
            var time: String
            var results: [IdentityResult]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let record = Record(account: report.accountID, time: Self.timestamp(), results: report.results)
        guard let data = try? encoder.encode(record) else { return }
        try? FileSystem.writeAtomically(Array(data) + [0x0A], to: files.results, mode: 0o600)
    }

    /// The report of the last switch, as recorded, or nil.
    public func lastReport() -> (report: IdentityReport, time: String)? {
        struct Record: Decodable {
            var account: String
            var time: String
            var results: [IdentityResult]
        }
        guard let bytes = try? FileSystem.read(files.results), let record = try? JSONDecoder().decode(Record.self, from: Data(bytes)) else {
            return nil
        }
        return (IdentityReport(accountID: record.account, results: record.results), record.time)
    }

    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    // MARK: Perch's own files

    /// The git config text Perch includes: the account's `[user]` keys.
    public static func gitInclude(_ git: ToolIdentities.Git, account: Account) -> String {
        var text = "# Written by Perch for the account \"\(account.id)\"; replaced at each switch.\n[user]\n"
        if let name = git.name { text += "\tname = \(gitQuoted(name))\n" }
        if let email = git.email { text += "\temail = \(gitQuoted(email))\n" }
        if let key = git.signingKey { text += "\tsigningKey = \(gitQuoted(key))\n" }
        return text
    }

    /// A git config value in double quotes, with `\`, `"`, tabs and line ends escaped (git-config(1), "Syntax").
    static func gitQuoted(_ value: String) -> String {
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

    /// The ssh_config text Perch includes: `Host` with the account's hosts, its `IdentityFile`
    /// and `IdentitiesOnly yes` (so the agent's other keys are not offered first).
    public static func sshInclude(_ ssh: ToolIdentities.SSH, account: Account) -> String {
        let file = ssh.identityFile.contains(" ") ? "\"\(ssh.identityFile)\"" : ssh.identityFile
        return "# Written by Perch for the account \"\(account.id)\"; replaced at each switch.\n"
            + "Host \(ssh.hosts.joined(separator: " "))\n\tIdentityFile \(file)\n\tIdentitiesOnly yes\n"
    }

    enum IncludeState: Equatable {
        case included, notIncluded
        case unknown(String)
    }

    /// Whether the global git config includes Perch's file (`include.path`, with or without `~`).
    func gitIncludeState() -> IncludeState {
        let run = ProgramRunner.run("git", ["config", "--global", "--get-all", "include.path"], in: environment, timeout: timeout)
        switch run {
        case .notFound: return .unknown("git not found")
        case .exited(1, _, _): return .notIncluded  // no include.path at all
        default: break
        }
        guard let output = run.output else { return .unknown(run.failure ?? "") }
        let paths = output.split(whereSeparator: \.isNewline).map { environment.expandingTilde(String($0)) }
        return paths.contains(files.gitInclude) ? .included : .notIncluded
    }
}
