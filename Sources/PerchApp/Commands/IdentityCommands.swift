import Glibc
import PerchDomain
import PerchIdentities
import PerchStore

/// What the tool identity commands (`perch status`, `env`, `shell-init`, `setup`, `import`,
/// each in its own file) share: the switcher for this run, the offer to run setup, consent.
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
}
