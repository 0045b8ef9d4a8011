/// One account a person can switch to, as listed in the config file (see
/// `docs/files.md`, "Config", for the format).
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
    public var color: AccountColor?
    /// Optional shell command run with `/bin/sh -c` after a switch to this account.
    public var onSwitch: String?
    /// Optional Catalog source, preview and open commands (the config's `catalog` object).
    public var catalog: CatalogCommands?
    /// Who the account is in git, ssh, kube, gcloud, gh, AWS and the environment; applied after a
    /// switch (none by default).
    public var identities: ToolIdentities {
        get { identityBox?.value ?? .none }
        set { identityBox = newValue.isEmpty ? nil : IdentityBox(newValue) }
    }
    /// The identities behind one reference, nil for none: most accounts have none, and an
    /// account held inline grew by some 300 bytes, which made loading 100,000 accounts 25% slower.
    @usableFromInline var identityBox: IdentityBox?

    /// Text fields keep at most ``TextMatching/maximumScalarsPerCluster`` scalars per grapheme
    /// cluster; the rest of a longer one is dropped here, when the account is made.
    /// Inlinable: called from another module, it cost some 800 instructions an account in copies
    /// and reference counting, most of a config's accounts naming no identity nor catalog.
    /// `identities` nil (or `.none`) means none, as empty identities do.
    @inlinable
    public init(
        id: String, name: String, handle: String? = nil, group: String? = nil, color: AccountColor? = nil, onSwitch: String? = nil,
        identities: ToolIdentities? = nil,
        catalog: CatalogCommands? = nil
    ) {
        self.id = id
        self.name = TextMatching.cappingClusters(name).text
        self.handle = handle.map { TextMatching.cappingClusters($0).text }
        self.group = group.map { TextMatching.cappingClusters($0).text }
        self.color = color
        self.onSwitch = onSwitch
        self.catalog = catalog
        self.identityBox = identities.flatMap { $0.isEmpty ? nil : IdentityBox($0) }
    }

    /// Whether the config makes Perch run a command for this account (`onSwitch` or `catalog`),
    /// or gives a shell or a loader a variable it acts on as code (an `env` name for which
    /// ``EnvironmentEntry/isCodeBearingName(_:)`` holds): such a config needs trust.
    // Bug (trust issue): a config others could write set PROMPT_COMMAND through `env`, and it
    // ran at the next prompt.
    public var runsCommands: Bool {
        onSwitch != nil || catalog?.command != nil || catalog?.preview != nil || catalog?.open != nil
            // The config's own `env` only: what the tools export (AWS_PROFILE) is Perch's.
            || (identities[IdentityTool("env")]?.exports ?? []).contains { EnvironmentEntry.isCodeBearingName($0.name) }
    }

    /// Whether `id` is a valid account id: one or more of `a`–`z`, `0`–`9`, `.`, `_`, `-`.
    public static func isValidID(_ id: String) -> Bool {
        !id.isEmpty
            && id.utf8.allSatisfy { byte in
                (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2E || byte == 0x5F || byte == 0x2D
            }
    }

    /// The four accounts used when there is no config file. They name no real tool, only a
    /// harmless variable each (`SAMPLE_ROLE`), so a switch among them never changes git,
    /// ssh, kube, gcloud or gh, yet `perch env` and Overview still show what identities do.
    public static let samples: [Account] = [
        Account(id: "work", name: "Work", handle: "@ada.lovelace", color: .blue, identities: sample("employee"), catalog: .sampleEntries),
        Account(id: "personal", name: "Personal", handle: "@ada", color: .green, identities: sample("self"), catalog: .sampleEntries),
        Account(
            id: "oss", name: "Open Source", handle: "@ada-oss", color: .magenta, identities: sample("maintainer"), catalog: .sampleEntries),
        Account(
            id: "side", name: "Side Project", handle: "@analytical-engine", color: .yellow, identities: sample("founder"),
            catalog: .sampleEntries),
    ]

    private static func sample(_ role: String) -> ToolIdentities {
        ToolIdentities([.exporting([EnvironmentEntry(name: "SAMPLE_ROLE", value: role)], as: IdentityTool("env"))])
    }
}

/// An account's identities behind a reference (see ``Account/identities``); compared by value.
@usableFromInline
final class IdentityBox: Hashable, Sendable {
    let value: ToolIdentities
    @usableFromInline init(_ value: ToolIdentities) { self.value = value }
    @usableFromInline static func == (a: IdentityBox, b: IdentityBox) -> Bool { a === b || a.value == b.value }
    @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// The colour of an account's mark, one of the eight colours every terminal has, as the config
/// names it (`"blue"`). The interface draws it as PerchKit's terminal colour of the same name and
/// number (a test holds the two lists to each other).
public enum AccountColor: Int, CaseIterable, Hashable, Sendable {
    case black, red, green, yellow, blue, magenta, cyan, white

    /// The colour's lower-case name, as the config writes it (`"red"`).
    public var name: String { String(describing: self) }

    /// The colour named `name` (lower-case, as in ``name``), or nil.
    public init?(name: String) {
        guard let color = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = color
    }
}
