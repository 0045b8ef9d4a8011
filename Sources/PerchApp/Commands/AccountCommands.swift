import Glibc
import PerchDomain
import PerchStore

/// What every account command says of the config writer.
let writerNote =
    "The config is changed as text: its comments, key order and trailing commas stay,\n"
    + "the previous file is kept as <config>.bak, and a change that would leave a config\n"
    + "that does not load (or a key it would ignore) is refused with the reason (exit 2).\n"
    + "With no config yet, one is written holding the sample accounts and the change."

/// `perch add`, `set`, `unset`, `rename` and `remove`: each changes the config through
/// ``ConfigWriter`` (the same writer as the interface's Add account form), then what Perch keeps
/// about the account (state, history, pane state, identity files).
extension CommandLineTool {
    /// `git.email` as keys; nil after reporting a path that is not one.
    func fieldPath(_ text: String) -> [String]? {
        let keys = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !keys.contains(where: \.isEmpty) else {
            console.error("'\(shown(text))' is not a field path; give keys joined by dots, as git.email or env.TEAM")
            return nil
        }
        return keys
    }

    /// - Parameter hint: given the lines of a refusal, after they are printed.
    func edit(_ change: ConfigEdit, done: String, hint: ([String]) -> Void = { _ in }) -> Int32 {
        // The writer loads the config itself (a config that does not load is reported with its
        // lines, as `config check` reports it): loading it here first would read it twice.
        do {
            let outcome = try ConfigWriter.apply(change, to: paths.config)
            console.print(done + " in \(shownPath(outcome.path))" + backupNote(outcome) + ".")
            // git's rules for bound folders and remotes follow the config at once, not at the next switch.
            if let config = try? ConfigLoader.load(paths) { refreshGitDirectoryRules(config) }
            return ExitStatus.ok
        } catch {
            let status = report(error)
            if case .refused(let reason) = error { hint(reason.lines) }
            return status
        }
    }

    // MARK: Reporting

    func noAccount(_ id: String, _ config: LoadedConfig) -> Int32 {
        let near = Account.suggestions(for: id, in: config.accounts)
        console.error(
            "no account '\(shown(id))'"
                + (near.isEmpty ? "" : "; did you mean " + near.map { "'\(shown($0))'" }.joined(separator: " or ") + "?"))
        return ExitStatus.unmet
    }

    func backupNote(_ outcome: ConfigWriter.Outcome) -> String {
        outcome.backupPath.map { " (the previous file is \(shownPath($0)))" } ?? " (a new config)"
    }

    /// Prints why the config was not changed; the exit status: 2 for a refused or unusable
    /// config, 1 for an account that is not there or a file that cannot be written.
    func report(_ error: ConfigWriteError) -> Int32 {
        switch error {
        case .refused(let reason):
            console.error("nothing was written: the config would not load, or would not know a key:")
            // Bug: with no config yet, the refusal named a line and column of a file never written.
            let unwritten = access(paths.config, F_OK) != 0
            for line in reason.lines {
                // Refused, so not "ignored", as the loader says of a key it would skip.
                var text = line.replacing("unknown key, ignored (a warning)", with: "unknown key")
                if unwritten, let place = try? Regex(#": line \d+, column \d+:"#), let range = text.firstRange(of: place) {
                    text.replaceSubrange(range, with: " (the new config, not written):")
                }
                console.error(text)
            }
            return ExitStatus.usage
        case .invalid(let reason):
            for line in reason.lines { console.error(line) }
            return ExitStatus.usage
        case .noAccount(let id, _):
            // A registry's account is not in the user's file: it is changed by an override there.
            if let origin = registryOrigins(of: id).first {
                console.error(
                    "\(shown(id)) comes from registry \(origin.record.name), not from your config; to change it for yourself, "
                        + "add {\"id\": \"\(shown(id))\", …} with only the fields to override to \(shownPath(paths.config)) (perch config edit; docs/registries.md)"
                )
                return ExitStatus.unmet
            }
            // In the words every command uses for an unknown account, with what it may have meant.
            guard let config = try? ConfigLoader.load(paths) else {
                console.error("\(error)")
                return ExitStatus.unmet
            }
            return noAccount(id, config)
        case .noKey, .duplicate:
            console.error("\(error)")
            return ExitStatus.unmet
        case .file, .noAccountsList:
            console.error("\(error)")
            return ExitStatus.unmet
        }
    }
}
