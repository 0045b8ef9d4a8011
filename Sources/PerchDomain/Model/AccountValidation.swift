import TerminalText

/// A field of an account as the config file names it.
public enum AccountField: String, CaseIterable, Hashable, Sendable {
    case id, name, handle, group
}

/// Something wrong with one field of an account. The config loader and the `Add account…` form
/// both get these from ``AccountValidation``, so they reach the same verdict with the same words.
public enum AccountProblem: Hashable, Sendable {
    /// A required field (id, name) is empty, or a name is only white space.
    case empty
    /// An id with characters other than `a`–`z`, `0`–`9`, `.`, `_`, `-`.
    case invalidID(String)
    /// A name that is not empty yet has nothing visible (only zero-width or control characters).
    case nothingVisible
    /// An id another account already has.
    case duplicateID(String)
    /// An id that begins with `-`: on a command line it would read as an option
    /// (`perch switch -rf`), and a completion offering it would type one (fish-shell PR #10319).
    case optionLikeID(String)
    /// A name whose first visible character is `-`: completion offers names as well as ids, and
    /// `perch switch -` means the previous account, so a name `-` typed after `--` switched there.
    case optionLikeName(String)
    /// An optional field (handle, group) that is there but holds only white space.
    case blank
    /// A name, handle or group holding a control character (an escape, a line break, a tab):
    /// every program that reads the config or `perch list --json` would get it raw.
    case controlCharacter

    /// The message, without the field's name or JSON path (the caller puts it in front).
    public var message: String {
        switch self {
        case .empty: "must not be empty"
        case .invalidID(let id): "\"\(id)\" may hold only a–z, 0–9, '.', '_' and '-'"
        case .nothingVisible: "has nothing visible (only zero-width or control characters)"
        case .duplicateID(let id): "\"\(id)\" is already used by another account"
        case .optionLikeID(let id): "\"\(id)\" must not begin with '-' (it would read as an option)"
        case .optionLikeName(let name): "\"\(name)\" must not begin with '-' (it would read as an option)"
        case .blank: "must not be only spaces"
        case .controlCharacter: "must not hold a control character (an escape, a line break, a tab)"
        }
    }
}

/// The rules an account's fields must meet (config format version 1), in one place: the config
/// loader applies them to each account of the file, the `Add account…` form to what is typed.
public enum AccountValidation {
    /// What is wrong with `id`, or nil when it is a valid id: one or more of `a`–`z`, `0`–`9`,
    /// `.`, `_`, `-` (see ``Account/isValidID(_:)``), not beginning with `-`.
    public static func idProblem(_ id: String) -> AccountProblem? {
        if id.isEmpty { return .empty }
        guard Account.isValidID(id) else { return .invalidID(id) }
        return id.utf8.first == 0x2D ? .optionLikeID(id) : nil
    }

    /// What is wrong with an optional text field (handle, group) that is present, or nil: it
    /// must hold something other than white space.
    public static func optionalTextProblem(_ text: String) -> AccountProblem? {
        // A printable ASCII character (the common case) settles blankness in one byte scan.
        if !text.utf8.contains(where: { $0 > 0x20 && $0 < 0x7F }), text.allSatisfy(\.isWhitespace) { return .blank }
        return hasControlCharacter(text) ? .controlCharacter : nil
    }

    /// What is wrong with `name`, or nil when it shows something: a name must hold at least one
    /// character that is not white space, a control, default-ignorable (Unicode's
    /// Default_Ignorable_Code_Point) or the blank braille pattern, and takes at least one column;
    /// its first character other than white space must not be `-` (as an id's).
    public static func nameProblem(_ name: String) -> AccountProblem? {
        // Bug (trust issue): names with an escape sequence or a newline were accepted and reached
        // other programs raw through the config and `perch list --json`.
        if hasControlCharacter(name) { return .controlCharacter }
        // The common case in one byte: a name that starts with a printable ASCII character other
        // than `-` begins a cluster that is neither white space nor `-`, and shows something.
        if let first = name.utf8.first, first > 0x20, first < 0x7F, first != 0x2D { return nil }
        if name.first(where: { !$0.isWhitespace }) == "-" { return .optionLikeName(name) }
        // A printable ASCII character (the common case) settles both checks in one byte scan.
        if name.utf8.contains(where: { $0 > 0x20 && $0 < 0x7F }) { return nil }
        if name.allSatisfy(\.isWhitespace) { return .empty }
        // Controls are drawn as a replacement character, which is not the name showing anything;
        // default-ignorable characters (soft hyphen, Hangul fillers) and the blank braille
        // pattern take space or not depending on the terminal, and show nothing either way.
        let shown = name.filter { c in
            !c.isWhitespace
                && !c.unicodeScalars.allSatisfy {
                    $0.properties.generalCategory == .control || $0.properties.isDefaultIgnorableCodePoint || $0.value == 0x2800
                }
        }
        return DisplayWidth.columns(of: shown) == 0 ? .nothingVisible : nil
    }

    /// Whether `text` holds a C0 control, DEL or a C1 control (U+0080–U+009F, in UTF-8 `C2 80`
    /// to `C2 9F`), found in one scan of its bytes.
    public static func hasControlCharacter(_ text: String) -> Bool {
        var afterC2 = false
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x7F || (afterC2 && byte < 0xA0) { return true }
            afterC2 = byte == 0xC2
        }
        return false
    }

    /// Every problem of a new account's fields, by field; empty when it can be added.
    /// - Parameters:
    ///   - existingIDs: ids of the accounts already loaded; the new id must not be one of them.
    ///   - handle, group: optional; empty means absent and is never a problem.
    public static func problems(id: String, name: String, handle: String = "", group: String = "", existingIDs: Set<String>)
        -> [AccountField: AccountProblem]
    {
        var problems: [AccountField: AccountProblem] = [:]
        if !handle.isEmpty, let problem = optionalTextProblem(handle) { problems[.handle] = problem }
        if !group.isEmpty, let problem = optionalTextProblem(group) { problems[.group] = problem }
        if let problem = idProblem(id) {
            problems[.id] = problem
        } else if existingIDs.contains(id) {
            problems[.id] = .duplicateID(id)
        }
        if let problem = nameProblem(name) { problems[.name] = problem }
        return problems
    }
}
