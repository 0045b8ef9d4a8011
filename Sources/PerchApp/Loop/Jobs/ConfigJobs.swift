import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchStore

extension AddAccount: WorkerJob {
    /// On the store's queue, so it is made after a config read asked for earlier.
    func start(on worker: EffectWorker, accounts: [Account], answer: @escaping @Sendable (AccountAddition) -> Void) {
        let account = self.account
        worker.storeQueue.async {
            guard let configPath = worker.configPath else { return answer(.notAdded("No config file to add the account to.")) }
            do {
                // Without a config the accounts in use are the samples (kept in the new file) or a
                // registry's (which live in Perch's own files, never copied into the user's).
                let samples = accounts.filter { own in Account.samples.contains { $0.id == own.id } }
                let outcome = try ConfigLayering.$statePath.withValue(worker.configPaths?.state) {
                    try ConfigWriter.append(account, to: configPath, samples: samples)
                }
                answer(
                    .added(
                        account, accounts: worker.layered(outcome.accounts), configPath: outcome.path, backupPath: outcome.backupPath))
            } catch {
                answer(.notAdded("\(error)"))
            }
        }
    }
}

extension DeleteFromConfig: WorkerJob {
    /// On the store's queue: the field unset, or the account removed, by the same writer calls as
    /// `perch unset` and `perch remove` (the current account's tools given back first, as the
    /// interface holds them, which is what they were given: ``AccountRemoval``).
    func start(on worker: EffectWorker, accounts: [Account], answer: @escaping @Sendable (ConfigDeletion) -> Void) {
        worker.storeQueue.async {
            var deletion = ConfigLayering.$statePath.withValue(worker.configPaths?.state) { self.perform(on: worker, accounts: accounts) }
            deletion.accounts = deletion.accounts.map(worker.layered)
            answer(deletion)
        }
    }

    private func perform(on worker: EffectWorker, accounts: [Account]) -> ConfigDeletion {
        func deletion(_ accounts: [Account]?, _ configPath: String, _ backup: String?, _ problem: String?) -> ConfigDeletion {
            ConfigDeletion(
                accountID: accountID, path: path, accounts: accounts, configPath: configPath, backupPath: backup, problem: problem)
        }
        guard let configPath = worker.configPath else { return deletion(nil, "", nil, "no config file") }
        do {
            guard path.isEmpty else {
                let outcome = try ConfigWriter.apply(.unset(id: accountID, path: path), to: configPath, samples: [])
                return deletion(outcome.accounts, outcome.path, outcome.backupPath, nil)
            }
            let store = worker.store
            let remover = AccountRemoval(
                configPath: configPath, store: store,
                session: store.flatMap { store in worker.identities?.session(store: store, source: .tui, lockTimeout: worker.lockTimeout) })
            let removal: ConfigWriter.Removal
            do {
                removal = try remover.remove(accountID, givingBack: accounts.first { $0.id == accountID }).removal
            } catch {
                return deletion(nil, configPath, nil, Self.problem(error))
            }
            let outcome = removal.outcome
            if case .failure(let error)? = removal.forgotten {
                return deletion(outcome.accounts, outcome.path, outcome.backupPath, "the state still names it: \(error)")
            }
            return deletion(outcome.accounts, outcome.path, outcome.backupPath, nil)
        } catch {
            return deletion(nil, configPath, nil, error.description)
        }
    }

    /// Why an account was not removed, in the words the Catalog shows.
    private static func problem(_ failure: AccountRemoval.Failure) -> String {
        switch failure {
        case .config(let error): error.description
        case .state(let error): "its tools could not be given back to your own (\(error))"
        case .toolFailed(let result):
            "its tools could not be given back to your own (\(result.failure ?? "a tool failed"); every tool was put back)"
        }
    }
}

extension LoadConfig: WorkerJob {
    /// On the store's queue, so that a config write asked for later is made after this read;
    /// nothing when the worker has no config paths. (Only a first frame drawn from the
    /// current-account cache asks for it.)
    func start(on worker: EffectWorker, accounts: [Account], answer: @escaping @Sendable (ConfigRead) -> Void) {
        guard let paths = worker.configPaths else { return }
        worker.storeQueue.async { answer(Self.read(paths)) }
    }

    /// Test-only: milliseconds ``LoadConfig`` waits before it reads the config
    /// (`PERCH_TEST_CONFIG_READ_DELAY_MS`, at most 60000), so that end-to-end tests can act while
    /// the accounts have not arrived. Not for use outside tests; unset, nothing waits.
    static let testConfigReadDelayVariable = "PERCH_TEST_CONFIG_READ_DELAY_MS"

    /// Reads and checks the whole config, as a start reads it, after the test-only delay (if any).
    static func read(_ paths: PerchPaths) -> ConfigRead {
        if let text = PerchPaths.environment(testConfigReadDelayVariable), let delay = Int64(text), (1...60_000).contains(delay) {
            var wait = timespec(tv_sec: Int(delay / 1000), tv_nsec: Int(delay % 1000) * 1_000_000)
            var left = timespec()
            while nanosleep(&wait, &left) != 0, errno == EINTR { wait = left }
        }
        do {
            return .loaded(accounts: try ConfigLoader.load(paths).accounts)
        } catch {
            return .unusable(lines: error.lines)
        }
    }
}

extension SavePanes: WorkerJob {
    /// On the store's queue, under the state lock; nothing without a store. Pane state is a
    /// convenience: a failure to keep it is not worth a banner.
    func start(on worker: EffectWorker, accounts: [Account], answer: @escaping @Sendable (Never) -> Void) {
        let panes = self.panes
        worker.storeQueue.async {
            guard let store = worker.store else { return }
            if (try? store.savePanes(panes, lockTimeoutMilliseconds: worker.lockTimeout)) != nil {
                worker.ownWrite = FileSystem.identity(of: store.path)
            }
        }
    }
}

extension SaveSettings: WorkerJob {
    /// On the store's queue, atomically; nothing when the settings have no file (they are kept
    /// for the run); only a failure comes back.
    func start(on worker: EffectWorker, accounts: [Account], answer: @escaping @Sendable (SettingsNotSaved) -> Void) {
        guard let path = worker.settingsPath else { return }
        let (settings, keys) = (self.settings, self.keys)
        worker.storeQueue.async {
            do {
                try SettingsFile.merge(keys, from: settings, into: path)
            } catch {
                answer(SettingsNotSaved("\(error)"))
            }
        }
    }
}

extension EditConfig: TerminalJob {
    /// `Edit config…`, as `perch config edit` does it: the editor (``ConfigEditPolicy/editor(visual:editor:)``)
    /// gets a copy beside the config (the starter config when there is none) with the interface
    /// suspended; what follows is ``ConfigEditPolicy/decide(editor:editorFailure:original:edited:problems:copyPath:)``'s
    /// decision, carried out here: a valid copy replaces the config atomically (the old one kept
    /// as `<config>.bak`) and its accounts come back; an invalid one leaves the config and the
    /// accounts as they were, and is kept for the person to fix.
    func run(in loop: PerchRunner) -> ConfigEdited {
        func report(_ accounts: [Account]?, _ problem: String?) -> ConfigEdited {
            ConfigEdited(accounts: accounts, configPath: loop.configPath ?? "", problem: problem)
        }
        guard let path = loop.configPath else { return report(nil, "there is no config file to edit") }
        let original = try? FileSystem.readContents(path)
        let copy: String
        do {
            // Bug: each invalid edit left another copy, and the next edit started again from the
            // config: the kept edit is resumed instead, until it is valid or given up.
            copy =
                try CommandLineTool.keptEditCopy(of: path)
                ?? CommandLineTool.makeEditCopy(of: path, holding: original?.bytes ?? Array(StarterConfig.text.utf8))
        } catch {
            return report(nil, "cannot make a copy to edit: \(error)")
        }
        let editor = ConfigEditPolicy.editor(visual: PerchPaths.environment("VISUAL"), editor: PerchPaths.environment("EDITOR"))
        let failure = loop.runOnTerminal { TerminalCommand.edit(copy, with: editor) }
        let edited = failure == nil ? try? FileSystem.read(copy) : nil
        let decision = ConfigEditPolicy.decide(
            editor: editor, editorFailure: failure, original: original.map { ($0.bytes, $0.mode) }, edited: edited,
            // Bug: the problems named the config, though their lines and columns are the copy's.
            problems: edited.map { bytes in
                ConfigLayering.$statePath.withValue(loop.worker.configPaths?.state) { CommandLineTool.problems(in: bytes, path: copy) }
            } ?? [], copyPath: copy)
        switch decision {
        case .refuse(let problem, let keepCopy):
            if !keepCopy { unlink(copy) }
            return report(nil, problem)
        case .install(let mode, let backup, let writesConfig):
            unlink(copy)
            do {
                if let backup { try FileSystem.writeAtomically(backup, to: path + ".bak", mode: mode_t(mode)) }
                if writesConfig, let edited { try FileSystem.writeAtomically(edited, to: path, mode: mode_t(mode)) }
                // Read as every load reads it: over the registries beside the state, when there are any.
                let config = try ConfigLoader.load(PerchPaths(config: path, state: loop.worker.configPaths?.state ?? "/"))
                // Bug: the first config, written over the samples, took over their current
                // account, counts and history, which `perch init` sets aside.
                if original == nil, writesConfig, let paths = loop.worker.configPaths, !paths.configIsExplicit, !paths.stateIsExplicit {
                    // The interface starts afresh only when every file moved: else it keeps what is still on disk.
                    let unmoved = paths.setAsideSamplesState()
                    return ConfigEdited(accounts: config.accounts, configPath: path, problem: nil, samplesSetAside: unmoved.isEmpty)
                }
                return report(config.accounts, nil)
            } catch let error as ConfigError {
                return report(nil, error.lines.joined(separator: "; "))
            } catch {
                return report(nil, "\(error)")
            }
        }
    }
}

extension EffectWorker {
    /// The accounts a config write left (`written`, the user's file alone), with the
    /// registries' accounts over which it is layered when there are any: read again whole.
    func layered(_ written: [Account]) -> [Account] {
        guard let paths = configPaths, access(RegistryPaths(statePath: paths.state).index, F_OK) == 0,
            let loaded = try? ConfigLoader.load(paths)
        else { return written }
        return loaded.accounts
    }
}
