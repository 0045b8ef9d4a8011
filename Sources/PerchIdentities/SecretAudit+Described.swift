import PerchDomain

extension DescribedToolAdapter: SecretAuditing {
    /// The files this tool keeps secrets in (its description's `secrets`, docs/tools.md), for
    /// each account naming it, its `{key}` put in: where the tool keeps them by design, as the
    /// AWS CLI's caches, so a finding (`high`) only when group or others can read one. Each file
    /// once, with every account it serves.
    func auditSecrets(_ run: inout SecretAudit.Run) { run.described(self) }
}

extension SecretAudit.Run {
    /// ``DescribedToolAdapter/auditSecrets(_:)``.
    mutating func described(_ adapter: DescribedToolAdapter) {
        var served: [(path: String, accounts: [String])] = []
        if !adapter.description.secrets.isEmpty {
            for account in accounts {
                guard let setting = account.identities[adapter.tool] else { continue }
                let values = setting.value(as: DescribedToolAdapter.Values.self)?.resolved ?? [:]
                for template in adapter.description.secrets {
                    let path = environment.expandingTilde(DescribedToolAdapter.fill(template, values))
                    // A key the account does not give: nothing to look at.
                    guard !path.contains(Character("{")) else { continue }
                    if let index = served.firstIndex(where: { $0.path == path }) {
                        if !served[index].accounts.contains(account.id) { served[index].accounts.append(account.id) }
                    } else {
                        served.append((path, [account.id]))
                    }
                }
            }
        }
        for (path, users) in served {
            guard let file = read(path) else { continue }
            readableByOthers(file, accounts: users)
        }
    }
}
