import PerchDomain

#if canImport(Glibc)
    import Glibc
#endif

/// A change to one account of the config, made as text by ``ConfigWriter/apply(_:to:samples:)``.
public enum ConfigEdit: Hashable, Sendable {
    /// Sets the value at `path` (dotted JSON path inside the account, `["git", "email"]`) to
    /// `json` (JSON text: a string, list or object), creating the objects on the way.
    case set(id: String, path: [String], json: String)
    /// Removes the key at `path`; an object left empty by it goes too.
    case unset(id: String, path: [String])
    /// Changes the account's `id`.
    case rename(from: String, to: String)
    /// Removes the account.
    case remove(id: String)

    /// The account the edit is about.
    public var id: String {
        switch self {
        case .set(let id, _, _), .unset(let id, _), .remove(let id): id
        case .rename(let from, _): from
        }
    }
}

extension ConfigWriter {
    /// Makes `edit` to the config at `path` as text: only the bytes of the value changed, the
    /// member added or removed, or the account removed change; comments, order, formatting and
    /// trailing commas stay. The result must load as the config loader loads it, with no new
    /// warning (a misspelt key): otherwise nothing is written and the reason is thrown. The
    /// previous file is kept as `<config>.bak`, as an append keeps it. With no file yet, the
    /// edit is made to a new config holding `samples`, written with mode 0600.
    /// - Returns: the accounts of the file as written, and where.
    /// - Throws: ``ConfigWriteError``: ``ConfigWriteError/noAccount(id:path:)``,
    ///   ``ConfigWriteError/noKey(path:account:config:)``, ``ConfigWriteError/refused(_:)`` for a
    ///   result that would not load, or a file failure; the config file is then untouched.
    public static func apply(_ edit: ConfigEdit, to path: String, samples: [Account] = Account.samples) throws(ConfigWriteError)
        -> Outcome
    {
        try apply([edit], to: path, samples: samples)
    }

    /// Makes `edits` in order, then appends `accounts`, in one write, as
    /// ``apply(_:to:samples:)-(ConfigEdit,_,_)`` makes one edit (`perch import` adding tools to
    /// accounts of the config and new accounts at once): all or nothing, one `.bak`.
    /// - Throws: what ``apply(_:to:samples:)-(ConfigEdit,_,_)`` throws, and
    ///   ``ConfigWriteError/duplicate(id:path:)`` for an appended account whose id is taken.
    public static func apply(
        _ edits: [ConfigEdit], appending accounts: [Account] = [], to path: String, samples: [Account] = Account.samples
    ) throws(ConfigWriteError) -> Outcome {
        let (file, bytes, after) = try prepared(edits, appending: accounts, to: path, samples: samples)
        guard let file else {
            do { try FileSystem.writeAtomically(bytes, to: path, mode: 0o600) } catch { throw .file(error) }
            return Outcome(accounts: after.accounts, path: path, backupPath: nil)
        }
        let backup = try write(bytes, replacing: file, at: path)
        return Outcome(accounts: after.accounts, path: path, backupPath: backup)
    }

    /// Whether ``apply(_:to:samples:)`` would write `edit`, without writing anything (`perch
    /// remove` asks before it gives the account's tools back).
    /// - Throws: what ``apply(_:to:samples:)`` throws before it writes.
    public static func check(_ edit: ConfigEdit, at path: String, samples: [Account] = Account.samples) throws(ConfigWriteError) {
        _ = try prepared([edit], appending: [], to: path, samples: samples)
    }

    /// The file as read (nil when there is none), the edited bytes and what they parse to,
    /// refused as ``apply(_:to:samples:)`` says.
    private static func prepared(_ edits: [ConfigEdit], appending accounts: [Account], to path: String, samples: [Account])
        throws(ConfigWriteError) -> (
            file: FileContents?, bytes: [UInt8], after: ConfigLoader.Parsed
        )
    {
        var file: FileContents?
        do {
            file = try FileSystem.readContents(path)
        } catch {
            guard error.isNotFound else { throw .file(error) }
        }
        let original = file?.bytes ?? Array(newConfig(samples).utf8)
        // Entries that override a registry's account are read as overrides (docs/registries.md).
        let overriding = ConfigLayering.registryIDs
        let before: ConfigLoader.Parsed
        do { before = try ConfigLoader.parse(original, path: path, reportUnknownKeys: true, overriding: overriding) } catch {
            throw .invalid(error)
        }
        var bytes = original
        for edit in edits {
            if case .rename(_, let new) = edit, before.accounts.contains(where: { $0.id == new }) {
                throw .duplicate(id: new, path: path)
            }
            bytes = try edited(bytes, edit, path: path)
        }
        for account in accounts {
            if before.accounts.contains(where: { $0.id == account.id }) { throw .duplicate(id: account.id, path: path) }
            guard let inserted = inserting(account, into: bytes) else { throw .noAccountsList(path: path) }
            bytes = inserted
        }
        let after: ConfigLoader.Parsed
        do { after = try ConfigLoader.parse(bytes, path: path, reportUnknownKeys: true, overriding: overriding) } catch {
            throw .refused(error)
        }
        // A new warning is a key the loader would ignore: a typo that would silently do nothing.
        let newWarnings = after.warnings.map(withoutPosition).filter { !before.warnings.map(withoutPosition).contains($0) }
        // Refused, so not "ignored": said as what it is (it was "unknown key, ignored").
        if !newWarnings.isEmpty {
            throw .refused(.invalid(path: path, problems: newWarnings.map { $0.replacing("unknown key, ignored", with: "unknown key") }))
        }
        return (file, bytes, after)
    }

    /// `text` without its leading `line L, column C: `, for comparing warnings across edits.
    private static func withoutPosition(_ text: String) -> String {
        guard text.hasPrefix("line "), let colon = text.firstRange(of: ": "), text[..<colon.lowerBound].contains(", column ") else {
            return text
        }
        return String(text[colon.upperBound...])
    }

    /// The bytes of the config with `edit` made, or the reason it cannot be made.
    static func edited(_ bytes: [UInt8], _ edit: ConfigEdit, path: String) throws(ConfigWriteError) -> [UInt8] {
        guard let document = try? JSONReader.read(bytes, options: .jsonWithComments),
            let list = document.value(of: document.root, forKey: "accounts"), document.kind(list) == .array
        else { throw .noAccountsList(path: path) }
        let elements = document.elements(list)
        guard
            let index = elements.firstIndex(where: {
                document.kind($0) == .object && document.value(of: $0, forKey: "id").flatMap(document.string) == edit.id
            })
        else { throw .noAccount(id: edit.id, path: path) }
        let account = elements[index]
        var text = TextEdit(bytes: bytes)
        switch edit {
        case .remove:
            text.removeItem(
                start: document.range(account).lowerBound, end: document.range(account).upperBound,
                previousEnd: index > 0 ? document.range(elements[index - 1]).upperBound : nil)
        case .rename(_, let new):
            let value = document.value(of: account, forKey: "id")!
            text.replace(document.range(value), with: json(new))
        case .set(_, let keys, let value):
            var object = account
            for (depth, key) in keys.enumerated() {
                let rest = Array(keys[(depth + 1)...])
                guard let member = document.members(object).last(where: { document.keyEquals($0.key, key) }) else {
                    text.insertMember(into: object, of: document, key: key, value: nested(rest, value))
                    break
                }
                if rest.isEmpty || document.kind(member.value) != .object {
                    // A plain value on the way (`"aws": "work"` for aws.profile) gives way to the
                    // object, laid out over lines when its key has a line of its own.
                    let keyStart = document.range(member.key).lowerBound
                    let indent = value.contains("\n") ? nil : text.lineIndentation(before: keyStart)
                    let replacement = indent.map { laidOut(nested(rest, value), indent: $0, unit: indentationUnit(of: bytes)) }
                    text.replace(document.range(member.value), with: replacement ?? nested(rest, value))
                    break
                }
                object = member.value
            }
        case .unset(_, let keys):
            // The members on the way, outermost first; an object left empty goes with its key.
            var chain: [(object: JSONDocument.Index, key: JSONDocument.Index, value: JSONDocument.Index)] = []
            var object = account
            for key in keys {
                guard document.kind(object) == .object,
                    let member = document.members(object).last(where: { document.keyEquals($0.key, key) })
                else { throw .noKey(path: keys.joined(separator: "."), account: edit.id, config: path) }
                chain.append((object, member.key, member.value))
                object = member.value
            }
            var level = chain.count - 1
            while level > 0, document.count(chain[level].object) == 1 { level -= 1 }
            let (owner, key, value) = chain[level]
            let members = document.members(owner)
            let position = members.firstIndex { $0.key == key }!
            text.removeItem(
                start: document.range(key).lowerBound, end: document.range(value).upperBound,
                previousEnd: position > 0 ? document.range(members[position - 1].value).upperBound : nil)
        }
        return text.bytes
    }

    /// `value` inside objects for `keys` (`["email"]`, `"a@b"` → `{"email": "a@b"}`).
    private static func nested(_ keys: [String], _ value: String) -> String {
        keys.reversed().reduce(value) { inner, key in "{\(json(key)): \(inner)}" }
    }

    /// Keeps `file` as `<path>.bak` (with the config's mode) and writes `bytes` over `path`
    /// atomically with the file's mode; a `.bak` that was there is put back when the config
    /// cannot be written, so no `.bak` is left behind or changed when nothing was saved.
    /// - Returns: the path of the `.bak`.
    /// - Throws: ``ConfigWriteError/file(_:)`` when either file cannot be written.
    static func write(_ bytes: [UInt8], replacing file: FileContents, at path: String) throws(ConfigWriteError) -> String {
        let backup = backupPath(of: path)
        let previousBackup = try? FileSystem.readContents(backup)
        do {
            try FileSystem.writeAtomically(file.bytes, to: backup, mode: mode_t(file.mode))
            _ = chmod(FileSystem.resolvingSymbolicLink(backup), mode_t(file.mode))
        } catch {
            throw .file(error)
        }
        do {
            try FileSystem.writeAtomically(bytes, to: path, mode: mode_t(file.mode))
        } catch {
            if let previousBackup {
                try? FileSystem.writeAtomically(previousBackup.bytes, to: backup, mode: mode_t(previousBackup.mode))
            } else {
                unlink(FileSystem.resolvingSymbolicLink(backup))
            }
            throw .file(error)
        }
        return backup
    }
}

/// Byte edits of a JSON text that keep everything around them: one edit per ``ConfigEdit``.
struct TextEdit {
    var bytes: [UInt8]

    mutating func replace(_ range: Range<Int>, with text: String) {
        bytes.replaceSubrange(range, with: Array(text.utf8))
    }

    private func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// The white space before `position` when only white space stands between it and the start
    /// of its line (a line of its own), else nil.
    func lineIndentation(before position: Int) -> String? {
        var lineStart = position
        while lineStart > 0, isBlank(bytes[lineStart - 1]) { lineStart -= 1 }
        guard lineStart > 0, bytes[lineStart - 1] == 0x0A else { return nil }
        return String(decoding: bytes[lineStart..<position], as: UTF8.self)
    }

    /// Removes the list element or object member from `start` to `end` with its comma: the one
    /// after it, or (the last item, no trailing comma) the one after `previousEnd`. An item on
    /// lines of its own takes those lines with it.
    mutating func removeItem(start: Int, end: Int, previousEnd: Int?) {
        var from = start
        while from > 0, isBlank(bytes[from - 1]) { from -= 1 }
        let ownLine = from == 0 || bytes[from - 1] == 0x0A
        if !ownLine { from = start }
        var to = end
        var next = to
        while next < bytes.count, isBlank(bytes[next]) || bytes[next] == 0x0A || bytes[next] == 0x0D { next += 1 }
        var commaBefore: Int?
        if next < bytes.count, bytes[next] == UInt8(ascii: ",") {
            to = next + 1
        } else if let previousEnd {
            let comma = JSONReader.skippingTrivia(in: bytes, from: previousEnd, comments: true)
            if comma < bytes.count, bytes[comma] == UInt8(ascii: ",") { commaBefore = comma }
        }
        if !ownLine, let commaBefore {
            // `, "handle": "x"` inside one line: the comma before goes with the item.
            bytes.removeSubrange(commaBefore..<end)
            return
        }
        if ownLine {
            // The rest of the line, up to and with its line break.
            var lineEnd = to
            while lineEnd < bytes.count, isBlank(bytes[lineEnd]) { lineEnd += 1 }
            if lineEnd < bytes.count, bytes[lineEnd] == 0x0D { lineEnd += 1 }
            if lineEnd < bytes.count, bytes[lineEnd] == 0x0A { to = lineEnd + 1 }
        } else {
            while to < bytes.count, isBlank(bytes[to]) { to += 1 }
        }
        bytes.removeSubrange(from..<to)
        if let commaBefore { bytes.remove(at: commaBefore) }
    }

    /// Adds `"key": value` as the last member of `object`: on a line of its own, indented like
    /// the member before it, when that one has a line of its own; a trailing comma is kept.
    /// An object value set into a member with a line of its own is laid out over lines as
    /// that member is indented (``ConfigWriter/laidOut(_:indent:unit:newline:)``), one level
    /// being the file's own (``ConfigWriter/indentationUnit(of:)``).
    mutating func insertMember(into object: JSONDocument.Index, of document: JSONDocument, key: String, value: String) {
        guard let last = document.members(object).last else {
            let open = document.range(object).lowerBound
            bytes.insert(contentsOf: Array((ConfigWriter.json(key) + ": " + value).utf8), at: open + 1)
            return
        }
        let keyStart = document.range(last.key).lowerBound
        let valueEnd = document.range(last.value).upperBound
        var lineStart = keyStart
        while lineStart > 0, isBlank(bytes[lineStart - 1]) { lineStart -= 1 }
        let ownLine = lineStart > 0 && bytes[lineStart - 1] == 0x0A
        let indent = String(decoding: bytes[lineStart..<keyStart], as: UTF8.self)
        let crlf = lineStart > 1 && bytes[lineStart - 2] == 0x0D
        let separator = ownLine ? (crlf ? "\r\n" : "\n") + indent : " "
        let laidOut =
            ownLine && !value.contains("\n")
            ? ConfigWriter.laidOut(value, indent: indent, unit: ConfigWriter.indentationUnit(of: bytes), newline: crlf ? "\r\n" : "\n")
            : value
        let member = ConfigWriter.json(key) + ": " + laidOut
        let next = JSONReader.skippingTrivia(in: bytes, from: valueEnd, comments: true)
        if next < bytes.count, bytes[next] == UInt8(ascii: ",") {
            bytes.insert(contentsOf: Array((separator + member + ",").utf8), at: next + 1)
        } else {
            bytes.insert(contentsOf: Array(("," + separator + member).utf8), at: valueEnd)
        }
    }
}

extension ConfigWriter {
    /// What removing an account did: the config as written, and what the state forgot (nil
    /// without a state store), or why it could not.
    public struct Removal: Sendable {
        /// The config as written: its accounts, its path and the `.bak` kept.
        public var outcome: Outcome
        /// What the state file forgot of the account (current account, pane state), or why it
        /// could not; nil without a state store.
        public var forgotten: Result<StateStore.AccountChange, StateError>?
    }

    /// Removes the account `id` from the config at `path` (``apply(_:to:samples:)`` with
    /// ``ConfigEdit/remove(id:)``), then makes `state` forget it (``StateStore/forgetAccount(_:)``:
    /// it stops being current, its count and pane state go, its history stays). `perch remove`
    /// and the Catalog's Delete both call this.
    /// - Throws: ``ConfigWriteError`` when the config is not changed; a state that cannot be
    ///   changed after the config was is in ``Removal/forgotten``.
    public static func removeAccount(_ id: String, from path: String, state: StateStore?) throws(ConfigWriteError) -> Removal {
        let outcome = try apply(.remove(id: id), to: path, samples: [])
        let forgotten = state.map { store in Result { () throws(StateError) in try store.forgetAccount(id) } }
        return Removal(outcome: outcome, forgotten: forgotten)
    }
}
