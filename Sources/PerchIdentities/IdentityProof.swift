import Glibc
import PerchDomain
import PerchStore

/// Where and how the tools are asked who they will be (`perch verify`): this process's
/// environment (its scope's variables included: a pin, a bound folder, `perch exec`), the
/// folder git is asked in, the account expected, and how long each program may run.
public struct ProofContext: Sendable {
    /// The environment the tools run in, with the timeout of each program (milliseconds).
    public var tool: ToolContext
    /// The folder the tools are asked in (git resolves its `includeIf` rules from it).
    public var folder: String
    /// The account the answers are judged against.
    public var account: Account

    public init(tool: ToolContext, folder: String, account: Account) {
        self.tool = tool
        self.folder = folder
        self.account = account
    }

    /// `program` run in ``folder`` with this context's environment and timeout; never prompts:
    /// stdin is `/dev/null` (or `input`), `GIT_TERMINAL_PROMPT=0`, `GCM_INTERACTIVE=never`,
    /// `GH_PROMPT_DISABLED=1` and no askpass program (an empty `GIT_ASKPASS` ends git's
    /// search for one, gitcredentials(7)).
    public func run(_ program: String, _ arguments: [String], input: String? = nil, extra: [String: String] = [:]) -> ProgramResult {
        var environment = tool.environment
        environment.variables["GIT_TERMINAL_PROMPT"] = "0"
        environment.variables["GCM_INTERACTIVE"] = "never"
        environment.variables["GH_PROMPT_DISABLED"] = "1"
        environment.variables["GIT_ASKPASS"] = ""
        environment.variables.removeValue(forKey: "SSH_ASKPASS")
        environment.variables["SSH_ASKPASS_REQUIRE"] = "never"
        for (name, value) in extra { environment.variables[name] = value }
        // Bug (guard issue): a credential helper that prompts on /dev/tty showed its prompt during
        // verify and pre-push; the answer never reached it, and the typed token ran as a shell
        // command. Every child of a check runs without a controlling terminal.
        return ProgramRunner.run(
            program, arguments, in: environment, timeout: tool.timeout, folder: folder, input: input.map { Array($0.utf8) },
            detached: true)
    }

    /// The keys matching `pattern` (a `git config --get-regexp` pattern) that the repository
    /// here sets in its own config (git's `local` and `worktree` scopes, their includes
    /// followed), lower-cased: a command such a key names is the repository's, never run by a
    /// check (docs/security.md, "The trust boundary"). Empty outside a repository.
    public func repositorySets(_ pattern: String) -> [String] {
        let run = self.run("git", ["config", "--includes", "--show-scope", "--get-regexp", pattern])
        return (run.output ?? "").split(whereSeparator: \.isNewline).compactMap { line in
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2, parts[0] == "local" || parts[0] == "worktree" else { return nil }
            return parts[1].prefix { $0 != " " }.lowercased()
        }
    }

    /// `~/…` expanded with this environment's home.
    public func expand(_ path: String) -> String { tool.environment.expandingTilde(path) }

    /// A path shown with `~` for the home folder.
    public func shown(_ path: String) -> String { GitConfigFile.shown(path, tool.environment) }
}

/// Asking each tool (and, when asked for, each server) who it will be: the adapters' ``ToolAdapter/ask(_:in:)``
/// and ``ToolAdapter/askServer(_:in:)``, all at once, each program with its own timeout.
public enum IdentityProof {
    /// Every answer for `context`'s account, in registry order: each tool the account names is
    /// asked itself, and its server too when `online`. The adapters are asked in parallel (one
    /// thread each), so the whole takes about as long as the slowest.
    public static func verify(_ context: ProofContext, online: Bool, adapters: [any ToolAdapter] = ToolAdapters.registry) -> [ToolAnswer] {
        let asked = adapters.filter { context.account.identities[$0.tool] != nil }
        // A thread each (the switch's own Parallel.map): the whole takes about the slowest.
        return Parallel.map(
            asked.map { adapter in
                { @Sendable in
                    let setting = context.account.identities[adapter.tool]!
                    let start = ProcessSpawn.now()
                    var answers = adapter.ask(setting, in: context)
                    // Bug (tools described as data): a described tool's ended session (its
                    // description's "expiry") was never shown here: only kube's and aws's were read.
                    if SessionExpiries.isRead(for: adapter.tool) {
                        answers += SessionExpiries.read(context.account, tool: adapter.tool, in: context.tool).map(SessionExpiries.answer)
                    }
                    if online { answers += adapter.askServer(setting, in: context) }
                    let spent = ProcessSpawn.now() - start
                    for i in answers.indices where answers[i].milliseconds == 0 { answers[i].milliseconds = spent }
                    return answers
                }
            }
        ).flatMap { $0 }
    }

    /// Whether any answer disagrees.
    public static func disagrees(_ answers: [ToolAnswer]) -> Bool { answers.contains { $0.verdict == .disagrees } }

    /// `command` split into words as a POSIX shell would (single and double quotes, backslash),
    /// for `GIT_SSH_COMMAND`, which git runs through the shell; nil when a quote is left open.
    public static func shellWords(_ command: String) -> [String]? {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in command {
            if escaped {
                word.append(character)
                escaped = false
                inWord = true
                continue
            }
            switch (quote, character) {
            case (nil, "\\"), ("\"", "\\"):
                escaped = true
            case (nil, "'"), (nil, "\""):
                quote = character
                inWord = true
            case ("'", "'"), ("\"", "\""):
                quote = nil
            case (nil, " "), (nil, "\t"), (nil, "\n"):
                if inWord { words.append(word) }
                word = ""
                inWord = false
            default:
                word.append(character)
                inWord = true
            }
        }
        guard quote == nil, !escaped else { return nil }
        if inWord { words.append(word) }
        return words
    }

    /// The answer of a per-shell tool: `setting`'s variables against this environment's. Where
    /// they differ, ✗ with `eval "$(perch env)"` (or the scope's command) as the fix.
    static func variables(_ adapter: some ToolAdapter, _ setting: ToolSetting, in context: ProofContext) -> ToolAnswer {
        let environment = context.tool.environment.variables
        let expected = setting.exports.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
        let actual = setting.exports.map { entry in
            "\(entry.name)=\(environment[entry.name].map { EnvironmentEntry.shown(entry.name, $0) } ?? "(unset)")"
        }
        .joined(separator: " ")
        let names = setting.exports.map(\.name)
        let asked = "echo " + names.map { "$" + $0 }.joined(separator: " ")
        let beaten = adapter.overrides.filter { environment[$0.name] != nil }
        if !beaten.isEmpty {
            return ToolAnswer(
                tool: adapter.tool.rawValue, kind: adapter.tool, expected: expected, answer: actual, verdict: .disagrees,
                reason: beaten.map { "\($0.name) is set in this environment and beats it (\($0.reason))" }.joined(separator: "; "),
                fix: "unset " + beaten.map(\.name).joined(separator: " "), asked: asked)
        }
        let same = setting.exports.allSatisfy { environment[$0.name] == $0.value }
        let masked = setting.exports.map { "\($0.name)=\($0.shown)" }.joined(separator: " ")
        // Bug: outside a shell that runs perch env (a CI job, an editor, a plain shell), every
        // per-shell tool was ✗, so verify exited 3 out of the box. Such a shell has none of
        // Perch's variables: the tool is not checked here, and the line says what applies it.
        let hooked = [ShellExports.accountVariable, ShellExports.setVariable, IdentityScope.scopeVariable].contains {
            environment[$0] != nil
        }
        if !same, !hooked {
            return ToolAnswer(
                tool: adapter.tool.rawValue, kind: adapter.tool, expected: masked, answer: nil, verdict: .unknown,
                reason:
                    "per shell, and this shell has none of Perch's variables: eval \"$(perch env \(context.account.id))\" or perch shell-init applies it; perch verify --as-exec checks what perch exec gives",
                asked: asked)
        }
        return ToolAnswer(
            tool: adapter.tool.rawValue, kind: adapter.tool, expected: masked, answer: same ? masked : actual,
            verdict: same ? .agrees : .disagrees,
            reason: same ? nil : "this shell does not have the account's variables",
            fix: same ? nil : "eval \"$(perch env \(context.account.id))\" (or perch shell-init in your shell's rc file)", asked: asked)
    }
}

extension ToolAdapter {
    /// By default, the answer of ``check(_:in:)`` (what the tool's settings say) asked in the
    /// proof's folder; adapters whose tool can be asked do so instead.
    public func ask(_ setting: ToolSetting, in context: ProofContext) -> [ToolAnswer] {
        let check = self.check(setting, in: context.tool)
        let verdict: ToolAnswer.Verdict =
            switch check.matches {
            case true?: .agrees
            case false?: .disagrees
            case nil: .unknown
            }
        return [
            ToolAnswer(
                tool: tool.rawValue, kind: tool, expected: check.expected, answer: check.actual, verdict: verdict, reason: check.note,
                fix: verdict == .disagrees ? "perch switch \(context.account.id)" : nil, asked: "perch status")
        ]
    }

    /// By default no server is asked.
    public func askServer(_ setting: ToolSetting, in context: ProofContext) -> [ToolAnswer] { [] }
}
