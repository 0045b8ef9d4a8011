/// Where an account's Catalog comes from, as its config's `catalog` object names it (as fzf's
/// source and preview commands, per account). Each command is shell text run with `/bin/sh -c`.
public struct CatalogCommands: Hashable, Sendable {
    /// Prints the items: one per line, or JSON Lines with `id`, `title` and `subtitle`
    /// (`catalog.command`). Run off the interface's thread with a timeout; nil lists the account's
    /// config fields instead.
    public var command: String?
    /// Prints the preview of one item (`catalog.preview`), with the item in `PERCH_ITEM_ID` and
    /// `PERCH_ITEM_TITLE`, never in the shell text.
    public var preview: String?
    /// Opens one item on the terminal (`catalog.open`), with the interface suspended.
    public var open: String?
    /// The embedded sample accounts' harmless sample entries, listed without running anything.
    public var samples: Bool

    public init(command: String? = nil, preview: String? = nil, open: String? = nil, samples: Bool = false) {
        self.command = command
        self.preview = preview
        self.open = open
        self.samples = samples
    }

    /// The embedded sample accounts' source: sample entries, nothing run.
    public static let sampleEntries = CatalogCommands(samples: true)
}
