import FoundationEssentials
import PerchDomain

#if canImport(Glibc)
    import Glibc
#endif

/// Why an account could not be added to the config. The config file is then as it was.
public enum ConfigWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be read, or the file or its `.bak` could not be written.
    case file(FileError)
    /// The file as it is now does not load (it changed since Perch read it), so nothing is added.
    case invalid(ConfigError)
    /// The file as it is now already has an account with this id.
    case duplicate(id: String, path: String)
    /// The file's top level has no `accounts` list to add to (it would not load either).
    case noAccountsList(path: String)
    /// No account of the file has this id (``ConfigWriter/apply(_:to:samples:)``).
    case noAccount(id: String, path: String)
    /// The account has no key at this dotted path, so there is nothing to unset.
    case noKey(path: String, account: String, config: String)
    /// The change would leave a config that does not load (or that ignores a key): nothing was
    /// written; the error gives every problem with its line, column and JSON path.
    case refused(ConfigError)

    public var description: String {
        switch self {
        case .file(let error): "Could not write the config: \(error)"
        case .invalid(let error): "The config does not load any more, so nothing was added: \(error)"
        case .duplicate(let id, let path): "config \(path): \"\(id)\" is already used by another account"
        case .noAccountsList(let path): "config \(path): no accounts list to add to"
        case .noAccount(let id, let path): "config \(path): no account \"\(id)\""
        case .noKey(let key, let id, let path): "config \(path): the account \"\(id)\" has no \(key)"
        case .refused(let error): "the change would leave an invalid config, so nothing was written: " + error.lines.joined(separator: "; ")
        }
    }
}

/// Appends accounts to the config file (format version 1), the only change Perch makes to it,
/// and only when a person asks (`Add account…`).
///
/// The account is inserted as text before the closing `]` of the top-level `accounts` list, so
/// the rest of the file (its formatting, key order, unknown keys) stays byte for byte as it was.
/// The result is loaded again before anything is written; the previous file is first copied to
/// `<config>.bak` (atomically, with the config's mode), then the config is replaced atomically
/// (``FileSystem/writeAtomically(_:to:mode:)``), keeping its mode.
public enum ConfigWriter {
    /// What an append wrote.
    public struct Outcome: Hashable, Sendable {
        /// Every account of the file now, the new one last.
        public var accounts: [Account]
        /// The config file written.
        public var path: String
        /// The copy of the previous file, or nil when there was none (a new config was written).
        public var backupPath: String?
    }

    /// The path of the copy kept of `path` before it is changed.
    public static func backupPath(of path: String) -> String { path + ".bak" }

    /// Appends `account` to the config at `path`. When there is no file yet, a new one is written
    /// holding `samples` (the accounts in use without a config) and then `account`, mode 0600.
    /// - Throws: ``ConfigWriteError``; the config file is then untouched.
    public static func append(_ account: Account, to path: String, samples: [Account] = Account.samples) throws(ConfigWriteError)
        -> Outcome
    {
        try append(contentsOf: [account], to: path, samples: samples)
    }

    /// Appends `accounts` (none empty, in order) to the config at `path` in one write, as
    /// ``append(_:to:samples:)`` does one (`perch import --write`).
    /// - Throws: ``ConfigWriteError``; the config file is then untouched.
    public static func append(
        contentsOf accounts: [Account], to path: String, samples: [Account] = Account.samples
    ) throws(ConfigWriteError) -> Outcome {
        let file: FileContents
        do {
            file = try FileSystem.readContents(path)
        } catch {
            guard error.isNotFound else { throw .file(error) }
            let bytes = Array(newConfig(samples + accounts).utf8)
            // Bug: the accounts handed back were the samples in memory, whose Catalog lists
            // embedded sample entries the file does not hold: the interface showed them until a
            // restart read the file. They are the file's accounts, as read back.
            let written = try check(bytes, path: path, adding: accounts)
            do { try FileSystem.writeAtomically(bytes, to: path, mode: 0o600) } catch { throw .file(error) }
            return Outcome(accounts: written, path: path, backupPath: nil)
        }
        let existing: ConfigLoader.Parsed
        do {
            existing = try ConfigLoader.parse(file.bytes, path: path, reportUnknownKeys: false, overriding: ConfigLayering.registryIDs)
        } catch { throw .invalid(error) }
        var bytes = file.bytes
        for account in accounts {
            if existing.accounts.contains(where: { $0.id == account.id }) { throw .duplicate(id: account.id, path: path) }
            guard let inserted = inserting(account, into: bytes) else { throw .noAccountsList(path: path) }
            bytes = inserted
        }
        let all = try check(bytes, path: path, adding: accounts)
        // The .bak as it was is put back if the config cannot be written (ConfigWriter+Edit.swift).
        let backup = try write(bytes, replacing: file, at: path)
        return Outcome(accounts: all, path: path, backupPath: backup)
    }

    /// Loads `bytes` as the config loader would and makes sure `account` came out last; returns
    /// the accounts. A failure here means the text insertion went wrong: nothing is written.
    @discardableResult
    private static func check(_ bytes: [UInt8], path: String, adding accounts: [Account]) throws(ConfigWriteError) -> [Account] {
        let parsed: ConfigLoader.Parsed
        do { parsed = try ConfigLoader.parse(bytes, path: path, reportUnknownKeys: false, overriding: ConfigLayering.registryIDs) } catch {
            throw .invalid(error)
        }
        guard parsed.accounts.suffix(accounts.count) == accounts[...] else { throw .noAccountsList(path: path) }
        return parsed.accounts
    }

    /// A new config file (format version 1) holding `accounts`, each over several lines,
    /// indented by two spaces a level as the starter config is.
    static func newConfig(_ accounts: [Account]) -> String {
        "{\n  \"version\": \(ConfigLoader.currentVersion),\n  \"accounts\": [\n"
            + accounts.map { "    " + laidOut(json($0), indent: "    ", unit: "  ") }.joined(separator: ",\n") + "\n  ]\n}\n"
    }

    /// `text` (one-line JSON as ``json(_:)-swift.type.method`` writes it) with each member of a
    /// non-empty object on a line of its own: indented by `indent` plus `unit` a level, the
    /// closing brace by `indent` plus the levels outside it. Lists stay on one line, as do the
    /// objects inside them. The first line is not indented (it follows what comes before it).
    static func laidOut(_ text: String, indent: String, unit: String, newline: String = "\n") -> String {
        var result = ""
        var depth = 0  // objects open around this point, outside any list
        var lists = 0  // lists open around this point: inside one, nothing is laid out
        var inString = false
        var escaped = false
        var skipSpace = false
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            if skipSpace {
                skipSpace = false
                if character == " " { continue }
            }
            if inString {
                result.append(character)
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            let line = { (levels: Int) in newline + indent + String(repeating: unit, count: levels) }
            switch character {
            case "\"":
                inString = true
                result.append(character)
            case "[":
                lists += 1
                result.append(character)
            case "]":
                lists -= 1
                result.append(character)
            case "{" where lists == 0 && index + 1 < characters.count && characters[index + 1] != "}":
                depth += 1
                result += "{" + line(depth)
            case "}" where lists == 0 && depth > 0 && index > 0 && characters[index - 1] != "{":
                depth -= 1
                result += line(depth) + "}"
            case "," where lists == 0 && depth > 0:
                result += "," + line(depth)
                skipSpace = true
            default:
                result.append(character)
            }
        }
        return result
    }

    /// The indentation of one level in `bytes`: the shortest run of white space that starts a
    /// line holding something else (a tab, two or four spaces, …), or two spaces when no line
    /// is indented (a config on one line).
    static func indentationUnit(of bytes: [UInt8]) -> String {
        var shortest: ArraySlice<UInt8>?
        var index = 0
        while index < bytes.count {
            var end = index
            while end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
            let content = end < bytes.count && bytes[end] != 0x0A && bytes[end] != 0x0D
            if end > index, content, shortest.map({ end - index < $0.count }) ?? true { shortest = bytes[index..<end] }
            guard let lineBreak = bytes[end...].firstIndex(of: 0x0A) else { break }
            index = lineBreak + 1
        }
        return shortest.map { String(decoding: $0, as: UTF8.self) } ?? "  "
    }

    /// `account` as a one-line JSON object, as it is written into the config.
    public static func jsonLine(_ account: Account) -> String { json(account) }

    /// `account` as a one-line JSON object, its keys in the config's order, absent ones left out.
    public static func json(_ account: Account) -> String {
        var members = ["\"id\": \(json(account.id))", "\"name\": \(json(account.name))"]
        if let handle = account.handle { members.append("\"handle\": \(json(handle))") }
        if let group = account.group { members.append("\"group\": \(json(group))") }
        if let color = account.color { members.append("\"color\": \(json(color.name))") }
        if let onSwitch = account.onSwitch { members.append("\"onSwitch\": \(json(onSwitch))") }
        // Bound folders and remotes (`perch import --scan`): lost from a written account before.
        for (key, list) in [("directories", account.identities.directories), ("remotes", account.identities.remotes)] where !list.isEmpty {
            members.append("\"\(key)\": [" + list.map(json).joined(separator: ", ") + "]")
        }
        members += IdentityConfig.jsonMembers(account.identities)
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// `text` as a JSON string (RFC 8259 §7), as the config is written: quotes, backslashes and
    /// controls escaped.
    public static func jsonString(_ text: String) -> String { json(text) }

    /// `text` as a JSON string (RFC 8259 §7): quotes, backslashes and controls escaped.
    public static func json(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// The longest line, in columns, that an added account on one line may make (past it, the
    /// account is laid out over lines).
    static let maximumLineLength = 100

    /// `bytes` (a config that loads) with `account` inserted as the last element of the
    /// top-level `accounts` list, indented like the element before it; nil when there is no
    /// such list. The text is read with ``JSONReader`` (JSON with Comments, as the loader does);
    /// comments stay where they are, and a trailing comment on the last element's line stays on
    /// that line. A list written with a trailing comma gets one after the new element too.
    static func inserting(_ account: Account, into bytes: [UInt8]) -> [UInt8]? {
        guard let document = try? JSONReader.read(bytes, options: .jsonWithComments),
            let list = document.value(of: document.root, forKey: "accounts"), document.kind(list) == .array
        else { return nil }
        let open = document.range(list).lowerBound
        guard let last = document.elements(list).last else {
            return Array(bytes[...open]) + Array(json(account).utf8) + Array(bytes[(open + 1)...])
        }
        let lastStart = document.range(last).lowerBound
        let lastEnd = document.range(last).upperBound
        // The last element's indentation: the white space after the line break before it.
        var start = lastStart
        while start > 0, bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 { start -= 1 }
        let newline = start > 0 && bytes[start - 1] == 0x0A
        let indent = Array(bytes[start..<lastStart])
        // The new account is laid out like the last one: its members one a line when the last
        // one's are, indented as its first member (else one level deeper than the account, the
        // level being the file's own: a tab, two or four spaces). An account on one line is
        // followed on one line while that line stays within `maximumLineLength` columns, and laid
        // out over lines past it: a hand-edited file gets no 200-column line to find errors on.
        let base = newline ? String(decoding: indent, as: UTF8.self) : ""
        var unit = indentationUnit(of: bytes)
        var overLines = false
        if document.kind(last) == .object, let member = document.members(last).first {
            let keyStart = document.range(member.key).lowerBound
            var lineStart = keyStart
            while lineStart > 0, bytes[lineStart - 1] == 0x20 || bytes[lineStart - 1] == 0x09 { lineStart -= 1 }
            let memberIndent = String(decoding: bytes[lineStart..<keyStart], as: UTF8.self)
            if newline, lineStart > 0, bytes[lineStart - 1] == 0x0A, memberIndent.hasPrefix(base), memberIndent.count > base.count {
                unit = String(memberIndent.dropFirst(base.count))
                overLines = true
            }
        }
        let oneLine = json(account)
        if !overLines {
            // The columns of the line the account would be on: its own, or the rest of the last one's.
            let lineStart = (bytes[..<lastStart].lastIndex(of: 0x0A)).map { $0 + 1 } ?? 0
            let lineBreak = bytes[lastEnd...].firstIndex(of: 0x0A) ?? bytes.count
            let before = newline ? base.count : String(decoding: bytes[lineStart..<lineBreak], as: UTF8.self).count + 2
            overLines = before + oneLine.count + 1 > maximumLineLength
        }
        let fileNewline = bytes.firstIndex(of: 0x0A).map { $0 > 0 && bytes[$0 - 1] == 0x0D } == true ? "\r\n" : "\n"
        let text = Array((overLines ? laidOut(oneLine, indent: base, unit: unit, newline: fileNewline) : oneLine).utf8)
        // A trailing comma after the last element, then the rest of its line (a comment).
        var commaAt: Int?
        let next = JSONReader.skippingTrivia(in: bytes, from: lastEnd, comments: true)
        if next < bytes.count, bytes[next] == UInt8(ascii: ",") { commaAt = next }
        var lineEnd = commaAt.map { $0 + 1 } ?? lastEnd
        var crlf = false
        if newline, let lineBreak = bytes[lineEnd...].firstIndex(of: 0x0A) {
            // The new element goes on a line of its own, after a comment that ends this line.
            var first = lineEnd
            var last = lineBreak
            while first < last, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
            while last > first, bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09 || bytes[last - 1] == 0x0D { last -= 1 }
            let text = Array(bytes[first..<last])
            let slash = UInt8(ascii: "/")
            let star = UInt8(ascii: "*")
            let lineComment = text.starts(with: [slash, slash])
            // A block comment that closes at the end of the line and nowhere before.
            let firstClose = text.indices.dropFirst(2).first { $0 + 1 < text.count && text[$0] == star && text[$0 + 1] == slash }
            let blockComment = text.starts(with: [slash, star]) && firstClose == text.count - 2
            if text.isEmpty || lineComment || blockComment {
                lineEnd = lineBreak
                if lineEnd > 0, bytes[lineEnd - 1] == 0x0D {
                    lineEnd -= 1
                    crlf = true
                }
            }
        }
        var result = Array(bytes[..<lastEnd])
        if commaAt == nil { result.append(UInt8(ascii: ",")) }
        result += bytes[lastEnd..<lineEnd]
        if newline {
            result += crlf ? [0x0D, 0x0A] : [0x0A]
            result += indent
        } else {
            result.append(0x20)
        }
        result += text
        if commaAt != nil { result.append(UInt8(ascii: ",")) }
        result += bytes[lineEnd...]
        return result
    }
}
