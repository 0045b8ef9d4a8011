import Glibc
import PerchDomain
import PerchIdentities
import PerchStore

/// Scopes: `perch exec ID -- COMMAND`, `perch use ID|--global` and `perch shell-hook`, which
/// give one process or one shell an account of its own through variables only
/// (``IdentityScope``), nothing global changed.
extension CommandLineTool {
    /// The process's variables.
    var processVariables: [String: String] { IdentityEnvironment.current().variables }

    /// `account`'s scope over this process's environment, with the tools' failures said on
    /// stderr; nil when one failed and `--keep-going` was not given.
    func scope(_ account: Account, kind: ScopeKind, config: LoadedConfig, command: String, keepGoing: Bool? = nil) -> ScopedEnvironment? {
        let switcher = switcher(config)
        // The embedded samples name variables only: no program is started for them.
        let adapters = switcher.samplesOnly ? ToolAdapters.registry.filter(\.isPerShell) : ToolAdapters.registry
        let scoped = IdentityScope.scoped(account, kind: kind, over: processVariables, in: switcher.context, adapters: adapters)
        for failure in scoped.failures {
            console.error("\(command): \(failure.tool.rawValue): \(failure.why)")
        }
        if !scoped.failures.isEmpty, !(keepGoing ?? switching.keepGoing) {
            console.error(
                "\(command): nothing was changed (--keep-going goes on without \(scoped.failures.map(\.tool.rawValue).joined(separator: ", ")))"
            )
            return nil
        }
        return scoped
    }

    /// Brings git's rules for the config's bound folders up to date (``GitDirectoryRules``);
    /// said on stderr when they cannot be written. Nothing for the embedded samples.
    func refreshGitDirectoryRules(_ config: LoadedConfig) {
        guard !config.isSamples else { return }
        let switcher = switcher(config)
        let hasRules = config.accounts.contains { !$0.identities.directories.isEmpty || !$0.identities.remotes.isEmpty }
        guard hasRules || access(switcher.files.gitDirectories, F_OK) == 0 || access(switcher.files.gitGuard, F_OK) == 0 else { return }
        do {
            try GitDirectoryRules.write(config.accounts, in: switcher.context)
        } catch {
            console.error("cannot write git's rules for the bound folders: \(error)")
        }
    }
}
