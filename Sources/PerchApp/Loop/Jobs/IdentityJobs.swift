import PerchDomain
import PerchIdentities
import PerchInterface
import PerchStore

extension ApplyIdentities: WorkerJob {
    /// `r`: on the store's queue, the same switch session as a pick, to the current account,
    /// every tool again. Without an identity environment or a store, every tool is skipped.
    func start(on worker: EffectWorker, accounts: [Account], answer: @escaping @Sendable (IdentitiesApplied) -> Void) {
        guard let account = accounts.first(where: { $0.id == accountID }) else { return }
        let (id, previous, afterSwitch) = (accountID, self.previous, self.afterSwitch)
        worker.storeQueue.async {
            let report: IdentityReport
            if let identities = worker.identities, let store = worker.store {
                let session = identities.session(store: store, source: .tui, lockTimeout: worker.lockTimeout, force: true)
                do {
                    report = try session.run(to: account).report
                } catch {
                    report = IdentityReport(
                        accountID: id,
                        results: account.identities.tools.map { IdentityResult(tool: $0, status: .failed, detail: "\(error)") })
                }
                if let state = FileSystem.identity(of: store.path) { worker.ownWrite = state }
            } else {
                report = IdentityReport(
                    accountID: id,
                    results: account.identities.tools.map { IdentityResult(tool: $0, status: .skipped, detail: "no identity environment") })
            }
            answer(IdentitiesApplied(report, previous: previous, afterSwitch: afterSwitch))
        }
    }
}

extension CheckIdentities: WorkerJob {
    /// On the identities' queue, so a slow `gcloud` delays neither a save nor a redraw. Per-shell
    /// tools are the shell's business: the interface's own environment is the one it started
    /// with, not what its shell will get after a pick; only when their credentials end (AWS)
    /// is that read, for the line Overview shows (``IdentitySwitcher/perShellCheck(_:of:now:)``).
    func start(on worker: EffectWorker, accounts: [Account], answer: @escaping @Sendable (IdentitiesChecked) -> Void) {
        guard let account = accounts.first(where: { $0.id == accountID }), let identities = worker.identities else { return }
        let id = accountID
        worker.identityQueue.async {
            let checks = account.identities.settings.compactMap {
                $0.isPerShell ? identities.perShellCheck($0.tool, of: account) : identities.check($0.tool, of: account)
            }
            answer(IdentitiesChecked(accountID: id, checks))
        }
    }
}

extension VerifyIdentities: WorkerJob {
    /// On the identities' queue, as `perch verify` in the folder Perch was started in; per-shell
    /// tools are the shell's business.
    func start(on worker: EffectWorker, accounts: [Account], answer: @escaping @Sendable (IdentitiesVerified) -> Void) {
        guard let account = accounts.first(where: { $0.id == accountID }), let identities = worker.identities else { return }
        let (id, online) = (accountID, self.online)
        worker.identityQueue.async {
            var context = identities.context
            context.timeout = 5000
            let proof = ProofContext(tool: context, folder: ShellMarker.workingDirectory(), account: account)
            let answers = IdentityProof.verify(proof, online: online, adapters: ToolAdapters.registry.filter { !$0.isPerShell })
            answer(IdentitiesVerified(accountID: id, answers))
        }
    }
}
