import PerchDomain
import PerchIdentities
import PerchInterface
import PerchStore

/// `perch current`: the current account, for prompts.
struct CurrentCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "current", summary: "print the current account (for shell prompts)", recoversInterruptedSwitch: false)
    static let details: String =
        "Prints `id: Name (handle)`; with --field only that field, for prompts:\n"
        + "  PS1='[$(perch current --field name 2>/dev/null)] \\$ '\n"
        + "The field is any key of the account, dotted for a tool's: kube.context, git.email,\n"
        + "aws.profile, env.TEAM; an empty line when the account has none. --json prints\n"
        + "every field and the identities, as perch list --json does. In a shell with an\n"
        + "account of its own (perch use, a bound folder, perch exec), that account; --global\n"
        + "gives the global one.\n"
        + "It never waits: while a switch is under way (or a killed one still finishing) it\n"
        + "prints the account last recorded, marked (switching to ID) (on stderr with\n"
        + "--field; --json adds \"switching\": {\"to\", \"interrupted\"}); --field switching\n"
        + "prints the account being switched to, an empty line when none.\n"
        + "Exit status 1 when no account has been chosen yet (--json then prints null)."

    var files = FileOptions()
    /// `--json`.
    @Option(SharedOption.json) var json = false
    /// `--field PATH`; nil for the whole line.
    @Option(
        OptionDefinition<String>(
            info: OptionInfo(
                names: ["--field"], valueName: "PATH", help: "print only this field (name, kube.context, git.email, …)",
                completion: .accountField),
            parse: { value throws(UsageError) in
                let first = String(value.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                guard value == "switching" || (ConfigLoader.accountKeys.contains(first) && !value.hasSuffix(".") && !value.contains(".."))
                else {
                    throw UsageError(
                        description:
                            "option --field needs a field of an account (id, name, handle, group, kube.context, git.email, aws.profile, …), not '\(value)'"
                    )
                }
                return value
            })) var field: String? = nil
    /// `--global`: the global account, not this shell's own.
    @Option(SharedOption.global) var global = false

    func run(_ tool: CommandLineTool) -> Int32 { tool.current(self) }
}

extension CommandLineTool {
    func current(_ options: CurrentCommand) -> Int32 {
        if options.json, options.field != nil {
            console.error("use either --json or --field, not both")
            console.note(Help.usage(of: CurrentCommand.self))
            return ExitStatus.usage
        }
        let pending = pendingSwitch()
        // A prompt runs this every time: the account comes from the cache while neither file changed.
        let cache = CurrentAccountCache(statePath: paths.state)
        var account: Account
        // In a shell with an account of its own (perch use, a bound folder, perch exec), that one.
        let own =
            options.global
            ? nil
            : PerchPaths.environment(IdentityScope.scopeVariable).flatMap { _ in
                PerchPaths.environment(ShellExports.accountVariable)
            }
        if let own, let cached = cache.account(configPath: paths.config, statePath: paths.state), cached.id == own {
            account = cached
        } else if let own {
            guard let config = loadConfig() else { return ExitStatus.usage }
            guard let found = config.accounts.first(where: { $0.id == own }) else {
                if options.json { console.print("null") }
                console.error("this shell's account '\(shown(own))' is not in the config; perch use --global follows the global one")
                return ExitStatus.unmet
            }
            account = found
        } else if let cached = cache.account(configPath: paths.config, statePath: paths.state) {
            account = cached
        } else {
            let configIdentity = CurrentAccountCache.FileIdentity.of(paths.config)
            let stateIdentity = CurrentAccountCache.FileIdentity.of(paths.state)
            guard let config = loadConfig() else { return ExitStatus.usage }
            let loaded: StateStore.Loaded
            do {
                loaded = try StateStore(path: paths.state).peek(accounts: config.accounts)
            } catch {
                console.error("cannot read the state: \(error)")
                return ExitStatus.unmet
            }
            if let warning = loaded.warning { console.error(warning) }
            guard let id = loaded.state.currentAccount, let found = config.accounts.first(where: { $0.id == id }) else {
                if options.json { console.print("null") }
                // Bug: after the current account was removed, this said "no account chosen yet".
                let last = (try? StateStore(path: paths.state).history.read(limit: 1))?.last
                if let last, !config.accounts.contains(where: { $0.id == last.account }) {
                    let back = last.previous.flatMap { id in config.accounts.contains { $0.id == id } ? id : nil }
                    console.error(
                        "no account is current: '\(shown(last.account))', the last switched to, has been removed from the config; pick one with `perch switch ID`"
                            + (back.map { " (perch - goes back to \(shown($0)))" } ?? ""))
                } else {
                    console.error("no account chosen yet; pick one with `perch switch ID` or in the interface")
                }
                return ExitStatus.unmet
            }
            account = found
            // Only what a later run would print the same way: no warning to repeat.
            if config.path != nil, loaded.warning == nil {
                cache.store(account, configPath: paths.config, config: configIdentity, statePath: paths.state, state: stateIdentity)
            }
        }
        if options.json {
            var json = AccountJSON(account, current: true)
            json.switching = pending.map { SwitchingJSON(to: $0.journal.to, interrupted: $0.isFinishing) }
            return printJSON(json)
        }
        guard let field = options.field else {
            console.print(describe(account) + (pending.map { "  (" + Self.pendingNote($0, shown: shown) + ")" } ?? ""))
            return ExitStatus.ok
        }
        // The account being switched to, for a prompt; an empty line when no switch is under way.
        if field == "switching" {
            console.print(pending.map { shown($0.journal.to) } ?? "")
            return ExitStatus.ok
        }
        if let pending { console.note(Self.pendingNote(pending, shown: shown)) }
        // When a tool's credentials end (kube's certificate, AWS's session), read where the tool
        // keeps it: ISO 8601 in UTC, the earliest; an empty line when nothing is recorded. A
        // prompt asks it each time: from the cache while none of the files it came from changed.
        // Bug (expiry issue): `perch current --field kube.expires` ran kubectl and openssl each time (114 ms).
        // Bug (tools described as data): a described tool's `expiry` had no NAME.expires, which
        // kube's and aws's have; a described setting named `expires` is still read as a key.
        let expiring = field.hasSuffix(".expires") ? IdentityTool(String(field.dropLast(".expires".count))) : nil
        if let tool = expiring, SessionExpiries.isRead(for: tool),
            ToolAdapters.described.first(where: { $0.tool == tool })?.description.setting("expires") == nil
        {
            console.print(SessionExpiryCache(statePath: paths.state, tool: tool).answer(account, in: switcher(nil).context))
            return ExitStatus.ok
        }
        // Any key of the account, tools' included; an empty line when it has nothing there.
        console.print(shown(AccountFields.value(of: account, at: field).map(AccountFields.text) ?? ""))
        return ExitStatus.ok
    }
}
