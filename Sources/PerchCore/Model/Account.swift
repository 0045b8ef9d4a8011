/// One account a person can switch to, as listed in the config file.
public struct Account: Codable, Hashable, Sendable {
    /// Stable identifier, unique in the config.
    public var id: String
    /// Display name.
    public var name: String
    /// Optional handle shown beside the name, e.g. `@someone`.
    public var handle: String?

    public init(id: String, name: String, handle: String? = nil) {
        self.id = id
        self.name = name
        self.handle = handle
    }

    /// The four accounts used when there is no config file.
    public static let samples: [Account] = [
        Account(id: "work", name: "Work", handle: "@ada.lovelace"),
        Account(id: "personal", name: "Personal", handle: "@ada"),
        Account(id: "oss", name: "Open Source", handle: "@ada-oss"),
        Account(id: "side", name: "Side Project", handle: "@analytical-engine"),
    ]
}
