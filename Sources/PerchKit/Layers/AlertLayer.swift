/// An alert (UIAlertController's `.alert` style): a bold box centred over the dimmed screen with
/// a title, a message wrapped to the box, and a row of buttons, right-aligned. The focus starts on
/// the cancel button (else the first), so a stray `Enter` never confirms. `←`/`h`/`Shift-Tab` and
/// `→`/`l`/`Tab` move the focus (wrapping round), `Enter` presses the focused button, a tap presses
/// the button tapped, and `Esc` presses the cancel button; the alert replies with the index of
/// the button pressed (``Reply``) and goes. `Esc` with no cancel button, or a tap outside, closes
/// it without a reply.
public struct AlertLayer: Layer, Hashable {
    /// One button.
    public struct Button: Hashable, Sendable {
        /// What pressing the button means, as UIAlertAction's styles do.
        public enum Role: Hashable, Sendable {
            /// An ordinary button.
            case normal
            /// The button that changes nothing: it has the focus first and `Esc` presses it.
            case cancel
            /// A button that destroys something: drawn in red.
            case destructive
        }

        /// The label, drawn as `[ label ]`.
        public var label: String
        /// What pressing it means.
        public var role: Role

        /// A button labelled `label` (drawn `[ label ]`), with its `role`.
        public init(_ label: String, role: Role = .normal) {
            self.label = label
            self.role = role
        }
    }

    /// The bold first row.
    public var title: String
    /// The text below the title, wrapped at spaces to the box's inner width.
    public var message: String
    /// The buttons, left to right.
    public var buttons: [Button]
    /// Index in ``buttons`` of the focused button.
    public var focus: Int

    /// An alert titled `title` saying `message`, with `buttons` (left to right); the focus on the
    /// first button whose role is ``Button/Role/cancel``, else on the first.
    public init(title: String, message: String, buttons: [Button]) {
        self.title = title
        self.message = message
        self.buttons = buttons
        self.focus = buttons.firstIndex { $0.role == .cancel } ?? 0
    }

    /// The index in ``buttons`` of the button pressed.
    public typealias Reply = Int

    /// What the alert's keys mean.
    public enum Verb: Hashable, Sendable { case previous, next, press, cancel }

    /// What the alert marks in the hit map.
    public enum Part: HitPart {
        /// A button, by index in ``AlertLayer/buttons``.
        case button(Int)
    }

    /// Its key bindings: what help lists under its title, and the verbs its keys mean.
    public var keys: KeyTable<Verb> { Self.keyTable }

    /// The key table of every alert, made once (the root reads it for each key pressed).
    public static let keyTable = KeyTable<Verb>(
        "Alert",
        [
            .init([KeyEvent(.left), .char("h"), KeyEvent(.tab, modifiers: .shift)], "← h Shift-Tab", "previous button", .previous),
            .init([KeyEvent(.right), .char("l"), KeyEvent(.tab)], "→ l Tab", "next button", .next),
            .init([KeyEvent(.enter)], "Enter", "press the focused button", .press),
            .init([KeyEvent(.escape)], "Esc", "cancel", .cancel),
            .init([], "click a button", "press it", nil),
            .init([], "click outside", "close", nil),
        ])

    /// Takes a verb or a tap on one of its parts; returns its reply and dismissal, or nothing.
    public mutating func update(_ input: ComponentInput<Verb>, _ context: Context) -> [Reaction<Never>] {
        guard !buttons.isEmpty else { return input == .verb(.cancel) || input == .verb(.press) ? [.dismiss] : [] }
        switch input {
        case .verb(.previous): focus = (focus + buttons.count - 1) % buttons.count
        case .verb(.next): focus = (focus + 1) % buttons.count
        case .verb(.press): return press(focus)
        case .verb(.cancel):
            guard let cancel = buttons.firstIndex(where: { $0.role == .cancel }) else { return [.dismiss] }
            return press(cancel)
        case .tap(let target):
            if case .button(let index)? = target.part(Part.self), buttons.indices.contains(index) { return press(index) }
        default: break
        }
        return []
    }

    /// Replies with button `index` and goes.
    private mutating func press(_ index: Int) -> [Reaction<Never>] {
        focus = index
        return [Self.reply(index), .dismiss]
    }

    /// Where the alert draws itself in `area`.
    public func layout(in area: Rect) -> Layout {
        Layout(title: title, message: message, buttons: buttons.map(\.label), area: area)
    }

    /// Draws it into `area` (the whole screen, columns × rows) and marks its parts in the hit map.
    public func render(into frame: inout Frame, in area: Rect, _ context: Context) {
        frame.screen.dimAll()
        let layout = layout(in: area)
        let box = layout.frame
        frame.hits.mark(box, .layerChrome)
        guard box.width >= 5, box.height >= 3 else { return }
        frame.screen.clearCutWords(beside: [box])
        frame.screen.box(box, style: .bold)
        let inner = box.width - 4
        for (offset, line) in layout.titleLines.enumerated() {
            frame.screen.put(line, column: box.x + 2, row: box.y + 1 + offset, style: .bold, width: inner)
        }
        let messageTop = box.y + 1 + max(1, layout.titleLines.count)
        for (offset, line) in layout.messageLines.enumerated() {
            frame.screen.put(line, column: box.x + 2, row: messageTop + offset, width: inner)
        }
        for (index, rect) in layout.buttons.enumerated() {
            frame.hits.mark(rect, .hit(Part.button(index)))
            var style: Style
            switch buttons[index].role {
            case .normal: style = .plain
            case .cancel: style = .bold
            case .destructive: style = Style(foreground: .red, bold: true)
            }
            if index == focus { style.reverse = true }
            frame.screen.put(
                layout.buttonTexts[index], column: rect.x, row: rect.y, style: style, width: box.maxX - 1 - rect.x)
        }
    }
}

extension AlertLayer {
    /// Geometry of an alert: a box centred in the area, as wide as its widest row plus a border
    /// and a column of space each side (at most ``maximumWidth`` columns, and 2 fewer than the
    /// area's), holding the title and the message, each wrapped to it, a blank row and the
    /// buttons, right-aligned.
    public struct Layout: Hashable, Sendable {
        /// Widest box drawn, in columns.
        public static let maximumWidth = 52
        /// Rows besides the message's: border, title, blank, buttons, border.
        public static let chromeRows = 5
        /// Most rows the title takes; a longer one ends in `…`.
        public static let maximumTitleRows = 3

        /// The box, border included.
        public let frame: Rect
        /// The title wrapped to the box (at most ``maximumTitleRows`` lines, fewer on a short area).
        public let titleLines: [String]
        /// The message wrapped to the box (as many lines as fit in the area).
        public let messageLines: [String]
        /// Each button's cells, left to right (`[ Cancel ]`).
        public let buttons: [Rect]
        /// Each button as drawn (``buttonTexts(_:width:)``): `[ Cancel ]`, or on a box too narrow
        /// for that, `[Cancel]`, or the labels cut (`[Canc…]`), so that no two overlap.
        public let buttonTexts: [String]

        /// The alert with `title`, `message` and buttons labelled `labels` in `area`.
        public init(title: String, message: String, buttons labels: [String], area: Rect) {
            let buttonsWidth = labels.map { DisplayWidth.columns(of: Self.buttonText($0)) + 1 }.reduce(0, +)
            let widest = max(DisplayWidth.columns(of: title), DisplayWidth.columns(of: message), buttonsWidth)
            let width = max(0, min(widest + 4, Self.maximumWidth, area.width - 2))
            // Bug: a title wider than the box was cut (at 20 columns, "Delete “Swift…").
            titleLines = DisplayWidth.wrapped(title, to: width - 4, rows: max(1, min(Self.maximumTitleRows, area.height - Self.chromeRows)))
            let extraTitleRows = max(0, titleLines.count - 1)
            messageLines = DisplayWidth.wrapped(message, to: width - 4, rows: max(0, area.height - Self.chromeRows - extraTitleRows))
            let height = max(0, min(extraTitleRows + messageLines.count + Self.chromeRows, area.height))
            frame = Rect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
            buttonTexts = Self.buttonTexts(labels, width: width - 3)
            buttons = Self.buttons(buttonTexts, in: frame)
        }

        // Bug: on a screen 24 columns wide the buttons overlapped (`[ Cancel [ Delete ]`).
        /// Buttons labelled `labels` as drawn in `width` columns with a column between each:
        /// `[ label ]` where they fit, else `[label]`, else each label cut to an equal share.
        public static func buttonTexts(_ labels: [String], width: Int) -> [String] {
            func fits(_ texts: [String]) -> Bool { texts.map(DisplayWidth.columns(of:)).reduce(texts.count - 1, +) <= width }
            let full = labels.map(buttonText)
            if fits(full) { return full }
            let compact = labels.map { "[\($0)]" }
            if fits(compact) { return compact }
            let share = max(1, (width - (labels.count - 1)) / max(1, labels.count) - 2)
            return labels.map { "[" + DisplayWidth.truncated($0, to: share) + "]" }
        }

        /// The cells of buttons drawn as `texts` (``buttonTexts(_:width:)``) on the second row
        /// from the bottom of `box`, right-aligned 2 columns from its right edge with 1 column
        /// between them, left to right; a button pushed past the box's left edge starts at it.
        public static func buttons(_ texts: [String], in box: Rect) -> [Rect] {
            var x = box.maxX - 2
            var rects: [Rect] = []
            for text in texts.reversed() {
                let w = DisplayWidth.columns(of: text)
                x -= w
                rects.insert(Rect(x: max(box.x + 1, x), y: box.maxY - 2, width: w, height: 1), at: 0)
                x -= 1
            }
            return rects
        }

        /// A button as drawn, e.g. `[ Delete ]`.
        public static func buttonText(_ label: String) -> String { "[ \(label) ]" }
    }
}
