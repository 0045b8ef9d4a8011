/// What a full-screen cover shows (UIModalPresentationStyle `.fullScreen`): it hides
/// everything below it, tab bar included, until it is closed with its `✕` or `Esc`.
public enum Cover: Hashable, Sendable {
    /// A Catalog item, opened from its context menu.
    case item(CatalogItem)
}
