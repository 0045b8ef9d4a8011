import PerchDomain
import PerchKit

/// Facts about this run that the Settings pane shows.
public struct RunInfo: Hashable, Sendable {
    /// Long-press duration in effect, in milliseconds.
    public var longPressMilliseconds: Int64
    /// Where accounts come from: a config file path, or a note that the samples are in use.
    public var configDescription: String
    /// Path of the state file.
    public var statePath: String
    /// Path of the settings file.
    public var settingsPath: String
    /// How a key hold is recognised in this terminal.
    public var keyHold: KeyHoldMode = .autoRepeat
    /// `--key-hold`: under `auto`, ``keyHold`` becomes release events when the terminal answers
    /// the kitty keyboard protocol's query.
    public var keyHoldPreference: KeyHoldPreference = .repeat {
        didSet { keyHold = keyHoldPreference.initialMode }
    }
    /// Whether the accounts are the embedded samples (there is no config file yet); Overview
    /// says so.
    public var usesSampleAccounts = false
    /// The account of the shell Perch was started from when it has one of its own (`perch use`,
    /// a bound folder, `perch exec`: `PERCH_SCOPE` set), and how it got it; nil when the shell
    /// follows the global account. Overview shows it beside the global one.
    public var shellScope: ShellScope?
    /// Whether the terminal's default background is light or dark, as it answered OSC 11; nil
    /// until it does. Colours are chosen for it (``ColorTheme/background(reported:)``).
    public var background: TerminalBackground?
    /// Whether this run is in the accessible mode (`--accessible`, or the setting at start): each
    /// change is said as one line of text (``Narration``) and a number with `Enter` picks a row
    /// of the list that is open.
    public var accessible = false

    /// A shell's own account: its id, and `pinned`, `directory` or `exec`.
    public struct ShellScope: Hashable, Sendable {
        /// The id of the shell's account (`PERCH_ACCOUNT`).
        public var account: String
        /// How the shell got it, as `PERCH_SCOPE` says: `pinned` (`perch use`), `directory` (a
        /// bound folder) or `exec` (`perch exec`).
        public var kind: String
        public init(account: String, kind: String) {
            self.account = account
            self.kind = kind
        }
    }

    public init(
        longPressMilliseconds: Int64 = 500, configDescription: String = "embedded sample accounts", statePath: String = "",
        settingsPath: String = ""
    ) {
        self.longPressMilliseconds = longPressMilliseconds
        self.configDescription = configDescription
        self.statePath = statePath
        self.settingsPath = settingsPath
    }
}

/// An action row of the Settings pane: the two actions, a row for each kept setting (in
/// ``SettingDefinition/all``'s order, so a new setting is a row with no case added here), and
/// editing the config.
public enum SettingsAction: CaseIterable, Hashable, Sendable {
    case switchAccount
    /// Opens the `Add account…` form.
    case addAccount
    /// A kept setting's row: `Enter`/`←`/`→` step it (``SettingDefinition``).
    case setting(SettingKey)
    /// Edits the config in `$VISUAL`/`$EDITOR`, then reloads it.
    case editConfig
    // A key-hold mode row (kitty keyboard protocol or auto-repeat) belongs here once the input
    // decoder reports key releases: a `SettingKey` case and its record.

    /// The rows, top to bottom.
    public static let allCases: [SettingsAction] =
        [.switchAccount, .addAccount] + SettingDefinition.all.map { .setting($0.key) } + [.editConfig]

    public var title: String {
        switch self {
        case .switchAccount: "Switch account…"
        case .addAccount: "Add account…"
        case .setting(let key): SettingDefinition[key].title
        case .editConfig: "Edit config…"
        }
    }

    /// The kept setting the row changes, if any.
    public var setting: SettingKey? {
        if case .setting(let key) = self { key } else { nil }
    }
}

/// The Settings pane: facts about the run, then rows under a cursor: switch account, add an
/// account, the kept settings (each with its value and where it comes from: default, saved or
/// flag) and `Edit config…`. A PerchKit ``Pane`` of Perch's own (``PerchPane``): it reads the settings and the run through the app's model (``ModelContext``),
/// asks the root to open the sheet, present the form or change a setting (messages (``PerchModel/Message``)s), and asks
/// for its own jobs: writing the settings file and `Edit config…`, whose outcomes come back as its
/// ``Message``.
public struct SettingsPane: PerchPane {
    /// The cursor over ``SettingsAction/allCases``.
    public internal(set) var list = ListCursor()

    /// List rows before the first action row (the information lines and a blank line).
    static let actionsOffset = 5
    /// Fewest action rows shown below the information lines; on a pane shorter than that the
    /// actions come right under the header and the information lines are left out.
    static let minimumActionRows = 3

    /// Rows before the first action row on a pane with `listRows` rows below its header: the
    /// information lines and a blank line, or none on a short pane (``minimumActionRows``).
    static func actionsOffset(listRows: Int) -> Int { listRows - actionsOffset >= minimumActionRows ? actionsOffset : 0 }

    public init() {}

    /// Keeps nothing between runs: the cursor starts on the first row.
    public init(kept: [String: AccountPanes]) {}

    /// What comes back of the jobs it asked for.
    public enum Message: Hashable, Sendable {
        /// The settings file could not be written with these settings' new values (a save that
        /// worked says nothing).
        case notSaved(SettingsNotSaved, Set<SettingKey>)
        /// `Edit config…` ended.
        case edited(ConfigEdited)
    }

    /// Moves the cursor (keys, the wheel, a tap, which also runs the row), runs the row under it
    /// (`Enter`), or steps its setting (`←`, `→`).
    public mutating func update(_ input: ComponentInput<Verb>, _ kit: Context) -> [Reaction<Message>] {
        guard let context = kit.perch else { return [] }
        let count = SettingsAction.allCases.count
        let listRows = context.layout.listRows
        let visible = max(0, listRows - Self.actionsOffset(listRows: listRows))
        let action = SettingsAction.allCases[list.cursor]
        switch input {
        case .verb(.activate):
            return Self.reactions(for: action, step: 1, context)
        case .verb(.decrease), .verb(.increase):
            guard let key = action.setting else { return [] }
            return Self.change(key, step: input == .verb(.decrease) ? -1 : 1, context)
        case .verb(.move(let move)): move.apply(to: &list, count: count, visible: visible)
        case .scroll(_, let notches):
            // Bug: the wheel did nothing on Settings; it moves the cursor a row a notch, as over the sheet.
            list.move(by: notches, count: count, visible: visible)
        case .tap(let target) where target.settingsRow != nil:
            let index = target.settingsRow ?? 0
            list.moveTo(index, count: count, visible: visible)
            return Self.reactions(for: SettingsAction.allCases[list.cursor], step: 1, context)
        case .relayout:
            list.clamp(count: count, visible: visible)
        default: break
        }
        return []
    }

    /// What running a Settings action asks.
    private static func reactions(for action: SettingsAction, step: Int, _ context: ModelContext) -> [Reaction<Message>] {
        switch action {
        case .switchAccount: [.perch(.openSheet)]
        case .addAccount: [.present(AccountForm(opensSheet: true))]
        case .editConfig: [.perform(EditConfig(), then: Message.edited)]
        case .setting(let key): change(key, step: step, context)
        }
    }

    /// A setting stepped: the settings file is written with the new value, and with those an
    /// earlier failed write left unsaved (its own job, whose failure comes back as
    /// ``Message/notSaved(_:_:)`` naming them all), and the root applies it at once
    /// (``PerchModel/Message/changeSetting(_:step:)``).
    private static func change(_ key: SettingKey, step: Int, _ context: ModelContext) -> [Reaction<Message>] {
        var settings = context.settings
        let written = settings.unsavedKeys.union([key])
        settings.change(key, step: step)
        // Bug: Enter or → on the long-press at its longest (←, at its shortest) did nothing, and said nothing.
        if key == .longPress, settings.values.longPressMilliseconds == context.settings.values.longPressMilliseconds {
            let range = Settings.longPressRange
            let text =
                step > 0
                ? "The long-press is at its longest, \(range.upperBound) ms: ← shortens it."
                : "The long-press is at its shortest, \(range.lowerBound) ms: → lengthens it."
            return [.banner(text)]
        }
        return [
            .perform(SaveSettings(settings.file, keys: written), then: { Message.notSaved($0, written) }),
            .perch(.changeSetting(key, step: step)),
        ]
    }

    /// Takes in the outcome of what this pane asked for: the settings file written after a
    /// change (only a failure comes back, ``SettingsNotSaved``), and `Edit config…` (``EditConfig``).
    public mutating func receive(_ message: Message, _ kit: Context) -> [Reaction<Message>] {
        switch message {
        case .notSaved(let notSaved, let keys):
            // Bug: a setting whose save failed still read "saved", though the next start read the old value.
            return [
                .perch(.settingsNotSaved(keys)),
                .banner("Settings apply for this run, but could not be saved: \(notSaved.reason)"),
            ]
        case .edited(let edited):
            switch (edited.accounts, edited.problem) {
            case (let accounts?, _):
                let current = kit.perch?.saved.currentAccount
                let keepsCurrent = current.map { id in accounts.contains { $0.id == id } } ?? true
                let text =
                    keepsCurrent
                    ? "Config reloaded: \(accounts.count) account\(accounts.count == 1 ? "" : "s")."
                    : "Config reloaded: \(accounts.count) accounts; the current account is no longer in it."
                let afresh: [Reaction<Message>] = edited.samplesSetAside ? [.perch(.startAfresh)] : []
                return afresh + [.perch(.replaceAccounts(accounts, configPath: edited.configPath)), .banner(text)]
            case (nil, let problem):
                return [.banner("The config was not reloaded (the previous accounts stay): \(problem ?? "it is not valid")", stays: true)]
            }
        }
    }

    /// The value a setting row shows (``SettingDefinition/shown``).
    static func value(_ key: SettingKey, _ values: Settings) -> String { SettingDefinition[key].shown(values) }

    /// Draws the facts about the run, then the rows under the cursor, into `rect`.
    public func render(into frame: inout Frame, in rect: Rect, _ kit: Context) {
        guard let context = kit.perch else { return }
        frame.screen.header("Settings", in: rect)
        let first = rect.y + Layout.paneHeaderRows
        let info = context.info
        // Bug: at heights 6 to 8 the information lines filled the pane, and the actions the
        // keys moved through were never shown; a short pane shows the actions alone.
        let actionsTop = Self.actionsOffset(listRows: rect.maxY - first)
        // Paths keep their end (the file's name) when cut; words keep their beginning.
        let rows: [(String, String, isPath: Bool)] = [
            ("Key hold", info.keyHold.summary, false),
            ("Config file", info.configDescription, true),
            ("State file", info.statePath, true),
            ("Settings file", info.settingsPath, true),
        ]
        for (offset, (label, value, isPath)) in rows.enumerated() where actionsTop > 0 && first + offset < rect.maxY {
            let x = frame.screen.put("   " + label, column: rect.x, row: first + offset, style: .dim, width: rect.width)
            let valueColumn = max(x + 1, rect.x + 25)
            let valueWidth = max(0, rect.maxX - valueColumn)
            let shown = isPath ? DisplayWidth.truncatedLeading(value, to: valueWidth) : DisplayWidth.truncated(value, to: valueWidth)
            frame.screen.put(shown, column: valueColumn, row: first + offset, width: valueWidth)
        }
        let settings = context.settings
        let visible = max(0, rect.maxY - first - actionsTop)
        let top = visible > 0 && list.cursor >= visible ? list.cursor - visible + 1 : 0
        for (index, action) in SettingsAction.allCases.enumerated().dropFirst(top) {
            let row = first + actionsTop + index - top
            guard row < rect.maxY else { break }
            frame.hits.mark(Rect(x: rect.x, y: row, width: rect.width, height: 1), .settingsRow(index))
            let isCursor = index == list.cursor
            let style = isCursor ? Style.selected : Style.plain
            frame.screen.put(isCursor ? " ▸ " : "   ", column: rect.x, row: row, style: style)
            guard let key = action.setting else {
                frame.screen.put(action.title + "  (Enter)", column: rect.x + 3, row: row, width: rect.width - 3)
                continue
            }
            let x = frame.screen.put(action.title, column: rect.x + 3, row: row, width: rect.width - 3)
            let valueColumn = max(x + 1, rect.x + 25)
            let end = frame.screen.put(
                Self.value(key, settings.values), column: valueColumn, row: row, style: .bold, width: max(0, rect.maxX - valueColumn))
            let source = settings.source(key)
            frame.screen.put(
                "  " + source.rawValue, column: max(end, rect.x + 44), row: row, style: source == .standard ? .dim : .plain,
                width: max(0, rect.maxX - max(end, rect.x + 44)))
        }
    }
}

extension SettingsPane {
    /// What Settings marks in the hit map: one of its rows, by row index.
    public struct Row: HitPart {
        /// Index of the row.
        public var index: Int
    }
}

extension HitTarget {
    /// A row of the Settings pane, by row index.
    public static func settingsRow(_ index: Int) -> HitTarget { .hit(SettingsPane.Row(index: index)) }
    /// The Settings row here, by row index.
    public var settingsRow: Int? { part(SettingsPane.Row.self)?.index }
}

extension Tab {
    /// Facts about the run and the kept settings.
    public static let settings = Tab(SettingsPane.self)
}

extension SettingsPane {
    /// What its keys mean: move the cursor, run the row under it, or step its setting.
    public enum Verb: Hashable, Sendable {
        case move(ListMove)
        case activate, decrease, increase
    }

    /// Its own keys (help lists them first on this pane).
    public static let keyTable = KeyTable<Verb>(
        "Settings",
        ListMove.rows(Verb.move) + [
            .init([KeyEvent(.enter)], "Enter", "run the action, next value", .activate),
            .init([KeyEvent(.left), .char("h")], "← h", "previous value (100 ms less)", .decrease),
            .init([KeyEvent(.right), .char("l")], "→ l", "next value (100 ms more)", .increase),
            .init([], "click an action", "run it", nil),
            .init([], "wheel", "move the cursor", nil),
        ])
}
