extension Array {
    /// Removes, once the layers whose ids are in `gone` have gone, every element they presented,
    /// then every element those presented, and so on: a layer whose presenter has gone has no one
    /// to reply to (an alert over a menu whose item went). The one rule for a stack of layers,
    /// ``TabApp``'s and an app root's own.
    /// - Parameters:
    ///   - gone: ids of the layers that went.
    ///   - id: an element's id.
    ///   - presenter: the id of the layer that presented an element; nil when no layer did (a
    ///     pane, the app, the root).
    public mutating func removePresented(by gone: Set<Int>, id: (Element) -> Int, presenter: (Element) -> Int?) {
        var gone = gone
        while !gone.isEmpty {
            gone = Set(filter { presenter($0).map(gone.contains) ?? false }.map(id))
            removeAll { gone.contains(id($0)) }
        }
    }
}
