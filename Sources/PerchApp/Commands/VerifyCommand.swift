import FoundationEssentials
import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchStore

/// `perch verify [ID]`: each tool (and, with `--online`, each server) asked who it will be here.
struct VerifyCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "verify", summary: "ask each tool (--online: each server) who it will be here; exit 3 on a disagreement",
        operands: [Operand(name: "ID", optional: true, completion: .account)])
    static let details: String =
        "Asks each tool the account names what it will really use here, in this folder and in\n"
        + "this shell's scope, never reading Perch's own files: git var GIT_AUTHOR_IDENT and\n"
        + "GIT_COMMITTER_IDENT (and user.signingkey), ssh -G HOST (and ssh-add -l when\n"
        + "IdentitiesOnly is off), git credential fill for gh's host (the user name only), gh\n"
        + "config get user, kubectl config view --minify, gcloud's active configuration, aws\n"
        + "configure list, docker context show, and the env values. The account is ID, else\n"
        + "the one that owns this place: perch exec's or perch use's, a bound folder's, a\n"
        + "repository remote's (\"remotes\"), else the global one. One line per tool: ✓ agrees,\n"
        + "✗ disagrees (with the reason and the command that puts it right), – cannot tell or\n"
        + "not installed. The tools are asked at once, each for at most --timeout MS (5000).\n"
        + "--online also asks the servers: ssh -T git@HOST (BatchMode, no host key accepted),\n"
        + "gh api user, aws sts get-caller-identity, kubectl auth whoami, judged against the\n"
        + "account's \"expect\" ({\"ssh\": \"ada-work\", \"aws\": \"123456789012\"}; gh: gh.user);\n"
        + "a server not reached is –. A per-shell tool (env, aws) in a shell with none of\n"
        + "Perch's variables (no perch env, shell-init or scope) is – with what applies it.\n"
        + "--as-exec verifies in the environment perch exec ID would give a command, for CI\n"
        + "jobs and editors. Nothing prompts, no file is written, no secret is printed.\n"
        + "Exit status 0 when every answer agrees, 3 when one disagrees.\n"
        + "--json prints {\"account\", \"chosenBy\", \"folder\", \"online\", \"agrees\", \"answers\"}."

    var files = FileOptions()
    /// The account as given; nil for the one that owns this place.
    var account: String?
    /// `--online`: ask the servers too.
    @Option(
        .flag(
            "--online", help: "ask the servers too (ssh -T, gh api user, aws sts get-caller-identity, kubectl auth whoami)")) var online =
        false
    /// `--timeout MS`: how long each check may take, in milliseconds (1 to 600000).
    @Option(
        .number(
            OptionInfo(names: ["--timeout"], valueName: "MS", help: "how long each check may take, in milliseconds (default 5000)"),
            in: 1...600_000, unit: "milliseconds")
    ) var timeout: Int64 = 5000
    /// `--json`.
    @Option(SharedOption.json) var json = false
    /// `--as-exec`: in the environment of `perch exec`.
    @Option(
        .flag(
            "--as-exec", help: "verify in the environment perch exec would give a command (for CI and editors)")) var asExec = false

    mutating func bind(operands: [String]) { account = operands.first }
    func run(_ tool: CommandLineTool) -> Int32 { tool.verify(self) }
}

/// `perch verify [ID] [--online] [--timeout MS] [--json]`: each tool's own answer, asked here
/// and now, against the account that owns this place (``PlaceOwner``), and the servers' when
/// asked (``IdentityProof``).
extension CommandLineTool {
    /// `perch verify`'s JSON: the account, how it was chosen, the folder, and every answer.
    struct VerifyJSON: Encodable {
        var account: String
        var chosenBy: String
        var folder: String
        var online: Bool
        var agrees: Bool
        var answers: [ToolAnswer]
    }

    /// What `perch verify` found: the account, how it was chosen, where, and every answer.
    struct VerifyReport {
        var account: Account
        var owner: PlaceOwner
        var proof: ProofContext
        var answers: [ToolAnswer]
        /// Whether the servers were asked too.
        var online: Bool

        /// Whether any answer disagrees.
        var disagrees: Bool { IdentityProof.disagrees(answers) }

        /// As `--json` prints it.
        var json: VerifyJSON {
            VerifyJSON(
                account: account.id, chosenBy: owner.description, folder: proof.folder, online: online,
                agrees: !disagrees, answers: answers)
        }
    }

    /// Why there is no report: the exit status, once the reason is on the console.
    struct VerifyFailure: Error {
        var status: Int32
    }

    func verify(_ options: VerifyCommand) -> Int32 {
        let report: VerifyReport
        switch verifyReport(options) {
        case .success(let value): report = value
        case .failure(let failure): return failure.status
        }
        let account = report.account
        let owner = report.owner
        let proof = report.proof
        let folder = proof.folder
        let answers = report.answers
        let disagrees = report.disagrees
        if options.json {
            let status = printJSON(report.json)
            return status == ExitStatus.ok && disagrees ? ExitStatus.disagrees : status
        }
        console.print(
            "Verifying \(describe(account)) (\(owner.description)\(options.asExec ? ", as perch exec gives it" : "")) in \(shown(proof.shown(folder)))"
        )
        if answers.isEmpty { console.print("  no tool identities to verify (see docs/identities.md)") }
        let width = answers.map { columns($0.tool) }.max() ?? 0
        let indent = String(repeating: " ", count: 6 + width)
        for answer in answers {
            let tool = shown(answer.tool) + String(repeating: " ", count: width - columns(answer.tool))
            var line = "  \(answer.mark) \(tool)  "
            switch answer.verdict {
            case .agrees: line += shown(answer.answer ?? answer.expected)
            case .disagrees:
                line +=
                    "expected \(shown(answer.expected.isEmpty ? "(nothing)" : answer.expected)); says \(shown(answer.answer ?? "nothing"))"
            case .unknown:
                line +=
                    answer.answer.map { shown($0) + (answer.reason.map { "  (\(shown($0)))" } ?? "") }
                    ?? shown(answer.reason ?? "cannot tell")
            }
            console.print(line)
            if answer.verdict == .disagrees {
                if let reason = answer.reason { console.print(indent + shown(reason)) }
                if let fix = answer.fix { console.print(indent + "fix: " + shown(fix)) }
            }
        }
        if disagrees {
            let count = answers.filter { $0.verdict == .disagrees }.count
            console.error(
                "\(count) answer\(count == 1 ? "" : "s") disagree\(count == 1 ? "s" : "") with \(shown(account.id)) (each line says what puts it right)"
            )
            return ExitStatus.disagrees
        }
        return ExitStatus.ok
    }

    /// `perch verify`'s answers for `options`, or the exit status once the reason is on the console.
    func verifyReport(_ options: VerifyCommand) -> Result<VerifyReport, VerifyFailure> {
        guard let config = loadConfig() else { return .failure(VerifyFailure(status: ExitStatus.usage)) }
        guard let state = loadState(config) else { return .failure(VerifyFailure(status: ExitStatus.unmet)) }
        let switcher = switcher(config)
        let variables = processVariables
        let folder = ShellMarker.workingDirectory()
        let owner: PlaceOwner
        if let text = options.account {
            guard let account = lookupAccount(text, in: config, command: "verify") else {
                return .failure(VerifyFailure(status: ExitStatus.unmet))
            }
            owner = PlaceOwner(account: account.id, reason: .named)
        } else {
            guard
                let found = PlaceOwner.find(
                    in: config.accounts, global: state.currentAccount, environment: variables, folder: folder,
                    home: switcher.context.environment.home, aliases: SSHAliases.load(switcher.files)?.aliases ?? [:])
            else {
                console.error("no account chosen yet, and none owns this folder: name one (perch verify ID) or pick one with perch switch")
                return .failure(VerifyFailure(status: ExitStatus.unmet))
            }
            owner = found
        }
        guard let account = config.accounts.first(where: { $0.id == owner.account }) else {
            console.error("the account '\(shown(owner.account))' (\(owner.description)) is not in the config")
            return .failure(VerifyFailure(status: ExitStatus.unmet))
        }
        if switcher.samplesOnly {
            console.error("these are the embedded sample accounts, which name no real tool: nothing to verify (perch init writes a config)")
            return .failure(VerifyFailure(status: ExitStatus.unmet))
        }
        var context = switcher.context
        var verified = variables
        if options.asExec {
            // What `perch exec ID -- …` gives its command, secrets included (they stay in this process).
            guard let scoped = scope(account, kind: .exec, config: config, command: "verify --as-exec") else {
                return .failure(VerifyFailure(status: ExitStatus.toolFailed))
            }
            verified = scoped.variablesWithSecrets
        }
        context.environment = IdentityEnvironment(
            variables: verified, statePath: context.environment.statePath, ownFilesBesideState: context.environment.ownFilesBesideState)
        context.timeout = options.timeout
        let proof = ProofContext(tool: context, folder: folder, account: account)
        var answers = IdentityProof.verify(proof, online: options.online)
        // A tool the global account names nothing for that a switch could not give back.
        if !options.asExec, account.id == state.currentAccount, IdentityScope.kind(variables) == nil {
            answers += switcher.leftBehindChecks(account).map { check in
                ToolAnswer(
                    tool: check.tool.rawValue, kind: check.tool, expected: check.expected, answer: check.actual,
                    verdict: check.matches == false ? .disagrees : .unknown, reason: check.note, fix: check.fix,
                    asked: "the tool's current state, against your own kept by Perch")
            }
        }
        return .success(VerifyReport(account: account, owner: owner, proof: proof, answers: answers, online: options.online))
    }
}
