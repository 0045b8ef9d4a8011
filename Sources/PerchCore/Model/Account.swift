/// One account a person can switch to, as listed in the config file (see the README's
/// "Config" section for the format).
public struct Account: Hashable, Sendable {
    /// Stable identifier, unique in the config, of the characters `a`–`z`, `0`–`9`, `.`, `_`, `-`.
    public var id: String
    /// Display name.
    public var name: String
    /// Optional handle shown beside the name, e.g. `@someone`.
    public var handle: String?
    /// Optional group; accounts of a group are listed together.
    public var group: String?
    /// Optional colour of the account's mark.
    public var color: TerminalColor?
    /// Optional shell command run with `/bin/sh -c` after a switch to this account.
    public var onSwitch: String?
    /// Optional Catalog source, preview and open commands (the config's `catalog` object).
    public var catalog: CatalogCommands?

    /// Text fields keep at most ``TextMatching/maximumScalarsPerCluster`` scalars per grapheme
    /// cluster; the rest of a longer one is dropped here, when the account is made.
    public init(
        id: String, name: String, handle: String? = nil, group: String? = nil, color: TerminalColor? = nil, onSwitch: String? = nil,
        catalog: CatalogCommands? = nil
    ) {
        self.id = id
        self.name = TextMatching.cappingClusters(name).text
        self.handle = handle.map { TextMatching.cappingClusters($0).text }
        self.group = group.map { TextMatching.cappingClusters($0).text }
        self.color = color
        self.onSwitch = onSwitch
        self.catalog = catalog
    }

    /// Whether the config makes Perch run a command for this account (`onSwitch` or `catalog`).
    public var runsCommands: Bool {
        onSwitch != nil || catalog?.command != nil || catalog?.preview != nil || catalog?.open != nil
    }

    /// Whether `id` is a valid account id: one or more of `a`–`z`, `0`–`9`, `.`, `_`, `-`.
    public static func isValidID(_ id: String) -> Bool {
        !id.isEmpty
            && id.utf8.allSatisfy { byte in
                (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2E || byte == 0x5F || byte == 0x2D
            }
    }

    /// The four accounts used when there is no config file.
    public static let samples: [Account] = [
        Account(id: "work", name: "Work", handle: "@ada.lovelace", color: .blue, catalog: .sampleEntries),
        Account(id: "personal", name: "Personal", handle: "@ada", color: .green, catalog: .sampleEntries),
        Account(id: "oss", name: "Open Source", handle: "@ada-oss", color: .magenta, catalog: .sampleEntries),
        Account(id: "side", name: "Side Project", handle: "@analytical-engine", color: .yellow, catalog: .sampleEntries),
    ]
}
