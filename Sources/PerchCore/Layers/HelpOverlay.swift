/// The help overlay (`?`): the bindings of the context it was opened from, from ``KeyBindings``,
/// and how far they are scrolled.
public struct HelpOverlay: PresentedLayer {
    /// The context below the overlay (the one it describes).
    public var context: InputContext
    /// Index of the first binding shown.
    public var scroll = 0

    public init(context: InputContext) { self.context = context }

    public var inputContext: InputContext { .help }

    /// The bindings listed.
    public var bindings: [KeyBinding] { KeyBindings.table(for: context) }

    public mutating func update(_ message: ModelMessage, _ context: ModelContext) -> [Intent] {
        let up: Bool
        switch message {
        case .action(.moveUp): up = true
        case .action(.moveDown): up = false
        case .scroll(_, let notches): up = notches < 0
        default: return []
        }
        let visible = HelpLayout(lineCount: bindings.count, screen: context.size).visibleRows
        scroll = max(0, min(scroll + (up ? -1 : 1), bindings.count - visible))
        return []
    }

    /// Blank columns between a key and what it does.
    static let columnGap = 2

    public func render(into frame: inout Frame, _ context: ModelContext) {
        let bindings = self.bindings
        let layout = HelpLayout(lineCount: bindings.count, screen: context.size)
        let box = layout.frame
        frame.hits.mark(box, .helpBody)
        guard box.width >= 4, box.height >= 2 else { return }
        frame.screen.box(box)
        frame.screen.put(" Keys · \(self.context.title) ", column: box.x + 2, row: box.y, style: .bold, width: box.width - 4)
        var footer = " Esc close "
        if layout.visibleRows < bindings.count {
            footer = " \(scroll + 1)–\(min(bindings.count, scroll + layout.visibleRows)) of \(bindings.count) ·" + footer
        }
        frame.screen.put(footer, column: box.x + 2, row: box.maxY - 1, style: .dim, width: box.width - 4)
        let inner = box.width - 2
        // Keys, then two blank columns, then what they do: with one, the longest key ran into its
        // summary ("click above the sheet close it").
        let keyWidth = min(inner / 2 - 1, bindings.map { DisplayWidth.columns(of: $0.label) }.max() ?? 0)
        for offset in 0..<layout.visibleRows {
            let index = scroll + offset
            guard bindings.indices.contains(index) else { break }
            let row = box.y + 1 + offset
            let binding = bindings[index]
            frame.screen.put(DisplayWidth.truncated(binding.label, to: keyWidth), column: box.x + 2, row: row, style: .bold)
            let x = box.x + 2 + keyWidth + Self.columnGap
            if x < box.maxX - 1 {
                frame.screen.put(DisplayWidth.truncated(binding.summary, to: box.maxX - 1 - x), column: x, row: row)
            }
        }
    }
}

extension InputContext {
    /// The help overlay's keys.
    public static let help = InputContext(
        title: "Help",
        bindings: [
            KeyBinding(KeyBindings.keys(.escape, .character("?")), "Esc ?", .dismiss, "close help"),
            KeyBinding(gesture: "click outside", "close help"),
            KeyBinding(KeyBindings.keys(.up, .character("k")), "↑ k", .moveUp, "scroll up"),
            KeyBinding(KeyBindings.keys(.down, .character("j")), "↓ j", .moveDown, "scroll down"),
        ])
}

extension HitTarget {
    /// Inside the help overlay.
    public static let helpBody = HitTarget.layer(HelpOverlay.Part.body)
}

extension HelpOverlay {
    /// The help overlay's parts under the pointer.
    public enum Part: LayerPart {
        /// Inside the box.
        case body
    }
}
