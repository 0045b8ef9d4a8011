import PerchDomain
import PerchIdentities
import PerchStore

/// `perch switch`: to an account by id or name, to the previous one (`perch -`), or to one
/// picked in the inline picker.
struct SwitchCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "switch", summary: "switch to an account by id or name; - for the previous; none: pick",
        operands: [Operand(name: "ID-OR-NAME|-", optional: true, completion: .account)], recoversInterruptedSwitch: false,
        shorthand: "-")
    /// The tools named from the registry (``ToolLists``).
    static var details: String {
        "The account is its exact id, or its name when exactly one name matches it\n"
            + "(ignoring case); - is the account that was current before (two in a row swap).\n"
            + "With no account, on a terminal, the account sheet is drawn below the prompt to\n"
            + "pick from (type to filter, arrows, Enter, the mouse; Esc exits 1, Ctrl-C 130).\n"
            + ("The account's tool identities are applied (\(ToolLists.toolNames)), "
            + "then the switch is saved and its onSwitch hook runs with its output passed through. "
            + "A failed tool exits 3 and saves nothing (every tool it changed is put back; "
            + "--keep-going saves the switch without it); a failed hook exits 3 after the switch "
            + "is saved. A closed output pipe ends only the printing: the hook still runs, then the "
            + "exit status is 141.").wrapped(toColumns: 80) + "\n"
            + "--dry-run prints what would change, tool by tool, and changes nothing; --force\n"
            + "applies the identities again when the account is already current.\n"
            + "Exit status 1 for an unknown or ambiguous account (with the nearest ones\n"
            + "suggested, never switched to) or no previous account."
    }

    var files = FileOptions()
    /// The account as given (`-` for the previous one); nil: pick one.
    var account: String?
    /// `--height N` of the picker, in rows.
    @Option(SharedOption.height) var height: Int? = nil
    /// `--dry-run`, `--force`, `--keep-going`.
    var switching = SwitchSettings()

    mutating func bind(operands: [String]) { account = operands.first }

    func run(_ tool: CommandLineTool) -> Int32 {
        let tool = tool.with(switching: switching)
        return account.map(tool.switchAccount) ?? tool.pickAndSwitch(height: height)
    }
}

extension CommandLineTool {
    /// Switches to `account` (or re-applies what drifted when it is current); prints what
    /// changed and runs its hook; returns the exit status.
    func perform(_ account: Account, config: LoadedConfig) -> Int32 {
        if switching.dryRun {  // picked in the inline picker with --dry-run
            guard let state = loadState(config) else { return ExitStatus.unmet }
            return dryRun(to: account, state: state, config: config)
        }
        return runSession(to: account, target: .account, config: config, verb: "Switched to")
    }

    func switchAccount(_ text: String) -> Int32 {
        guard let config = loadConfig() else { return ExitStatus.usage }
        // The state is repaired (a corrupt file set aside, an unknown current account cleared)
        // only once the account is known: a switch that fails (a typo, another config) changes
        // nothing. A dry run changes nothing at all.
        let repair = !switching.dryRun
        if text == "-" {
            guard let peeked = loadState(config), let account = previousAccount(config, state: peeked),
                let state = repair ? loadState(config, repair: true) : peeked
            else { return ExitStatus.unmet }
            if switching.dryRun { return dryRun(to: account, state: state, config: config) }
            return perform(account, config: config)
        }
        guard let account = lookupAccount(text, in: config) else { return ExitStatus.unmet }
        guard let state = loadState(config, repair: repair) else { return ExitStatus.unmet }
        if switching.dryRun { return dryRun(to: account, state: state, config: config) }
        return perform(account, config: config)
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
}
