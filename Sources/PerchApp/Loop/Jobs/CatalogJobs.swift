import PerchDomain
import PerchIdentities
import PerchInterface
import PerchStore

extension LoadCatalog: WorkerJob {
    /// On a thread of its own, so a hanging source delays nothing else; killed when Perch quits.
    func start(on worker: EffectWorker, accounts: [Account], answer: @escaping @Sendable (CatalogLoaded) -> Void) {
        let variables = CatalogVariables.of(accounts.first { $0.id == accountID }, id: accountID)
        let (id, command, timeout) = (accountID, self.command, worker.catalogTimeout)
        worker.catalogQueue.async {
            let output = CapturedCommand.run(command, variables: variables, timeout: timeout, running: worker.catalogCommands)
            if let failure = output.failure {
                answer(.failed(accountID: id, reason: failure))
            } else {
                let parsed = CatalogOutput.parse(output.stdout)
                answer(.loaded(accountID: id, items: parsed.items, skipped: parsed.skipped))
            }
        }
    }
}

extension PreviewCatalogItem: WorkerJob {
    /// On a thread of its own; at most ``CatalogVariables/previewLimit`` bytes are kept.
    func start(on worker: EffectWorker, accounts: [Account], answer: @escaping @Sendable (CatalogPreviewed) -> Void) {
        let variables = CatalogVariables.of(accounts.first { $0.id == accountID }, id: accountID, item: item)
        let (id, command, itemID, timeout) = (accountID, self.command, item.id, worker.catalogTimeout)
        worker.catalogQueue.async {
            let output = CapturedCommand.run(command, variables: variables, timeout: timeout, running: worker.catalogCommands)
            let preview: CatalogPreview =
                output.failure.map { .failed($0.split(separator: "\n").joined(separator: " · ")) }
                ?? .text(String(decoding: output.stdout.prefix(CatalogVariables.previewLimit), as: UTF8.self))
            answer(CatalogPreviewed(accountID: id, itemID: itemID, preview))
        }
    }
}

extension OpenCatalogItem: TerminalJob {
    /// `catalog.open` on the terminal, the item in variables; says how it ended.
    func run(in loop: PerchRunner) -> CatalogItemOpened {
        let variables = CatalogVariables.of(loop.model.accounts.first { $0.id == accountID }, id: accountID, item: item)
        let command = self.command
        let failure = loop.runOnTerminal { TerminalCommand.run(command, variables: variables) }
        return CatalogItemOpened(accountID: accountID, failure: failure)
    }
}

/// What a Catalog command gets besides Perch's environment.
enum CatalogVariables {
    /// Most bytes of a preview kept (the cover scrolls through them).
    static let previewLimit = 1 << 20

    /// The account, and the item for a preview or an open (in variables, never in the shell text).
    static func of(_ account: Account?, id: String, item: CatalogItem? = nil) -> [(String, String)] {
        var result = [
            ("PERCH_ACCOUNT_ID", id), ("PERCH_ACCOUNT_NAME", account?.name ?? ""), ("PERCH_ACCOUNT_HANDLE", account?.handle ?? ""),
        ]
        if let item { result += [("PERCH_ITEM_ID", item.id), ("PERCH_ITEM_TITLE", item.title)] }
        return result
    }
}
