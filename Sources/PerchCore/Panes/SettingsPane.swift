/// Facts about this run that the Settings pane shows.
public struct RunInfo: Hashable, Sendable {
    /// Long-press duration in effect, in milliseconds.
    public var longPressMilliseconds: Int64
    /// Where accounts come from: a config file path, or a note that the samples are in use.
    public var configDescription: String
    /// Path of the state file.
    public var statePath: String
    /// How a key hold is recognised in this terminal.
    public var keyHold: KeyHoldMode = .autoRepeat

    public init(longPressMilliseconds: Int64 = 500, configDescription: String = "embedded sample accounts", statePath: String = "") {
        self.longPressMilliseconds = longPressMilliseconds
        self.configDescription = configDescription
        self.statePath = statePath
    }
}

/// An action row of the Settings pane.
public enum SettingsAction: CaseIterable, Hashable, Sendable {
    case switchAccount
    /// Opens the `Add account…` form.
    case addAccount
    /// Turns the sheet's animations off or on.
    case reduceMotion
    /// Switches the sheet between edge-to-edge and inset.
    case sheetStyle

    public var title: String {
        switch self {
        case .switchAccount: "Switch account…"
        case .addAccount: "Add account…"
        case .reduceMotion: "Reduce motion"
        case .sheetStyle: "Sheet style"
        }
    }
}

/// The Settings pane: facts about the run, then action rows (switch account, add an account,
/// reduce motion, sheet style) under a cursor.
public struct SettingsPane: ScreenModel, Hashable, Sendable {
    /// The cursor over ``SettingsAction/allCases``.
    public internal(set) var list = ListCursor()

    /// List rows before the first action row (the information lines and a blank line).
    static let actionsOffset = 5

    public init() {}

    public mutating func update(_ message: ModelMessage, _ context: ModelContext) -> [Intent] {
        let count = SettingsAction.allCases.count
        let visible = context.layout.listRows
        switch message {
        case .action(.activate):
            return Self.intents(for: SettingsAction.allCases[list.cursor])
        case .action(let action):
            ListMove.apply(action, to: &list, count: count, visible: visible)
        case .tap(.settingsRow(let index)):
            list.moveTo(index, count: count, visible: visible)
            return Self.intents(for: SettingsAction.allCases[list.cursor])
        case .relayout:
            list.clamp(count: count, visible: visible)
        default: break
        }
        return []
    }

    /// What running a Settings action asks of the root.
    private static func intents(for action: SettingsAction) -> [Intent] {
        switch action {
        case .switchAccount: [.openSheet]
        case .addAccount: [.openAccountForm]
        case .reduceMotion: [.toggleReduceMotion]
        case .sheetStyle: [.toggleSheetStyle]
        }
    }

    public func render(into frame: inout Frame, _ context: ModelContext) {
        let rect = context.layout.pane
        frame.screen.header("Settings", in: rect)
        let first = rect.y + Layout.paneHeaderRows
        let info = context.info
        let rows: [(String, String)] = [
            ("Long-press duration", "\(info.longPressMilliseconds) ms"),
            ("Key hold", info.keyHold.summary),
            ("Config file", info.configDescription),
            ("State file", info.statePath),
        ]
        for (offset, (label, value)) in rows.enumerated() where first + offset < rect.maxY {
            let x = frame.screen.put("   " + label, column: rect.x, row: first + offset, style: .dim, width: rect.width)
            let valueColumn = max(x + 1, rect.x + 25)
            let valueWidth = max(0, rect.maxX - valueColumn)
            frame.screen.put(
                DisplayWidth.truncatedLeading(value, to: valueWidth), column: valueColumn, row: first + offset, width: valueWidth)
        }
        for (index, action) in SettingsAction.allCases.enumerated() {
            let row = first + Self.actionsOffset + index
            guard row < rect.maxY else { break }
            frame.hits.mark(Rect(x: rect.x, y: row, width: rect.width, height: 1), .settingsRow(index))
            let isCursor = index == list.cursor
            let style = isCursor ? Style.selected : Style.plain
            let value: String
            switch action {
            case .switchAccount, .addAccount: value = ""
            case .reduceMotion: value = ": " + (context.reduceMotion ? "on" : "off")
            case .sheetStyle: value = ": " + context.sheetStyle.rawValue
            }
            frame.screen.put(
                (isCursor ? " ▸ " : "   ") + action.title + value + "  (Enter)", column: rect.x, row: row, style: style, width: rect.width)
        }
    }
}
