import PerchKit

/// What Perch's root needs of a layer in its stack, in Perch's terms: every layer is a PerchKit
/// ``Layer`` (its state, keys, parts, messages and drawing its own) hosted by ``KitLayer``, the
/// one type that conforms; this protocol lets ``Presentation`` hold a ``KitLayer`` of any layer.
///
/// A new layer is a PerchKit ``Layer`` in its own file, plus one line in
/// ``InputContext/layers`` (`KitLayer<MyLayer>.inputContext(MyLayer.keyTable)`) so that help and
/// the tests list its keys. The root presents it with ``Intent/present(_:)`` and finds it again
/// by its type (``Presentation/as(_:)``).
public protocol PresentedLayer: ScreenModel, Hashable, Sendable {
    /// Who receives keys while this layer is on top: its title (the help overlay's) and its
    /// key bindings (``KeyBindings/table(for:)``).
    var inputContext: InputContext { get }
    /// Whether it covers the whole screen, tab bar included, so nothing below it is drawn or
    /// animates (a cover, a form).
    var coversScreen: Bool { get }
    /// Whether it takes input; a sheet sliding away after its dismissal does not.
    var isActive: Bool { get }
    /// Whether it is animating: the loop then sends animation frames.
    var isAnimating: Bool { get }
    /// Asked to go: it may animate away (return true, and stop being active) or go at once
    /// (return false).
    mutating func beginDismissal(_ context: ModelContext) -> Bool
    /// After every event: moves its animation on; returns false once it is gone (a sheet that
    /// has slid away, a menu whose item went), and the root removes it.
    mutating func advance(_ context: ModelContext) -> Bool
}

/// One element of the stack of presented layers (``AppState/presented``, bottom first, so the
/// last is on top: keys go to it, and a click outside it dismisses it). It holds any
/// ``PresentedLayer``; two are equal when they hold equal layers of the same type.
public struct Presentation: Hashable, Sendable {
    /// The layer's model.
    public private(set) var layer: any PresentedLayer
    /// The layer's identity for the run, given by the root when it is presented: the outcomes
    /// of the effects it asks for are addressed to it (``ModelID/layer(_:)``). 0 until presented.
    /// It takes no part in equality: two presentations of equal layers look and act alike.
    public internal(set) var id = 0
    /// The model that presented it, which its replies go to (``Intent/reply(_:)``); the root for
    /// a layer the root presents. It takes no part in equality.
    public internal(set) var presenter: ModelID = .root

    public init(_ layer: some PresentedLayer) { self.layer = layer }

    /// The layer when it is an `L`, else nil.
    public func `as`<L: PresentedLayer>(_ type: L.Type) -> L? { layer as? L }

    /// Whether the layer is an `L`.
    public func `is`<L: PresentedLayer>(_ type: L.Type) -> Bool { layer is L }

    /// Changes the layer in place with `change` when it is an `L`; returns what `change`
    /// returned, or nil when it is not an `L`.
    @discardableResult
    mutating func modify<L: PresentedLayer, R>(_ type: L.Type, _ change: (inout L) -> R) -> R? {
        guard var typed = layer as? L else { return nil }
        let result = change(&typed)
        layer = typed
        return result
    }

    /// Whether this layer takes input (``PresentedLayer/isActive``).
    public var isActive: Bool { layer.isActive }
    /// Who receives keys while this layer is on top.
    public var inputContext: InputContext { layer.inputContext }
    /// Whether the layer covers the whole screen.
    public var coversScreen: Bool { layer.coversScreen }
    /// Whether the layer is animating.
    public var isAnimating: Bool { layer.isAnimating }

    /// Asks the layer to go: true when it animates away, false when it must be removed now.
    mutating func beginDismissal(_ context: ModelContext) -> Bool { layer.beginDismissal(context) }

    /// Moves the layer's animation on; false once it is gone.
    mutating func advance(_ context: ModelContext) -> Bool { layer.advance(context) }

    /// Hands `message` to the layer's own model; returns what it asks of the root.
    mutating func update(_ message: ModelMessage, _ context: ModelContext) -> [Intent] {
        layer.update(message, context)
    }

    /// Hands the outcome of an effect the layer asked for to its own model.
    mutating func take(_ outcome: AnyOutcome, _ context: ModelContext) -> [Intent] {
        layer.take(outcome, context)
    }

    /// Draws the layer with its own model.
    func render(into frame: inout Frame, _ context: ModelContext) { layer.render(into: &frame, context) }

    public static func == (lhs: Presentation, rhs: Presentation) -> Bool { AnyHashable(lhs.layer) == AnyHashable(rhs.layer) }

    public func hash(into hasher: inout Hasher) { AnyHashable(layer).hash(into: &hasher) }
}

/// The next ``Presentation/id`` to give (from 1): bookkeeping that takes no part in the root's
/// equality, as two states showing the same layers are alike whatever ids they gave.
struct LayerCounter: Hashable, Sendable {
    private(set) var next = 1

    /// The next id, counted up.
    mutating func take() -> Int {
        defer { next += 1 }
        return next
    }

    static func == (lhs: LayerCounter, rhs: LayerCounter) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}

extension Array where Element == Presentation {
    /// Index and model of the topmost layer that is an `L`, or nil.
    func topmost<L: PresentedLayer>(_ type: L.Type) -> (index: Int, layer: L)? {
        for index in indices.reversed() {
            if let layer = self[index].as(L.self) { return (index, layer) }
        }
        return nil
    }
}
