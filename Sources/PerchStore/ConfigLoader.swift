import FoundationEssentials
import PerchCore

#if canImport(Glibc)
    import Glibc
#endif

/// Accounts as loaded for a run, and where they came from.
public struct LoadedConfig: Hashable, Sendable {
    public var accounts: [Account]
    /// The file read, or nil when the embedded sample accounts are in use.
    public var path: String?
    /// Problems that do not stop Perch (unknown keys), each starting with its JSON path.
    public var warnings: [String] = []

    /// A one-line description for the Settings pane.
    public var description: String {
        path ?? "none (embedded sample accounts)"
    }
}

/// Why a config could not be used.
public enum ConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(FileError)
    /// The file holds nothing but white space.
    case empty(path: String)
    /// The file is not valid JSON: 1-based line and column of the first error.
    case syntax(path: String, line: Int, column: Int, message: String)
    /// The JSON does not describe accounts; one message per problem, each starting with its JSON path.
    case invalid(path: String, problems: [String])
    /// The file holds `onSwitch` commands but others could change them: `mode` is its permission bits.
    case unsafePermissions(path: String, mode: UInt32)
    /// The file holds `onSwitch` commands but belongs to another user (`owner` is its uid).
    case unsafeOwner(path: String, owner: UInt32)

    /// The message, one line per problem (each starting with `config PATH:`).
    public var lines: [String] {
        switch self {
        case .unreadable(let error):
            return ["config \(error)"]
        case .empty(let path):
            return [
                "config \(path): the file is empty; write a starter config with `perch init` (or remove the file to use the sample accounts)"
            ]
        case .syntax(let path, let line, let column, let message):
            return ["config \(path): line \(line), column \(column): \(message)"]
        case .invalid(let path, let problems):
            return problems.map { "config \(path): \($0)" }
        case .unsafePermissions(let path, let mode):
            let octal = String(mode & 0o7777, radix: 8)
            return [
                "config \(path): holds onSwitch commands but is writable by group or others (mode \(octal)); run: chmod go-w \(ConfigLoader.shellQuoted(path))"
            ]
        case .unsafeOwner(let path, let owner):
            return [
                "config \(path): holds onSwitch commands but belongs to another user (uid \(owner)); only your own config may run commands"
            ]
        }
    }

    /// Every problem on one line (`; ` between them), for a banner.
    public var description: String {
        guard case .invalid(let path, let problems) = self else { return lines.joined(separator: "; ") }
        return "config \(path): " + problems.joined(separator: "; ")
    }
}

/// Reads and validates the accounts config, format version 1 (see the README's "Config" section):
/// `{"version": 1, "accounts": [{"id": "work", "name": "Work", "handle": "@someone", "group": "Jobs",
/// "color": "blue", "onSwitch": "…"}]}`. Every problem is collected and reported with its JSON
/// path; unknown keys are warnings.
public enum ConfigLoader {
    /// The config format version this build reads and writes.
    public static let currentVersion = 1

    /// Parsed accounts and the warnings found on the way.
    public struct Parsed: Hashable, Sendable {
        public var accounts: [Account]
        public var warnings: [String]
    }

    /// The `JSONDecoder.userInfo` key that asks for unknown keys to be reported.
    static let reportUnknownKeysKey = CodingUserInfoKey(rawValue: "perch.reportUnknownKeys")!

    /// Loads the config at `paths.config`. A missing file that was not named explicitly means
    /// "no config yet": the embedded sample accounts are used.
    /// - Parameter reportUnknownKeys: whether to look for unknown keys (warnings), which costs
    ///   about half as much again as reading the accounts; `perch config check` does.
    /// - Throws: ``ConfigError``.
    public static func load(_ paths: PerchPaths, reportUnknownKeys: Bool = false) throws(ConfigError) -> LoadedConfig {
        let file: FileContents
        do {
            file = try FileSystem.readContents(paths.config)
        } catch {
            if error.isNotFound, !paths.configIsExplicit {
                return LoadedConfig(accounts: Account.samples, path: nil)
            }
            throw .unreadable(error)
        }
        let parsed = try parse(file.bytes, path: paths.config, reportUnknownKeys: reportUnknownKeys)
        if parsed.accounts.contains(where: \.runsCommands) {
            // As ssh does with its config: commands that others could change are not run.
            if file.mode & 0o022 != 0 { throw .unsafePermissions(path: paths.config, mode: file.mode) }
            if file.owner != getuid(), file.owner != 0 { throw .unsafeOwner(path: paths.config, owner: file.owner) }
        }
        return LoadedConfig(accounts: parsed.accounts, path: paths.config, warnings: parsed.warnings)
    }

    /// Parses and validates config JSON; `path` is used in messages only.
    /// - Throws: ``ConfigError/empty(path:)``, ``ConfigError/syntax(path:line:column:message:)`` or
    ///   ``ConfigError/invalid(path:problems:)``.
    public static func parse(_ bytes: [UInt8], path: String, reportUnknownKeys: Bool = true) throws(ConfigError) -> Parsed {
        // A UTF-8 byte order mark, as some editors write, is not part of the JSON.
        let bytes = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw .empty(path: path)
        }
        let file: RawFile
        do {
            let decoder = JSONDecoder()
            decoder.userInfo[reportUnknownKeysKey] = reportUnknownKeys
            file = try decoder.decode(RawFile.self, from: Data(bytes))
        } catch {
            // JSONDecoder reports no position; the locator finds the first syntax error's.
            if let problem = JSONSyntaxLocator.firstProblem(in: bytes) {
                throw .syntax(path: path, line: problem.line, column: problem.column, message: problem.message)
            }
            throw .invalid(path: path, problems: [(error as? DecodingError).map(describe) ?? "\(error)"])
        }
        if let problem = JSONSyntaxLocator.firstProblem(in: bytes) {
            // Accepted by the decoder but not JSON (RFC 8259): a trailing comma, invalid UTF-8.
            throw .syntax(path: path, line: problem.line, column: problem.column, message: problem.message)
        }
        var problems = file.problems
        var firstIndex: [String: Int] = [:]
        firstIndex.reserveCapacity(file.accounts.count)
        var accounts: [Account] = []
        accounts.reserveCapacity(file.accounts.count)
        for (index, raw) in file.accounts.enumerated() {
            problems += raw.problems
            // Every problem is reported: a duplicate id too, in an account with other problems.
            if let id = raw.id, !id.isEmpty {
                if let first = firstIndex[id] {
                    problems.append("accounts[\(index)].id: duplicate id \"\(id)\" (first at accounts[\(first)])")
                } else {
                    firstIndex[id] = index
                }
            }
            if let account = raw.account { accounts.append(account) }
        }
        let warnings = file.warnings + file.accounts.flatMap(\.warnings)
        if !problems.isEmpty { throw .invalid(path: path, problems: problems + warnings.map { $0 + " (a warning)" }) }
        return Parsed(accounts: accounts, warnings: warnings)
    }

    /// `path` quoted for a POSIX shell when it needs quoting.
    static func shellQuoted(_ path: String) -> String {
        let plain = path.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || "/._-+~,@%:".utf8.contains(byte)
        }
        return plain ? path : "'" + path.replacing("'", with: #"'\''"#) + "'"
    }

    /// A decoding error as `json.path: what is wrong`.
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            let parent = jsonPath(context.codingPath)
            return "\(parent == "(top level)" ? "" : parent + ".")\(key.stringValue): missing (required)"
        case .typeMismatch(let type, let context):
            return "\(jsonPath(context.codingPath)): expected \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "\(jsonPath(context.codingPath)): expected \(typeName(type)), found null"
        case .dataCorrupted(let context):
            return "\(jsonPath(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// A coding path as JSON path text: `accounts[2].id`, or `(top level)`.
    static func jsonPath(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        return text.isEmpty ? "(top level)" : text
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "a whole number"
        case is Bool.Type: "true or false"
        default: String(describing: type).hasPrefix("Array") ? "a list" : "an object"
        }
    }
}

/// Any key of a JSON object, so that unknown keys can be found and reported.
struct JSONKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A key that is not one of `known`, as a warning with a guess at what was meant.
func unknownKeyWarning(_ key: String, at parent: String, known: [String]) -> String {
    let place = parent.isEmpty ? key : parent + "." + key
    let guess = known.first { editDistance($0.lowercased(), key.lowercased()) <= 2 }
    return "\(place): unknown key, ignored" + (guess.map { " (did you mean \"\($0)\"?)" } ?? "")
}

/// Levenshtein distance between `a` and `b`, in Unicode scalars.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars)
    let b = Array(b.unicodeScalars)
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}

/// The top level of the file, decoded without stopping at the first problem.
private struct RawFile: Decodable {
    var accounts: [RawAccount] = []
    var problems: [String] = []
    var warnings: [String] = []

    init(from decoder: any Decoder) throws {
        let container: KeyedDecodingContainer<JSONKey>
        do {
            container = try decoder.container(keyedBy: JSONKey.self)
        } catch {
            problems.append(#"(top level): expected an object like {"accounts": [{"id": "work", "name": "Work"}]}"#)
            return
        }
        let unknown = container.allKeys.map(\.stringValue).filter { $0 != "version" && $0 != "accounts" }
        for key in unknown.sorted() {
            warnings.append(unknownKeyWarning(key, at: "", known: ["version", "accounts"]))
        }
        let version = JSONKey("version")
        if container.contains(version), (try? container.decodeNil(forKey: version)) != true {
            let number = try? container.decode(Int.self, forKey: version)
            if number != ConfigLoader.currentVersion {
                let found = number.map(String.init) ?? "not a whole number"
                problems.append("version: this Perch reads config version \(ConfigLoader.currentVersion), found \(found)")
            }
        }
        let key = JSONKey("accounts")
        guard container.contains(key) else {
            problems.append("accounts: missing (required); `perch init` writes a starter config")
            return
        }
        do {
            accounts = try container.decode([RawAccount].self, forKey: key)
        } catch let error as DecodingError {
            problems.append(ConfigLoader.describe(error))
            return
        }
        if accounts.isEmpty { problems.append("accounts: the list is empty; add at least one account") }
    }
}

/// One element of `accounts`, decoded without stopping at the first problem.
private struct RawAccount: Decodable {
    var account: Account?
    /// The id as written, when it is a string (for the duplicate check, whatever else is wrong).
    var id: String?
    var problems: [String] = []
    var warnings: [String] = []

    /// The keys of format version 1. Decoding through an enum of them is the fast path of
    /// `JSONDecoder`; looking for other keys costs a second container, made only when asked.
    enum Field: String, CodingKey, CaseIterable {
        case id, name, handle, group, color, onSwitch, catalog
    }

    static let known = Field.allCases.map(\.rawValue)

    init(from decoder: any Decoder) throws {
        // The JSON path is built only for a message: building it for every account is costly.
        let place = { ConfigLoader.jsonPath(decoder.codingPath) }
        let container: KeyedDecodingContainer<Field>
        do {
            container = try decoder.container(keyedBy: Field.self)
        } catch {
            problems.append(#"\#(place()): expected an object like {"id": "work", "name": "Work"}"#)
            return
        }
        func string(_ field: Field, required: Bool) -> String? {
            let value: String?
            do {
                value = try container.decodeIfPresent(String.self, forKey: field)
            } catch {
                problems.append("\(place()).\(field.rawValue): expected a string")
                return nil
            }
            guard let value else {
                if required { problems.append("\(place()).\(field.rawValue): missing (required)") }
                return nil
            }
            if !required, value.isEmpty {
                problems.append("\(place()).\(field.rawValue): must not be empty (leave the key out instead)")
                return nil
            }
            return value
        }
        let id = string(.id, required: true)
        self.id = id
        let name = string(.name, required: true)
        let handle = string(.handle, required: false)
        let group = string(.group, required: false)
        let colorName = string(.color, required: false)
        let onSwitch = string(.onSwitch, required: false)
        let catalog = catalogCommands(container, place)
        if decoder.userInfo[ConfigLoader.reportUnknownKeysKey] as? Bool == true, let all = try? decoder.container(keyedBy: JSONKey.self) {
            // Sorted: a JSON object's keys come back in no particular order.
            for key in all.allKeys.map(\.stringValue).sorted() where !Self.known.contains(key) {
                warnings.append(unknownKeyWarning(key, at: place(), known: Self.known))
            }
        }
        // The same rules as the `Add account…` form, from one place.
        if let id, let problem = AccountValidation.idProblem(id) { problems.append("\(place()).id: \(problem.message)") }
        if let name, let problem = AccountValidation.nameProblem(name) { problems.append("\(place()).name: \(problem.message)") }
        var color: TerminalColor?
        if let colorName {
            color = TerminalColor(name: colorName)
            if color == nil {
                let names = TerminalColor.allCases.map(\.name).joined(separator: ", ")
                problems.append("\(place()).color: \"\(colorName)\" is not one of \(names)")
            }
        }
        guard problems.isEmpty, let id, let name else { return }
        account = Account(id: id, name: name, handle: handle, group: group, color: color, onSwitch: onSwitch, catalog: catalog)
    }

    /// The keys of an account's `catalog` object.
    enum CatalogField: String, CodingKey, CaseIterable {
        case command, preview, open
    }

    /// Decodes `catalog` (`{"command": "…", "preview": "…", "open": "…"}`, each optional and a
    /// non-empty string), collecting problems like the other fields.
    private mutating func catalogCommands(_ container: KeyedDecodingContainer<Field>, _ place: () -> String) -> CatalogCommands? {
        guard container.contains(.catalog), (try? container.decodeNil(forKey: .catalog)) != true else { return nil }
        guard let object = try? container.nestedContainer(keyedBy: CatalogField.self, forKey: .catalog) else {
            problems.append(#"\#(place()).catalog: expected an object like {"command": "gh repo list"}"#)
            return nil
        }
        var commands = CatalogCommands()
        for field in CatalogField.allCases {
            let value: String?
            do {
                value = try object.decodeIfPresent(String.self, forKey: field)
            } catch {
                problems.append("\(place()).catalog.\(field.rawValue): expected a string")
                continue
            }
            guard let value else { continue }
            if value.allSatisfy(\.isWhitespace) {
                problems.append("\(place()).catalog.\(field.rawValue): must not be empty (leave the key out instead)")
                continue
            }
            switch field {
            case .command: commands.command = value
            case .preview: commands.preview = value
            case .open: commands.open = value
            }
        }
        return commands
    }
}
