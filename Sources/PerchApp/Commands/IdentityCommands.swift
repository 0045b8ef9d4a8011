import FoundationEssentials
import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchStore

/// `perch status`: each tool's identity against the current account.
struct StatusCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "status", summary: "show each tool's identity against the current account (exit 1 on drift)",
        recoversInterruptedSwitch: false)
    static let details: String =
        "For each tool the current account names, what the tool uses here: ✓ when it is the\n"
        + "account's, ✗ when it failed when applied (with the error), changed since (drift:\n"
        + "kubectl config use-context by hand, a variable such as AWS_DEFAULT_PROFILE that beats\n"
        + "the selection) or not in effect (the last switch did not set it: skipped, or named in\n"
        + "the config after it), – when it cannot be checked here or a rule of yours (git's\n"
        + "includeIf) wins in this folder. Then the results of the last switch. Exit status 1\n"
        + "when a tool drifted or failed or no account is current. --files lists the files Perch\n"
        + "writes for tools instead. --json prints {\"account\", \"checks\", \"lastSwitch\"}."

    var files = FileOptions()
    /// `--json`.
    @Option(SharedOption.json) var json = false
    /// `--files`.
    @Option(.flag("--files", help: "list the files Perch writes for tool identities")) var listFiles = false
    /// `--global`: the global account, not this shell's own.
    @Option(SharedOption.global) var global = false

    func run(_ tool: CommandLineTool) -> Int32 { tool.status(self) }
}

/// `perch env [ACCOUNT]`: the account's variables for this shell.
struct EnvCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "env", summary: "print the account's variables for this shell (eval \"$(perch env)\")",
        operands: [Operand(name: "ACCOUNT", optional: true, completion: .account)])
    static let details: String =
        "Prints export lines for PERCH_ACCOUNT, AWS_PROFILE and the account's env values,\n"
        + "and unset lines for the variables of the account this shell had before. With no\n"
        + "ACCOUNT, the current one. In bash or zsh: eval \"$(perch env)\"; in fish:\n"
        + "perch env --shell fish | source."
    var files = FileOptions()
    /// The account as given; nil for this shell's or the current one.
    var account: String?
    /// `--shell`; nil: from `$SHELL`.
    @Option(SharedOption.shell) var shell: ShellKind? = nil

    mutating func bind(operands: [String]) { account = operands.first }
    func run(_ tool: CommandLineTool) -> Int32 { tool.env(self) }
}

/// `perch shell-init SHELL`: the shell functions that keep a shell's variables in step.
struct ShellInitCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "shell-init", summary: "print a shell function that keeps this shell's variables in step", operands: [.shell],
        recoversInterruptedSwitch: false)
    static let details: String =
        "SHELL is bash, zsh or fish.\n"
        + "Add to ~/.bashrc:  eval \"$(perch shell-init bash)\"\n"
        + "        ~/.zshrc:   eval \"$(perch shell-init zsh)\"\n"
        + "        config.fish: perch shell-init fish | source\n"
        + "Then, in that shell: perch use ID makes it that account's (perch use --global\n"
        + "follows the global one again); a switch made anywhere reaches it at the next prompt;\n"
        + "and in a folder of an account's \"directories\" it is that account's (one line says\n"
        + "so; PERCH_DIRECTORY_NOTICE=0 turns it off). When nothing changed, the prompt hook\n"
        + "compares file times and starts no process. PERCH_SCOPE is pinned, directory or\n"
        + "exec when the shell has its own account, unset when it follows the global one."
    var files = FileOptions()
    /// The shell as given (bash, zsh or fish: checked by the parser).
    var shell: String?

    mutating func bind(operands: [String]) { shell = operands.first }
    func run(_ tool: CommandLineTool) -> Int32 { tool.shellInit(self) }
}

/// `perch setup TOOL`: Perch's git or ssh file included from the user's own config.
struct SetupCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "setup", summary: "include Perch's git or ssh file from your own config, once, with consent",
        // Optional: `perch setup --undo` with no tool is `perch reset` (checked in validate).
        operands: [
            Operand(
                name: "TOOL", optional: true, completion: .values(["git", "ssh"]), needs: "a tool: git or ssh",
                knows: "sets up git or ssh", shownRequired: true)
        ])
    static let details: String =
        "TOOL is git or ssh. git: puts [include] path = Perch's git file in your global git\n"
        + "config after your own [user] and before your includeIf rules, so they still win in\n"
        + "their folders (run it again to put it back there after git appended a [user]).\n"
        + "ssh: adds an Include line for Perch's ssh file at the top of ~/.ssh/config. Shows\n"
        + "the change and asks first on a terminal; --yes gives consent without asking.\n"
        + "--undo removes it again; --undo with no TOOL is perch reset. Nothing else of your\n"
        + "config is changed."
    var files = FileOptions()
    /// `git` or `ssh`; nil with `--undo` for every one (`perch reset`).
    var tool: String?
    /// `--undo`: remove the include.
    @Option(SharedOption.undo) var undo = false
    /// `--yes`: consent given here.
    @Option(SharedOption.yes) var yes = false

    mutating func bind(operands: [String]) { tool = operands.first }

    func validate() throws(UsageError) {
        if tool == nil, !undo { throw UsageError(description: "'perch setup' needs a tool: git or ssh") }
    }

    func run(_ tool: CommandLineTool) -> Int32 { tool.with(assumeYes: yes).setup(self) }
}

/// `perch import`: accounts proposed from the tools' own settings, one per person.
struct ImportCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "import", summary: "propose accounts from git, ssh, kube, gcloud, gh and AWS, one per person")
    static let details: String =
        "Looks at git identities (the global config and its includeIf files), ssh keys\n"
        + "(~/.ssh/*.pub and the Host blocks of ~/.ssh/config), kube contexts, gcloud\n"
        + "configurations, gh hosts and users, and AWS profiles. What belongs to one person\n"
        + "becomes one account: the same whole address first (an ssh key whose comment is a git\n"
        + "email), then a word shared across tools (kube work-prod, gcloud work, aws work-admin\n"
        + "and git ada@work.example make an account work). Identities an account already names\n"
        + "are left out; what belongs with them is proposed as an addition to that account.\n"
        + "--scan DIR also proposes \"directories\" (a folder whose clones are all one account's)\n"
        + "and \"remotes\" from the git clones under DIR. --json prints the proposals for scripts\n"
        + "({id, name, handle, group, identities, directories, remotes, adds}). On a terminal it\n"
        + "shows each proposal and asks: y adds it, n skips it, i and e edit its id or name (an\n"
        + "id of yours adds to that account), q stops. --write adds them all without asking;\n"
        + "elsewhere it prints them as a config fragment and changes nothing. Accounts are added\n"
        + "through the config writer (the previous file kept as .bak); with no config of your\n"
        + "own, the new file holds only the imported accounts."
    var files = FileOptions()
    /// `--write`.
    @Option(.flag("--write", help: "add the proposed accounts to the config (keeping a .bak)")) var write = false
    /// `--json`: print the proposals as JSON, change nothing.
    @Option(SharedOption.json) var json = false
    /// `--scan DIR`, each folder given.
    @Option(
        each: OptionDefinition<String>(
            info: OptionInfo(
                names: ["--scan"], valueName: "DIR", help: "also propose folders and remotes from the git clones under DIR (repeatable)",
                completion: .file),
            parse: { value throws(UsageError) in
                guard !value.isEmpty else { throw UsageError(description: "option --scan needs a folder") }
                return value
            })) var scan: [String] = []

    func validate() throws(UsageError) {
        if json, write { throw UsageError(description: "options --json and --write cannot be used together") }
    }

    func run(_ tool: CommandLineTool) -> Int32 { tool.importAccounts(self) }
}

/// The tool identity commands: `perch status`, `env`, `shell-init`, `setup`, `import`, and
/// what `perch switch` does for identities (apply, `--dry-run`).
extension CommandLineTool {
    /// The identity switcher for this run: the process's environment, Perch's own files for this
    /// config (beside its state file when it is not the default one), and samples never touch a tool.
    func switcher(_ config: LoadedConfig?, scoped: Bool = false) -> IdentitySwitcher {
        PerchApp.identitySwitcher(paths, config: config, scoped: scoped)
    }

    /// On the first switch that needs it, run from a terminal: asks whether to include Perch's
    /// git or ssh file from the user's own config (`perch setup`), and records the tool as
    /// applied when agreed. Elsewhere (a script, the interface) the result keeps its hint.
    func offerSetup(_ report: IdentityReport, _ switcher: IdentitySwitcher) -> IdentityReport {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { return report }
        var report = report
        var changed = false
        for (index, result) in report.results.enumerated() where result.status == .skipped {
            guard result.tool == .git || result.tool == .ssh, result.detail.contains("perch setup \(result.tool.rawValue)") else {
                continue
            }
            console.write(
                "Perch wrote \(result.tool.rawValue)'s identity, but nothing uses it yet. Perch will "
                    + IdentitySetup.describe(result.tool, undo: false, switcher) + ".\nGo ahead? [y/N] ")
            guard let answer = readLine(), answer.lowercased().hasPrefix("y") else { continue }
            switch IdentitySetup.run(result.tool, undo: false, switcher) {
            case .changed(let message), .unchanged(let message):
                console.print(shown(message.prefix(1).uppercased() + message.dropFirst()) + ".")
                report.results[index] = IdentityResult(
                    tool: result.tool, status: .applied, detail: String(result.detail.prefix { $0 != ";" }.dropLast(" written".count)))
                changed = true
            case .failed(let message):
                console.error("perch setup \(result.tool.rawValue): \(message)")
            }
        }
        if changed { switcher.record(report) }
        return report
    }

    /// `perch switch X --dry-run`: what would change, tool by tool; nothing is written.
    func dryRun(to account: Account, state: SavedState, config: LoadedConfig) -> Int32 {
        let current = state.currentAccount.flatMap { id in config.accounts.first { $0.id == id } }
        if current?.id == account.id {
            console.print(
                "Already on \(describe(account)); the switch would "
                    + (switching.force ? "apply every tool identity again:" : "put right any tool that changed:"))
        } else {
            console.print("Would switch to \(describe(account))" + (current.map { ", from \(describe($0))" } ?? "") + ".")
        }
        let lines = switcher(config).plan(account, force: switching.force)
        if lines.isEmpty { console.print("  no tool identities: no tool would change") }
        for line in lines { console.print("  " + shown(line)) }
        if account.onSwitch != nil, current?.id != account.id { console.print("  then its onSwitch hook would run") }
        console.print("Nothing was changed (dry run).")
        return ExitStatus.ok
    }

    // MARK: perch status

    func status(_ options: StatusCommand) -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        let pending = pendingSwitch()
        let switcher = switcher(config)
        if options.listFiles {
            let files = switcher.files.all
            if options.json { return printJSON(files.map { FileJSON(path: $0, exists: access($0, F_OK) == 0) }) }
            for file in files { console.print(shown(file) + (access(file, F_OK) == 0 ? "" : "  (not written yet)")) }
            return ExitStatus.ok
        }
        guard let state = loadState(config) else { return ExitStatus.unmet }
        let variables = IdentityEnvironment.current().variables
        let scope = options.global ? nil : IdentityScope.kind(variables)
        // In a shell with an account of its own, that account is checked, in this shell's scope.
        let own = scope.flatMap { _ in variables[ShellExports.accountVariable] }
        guard let id = own ?? state.currentAccount, let account = config.accounts.first(where: { $0.id == id }) else {
            console.error(
                own.map { "this shell's account '\(shown($0))' is not in the config; perch use --global follows the global one" }
                    ?? "no account chosen yet; pick one with `perch switch ID` or in the interface")
            return ExitStatus.unmet
        }
        var checks = (scope == nil ? switcher : self.switcher(config, scoped: true)).check(account)
        // Another account's variables left behind (a scope or an .envrc not handed back).
        checks += switcher.leakedChecks(account, among: config.accounts)
        // Bug: after a switch that could not give a tool back (its program not on that PATH,
        // --keep-going), status showed nothing for it, all green, while it kept the other account's.
        if scope == nil { checks += switcher.leftBehindChecks(account) }
        if scope != nil {
            // The tools the account names nothing for: sealed on the user's own.
            checks += self.switcher(config, scoped: true).sealedChecks(account)
            // A scope gives gh a token for gh alone (a function in a shell), which no file shows.
            for index in checks.indices where checks[index].tool == .gh {
                checks[index].matches = nil
                checks[index].actual = nil
                checks[index].note = "this shell's gh gets the account's token from perch (gh auth token); gh auth status shows whose"
            }
        }
        let home = IdentityEnvironment(variables: variables).home
        let rule = PlaceOwner.boundRule(ShellMarker.workingDirectory(), in: DirectoryRules.rules(config.accounts, home: home))
        // Bug: in a bound folder (outside a hooked shell) git's line named the global account's
        // identity, though git uses the folder's account's here, or your own rule's where it wins.
        if scope == nil, let rule, rule.account != account.id,
            let owner = config.accounts.first(where: { $0.id == rule.account }), owner.identities[.git] != nil,
            let index = checks.firstIndex(where: { $0.tool == .git }) ?? (account.identities[.git] == nil ? checks.endIndex : nil)
        {
            // git itself, asked here as verify asks it (git var GIT_AUTHOR_IDENT in this folder).
            let proof = ProofContext(tool: switcher.context, folder: ShellMarker.workingDirectory(), account: owner)
            let answers = IdentityProof.verify(proof, online: false, adapters: ToolAdapters.registry.filter { $0.tool == .git })
            if let answer = answers.first(where: { $0.tool == "git" }) {
                let check = IdentityCheck(
                    tool: .git, expected: "\(owner.id)'s (this folder's): " + answer.expected, actual: answer.answer,
                    matches: answer.verdict == .agrees ? true : answer.verdict == .disagrees ? false : nil,
                    note: answer.verdict == .agrees
                        ? nil
                        : [answer.answer.map { "git uses \($0)" }, answer.reason, answer.fix.map { "fix: " + $0 }].compactMap { $0 }.joined(
                            separator: "; "))
                if index == checks.endIndex { checks.append(check) } else { checks[index] = check }
            }
        }
        let last = switcher.lastReport().flatMap { $0.report.accountID == account.id ? $0 : nil }
        let drift = IdentitySwitcher.hasDrift(checks)
        let origins = registryOrigins(of: account.id)
        let onTheirWay =
            pending.map { switcher.session(store: StateStore(path: paths.state), source: .cli).toolsOnTheirWay($0.journal) } ?? []
        if options.json {
            let json = StatusJSON(
                account: account.id, drift: drift, checks: checks,
                lastSwitch: last.map { LastSwitchJSON(time: $0.time, results: $0.report.results) },
                switching: pending.map {
                    StatusJSON.PendingJSON(to: $0.journal.to, interrupted: $0.isFinishing, onTheirWay: onTheirWay.map(\.rawValue))
                },
                registries: origins.isEmpty
                    ? nil
                    : origins.map {
                        StatusJSON.OriginJSON(name: $0.record.name, commit: $0.record.commit, ref: $0.record.ref, codeInert: $0.inert)
                    })
            let status = printJSON(json)
            return status == ExitStatus.ok && drift ? ExitStatus.unmet : status
        }
        if let scope {
            let how =
                switch scope {
                case .pinned: "pinned by perch use"
                case .exec: "given by perch exec"
                case .directory: "bound folder \(rule.map { shown($0.written) } ?? "")"
                }
            console.print("This shell: \(describe(account)) (\(how); the global account is \(state.currentAccount.map(shown) ?? "none"))")
        } else {
            console.print("Current: \(describe(account))")
        }
        for origin in origins {
            let inert = origin.inert ? "; its code is inert until perch registry trust \(origin.record.name)" : ""
            console.print(
                "From: registry \(origin.record.name) at \(origin.record.shortCommit) (\(shown(origin.record.ref ?? "default branch")), "
                    + "fetched \(LocalTime.describe(seconds: origin.record.fetched)))\(inert)")
        }
        if let pending {
            // The checks below are the committed account's: a tool already changed shows ✗ until the switch is recorded.
            let waiting =
                onTheirWay.isEmpty ? "every tool has changed" : onTheirWay.map(\.rawValue).joined(separator: ", ") + " on their way"
            console.print("Switching: \(Self.pendingNote(pending, shown: shown)); \(waiting)")
        }
        if let rule, scope == nil || scope == .directory {
            let git =
                GitDirectoryRules.isIncluded(in: switcher.context) == true
                ? "git uses it here (Perch's includeIf rules)" : "git will use it here once perch setup git has been run"
            console.print("Folder: \(shown(rule.written)) is bound to \(shown(rule.account)) (its \"directories\"); \(git)")
        } else if let rule {
            console.print("Folder: \(shown(rule.written)) is bound to \(shown(rule.account)), but this shell's own account comes first")
        } else if config.accounts.contains(where: { !$0.identities.remotes.isEmpty }),
            let place = PlaceOwner.find(
                in: config.accounts, global: nil, environment: [:], folder: ShellMarker.workingDirectory(), home: home,
                aliases: SSHAliases.load(switcher.files)?.aliases ?? [:]),
            case .remote(let pattern) = place.reason
        {
            let git =
                GitDirectoryRules.isIncluded(in: switcher.context) == true
                ? "git uses it here (Perch's includeIf rules)" : "git will use it here once perch setup git has been run"
            let order = scope == nil || scope == .directory ? "" : ", but this shell's own account comes first"
            console.print("Repository: chosen by remote \(shown(pattern)): \(shown(place.account)) (its \"remotes\"); \(git)\(order)")
        }
        if checks.isEmpty { console.print("  no tool identities (see docs/identities.md)") }
        let width = checks.map { $0.tool.rawValue.count }.max() ?? 0
        var failedWhenApplied = false
        for check in checks {
            let tool = check.tool.rawValue + String(repeating: " ", count: width - check.tool.rawValue.count)
            var text = "  \(check.mark) \(tool)  "
            let failure = last?.report.results.first { $0.tool == check.tool && $0.status == .failed }
            switch check.matches {
            case true?: text += check.expected
            case false? where check.actual == check.expected:
                // Bug: "changed since: tool reports X" where X is what was expected (a dead agent,
                // an ended certificate): the name is right, what is wrong is the note's.
                text += "\(check.expected), but it does not work here"
            case false? where failure != nil:
                failedWhenApplied = true
                text += "expected \(check.expected): failed when applied (\(failure!.detail)); tool reports \(check.actual ?? "nothing")"
            case false?:
                // "Changed since" only when the last switch set it; otherwise it never took effect
                // (the tool was skipped, or named in the config after that switch).
                let wasSet = last?.report.results.contains { $0.tool == check.tool && [.applied, .unchanged].contains($0.status) } ?? false
                text +=
                    "expected \(check.expected), \(wasSet ? "changed since" : "not in effect"): tool reports \(check.actual ?? "nothing")"
            case nil: text += check.expected
            }
            if let note = check.note { text += "  (\(note))" }
            console.print(shown(text))
        }
        if account.identities[.git] != nil || access(switcher.files.gitGuard, F_OK) == 0 {
            // Bug (guard issue): a repository's own core.hooksPath (husky's), or another hook
            // manager's hook written over the guard's, kept the guard from running while this
            // line said "in place".
            // The summary may name a repository's own core.hooksPath: data, shown with its controls visible.
            console.print(shown("Guard: " + GitGuard.report(in: switcher.context, folder: ShellMarker.workingDirectory()).summary))
        }
        // The ssh aliases git's remote rules were written for, when the ssh config changed since.
        if config.accounts.contains(where: { !$0.identities.remotes.isEmpty }), SSHAliases.load(switcher.files)?.stale == true {
            console.print(
                "Remotes: your ssh config (\(shown(switcher.files.userSSHConfig))) changed since Perch wrote git's rules for its host aliases: perch setup git writes them again"
            )
        }
        // Bug: with no tool, "Last applied TIME:" was printed with nothing after it.
        if let last, !last.report.results.isEmpty {
            console.print("Last applied \(last.time):")
            for result in last.report.results { console.print("  " + shown(result.summary)) }
        }
        if failedWhenApplied {
            console.error(
                "a tool failed when the switch was applied (kept with --keep-going); fix what its error says, then `perch switch \(account.id)`"
            )
        } else if drift {
            // Bug: the summary offered a switch even where each note named another fix (`run
            // perch setup git`), and the switch then said every tool had its identity.
            let fixes = checks.filter { $0.matches == false }.map(\.fix)
            let named = Array(Set(fixes.compactMap { $0 })).sorted()
            console.error(
                fixes.allSatisfy { $0 != nil }
                    ? "drift: a tool does not use the account's identity; " + named.map { "`\($0)`" }.joined(separator: " and ")
                        + " puts it right (see each note)"
                    : "drift: a tool no longer uses the account's identity; `perch switch \(account.id)` puts right what changed (see each note)"
            )
        }
        return drift ? ExitStatus.unmet : ExitStatus.ok
    }

    // MARK: perch env, shell-init

    func env(_ options: EnvCommand) -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        let shell = options.shell ?? ShellKind.from(shellPath: PerchPaths.environment("SHELL"))
        var account: Account?
        if let text = options.account {
            guard let found = lookupAccount(text, in: config, command: "env") else { return ExitStatus.unmet }
            account = found
        } else if let kind = IdentityScope.kind(IdentityEnvironment.current().variables),
            let own = PerchPaths.environment(ShellExports.accountVariable).flatMap({ id in config.accounts.first { $0.id == id } })
        {
            // A shell with an account of its own keeps it: its scope, brought up to date.
            let variables = IdentityEnvironment.current().variables
            guard let scoped = scope(own, kind: kind, config: config, command: "env", keepGoing: true) else { return ExitStatus.toolFailed }
            console.write(IdentityScope.script(from: variables, to: scoped, shell: shell))
            return ExitStatus.ok
        } else {
            guard let state = loadState(config) else { return ExitStatus.unmet }
            account = state.currentAccount.flatMap { id in config.accounts.first { $0.id == id } }
        }
        for entry in account?.identities.exports ?? [] where entry.value.utf8.contains(where: { $0 < 0x20 && $0 != 0x09 }) {
            // Quoted correctly all the same; said so that a surprise in a terminal is explained.
            console.error("note: \(entry.name) holds control characters")
        }
        console.write(ShellExports.script(for: account, shell: shell, environment: IdentityEnvironment.current().variables))
        return ExitStatus.ok
    }

    func shellInit(_ options: ShellInitCommand) -> Int32 {
        guard let shell = options.shell.flatMap(ShellKind.init(rawValue:)) else { return ExitStatus.usage }
        let files = switcher(nil).files
        // The files given on this command line are the ones the functions use too.
        let quote = shell == .fish ? ShellExports.fishQuoted : ShellExports.posixQuoted
        let program =
            "perch" + (options.files.config.map { _ in " --config " + quote(paths.config) } ?? "")
            + (options.files.state.map { _ in " --state " + quote(paths.state) } ?? "")
        console.write(ShellExports.initScript(shell, program: program, state: paths.state, config: paths.config, markers: files.shells))
        return ExitStatus.ok
    }

    // MARK: perch setup

    func setup(_ options: SetupCommand) -> Int32 {
        guard let tool = options.tool.map(IdentityTool.init(rawValue:)) else {
            return options.undo ? reset() : ExitStatus.usage
        }
        // Setting up is asked for by name, so it needs no config: the files are Perch's own.
        let switcher = switcher(nil)
        let what = IdentitySetup.describe(tool, undo: options.undo, switcher)
        guard consent("perch setup \(tool.rawValue)", would: what) else { return ExitStatus.unmet }
        if tool == .git, !options.undo, let config = try? ConfigLoader.load(paths) { refreshGitDirectoryRules(config) }
        switch IdentitySetup.run(tool, undo: options.undo, switcher) {
        case .changed(let message):
            if !options.undo { switcher.recordSetUp(tool) }
            console.print(shown(message.prefix(1).uppercased() + message.dropFirst()) + ".")
            return ExitStatus.ok
        case .unchanged(let message):
            console.print("Nothing to do: " + shown(message) + ".")
            return ExitStatus.ok
        case .failed(let message):
            console.error("perch setup \(tool.rawValue): \(message)")
            return ExitStatus.unmet
        }
    }

    /// Whether the user agrees to what `command` would do: `--yes`, or "y" at a terminal's
    /// question; without a terminal it says how to agree. Says "Nothing changed." on a no.
    func consent(_ command: String, would what: String) -> Bool {
        if assumeYes { return true }
        guard isatty(STDIN_FILENO) == 1 else {
            console.error("\(command) would \(what); run it again with --yes to agree")
            return false
        }
        console.write("Perch will \(what).\nGo ahead? [y/N] ")
        guard let answer = readLine(), answer.lowercased().hasPrefix("y") else {
            console.print("Nothing changed.")
            return false
        }
        return true
    }

    // MARK: perch import

    /// `perch import`: on a terminal (standard input and output) the proposals are reviewed one
    /// by one (``reviewImport(_:existing:)``) and those accepted are added; with `--write` all are
    /// added without asking; with `--json` they are printed as JSON; otherwise the fragment is
    /// printed and nothing changes. A proposal whose id is an account of the config adds to it
    /// the tools it does not name yet. Adding goes through ``ConfigWriter`` in one write
    /// (comments kept, a `.bak` left); with no config of the user's own, the new file holds only
    /// the imported accounts, never the samples.
    func importAccounts(_ options: ImportCommand) -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        let environment = IdentityEnvironment.current(statePath: paths.state)
        let existing = config.path == nil ? [] : config.accounts
        var proposals = IdentityImport.propose(environment, existing: existing)
        if !options.scan.isEmpty {
            var folders: [String] = []
            for folder in options.scan {
                let path = environment.expandingTilde(folder)
                var info = stat()
                guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                    console.error(shown("--scan \(folder): not a folder"))
                    return ExitStatus.unmet
                }
                // Resolved, so that bound folders are written without `.`, `..` or a doubled `/`.
                guard let resolved = realpath(path, nil) else { return ExitStatus.unmet }
                folders.append(String(cString: resolved))
                free(resolved)
            }
            let scan = RepositoryScan.scan(folders, in: environment)
            for note in scan.notes { console.note(shown(note)) }
            proposals = RepositoryScan.bind(scan.repositories, under: folders, to: proposals, existing: existing, in: environment)
        }
        if options.json {
            let ids = Set(existing.map(\.id))
            return printJSON(proposals.map { ImportProposalJSON($0, adds: ids.contains($0.id)) })
        }
        if proposals.isEmpty {
            console.print("Found no identities to import (git, ssh, kube, gcloud, gh, AWS).")
            return ExitStatus.ok
        }
        let accepted: [Account]
        if !options.write, isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 {
            accepted = reviewImport(proposals, existing: existing)
            guard !accepted.isEmpty else {
                console.print("Nothing changed.")
                return ExitStatus.ok
            }
        } else {
            // Line by line: the fragment's line breaks are its own; what a line holds is shown safe.
            for line in IdentityImport.fragment(proposals, existing: existing).split(separator: "\n") { console.print(shown(String(line))) }
            guard options.write else {
                let ids = Set(existing.map(\.id))
                let adding = proposals.filter { ids.contains($0.id) }.map(\.id)
                let count = proposals.count - adding.count
                let what =
                    (count > 0 ? ["adds these \(count) account\(count == 1 ? "" : "s")"] : [])
                    + (adding.isEmpty ? [] : ["adds to " + adding.joined(separator: ", ")])
                console.note(
                    shown("Nothing changed; `perch import --write` " + what.joined(separator: " and ") + (adding.isEmpty ? " to " : " in "))
                        + shownPath(paths.config) + ".")
                return ExitStatus.ok
            }
            accepted = proposals
        }
        let ids = Set(existing.map(\.id))
        let additions = accepted.filter { ids.contains($0.id) }
        let new = accepted.filter { !ids.contains($0.id) }
        let edits = additions.flatMap { addition in
            existing.first { $0.id == addition.id }.map { IdentityImport.edits(adding: addition, to: $0) } ?? []
        }
        guard !edits.isEmpty || !new.isEmpty else {
            console.print("Nothing changed: the accounts name all of it already.")
            return ExitStatus.ok
        }
        do {
            // With nothing added to an account of the config there may be no file yet: a new one holds the new accounts.
            let outcome =
                edits.isEmpty
                ? try ConfigWriter.append(contentsOf: new, to: paths.config, samples: [])
                : try ConfigWriter.apply(edits, appending: new, to: paths.config, samples: [])
            let kept = outcome.backupPath.map { " (previous file kept as \(shownPath($0)))." } ?? "."
            if !new.isEmpty { console.note("Added \(new.count) account\(new.count == 1 ? "" : "s") to \(shownPath(outcome.path))" + kept) }
            for addition in additions {
                let what =
                    addition.identities.tools.map(\.rawValue) + (addition.identities.directories.isEmpty ? [] : ["directories"])
                    + (addition.identities.remotes.isEmpty ? [] : ["remotes"])
                console.note(shown("Added \(what.joined(separator: ", ")) to \(addition.id) in ") + shownPath(outcome.path) + kept)
            }
        } catch {
            console.error("cannot add the accounts to the config: \(error)")
            return ExitStatus.unmet
        }
        return ExitStatus.ok
    }

    /// Shows each proposal with its tool identities and asks: `y` or Enter accepts it, `n` (or
    /// `s`) declines it, `i` and `e` edit its id or name (checked as the config checks them), `q`
    /// or end of input stops the review. An id of an account of `existing` is accepted as a
    /// target: the proposal then adds to that account the tools it does not name yet (those
    /// it names stay as they are). Returns the accepted accounts, edited, in order: additions
    /// keep the existing account's id and hold only what they add.
    func reviewImport(_ proposals: [Account], existing: [Account]) -> [Account] {
        var taken = Set<String>()  // ids of new accounts accepted in this review
        var accepted: [Account] = []
        let existingByID = Dictionary(existing.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        /// What `account` adds to the existing account of its id, after the additions accepted before.
        func addition(_ account: Account) -> Account? {
            guard let target = existingByID[account.id] else { return nil }
            let named = Set(target.identities.tools + accepted.filter { $0.id == account.id }.flatMap(\.identities.tools))
            var result = account
            result.name = target.name
            result.handle = target.handle
            result.group = nil
            result.identities.settings = account.identities.settings.filter { !named.contains($0.tool) }
            result.identities.directories = account.identities.directories.filter { !target.identities.directories.contains($0) }
            result.identities.remotes = account.identities.remotes.filter { !target.identities.remotes.contains($0) }
            return result
        }
        console.print(
            "Perch found \(proposals.count) account\(proposals.count == 1 ? "" : "s") to propose. For each: y adds it, n skips it, i and e edit its id or name (an id of yours adds to that account), q stops."
        )
        review: for (index, proposal) in proposals.enumerated() {
            var account = proposal
            while true {
                console.print("")
                let adds = addition(account)
                let title =
                    adds != nil
                    ? "\(index + 1) of \(proposals.count): adds to \(account.id)  \(adds!.name)"
                    : "\(index + 1) of \(proposals.count): \(account.id)  \(account.name)" + (account.handle.map { "  \($0)" } ?? "")
                console.print(shown(title))
                let settings = account.identities.settings
                let width = settings.map(\.tool.rawValue.count).max() ?? 0
                for setting in settings {
                    let tool = setting.tool.rawValue
                    let kept = adds.map { !$0.identities.tools.contains(setting.tool) } ?? false
                    console.print(
                        shown(
                            "  \(tool)" + String(repeating: " ", count: width - tool.count) + "  \(setting.summary)"
                                + (kept ? "  (left out: \(account.id) names its own)" : "")))
                }
                for folder in account.identities.directories { console.print(shown("  folder  \(folder)")) }
                for remote in account.identities.remotes { console.print(shown("  remote  \(remote)")) }
                console.write("Add it? [Y/n/i/e/q] ")
                guard let answer = readLine()?.trimmingSpaces.lowercased() else { break review }
                switch answer {
                case "", "y", "yes":
                    if let adds {
                        if adds.identities.isEmpty {
                            console.print(shown("\(account.id) already names all of these; edit the id (i) or skip (s)."))
                            continue
                        }
                        accepted.append(adds)
                        continue review
                    }
                    if taken.contains(account.id) {
                        console.print("The id \(account.id) is already taken; edit it (i) or skip (s).")
                        continue
                    }
                    taken.insert(account.id)
                    accepted.append(account)
                    continue review
                case "i":
                    console.write("Id [\(account.id)]: ")
                    guard let id = readLine()?.trimmingSpaces else { break review }
                    if id.isEmpty { continue }
                    if let problem = AccountValidation.idProblem(id) ?? (taken.contains(id) ? .duplicateID(id) : nil) {
                        console.print(shown("id: \(problem.message)"))
                    } else {
                        account.id = id
                    }
                case "e":
                    // Bug: this was `n`, so whoever typed n to decline got a name prompt.
                    console.write("Name [\(account.name)]: ")
                    guard let name = readLine()?.trimmingSpaces else { break review }
                    if name.isEmpty { continue }
                    if let problem = AccountValidation.nameProblem(name) {
                        console.print("name: \(problem.message)")
                    } else {
                        account.name = name
                    }
                case "n", "no", "s", "skip": continue review
                case "q", "quit": break review
                default: console.print("Answer y, n, i, e or q.")
                }
            }
        }
        console.print("")
        return accepted
    }
}

/// One proposal of `perch import --json`: the account as the config would hold it (`id`,
/// `name`, `handle`, `group`, `identities` keyed by tool as the config writes them,
/// `directories`, `remotes`), and `adds`: true when `id` is an account of the config, which
/// the proposal adds to (only what it does not name yet is added).
struct ImportProposalJSON: Encodable {
    var account: Account
    var adds: Bool

    init(_ account: Account, adds: Bool) {
        self.account = account
        self.adds = adds
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, handle, group, identities, directories, remotes, adds
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(account.id, forKey: .id)
        try container.encode(account.name, forKey: .name)
        try container.encode(account.handle, forKey: .handle)
        try container.encode(account.group, forKey: .group)
        var only = account
        only.identities.directories = []
        only.identities.remotes = []
        try container.encode(EncodableJSON(AccountFields.identities(only)), forKey: .identities)
        try container.encode(account.identities.directories, forKey: .directories)
        try container.encode(account.identities.remotes, forKey: .remotes)
        try container.encode(adds, forKey: .adds)
    }
}

private struct FileJSON: Encodable {
    var path: String
    var exists: Bool
}

private struct LastSwitchJSON: Encodable {
    var time: String
    var results: [IdentityResult]
}

/// `perch status --json`: the current account, whether a tool drifted, each check, and the
/// results of the last switch to it.
private struct StatusJSON: Encodable {
    var account: String
    var drift: Bool
    var checks: [IdentityCheck]
    var lastSwitch: LastSwitchJSON?
    /// A switch not yet committed, with the tools it has not reached (encoded only when there is one).
    var switching: PendingJSON?
    /// The registries the account comes from (encoded only when there is one).
    var registries: [OriginJSON]?

    struct OriginJSON: Encodable {
        var name: String
        var commit: String
        var ref: String?
        /// Whether its code for the account was left out (not trusted).
        var codeInert: Bool
    }

    struct PendingJSON: Encodable {
        var to: String
        var interrupted: Bool
        var onTheirWay: [String]
    }
}
