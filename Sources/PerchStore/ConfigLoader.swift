import FoundationEssentials
import PerchCore

/// Accounts as loaded for a run, and where they came from.
public struct LoadedConfig: Hashable, Sendable {
    public var accounts: [Account]
    /// The file read, or nil when the embedded sample accounts are in use.
    public var path: String?

    /// A one-line description for the Settings pane.
    public var description: String {
        path ?? "none (embedded sample accounts)"
    }
}

/// Why a config could not be used. Its ``description`` is the one line printed on stderr.
public enum ConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(FileError)
    /// The file is not valid JSON: 1-based line and column of the first error.
    case syntax(path: String, line: Int, column: Int, message: String)
    /// The JSON does not describe accounts; one message per problem, each starting with its JSON path.
    case invalid(path: String, problems: [String])

    public var description: String {
        switch self {
        case .unreadable(let error):
            return "config \(error)"
        case .syntax(let path, let line, let column, let message):
            return "config \(path): line \(line), column \(column): \(message)"
        case .invalid(let path, let problems):
            return "config \(path): " + problems.joined(separator: "; ")
        }
    }
}

/// Reads the accounts config: `{"accounts": [{"id": "work", "name": "Work", "handle": "@someone"}]}`.
public enum ConfigLoader {
    private struct File: Decodable {
        var accounts: [Account]
    }

    /// Loads the config at `paths.config`. A missing file that was not named explicitly means
    /// "no config yet": the embedded sample accounts are used.
    /// - Throws: ``ConfigError``.
    public static func load(_ paths: PerchPaths) throws(ConfigError) -> LoadedConfig {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(paths.config)
        } catch {
            if error.isNotFound, !paths.configIsExplicit {
                return LoadedConfig(accounts: Account.samples, path: nil)
            }
            throw .unreadable(error)
        }
        return LoadedConfig(accounts: try parse(bytes, path: paths.config), path: paths.config)
    }

    /// Parses and validates config JSON; `path` is used in messages only.
    /// - Throws: ``ConfigError/syntax(path:line:column:message:)`` or ``ConfigError/invalid(path:problems:)``.
    public static func parse(_ bytes: [UInt8], path: String) throws(ConfigError) -> [Account] {
        // A UTF-8 byte order mark, as some editors write, is not part of the JSON.
        let bytes = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw .invalid(path: path, problems: ["the file is empty; it should hold {\"accounts\": [{\"id\": …, \"name\": …}]}"])
        }
        if let problem = JSONSyntaxLocator.firstProblem(in: bytes) {
            throw .syntax(path: path, line: problem.line, column: problem.column, message: problem.message)
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw .invalid(path: path, problems: [describe(error)])
        } catch {
            throw .invalid(path: path, problems: ["\(error)"])
        }
        var problems: [String] = []
        if file.accounts.isEmpty { problems.append("accounts: the list is empty; add at least one account") }
        var firstIndex: [String: Int] = [:]
        for (index, account) in file.accounts.enumerated() {
            if account.id.isEmpty { problems.append("accounts[\(index)].id: must not be empty") }
            if account.name.allSatisfy(\.isWhitespace) {
                problems.append("accounts[\(index)].name: must not be empty")
            } else if DisplayWidth.columns(of: account.name.filter { !$0.isWhitespace }) == 0 {
                problems.append("accounts[\(index)].name: has nothing visible (only zero-width characters)")
            }
            if let first = firstIndex[account.id] {
                problems.append("accounts[\(index)].id: duplicate id \"\(account.id)\" (first at accounts[\(first)])")
            } else {
                firstIndex[account.id] = index
            }
        }
        if !problems.isEmpty { throw .invalid(path: path, problems: problems) }
        return file.accounts
    }

    /// A decoding error as `json.path: what is wrong`.
    static func describe(_ error: DecodingError) -> String {
        func jsonPath(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text.isEmpty ? "(top level)" : text
        }
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

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "a number"
        case is Bool.Type: "true or false"
        default: String(describing: type).hasPrefix("Array") ? "a list" : "an object"
        }
    }
}
