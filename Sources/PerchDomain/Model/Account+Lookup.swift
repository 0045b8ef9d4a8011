/// What an account given by a person (an id or a name) refers to.
public enum AccountLookup: Hashable, Sendable {
    /// Exactly one account.
    case found(Account)
    /// Several accounts have this name (ignoring case).
    case ambiguous([Account])
    /// No account: the candidates are those whose id or name contains the text (ignoring
    /// case), or every account when none does.
    case unknown(candidates: [Account])
}

extension Account {
    /// Finds the account `text` refers to in `accounts`: its exact id, else its name when
    /// exactly one name equals `text` ignoring case.
    public static func lookup(_ text: String, in accounts: [Account]) -> AccountLookup {
        if let exact = accounts.first(where: { $0.id == text }) { return .found(exact) }
        let folded = text.lowercased()
        let named = accounts.filter { $0.name.lowercased() == folded }
        if named.count == 1 { return .found(named[0]) }
        if named.count > 1 { return .ambiguous(named) }
        let near = accounts.filter { $0.id.lowercased().contains(folded) || $0.name.lowercased().contains(folded) }
        return .unknown(candidates: near.isEmpty ? accounts : near)
    }
}
