import FoundationEssentials
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchStore

/// `perch audit`: secrets the accounts' tools keep in plain text or open to others.
struct AuditCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "audit", summary: "report secrets the accounts' tools keep in plain text or open to others; exit 3 on any")
    static let details: String =
        "Reads the files of the tools the accounts name and reports each secret kept in plain\n"
        + "text or open to others: ~/.git-credentials and any file a credential.helper \"store\n"
        + "--file PATH\" names (asked of git config), ~/.netrc (or NETRC), a token or password in\n"
        + "a remote URL or an url.<base>.insteadOf rule (here, in this repository), ~/.npmrc (or\n"
        + "NPM_CONFIG_USERCONFIG), AWS's cli/cache and sso/cache open to others, an oauth_token\n"
        + "in gh's hosts.yml, docker config.json auths with no credsStore or credHelpers,\n"
        + "long-lived AWS keys (AKIA…) of a profile an account names, kubeconfig users with an\n"
        + "inline token, password or client-key-data (as kubectl config view reads them), the\n"
        + "accounts' ssh keys without a passphrase (ssh-keygen -y -P \"\"), any of these readable\n"
        + "by group or others, and Perch's own files with a wider mode than it writes them with.\n"
        + "Each finding gives the file, what is in it (never the secret: its kind and at most its\n"
        + "last 4 characters), the accounts that depend on it, a severity (high, medium, low) and\n"
        + "the tool's own fix. A file that cannot be read, a line that cannot, and a file over 1\n"
        + "MiB (only its first 1 MiB is read) are said on standard error; a symbolic link is\n"
        + "followed once. Exit status 0 with no findings, 3 with any. --json prints {\"accounts\",\n"
        + "\"clean\", \"findings\": [{\"file\", \"target\", \"kind\", \"what\", \"last4\", \"accounts\",\n"
        + "\"severity\", \"fix\"}], \"notes\": [{\"file\", \"line\", \"message\"}]}."
    var files = FileOptions()
    /// `--json`.
    @Option(SharedOption.json) var json = false
    func run(_ tool: CommandLineTool) -> Int32 { tool.audit(self) }
}

/// `perch audit [--json]`: the secrets the accounts' tools keep in plain text or open to others
/// (``SecretAudit``), each with the file, what is in it (never the secret: its kind and at most
/// its last 4 characters), the accounts that depend on it, a severity and the tool's own fix.
/// Exit status 0 with no findings, 3 with any.
extension CommandLineTool {
    /// `perch audit --json`: the accounts looked at, the findings and the notes.
    struct AuditJSON: Encodable {
        var accounts: [String]
        var clean: Bool
        var findings: [AuditFinding]
        var notes: [AuditNote]
    }

    func audit(_ options: AuditCommand) -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        let switcher = switcher(config)
        let context = switcher.context
        let environment = IdentityEnvironment(
            variables: processVariables, statePath: context.environment.statePath,
            ownFilesBesideState: context.environment.ownFilesBesideState)
        let accounts = switcher.samplesOnly ? [] : config.accounts
        let report = SecretAudit.audit(accounts: accounts, environment: environment)
        let status = report.findings.isEmpty ? ExitStatus.ok : ExitStatus.disagrees
        if options.json {
            let json = AuditJSON(
                accounts: accounts.map(\.id), clean: report.findings.isEmpty, findings: report.findings, notes: report.notes)
            let printed = printJSON(json)
            return printed == ExitStatus.ok ? status : printed
        }
        let home = environment.home
        func place(_ path: String) -> String {
            shown(PerchPaths.tilde(path, home: home))
        }
        let tools = Set(accounts.flatMap(\.identities.tools))
        let names = ["git", "ssh", "kube", "gh", "aws", "docker"].filter {
            tools.contains(IdentityTool($0)) || ($0 == "git" && tools.contains(.gh))
        }
        let count = accounts.count
        console.print(
            "Auditing the files of \(count) account\(count == 1 ? "" : "s")"
                + (names.isEmpty ? "" : " (\(names.joined(separator: ", ")))") + " and Perch's own")
        if report.findings.isEmpty { console.print("  no secret in plain text or open to others") }
        for finding in report.findings {
            let label = finding.severity.rawValue.padded(toColumns: 8)
            console.print("  " + label + place(finding.file) + (finding.target.map { " → " + place($0) } ?? ""))
            let indent = String(repeating: " ", count: 10)
            console.print(indent + shown(finding.what) + (finding.last4.map { ", ends in …" + shown($0) } ?? ""))
            console.print(
                indent + "accounts: " + (finding.accounts.isEmpty ? "none names it" : finding.accounts.map(shown).joined(separator: ", ")))
            console.print(indent + "fix: " + shown(finding.fix))
        }
        for note in report.notes {
            console.error(place(note.file) + (note.line.map { " line \($0)" } ?? "") + ": " + shown(note.message))
        }
        guard !report.findings.isEmpty else { return status }
        let bySeverity = AuditFinding.Severity.allCases.compactMap { severity -> String? in
            let n = report.findings.filter { $0.severity == severity }.count
            return n == 0 ? nil : "\(n) \(severity.rawValue)"
        }
        let total = report.findings.count
        console.error("\(total) finding\(total == 1 ? "" : "s") (\(bySeverity.joined(separator: ", "))): each says what puts it right")
        return status
    }
}
