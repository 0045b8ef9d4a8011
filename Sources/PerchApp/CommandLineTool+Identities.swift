import FoundationEssentials
import Glibc
import PerchCore
import PerchIdentities
import PerchStore

/// The tool identity commands: `perch status`, `env`, `shell-init`, `setup`, `import`, and
/// what `perch switch` does for identities (apply, `--dry-run`).
extension CommandLineTool {
    /// The identity switcher for this run: the process's environment, and samples never touch a tool.
    func switcher(_ config: LoadedConfig) -> IdentitySwitcher {
        IdentitySwitcher(environment: .current(statePath: paths.state), samplesOnly: config.path == nil)
    }

    /// Applies `account`'s identities after a saved switch, printing one line per tool; returns
    /// whether a tool failed.
    func applyIdentities(_ account: Account, config: LoadedConfig) -> Bool {
        // Also for an account without identities: Perch's own files of the previous one are emptied.
        let switcher = switcher(config)
        var report = switcher.apply(account)
        report = offerSetup(report, switcher)
        // Per-shell tools change nothing here (perch env does): they are recorded, not printed.
        for result in report.results where !result.tool.isPerShell {
            let line = "  " + shown(result.summary)
            if result.status == .failed { console.note(line) } else { console.print(line) }
        }
        if !report.failures.isEmpty {
            let tools = report.failures.map(\.tool.rawValue).joined(separator: ", ")
            console.error("the switch to \(account.id) is saved, but applying \(tools) failed")
        }
        return !report.failures.isEmpty
    }

    /// On the first switch that needs it, run from a terminal: asks whether to include Perch's
    /// git or ssh file from the user's own config (`perch setup`), and records the tool as
    /// applied when agreed. Elsewhere (a script, the interface) the result keeps its hint.
    private func offerSetup(_ report: IdentityReport, _ switcher: IdentitySwitcher) -> IdentityReport {
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
            console.print("Already on \(describe(account)); the switch would change nothing" + (options.identity.force ? "," : "."))
            if !options.identity.force { return ExitStatus.ok }
            console.print("and --force would apply its tool identities again:")
        } else {
            console.print("Would switch to \(describe(account))" + (current.map { ", from \(describe($0))" } ?? "") + ".")
        }
        let lines = switcher(config).plan(account)
        if lines.isEmpty { console.print("  no tool identities: no tool would change") }
        for line in lines { console.print("  " + shown(line)) }
        if account.onSwitch != nil, current?.id != account.id { console.print("  then its onSwitch hook would run") }
        console.print("Nothing was changed (dry run).")
        return ExitStatus.ok
    }

    // MARK: perch status

    func status() -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        let switcher = switcher(config)
        if options.identity.files {
            let files = switcher.files.all
            if options.json { return printJSON(files.map { FileJSON(path: $0, exists: access($0, F_OK) == 0) }) }
            for file in files { console.print(shown(file) + (access(file, F_OK) == 0 ? "" : "  (not written yet)")) }
            return ExitStatus.ok
        }
        guard let state = loadState(config) else { return ExitStatus.unmet }
        guard let id = state.currentAccount, let account = config.accounts.first(where: { $0.id == id }) else {
            console.error("no account chosen yet; pick one with `perch switch ID` or in the interface")
            return ExitStatus.unmet
        }
        let checks = switcher.check(account)
        let last = switcher.lastReport().flatMap { $0.report.accountID == account.id ? $0 : nil }
        let drift = IdentitySwitcher.hasDrift(checks)
        if options.json {
            let json = StatusJSON(
                account: account.id, drift: drift, checks: checks,
                lastSwitch: last.map { LastSwitchJSON(time: $0.time, results: $0.report.results) })
            let status = printJSON(json)
            return status == ExitStatus.ok && drift ? ExitStatus.unmet : status
        }
        console.print("Current: \(describe(account))")
        if checks.isEmpty { console.print("  no tool identities (see docs/identities.md)") }
        let width = checks.map { $0.tool.rawValue.count }.max() ?? 0
        for check in checks {
            let tool = check.tool.rawValue + String(repeating: " ", count: width - check.tool.rawValue.count)
            var text = "  \(check.mark) \(tool)  "
            switch check.matches {
            case true?: text += check.expected
            case false?: text += "expected \(check.expected), tool reports \(check.actual ?? "nothing")"
            case nil: text += check.expected
            }
            if let note = check.note { text += "  (\(note))" }
            console.print(shown(text))
        }
        if let last {
            console.print("Last applied \(last.time):")
            for result in last.report.results { console.print("  " + shown(result.summary)) }
        }
        if drift {
            console.error("drift: a tool no longer has the account's identity; `perch switch \(account.id) --force` applies it again")
        }
        return drift ? ExitStatus.unmet : ExitStatus.ok
    }

    // MARK: perch env, shell-init

    func env() -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        let shell = options.identity.shell ?? ShellKind.from(shellPath: PerchPaths.environment("SHELL"))
        var account: Account?
        if let text = options.account {
            guard case .found(let found) = Account.lookup(text, in: config.accounts) else {
                console.error("no single account '\(text)' (perch list shows them)")
                return ExitStatus.unmet
            }
            account = found
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

    func shellInit() -> Int32 {
        guard let shell = options.operand.flatMap(ShellKind.init(rawValue:)) else { return ExitStatus.usage }
        console.write(ShellExports.initScript(shell))
        return ExitStatus.ok
    }

    // MARK: perch setup

    func setup() -> Int32 {
        guard let tool = options.operand.flatMap(IdentityTool.init(rawValue:)) else { return ExitStatus.usage }
        // Setting up is asked for by name, so it needs no config: the files are Perch's own.
        let switcher = IdentitySwitcher(environment: .current(statePath: paths.state))
        let what = IdentitySetup.describe(tool, undo: options.identity.undo, switcher)
        if !options.identity.yes {
            guard isatty(STDIN_FILENO) == 1 else {
                console.error("perch setup \(tool.rawValue) would \(what); run it again with --yes to agree")
                return ExitStatus.unmet
            }
            console.write("Perch will \(what).\nGo ahead? [y/N] ")
            guard let answer = readLine(), answer.lowercased().hasPrefix("y") else {
                console.print("Nothing changed.")
                return ExitStatus.unmet
            }
        }
        switch IdentitySetup.run(tool, undo: options.identity.undo, switcher) {
        case .changed(let message):
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

    // MARK: perch import

    func importAccounts() -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        let environment = IdentityEnvironment.current(statePath: paths.state)
        let proposals = IdentityImport.propose(environment, existing: config.path == nil ? [] : config.accounts)
        if proposals.isEmpty {
            console.print("Found no identities to import (kube, gcloud, AWS, gh, git).")
            return ExitStatus.ok
        }
        console.write(IdentityImport.fragment(proposals))
        guard options.identity.write else {
            console.note("Nothing changed; `perch import --write` adds these \(proposals.count) accounts to \(paths.config).")
            return ExitStatus.ok
        }
        do {
            let outcome = try ConfigWriter.append(
                contentsOf: proposals, to: paths.config, samples: config.path == nil ? Account.samples : [])
            console.note(
                "Added \(proposals.count) accounts to \(outcome.path)"
                    + (outcome.backupPath.map { " (previous file kept as \($0))." } ?? "."))
        } catch {
            console.error("cannot add the accounts to the config: \(error)")
            return ExitStatus.unmet
        }
        return ExitStatus.ok
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
}
