import Glibc
import PerchDomain
import PerchIdentities
import PerchStore

/// `perch reset`: every tool's baseline back, and what `perch setup` added removed.
struct ResetCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "reset", summary: "give every tool back what it had before Perch, and remove what setup added")
    static let details: String =
        "The first time Perch changes a tool it records what the tool had (its baseline):\n"
        + "gcloud's configuration, kube's context, gh's user, docker's context. perch reset gives\n"
        + "each one back, empties Perch's own git and ssh files and removes the includes\n"
        + "perch setup added. It is a switch session of its own: journalled, each tool checked,\n"
        + "all or nothing. A tool that fails puts every tool back, keeps the baseline and the\n"
        + "account, and exits 3. Asks first on a terminal; --yes gives consent without asking."
    var files = FileOptions()
    /// `--yes`: consent given here.
    @Option(SharedOption.yes) var yes = false
    func run(_ tool: CommandLineTool) -> Int32 { tool.with(assumeYes: yes).reset() }
}

extension CommandLineTool {
    /// `perch reset` (and `perch setup --undo` with no tool): every baseline back, Perch's own
    /// files emptied, the includes removed.
    func reset() -> Int32 {
        // Bug (review): with a described tool's description refused or faulty, reset skipped the
        // tool, said every tool was as before and forgot the baseline it had kept of it.
        let problems = ToolAdapters.descriptionProblems
        if !problems.isEmpty {
            for line in problems { console.error(line) }
            console.error("perch reset needs every tool Perch changed: fix or remove the description (docs/tools.md), then run it again")
            return ExitStatus.usage
        }
        let switcher = switcher(loadConfigQuietly())
        let what =
            "give every tool back what it had before Perch, empty its own git and ssh files, and remove the includes perch setup added"
        guard consent("perch reset", would: what) else { return ExitStatus.unmet }
        let session = switcher.session(store: StateStore(path: paths.state), source: .cli)
        // Bug (review): a baseline of a described tool whose description was gone (moved,
        // renamed) was dropped as a tool "this Perch does not know", and the user's own value
        // with it. Kept until the description is back.
        let unknown = session.baseline.tools.keys.filter { ToolAdapters.adapter(for: IdentityTool($0)) == nil }.sorted()
        if !unknown.isEmpty {
            console.error(
                "perch reset would give back \(unknown.joined(separator: ", ")), which no tool of this Perch knows now (a description moved or removed?): put its description back in \(PerchPaths.tilde(ToolDescriptions.folder(), home: PerchPaths.environment("HOME") ?? "")) (docs/tools.md) and run it again; what it would give back is kept"
            )
            return ExitStatus.usage
        }
        let result: SwitchSession.Result
        do {
            result = try session.restoreBaselines()
        } catch {
            console.error("cannot reset: \(error)")
            return ExitStatus.unmet
        }
        if let message = result.recovered { console.error(shown(message)) }
        let results = result.report.results
        guard result.outcome != nil else {
            // Rolled back, as a failed switch is: every tool as it was, the includes and the account kept.
            let putBack = results.contains { $0.status == .rolledBack }
            console.error(
                "could not reset: \(result.failure ?? "a tool failed"); "
                    + (putBack ? "every tool it had given back was put back" : "no tool was changed"))
            for line in results where !line.summary.isEmpty { console.note("  " + shown(line.summary)) }
            return ExitStatus.toolFailed
        }
        var failed = false
        for result in results {
            console.print("  " + shown(result.summary))
            failed = failed || result.status == .failed
        }
        for tool in [IdentityTool.git, .ssh] {
            switch IdentitySetup.run(tool, undo: true, switcher) {
            case .changed(let message): console.print("  \(tool.rawValue): " + shown(message))
            case .unchanged: break
            case .failed(let message):
                console.error("perch setup \(tool.rawValue) --undo: \(message)")
                failed = true
            }
        }
        for file in [switcher.files.gitInclude, switcher.files.sshInclude] { _ = unlink(file) }
        console.print(results.isEmpty ? "Perch had changed no tool; its includes are gone." : "Every tool is as it was before Perch.")
        // The tools are your own: no account is current, so no prompt names one they no longer use.
        do {
            if let was = try StateStore(path: paths.state).clearCurrentAccount() {
                console.print("No account is current (it was \(shown(was))); perch switch ID makes one current again.")
            }
        } catch {
            console.error("the tools are your own, but the state still names an account: \(error)")
            failed = true
        }
        return failed ? ExitStatus.toolFailed : ExitStatus.ok
    }

    /// The config, or nil (reset needs none: the files are Perch's own).
    private func loadConfigQuietly() -> LoadedConfig? { try? ConfigLoader.load(paths) }
}
