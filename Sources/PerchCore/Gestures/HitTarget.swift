/// What lies under a cell of the screen, as far as pointer gestures care: the root's own
/// targets (tabs, pane rows, outside a layer), and the parts each presented layer declares
/// beside it (``LayerPart``: a sheet's rows, a form's fields, an alert's buttons).
public enum HitTarget: Hashable, Sendable {
    /// Nothing that reacts to the pointer.
    case none
    /// A tab in the tab bar.
    case tab(Tab)
    /// A row of the Catalog list, by item index.
    case catalogRow(Int)
    /// A row of the Settings pane, by row index.
    case settingsRow(Int)
    /// A context menu's border or an alert's text: inside the layer, reacting to nothing.
    case layerChrome
    /// Outside the top presented layer (a tap there dismisses it).
    case outside
    /// A layer's `↑` or `↓` mark at an edge past which its content goes on (a form on a short
    /// screen, a menu's actions): a tap moves that way by this many rows.
    case layerScroll(Int)
    /// A part of a presented layer, with the meaning that layer gives it.
    case part(AnyLayerPart)

    /// The target for `part` of a layer.
    public static func layer(_ part: some LayerPart) -> HitTarget { .part(AnyLayerPart(part)) }

    /// The layer part here when it is a `P`, else nil.
    public func part<P: LayerPart>(_ type: P.Type) -> P? {
        guard case .part(let part) = self else { return nil }
        return part.base as? P
    }

    /// Whether holding the pointer here can become a long-press; elsewhere a press only taps.
    /// The Overview tab (the account sheet) and a Catalog row (its context menu).
    public var acceptsLongPress: Bool {
        if case .catalogRow = self { return true }
        return self == .tab(.overview)
    }

    /// Whether pressing here and moving drags it (``AppEvent/drag(_:_:)``) instead of cancelling
    /// (``LayerPart/acceptsDrag``: the sheet's grabber).
    public var acceptsDrag: Bool {
        guard case .part(let part) = self else { return false }
        return part.base.acceptsDrag
    }
}

/// A part of a presented layer under the pointer, declared by the layer in its own file (as a
/// nested enum) and read back by it in `update`; the root and the recogniser only compare them.
public protocol LayerPart: Hashable, Sendable {
    /// Whether pressing on it and moving drags it instead of cancelling the press. False by default.
    var acceptsDrag: Bool { get }
}

extension LayerPart {
    public var acceptsDrag: Bool { false }
}

/// Any ``LayerPart``; two are equal when they are equal parts of the same type.
public struct AnyLayerPart: Hashable, Sendable {
    /// The layer's own part.
    public let base: any LayerPart

    public init(_ base: some LayerPart) { self.base = base }

    public static func == (lhs: AnyLayerPart, rhs: AnyLayerPart) -> Bool { AnyHashable(lhs.base) == AnyHashable(rhs.base) }
    public func hash(into hasher: inout Hasher) { AnyHashable(base).hash(into: &hasher) }
}
