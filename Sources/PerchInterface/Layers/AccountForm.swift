import PerchDomain
import PerchKit

/// The `Add account…` form, shown in a full-screen cover: four text fields, the focused one,
/// the problems found at the last submit, and a failure to write the config. It is a PerchKit
/// ``Layer`` of Perch's own that takes typed text (``KeyTable/takesTyping``): it asks for its own
/// job (``AddAccount``) and takes its outcome (``AccountAddition``) as its message.
public struct AccountForm: Hashable, Sendable {
    /// The fields in the order they are shown and focused.
    public static let fields: [AccountField] = [.id, .name, .handle, .group]
    /// Longest text a field keeps, in characters; more typed or pasted text is dropped.
    public static let maximumLength = 64

    /// Each field's text and cursor, by field (PerchKit's ``TextField``).
    public var fields: [AccountField: TextField] = [:]
    /// The focused field.
    public var focus: AccountField = .id
    /// Problems found when the form was last submitted, by field; shown beside the fields until
    /// the field is edited (a message about text that is no longer there would mislead).
    public var problems: [AccountField: AccountProblem] = [:]
    /// Why the config could not be written at the last submit, or nil.
    public var writeError: String?
    /// Whether the sheet should open on the new account once it is added (the form was opened
    /// from Settings, with no sheet below it).
    public var opensSheet: Bool

    /// An empty form, or one whose name is `name` already (what a sheet's filter matched no
    /// account for), its focus on the id.
    public init(opensSheet: Bool = false, name: String = "") {
        self.opensSheet = opensSheet
        guard !name.isEmpty else { return }
        var field = TextField(maximumLength: Self.maximumLength)
        _ = field.insert(name)
        fields[.name] = field
    }

    /// The text of `field` ("" when nothing was typed).
    public func value(_ field: AccountField) -> String { fields[field]?.text ?? "" }

    /// The focused field as it is, or empty.
    private var focused: TextField { fields[focus] ?? TextField(maximumLength: Self.maximumLength) }

    /// Types `text` at the focused field's cursor: control characters and line breaks are left
    /// out (a paste of several lines joins them), and the field stops at ``maximumLength``.
    public mutating func type(_ text: String) {
        var field = focused
        guard field.insert(text) else { return }
        fields[focus] = field
        problems[focus] = nil
    }

    /// Edits the focused field (PerchKit's editing keys: ``TextField/Edit``); a problem shown
    /// for it goes once its text changes.
    public mutating func edit(_ edit: TextField.Edit) {
        var field = focused
        let changed = field.apply(edit)
        fields[focus] = field
        if changed { problems[focus] = nil }
    }

    /// Moves the focus by `delta` fields, wrapping around.
    public mutating func moveFocus(by delta: Int) {
        let count = Self.fields.count
        let index = Self.fields.firstIndex(of: focus) ?? 0
        focus = Self.fields[((index + delta) % count + count) % count]
    }

    /// The account the fields describe, or the problems that stop it, checked by
    /// ``AccountValidation`` against `existingIDs`. Empty optional fields are absent.
    public func validated(existingIDs: Set<String>) -> Result<Account, ProblemList> {
        let problems = AccountValidation.problems(
            id: value(.id), name: value(.name), handle: value(.handle), group: value(.group), existingIDs: existingIDs)
        guard problems.isEmpty else { return .failure(ProblemList(problems: problems)) }
        let handle = value(.handle)
        let group = value(.group)
        return .success(
            Account(id: value(.id), name: value(.name), handle: handle.isEmpty ? nil : handle, group: group.isEmpty ? nil : group))
    }

    /// The problems of a form that cannot be submitted, by field.
    public struct ProblemList: Error, Hashable, Sendable {
        public var problems: [AccountField: AccountProblem]
    }
}

extension AccountField {
    /// The field's label in the form.
    public var label: String {
        switch self {
        case .id: "Id"
        case .name: "Name"
        case .handle: "Handle"
        case .group: "Group"
        }
    }

    /// What the form shows under the label when the field is empty.
    public var hint: String {
        switch self {
        case .id: "a–z 0–9 . _ -, unique"
        case .name: "required"
        case .handle: "optional, e.g. @someone"
        case .group: "optional"
        }
    }
}

extension AccountForm: Layer {
    /// What the form's keys mean.
    public enum Verb: Hashable, Sendable {
        case cancel, add, nextField, previousField
        /// An editing key of the focused field.
        case edit(TextField.Edit)
    }

    /// How the job it asked for went.
    public typealias Message = AccountAddition

    /// Its keys, in the order help lists them (Perch adds F1, help over a layer that takes text).
    public var keys: KeyTable<Verb> { Self.keyTable }

    /// The form's key table: printable keys and pastes go into the focused field.
    public static let keyTable = KeyTable<Verb>(
        "Add account",
        [
            .init([KeyEvent(.escape)], "Esc", "cancel (nothing is written)", .cancel),
            .init([], "click ✕ or Cancel", "cancel", nil),
            .init([KeyEvent(.enter)], "Enter", "add the account to the config", .add),
            .init([], "click Add", "add the account", nil),
            .init([KeyEvent(.tab), KeyEvent(.down)], "Tab ↓", "next field", .nextField),
            .init([KeyEvent(.tab, modifiers: .shift), KeyEvent(.up)], "Shift-Tab ↑", "previous field", .previousField),
            .init([], "wheel", "previous or next field", nil),
        ] + TextField.rows(Verb.edit) + [
            .init([], "type or paste", "fill the focused field at its cursor", nil),
            .init([], "click a field", "focus it", nil),
        ], takesTyping: true)

    /// Full-screen, like a cover.
    public var coversScreen: Bool { true }

    /// Most rows the reason for a failed write takes at the form's foot; a longer one ends in `…`.
    public static let maximumWriteErrorRows = 6

    /// Types, moves the focus, submits or cancels.
    public mutating func update(_ input: ComponentInput<Verb>, _ kit: Context) -> [Reaction<Message>] {
        switch input {
        case .key(let key):
            // A printable key its table does not bind (PerchKit's root sends these; Perch's sends text).
            if keys.typesText(key), case .character(let character) = key.key { type(String(character)) }
        case .paste(let text): type(text)
        case .verb(.edit(let edit)): self.edit(edit)
        case .verb(.previousField): moveFocus(by: -1)
        case .verb(.nextField): moveFocus(by: 1)
        case .scroll(_, let notches): moveFocus(by: notches < 0 ? -1 : 1)
        case .verb(.add), .tap(.formButton(.add)):
            guard let context = kit.perch else { return [] }
            return submit(context)
        // Before the fields' case, which matches every part of the form: a click on Cancel did nothing.
        case .verb(.cancel), .tap(.formButton(.cancel)), .tap(.coverClose): return [.dismiss]
        case .tap(let target) where target.part(AccountFormPart.self) != nil:
            if case .field(let field)? = target.part(AccountFormPart.self) { focus = field }
        case .tap(.layerScroll(let delta)): moveFocus(by: delta)
        default: break
        }
        return []
    }

    /// The config could not be written (``AccountAddition/notAdded(_:)``): the form stays up
    /// with `message` shown, and the fields as typed.
    mutating func notAdded(_ message: String) { writeError = message }

    /// Takes in how ``AddAccount`` went: written, the form closes and the account
    /// sheet shows the new account (opened when the form came from Settings; from the sheet, the
    /// sheet below shows it); not written, the form stays with the reason shown.
    public mutating func receive(_ message: AccountAddition, _ kit: Context) -> [Reaction<Message>] {
        switch message {
        case .added(let account, let accounts, let path, let backup):
            return [
                .perch(.replaceAccounts(accounts, configPath: path)), .dismiss,
                .perch(.revealAccount(id: account.id)),
                .banner("Added \(account.name) to \(path)" + (backup.map { " (previous file kept as \($0))." } ?? ".")),
            ]
        case .notAdded(let message):
            notAdded(message)
            return []
        }
    }

    /// Checks the fields (``AccountValidation``, ids unique among the accounts): with a problem,
    /// they are shown beside their fields and nothing is asked; otherwise the root is asked to
    /// append the account to the config (``AddAccount``), and the form stays up until its
    /// outcome (``AccountAddition``).
    mutating func submit(_ context: ModelContext) -> [Reaction<Message>] {
        writeError = nil
        switch validated(existingIDs: Set(context.accounts.accounts.map(\.id))) {
        case .failure(let list):
            problems = list.problems
            // The first field with a problem takes the focus.
            focus = AccountForm.fields.first { list.problems[$0] != nil } ?? focus
            return []
        case .success(let account):
            problems = [:]
            return [.perform(AddAccount(account), then: { $0 })]
        }
    }

    /// Draws the form over everything, tab bar included: the close control and title, each
    /// field with its problem (red) or a hint (dim) under it, the buttons, and a footer with the
    /// keys, or the whole reason the config could not be written.
    public func render(into frame: inout Frame, in area: Rect, _ kit: Context) {
        let size = kit.size
        let form = self
        let layout = AccountFormLayout(screen: size, focus: form.focus)
        frame.hits.mark(Rect(x: 0, y: 0, width: size.width, height: size.height), .coverBody)
        for field in AccountForm.fields where layout.isContentRow(layout.row(of: field)) {
            frame.hits.mark(layout.fieldRect(field), .formField(field))
        }
        if layout.isContentRow(layout.buttonRow) {
            for button in AccountFormButton.allCases { frame.hits.mark(layout.button(button), .formButton(button)) }
        }
        frame.hits.mark(layout.close, .coverClose)
        frame.screen.fill(Rect(x: 0, y: 0, width: size.width, height: size.height))
        let x = frame.screen.put("✕", column: CoverLayer.closeColumn, row: 0, style: .bold)
        frame.screen.put("  Add account", column: x, row: 0, style: .bold, width: size.width - x)
        frame.screen.fill(Rect(x: 0, y: 1, width: size.width, height: 1), with: "─", style: .dim)
        let inputWidth = layout.inputWidth
        for field in AccountForm.fields {
            let row = layout.row(of: field)
            guard layout.isContentRow(row) else { continue }
            let focused = field == form.focus
            frame.screen.put(focused ? " ▸ " : "   ", column: 0, row: row, style: focused ? .selected : .plain)
            frame.screen.put(field.label, column: 3, row: row, style: focused ? .bold : .plain, width: AccountFormLayout.inputColumn - 4)
            // The text's end stays in view: a long value shows its last columns.
            let inner = inputWidth - 2
            let text = form.value(field)
            let input = layout.input(field)
            frame.screen.put("[", column: input.x, row: row, style: .dim)
            (form.fields[field] ?? TextField()).render(
                into: &frame.screen, column: input.x + 1, row: row, width: inner, style: focused ? .bold : .plain, focused: focused)
            frame.screen.put("]", column: input.maxX - 1, row: row, style: .dim)
            let noteRow = row + 1
            guard layout.isContentRow(noteRow) else { continue }
            let noteWidth = size.width - AccountFormLayout.inputColumn - 1 - layout.markColumns
            if let problem = form.problems[field] {
                frame.screen.put(
                    DisplayWidth.truncated(problem.message, to: max(0, noteWidth)), column: input.x + 1, row: noteRow,
                    style: Style(foreground: .red, bold: true))
            } else if text.isEmpty {
                frame.screen.put(DisplayWidth.truncated(field.hint, to: max(0, noteWidth)), column: input.x + 1, row: noteRow, style: .dim)
            }
        }
        if layout.isContentRow(layout.buttonRow) {
            for button in AccountFormButton.allCases {
                let rect = layout.button(button)
                let style = button == .add ? Style(foreground: .cyan, bold: true) : Style.plain
                frame.screen.put(button.text, column: rect.x, row: rect.y, style: style, width: max(0, size.width - rect.x))
            }
        }
        // Content past an edge of a short screen is marked; a click on a mark moves the focus
        // (and the view) that way.
        if layout.hasMoreAbove {
            let mark = Rect(x: size.width - 2, y: AccountFormLayout.firstContentRow, width: 2, height: 1)
            frame.hits.mark(mark, .layerScroll(-1))
            frame.screen.put("↑", column: mark.x, row: mark.y, style: .bold)
        }
        if layout.hasMoreBelow {
            let mark = Rect(x: size.width - 2, y: size.height - 2, width: 2, height: 1)
            frame.hits.mark(mark, .layerScroll(1))
            frame.screen.put("↓", column: mark.x, row: mark.y, style: .bold)
        }
        let footerRow = size.height - 1
        if let error = form.writeError {
            // The whole reason, wrapped, on the rows below the buttons (at least the footer row):
            // a reason cut at the screen's edge would hide what to do about it.
            let style = Style(foreground: .red, bold: true, reverse: true)
            let room = max(1, min(Self.maximumWriteErrorRows, footerRow - layout.buttonRow))
            let lines = DisplayWidth.wrapped(error, to: max(1, size.width - 2), rows: room)
            for (offset, line) in lines.enumerated() {
                let row = footerRow - lines.count + 1 + offset
                frame.screen.fill(Rect(x: 0, y: row, width: size.width, height: 1), style: style)
                frame.screen.put(" " + line, column: 0, row: row, style: style, width: size.width)
            }
        } else {
            frame.screen.put(
                " Enter add · Tab next field · Esc or ✕ cancel · F1 help", column: 0, row: footerRow, style: .dim, width: size.width)
        }
    }
}

/// The `Add account…` form's parts under the pointer.
public enum AccountFormPart: LayerPart {
    /// A text field.
    case field(AccountField)
    /// A button.
    case button(AccountFormButton)
}

extension HitTarget {
    /// A text field of the `Add account…` form.
    public static func formField(_ field: AccountField) -> HitTarget { .layer(AccountFormPart.field(field)) }
    /// A button of the `Add account…` form.
    public static func formButton(_ button: AccountFormButton) -> HitTarget { .layer(AccountFormPart.button(button)) }
}
