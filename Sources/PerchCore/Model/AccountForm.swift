/// The `Add account…` form, shown in a full-screen cover: four text fields, the focused one,
/// the problems found at the last submit, and a failure to write the config.
public struct AccountForm: Hashable, Sendable {
    /// The fields in the order they are shown and focused.
    public static let fields: [AccountField] = [.id, .name, .handle, .group]
    /// Longest text a field keeps, in characters; more typed or pasted text is dropped.
    public static let maximumLength = 64

    /// Text of each field, by field.
    public var values: [AccountField: String] = [:]
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

    public init(opensSheet: Bool = false) { self.opensSheet = opensSheet }

    /// The text of `field` ("" when nothing was typed).
    public func value(_ field: AccountField) -> String { values[field] ?? "" }

    /// Types `text` into the focused field: control characters and line breaks are left out
    /// (a paste of several lines joins them), and the field stops at ``maximumLength``.
    public mutating func type(_ text: String) {
        let typed = text.filter { c in !c.isNewline && c.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } }
        guard !typed.isEmpty else { return }
        values[focus] = String((value(focus) + typed).prefix(Self.maximumLength))
        problems[focus] = nil
    }

    /// Deletes the last character of the focused field.
    public mutating func deleteBackward() {
        if values[focus]?.isEmpty == false {
            values[focus]?.removeLast()
            problems[focus] = nil
        }
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
        let problems = AccountValidation.problems(id: value(.id), name: value(.name), existingIDs: existingIDs)
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
