/// What lies under a cell of the screen, as far as pointer gestures care: nothing, the chrome
/// or the outside of a presented layer, a layer's scroll mark, or a part a component declared
/// (``HitPart``: a tab of the ``TabBar``, a sheet's row, a pane's list row, an alert's button).
///
/// Components mark their parts in the ``HitMap`` while they draw (``Frame/hits``); the
/// ``GestureRecognizer`` hit-tests the map drawn last, and the component reads its own part
/// back in its update (``part(_:)``).
public enum HitTarget: Hashable, Sendable {
    /// Nothing that reacts to the pointer.
    case none
    /// A layer's border or text: inside the layer, reacting to nothing.
    case layerChrome
    /// Outside the top presented layer (a tap there dismisses it).
    case outside
    /// A layer's `↑` or `↓` mark at an edge past which its content goes on: a tap moves that way
    /// by this many rows.
    case layerScroll(Int)
    /// A part of a component, with the meaning that component gives it.
    case part(AnyHitPart)

    /// The target for `part` of a component.
    public static func hit(_ part: some HitPart) -> HitTarget { .part(AnyHitPart(part)) }

    /// The component part here when it is a `P`, else nil.
    public func part<P: HitPart>(_ type: P.Type) -> P? {
        guard case .part(let part) = self else { return nil }
        return part.base as? P
    }

    /// Whether holding the pointer here can become a long-press (``HitPart/acceptsLongPress``);
    /// elsewhere a press only taps.
    public var acceptsLongPress: Bool {
        guard case .part(let part) = self else { return false }
        return part.base.acceptsLongPress
    }

    /// Whether pressing here and moving drags it (``UIEvent/drag(_:_:)``) instead of cancelling
    /// (``HitPart/acceptsDrag``: a sheet's grabber).
    public var acceptsDrag: Bool {
        guard case .part(let part) = self else { return false }
        return part.base.acceptsDrag
    }
}

/// A part of a component under the pointer, declared by the component in its own file (as a
/// nested enum) and read back by it in its update; the root and the recogniser only compare them.
public protocol HitPart: Hashable, Sendable {
    /// Whether pressing on it and moving drags it instead of cancelling the press. False by default.
    var acceptsDrag: Bool { get }
    /// Whether holding the pointer on it for the long-press duration fires
    /// ``UIEvent/longPress(_:)``. False by default.
    var acceptsLongPress: Bool { get }
}

extension HitPart {
    /// False: moving off it cancels the press.
    public var acceptsDrag: Bool { false }
    /// False: a press on it can only tap.
    public var acceptsLongPress: Bool { false }
}

/// Any ``HitPart``; two are equal when they are equal parts of the same type.
public struct AnyHitPart: Hashable, Sendable {
    /// The component's own part.
    public let base: any HitPart

    /// Wraps `base`.
    public init(_ base: some HitPart) { self.base = base }

    /// Equal when both parts are of the same type and equal as that type.
    public static func == (lhs: AnyHitPart, rhs: AnyHitPart) -> Bool { AnyHashable(lhs.base) == AnyHashable(rhs.base) }
    /// Hashes the part as `AnyHashable` does, its type included.
    public func hash(into hasher: inout Hasher) { AnyHashable(base).hash(into: &hasher) }
}
