import PerchDomain

/// An account's fields as the config names them, for `perch current --field PATH` and the
/// `identities` of `perch list --json` and `perch current --json`. They are read from the
/// account as the config writer writes it (``ConfigWriter/jsonLine(_:)``), so a key means the
/// same here as in the file, tools' keys included, with no list of tools of its own.
public enum AccountFields {
    /// The account as one JSON object: `id`, `name`, the optional fields it has, then each
    /// tool it names (`"git": {"email": …}`), shorthands written out (`"aws": {"profile": …}`).
    /// Every value of `env` is shown as ``EnvironmentEntry/shown``: a secret (by its name or its
    /// shape) as `…` and its last 4 characters.
    // Bug (trust issue): list --json, current --json and current --field printed env tokens whole.
    public static func json(_ account: Account) -> JSONValue {
        let text = ConfigWriter.jsonLine(account)
        guard let document = try? JSONReader.read(Array(text.utf8)), case .object(let members) = JSONValue(document, document.root)
        else { return .null }
        return .object(
            members.map { key, value in
                guard key == "env", case .object(let entries) = value else { return (key, value) }
                return (
                    key,
                    .object(
                        entries.map { name, value in
                            guard case .string(let text) = value else { return (name, value) }
                            return (name, .string(EnvironmentEntry.shown(name, text)))
                        })
                )
            })
    }

    /// The tools the account names, as an object keyed by tool (`{"kube": {"context": "prod"}}`);
    /// an empty object when it names none.
    public static func identities(_ account: Account) -> JSONValue {
        guard case .object(let members) = json(account) else { return .object([]) }
        return .object(members.filter { IdentityConfig.keys.contains($0.0) })
    }

    /// The value at the dotted `path` (`kube.context`, `env.TEAM`, `name`), or nil when the
    /// account has nothing there.
    public static func value(of account: Account, at path: String) -> JSONValue? {
        var value = json(account)
        for key in path.split(separator: ".", omittingEmptySubsequences: false) {
            guard case .object(let members) = value, let member = members.last(where: { $0.0 == key }) else { return nil }
            value = member.1
        }
        return value
    }

    /// `value` as one line for a prompt: a string as it is, a number or true/false as written,
    /// a list's items joined by commas, an object as compact JSON; "" for null.
    public static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: ""
        case .bool(let flag): flag ? "true" : "false"
        case .number(let number): number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .string(let text): text
        case .array(let items): items.map(text).joined(separator: ",")
        case .object(let members): "{" + members.map { ConfigWriter.jsonString($0.0) + ": " + json($0.1) }.joined(separator: ", ") + "}"
        }
    }

    /// `value` as JSON text.
    static func json(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): ConfigWriter.jsonString(text)
        case .array(let items): "[" + items.map(json).joined(separator: ", ") + "]"
        case .null: "null"
        default: text(value)
        }
    }
}
