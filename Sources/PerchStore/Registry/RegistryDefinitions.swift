import PerchDomain

/// The definitions of one registry at one commit: its `perch-registry.json` (format version 1,
/// see `docs/registries.md`) read, its templates filled with the member's values, and checked
/// as Perch checks its own config.
///
/// The file is data from outside: it is parsed by Perch's JSON reader (RFC 8259, with JSONC
/// comments), its accounts are checked by the config reader itself, and nothing in it is run
/// or printed raw. Its code-bearing parts (``codeText``) are kept apart so that they stay inert
/// until the user trusts them.
public struct RegistryDefinitions: Hashable, Sendable {
    /// The registry file's name in its repository (in `--path DIR` when given).
    public static let fileName = "perch-registry.json"
    /// The format version this build reads.
    public static let currentVersion = 1
    /// The top-level keys of the file.
    static let fileKeys = ["version", "values", "accounts", "tools"]
    /// The account keys whose values Perch runs (``Account/runsCommands`` says the same of an
    /// account); from a registry, every key but ``plainKeys`` needs trust.
    public static let codeKeys = ["onSwitch", "catalog"]

    /// A value each member fills once (`values.email` in the file), used as `${email}` in the
    /// accounts' strings.
    public struct Value: Hashable, Sendable {
        /// Its name: `a`–`z`, `A`–`Z`, `0`–`9`, `_`; starts with a letter.
        public var name: String
        /// What to ask (`Your email address at Acme`).
        public var prompt: String
        /// An example answer, shown with the question.
        public var example: String?
    }

    /// The values the file asks for, in the order written.
    public var values: [Value]
    /// Each account as a JSON object with the templates filled, in file order, keyed by id
    /// (code-bearing keys included).
    public var accounts: [(id: String, object: JSONValue)]
    /// Tool descriptions (docs/tools.md), each an object with its `tool` name, in file order:
    /// code all of them (they name programs Perch runs), used only once trusted.
    public var tools: [(name: String, object: JSONValue)] = []

    /// Definitions as given: `accounts` and `tools` in file order, templates already filled.
    public init(values: [Value], accounts: [(id: String, object: JSONValue)], tools: [(name: String, object: JSONValue)] = []) {
        self.values = values
        self.accounts = accounts
        self.tools = tools
    }

    /// Equal when the values, the accounts (ids and objects, in order) and the tools are.
    public static func == (a: RegistryDefinitions, b: RegistryDefinitions) -> Bool {
        a.values == b.values && a.accounts.map(\.id) == b.accounts.map(\.id) && a.accounts.map(\.object) == b.accounts.map(\.object)
            && a.tools.map(\.object) == b.tools.map(\.object)
    }

    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
        for tool in tools { hasher.combine(tool.object) }
        for (id, object) in accounts {
            hasher.combine(id)
            hasher.combine(object)
        }
    }

    /// Why a registry file cannot be used: one line per problem, each starting with its JSON path.
    public struct Problems: Error, Hashable, Sendable {
        /// One problem a line, each starting with its JSON path (`accounts[1].kube.context: …`).
        public var lines: [String]
        /// Problems as `lines`.
        public init(lines: [String]) { self.lines = lines }
    }

    /// A value the file asks for that `filled` has no answer to.
    public struct MissingValues: Error, Hashable, Sendable {
        /// The values lacking, in the file's order.
        public var values: [Value]
    }

    /// Reads a registry file.
    /// - Parameters:
    ///   - bytes: the file's contents (UTF-8 JSON or JSONC).
    ///   - filled: the member's answers, by value name; ``MissingValues`` names those lacking.
    /// - Throws: ``Problems`` (syntax, shape, and every problem the config reader finds in the
    ///   accounts, each with its JSON path) or ``MissingValues``.
    public static func read(_ bytes: [UInt8], filled: [String: String]) throws -> RegistryDefinitions {
        let document: JSONDocument
        do {
            document = try JSONReader.read(bytes, options: .jsonWithComments)
        } catch {
            throw Problems(lines: ["line \(error.line), column \(error.column): \(error.message)"])
        }
        guard case .object(let members) = JSONValue(document, document.root) else {
            throw Problems(lines: [#"(top level): expected an object like {"version": 1, "accounts": [{"id": "work", "name": "Work"}]}"#])
        }
        var problems: [String] = []
        let top = Dictionary(members, uniquingKeysWith: { first, _ in first })
        for (key, _) in members where !fileKeys.contains(key) {
            problems.append(unknownKeyWarning(key, at: "", known: fileKeys).replacing(", ignored", with: ""))
        }
        if let version = top["version"], version != .number(Double(currentVersion)) {
            problems.append("version: this Perch reads registry version \(currentVersion)")
        }
        var values: [Value] = []
        if let given = top["values"] {
            if case .object(let list) = given {
                for (name, spec) in list {
                    guard isValueName(name) else {
                        problems.append("values.\(name): not a value name (letters, digits and _, starting with a letter)")
                        continue
                    }
                    switch spec {
                    case .string(let prompt): values.append(Value(name: name, prompt: prompt, example: nil))
                    case .object(let fields):
                        let fields = Dictionary(fields, uniquingKeysWith: { first, _ in first })
                        guard case .string(let prompt)? = fields["prompt"] else {
                            problems.append("values.\(name).prompt: missing (required), a string")
                            continue
                        }
                        var example: String?
                        if case .string(let text)? = fields["example"] { example = text }
                        values.append(Value(name: name, prompt: prompt, example: example))
                    default: problems.append("values.\(name): expected a string (the question) or {\"prompt\": …, \"example\": …}")
                    }
                }
            } else {
                problems.append("values: expected an object")
            }
        }
        var tools: [(name: String, object: JSONValue)] = []
        if let given = top["tools"] {
            if case .array(let list) = given {
                for (index, element) in list.enumerated() {
                    guard case .object(let fields) = element, case .string(let name)? = fields.first(where: { $0.0 == "tool" })?.1 else {
                        problems.append("tools[\(index)]: expected a tool description with its \"tool\" name (docs/tools.md)")
                        continue
                    }
                    if element.leaves(prefix: "").contains(where: { $0.value.holdsControlCharacter }) {
                        problems.append("tools[\(index)]: holds a control character (an escape, a line break, a tab)")
                        continue
                    }
                    if element.containsTemplate(in: nil) {
                        problems.append("tools[\(index)]: a ${…} value cannot be used in a tool description")
                        continue
                    }
                    tools.append((name, element))
                }
            } else {
                problems.append("tools: expected a list of tool descriptions")
            }
        }
        guard case .array(let list)? = top["accounts"] else {
            problems.append("accounts: missing (required), a list of accounts as in accounts.json")
            throw Problems(lines: problems)
        }
        let missing = values.filter { (filled[$0.name] ?? "").isEmpty }
        if !missing.isEmpty, problems.isEmpty { throw MissingValues(values: missing) }
        var accounts: [(id: String, object: JSONValue)] = []
        for (index, element) in list.enumerated() {
            guard case .object(let fields) = element else {
                problems.append("accounts[\(index)]: expected an object")
                continue
            }
            var filledFields: [(String, JSONValue)] = []
            for (key, value) in fields {
                let place = "accounts[\(index)].\(key)"
                if !plainKeys.contains(key), value.containsTemplate(in: nil) {
                    // Never a member's answer pasted into code.
                    problems.append("\(place): a ${…} value cannot be used in code (onSwitch, catalog, env, a described tool's settings)")
                    continue
                }
                switch value.filling(values: filled, declared: Set(values.map(\.name))) {
                case .success(let result): filledFields.append((key, result))
                case .failure(let template): problems.append("\(place): ${\(template.name)} is not in values")
                }
            }
            let object = JSONValue.object(filledFields)
            // Bug (hostile review): a registry's env value with an escape sequence reached the
            // terminal raw through `perch env`. A registry has no use for control characters.
            for leaf in object.leaves(prefix: "") where leaf.value.holdsControlCharacter {
                problems.append("accounts[\(index)].\(leaf.path): holds a control character (an escape, a line break, a tab)")
            }
            guard case .string(let id)? = filledFields.first(where: { $0.0 == "id" })?.1 else {
                problems.append("accounts[\(index)].id: missing (required)")
                continue
            }
            // Ids name files of Perch's (git's rules per account): a long one broke every switch.
            if id.utf8.count > 64 { problems.append("accounts[\(index)].id: longer than 64 characters") }
            accounts.append((id, object))
        }
        if !problems.isEmpty { throw Problems(lines: problems) }
        // Every account as the config reader reads accounts.json: the same checks, the same words.
        if accounts.isEmpty { return RegistryDefinitions(values: values, accounts: [], tools: tools) }
        let text = #"{"version": 1, "accounts": ["# + accounts.map(\.object.text).joined(separator: ",\n") + "]}"
        do {
            _ = try ConfigLoader.parse(Array(text.utf8), path: fileName, reportUnknownKeys: false)
        } catch {
            switch error {
            case .invalid(_, let found):
                // The line and column are those of the filled text, not of the file: dropped.
                throw Problems(lines: found.map { line in line.firstRange(of: ": ").map { String(line[$0.upperBound...]) } ?? line })
            default: throw Problems(lines: error.lines)
            }
        }
        return RegistryDefinitions(values: values, accounts: accounts, tools: tools)
    }

    /// Whether `name` can name a value: a letter, then letters, digits and `_`.
    static func isValueName(_ name: String) -> Bool {
        guard let first = name.utf8.first, (first | 0x20) >= 0x61, (first | 0x20) <= 0x7A else { return false }
        return name.utf8.allSatisfy { ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
    }

    /// The account keys a registry may set without trust: fields that name who the account is
    /// in the built-in tools, and where it applies. Every other key needs trust (an allowlist:
    /// a list of what is code is never complete). Bugs (hostile reviews): `env`'s `MAILPATH` ran
    /// `$(…)` at the next prompt, and a described tool's setting (`npm.userconfig`,
    /// `claude.configDir`) pointed npm and Claude Code at configs that run commands.
    public static let plainKeys: Set<String> = [
        "id", "name", "handle", "group", "color", "directories", "remotes", "expect", "agent", "git", "ssh", "kube", "gcloud", "gh",
        "aws", "docker",
    ]

    /// The parts of `object` that need trust (every key but ``plainKeys``), or nil when it has none.
    static func code(of object: JSONValue) -> JSONValue? {
        guard case .object(let fields) = object else { return nil }
        let code = fields.filter { !plainKeys.contains($0.0) && $0.1 != .null }
        return code.isEmpty ? nil : .object(code)
    }

    /// `object` without the parts that need trust: what a switch uses while the registry is not trusted.
    static func withoutCode(_ object: JSONValue) -> JSONValue {
        guard case .object(let fields) = object else { return object }
        return .object(fields.filter { plainKeys.contains($0.0) })
    }

    /// Every code-bearing part, account by account (`[["id", {"onSwitch": …}], …]`), as one
    /// canonical JSON text; empty when there is none. Trust is given to this text: a later
    /// commit whose text is the same needs no new trust, one that differs does.
    public var codeText: String {
        var parts: [String] = []
        for account in accounts {
            guard let code = Self.code(of: account.object) else { continue }
            parts.append("[" + ConfigWriter.json(account.id) + ", " + code.text + "]")
        }
        for tool in tools { parts.append("[\"tool\", " + tool.object.text + "]") }
        return parts.isEmpty ? "" : "[" + parts.joined(separator: ", ") + "]"
    }

    /// The ids of the accounts with code-bearing parts.
    public var idsWithCode: [String] { accounts.compactMap { Self.code(of: $0.object) == nil ? nil : $0.id } }

    /// Each account's code-bearing parts, one line each (`id: onSwitch = "…"`), as the trust
    /// prompt shows them: every string JSON-escaped, so no control character reaches a terminal.
    public var codeLines: [String] {
        accounts.flatMap { account -> [String] in
            guard let code = Self.code(of: account.object) else { return [] }
            return code.leaves(prefix: "").map { "\(account.id): \($0.path) = \($0.value.text)" }
        }
            + tools.flatMap { tool in
                tool.object.leaves(prefix: "").filter { $0.path != "tool" }.map { "tool \(tool.name): \($0.path) = \($0.value.text)" }
            }
    }
}

extension JSONValue {
    /// Compact JSON text (RFC 8259): members in order, strings escaped as the config writer
    /// escapes them, whole numbers without a fraction.
    public var text: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value):
            if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
            return "\(value)"
        case .string(let value): return ConfigWriter.json(value)
        case .array(let values): return "[" + values.map(\.text).joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.map { ConfigWriter.json($0.0) + ": " + $0.1.text }.joined(separator: ", ") + "}"
        }
    }

    /// `patch` applied to this value as JSON Merge Patch (RFC 7396): an object merges member
    /// by member (`null` removes one), anything else replaces the value.
    public func merging(_ patch: JSONValue) -> JSONValue {
        guard case .object(let changes) = patch else { return patch }
        var members: [(String, JSONValue)]
        if case .object(let own) = self { members = own } else { members = [] }
        for (key, value) in changes {
            let at = members.firstIndex { $0.0 == key }
            if value == .null {
                if let at { members.remove(at: at) }
            } else if let at {
                members[at].1 = members[at].1.merging(value)
            } else {
                members.append((key, JSONValue.null.merging(value)))
            }
        }
        return .object(members)
    }

    /// Every leaf (a value that is not an object, or an empty object) with its dotted path
    /// below `prefix` (`git.email`), in order: the fields a diff and a conflict name.
    public func leaves(prefix: String) -> [(path: String, value: JSONValue)] {
        guard case .object(let members) = self, !members.isEmpty else { return [(prefix, self)] }
        return members.flatMap { key, value in value.leaves(prefix: prefix.isEmpty ? key : prefix + "." + key) }
    }

    /// Whether this value is, or a list holding, a string with a C0 or C1 control character or DEL.
    var holdsControlCharacter: Bool {
        switch self {
        case .string(let text): return text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        case .array(let values): return values.contains { $0.holdsControlCharacter }
        default: return false
        }
    }

    /// Whether a string in this value (in the members named `only`, when given) holds `${`.
    func containsTemplate(in only: Set<String>?) -> Bool {
        switch self {
        case .string(let text): return text.contains("${")
        case .array(let values): return values.contains { $0.containsTemplate(in: nil) }
        case .object(let members): return members.contains { only?.contains($0.0) ?? true ? $0.1.containsTemplate(in: nil) : false }
        default: return false
        }
    }

    /// This value with `${name}` in its strings replaced by `values[name]`; the failure names
    /// a `${name}` that is not `declared`. `$${` stands for a literal `${`.
    func filling(values: [String: String], declared: Set<String>) -> Result<JSONValue, TemplateName> {
        switch self {
        case .string(let text):
            guard text.contains("${") else { return .success(self) }
            var result = ""
            var rest = Substring(text)
            while let start = rest.firstRange(of: "${") {
                if start.lowerBound > rest.startIndex, rest[rest.index(before: start.lowerBound)] == "$" {
                    result += rest[..<rest.index(before: start.lowerBound)] + "${"
                    rest = rest[start.upperBound...]
                    continue
                }
                result += rest[..<start.lowerBound]
                guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                    return .failure(TemplateName(String(rest[start.lowerBound...])))
                }
                let name = String(rest[start.upperBound..<end])
                guard declared.contains(name), let value = values[name] else { return .failure(TemplateName(name)) }
                result += value
                rest = rest[rest.index(after: end)...]
            }
            return .success(.string(result + rest))
        case .array(let elements):
            var filled: [JSONValue] = []
            for element in elements {
                switch element.filling(values: values, declared: declared) {
                case .success(let value): filled.append(value)
                case .failure(let name): return .failure(name)
                }
            }
            return .success(.array(filled))
        case .object(let members):
            var filled: [(String, JSONValue)] = []
            for (key, value) in members {
                switch value.filling(values: values, declared: declared) {
                case .success(let result): filled.append((key, result))
                case .failure(let name): return .failure(name)
                }
            }
            return .success(.object(filled))
        default: return .success(self)
        }
    }
}

/// A `${name}` with no value.
struct TemplateName: Error, Hashable, Sendable {
    var name: String
    init(_ name: String) { self.name = name }
}

/// What changes in one account between two versions of a registry's definitions.
public struct RegistryChange: Hashable, Sendable {
    /// Whether the account (or tool description) is new, changed, or gone.
    public enum Kind: Hashable, Sendable { case added, changed, removed }
    /// One field: its dotted path, its old and new values as JSON text (nil when absent).
    public struct Field: Hashable, Sendable {
        /// The dotted path (`git.email`).
        public var path: String
        /// The value before, as JSON text; nil when the field is new.
        public var old: String?
        /// The value after, as JSON text; nil when the field is removed.
        public var new: String?
    }
    /// The account's id, or `tool NAME` for a tool description.
    public var id: String
    /// What happens to it.
    public var kind: Kind
    /// The fields that change, in the new object's order then the removed ones (none for a removal).
    public var fields: [Field]
    /// Whether a code-bearing part changes (it then needs trust).
    public var touchesCode: Bool

    /// The change as lines for a person, two spaces in: `+ web (new account)` and its fields,
    /// `~ ops` with `git.email: "a@x" → "b@x"`, `- legacy (removed)`. Values are JSON text, so
    /// no control character of the registry's reaches a terminal.
    public var lines: [String] {
        let code = touchesCode ? "  [code: inert until trusted]" : ""
        switch kind {
        case .added:
            return ["  + \(id) (\(id.hasPrefix("tool ") ? "new tool description" : "new account"))\(code)"]
                + fields.map { "      \($0.path): \($0.new ?? "")" }
        case .removed:
            return ["  - \(id) (removed)"]
        case .changed:
            return ["  ~ \(id)\(code)"]
                + fields.map { field in
                    switch (field.old, field.new) {
                    case (nil, let new?): "      + \(field.path): \(new)"
                    case (let old?, nil): "      - \(field.path): \(old)"
                    case (let old?, let new?): "      \(field.path): \(old) → \(new)"
                    case (nil, nil): "      \(field.path)"
                    }
                }
        }
    }
}

extension RegistryDefinitions {
    /// The changes from `old` (nil: nothing yet) to `new`, account by account in `new`'s order,
    /// then the removed ones; accounts that do not change are left out.
    public static func changes(from old: RegistryDefinitions?, to new: RegistryDefinitions) -> [RegistryChange] {
        var before: [String: JSONValue] = [:]
        for (id, object) in old?.accounts ?? [] { before[id] = object }
        var changes: [RegistryChange] = []
        for (id, object) in new.accounts {
            let newLeaves = object.leaves(prefix: "").filter { $0.path != "id" }
            let touches = { (previous: JSONValue?) in code(of: object) != previous.flatMap { code(of: $0) } }
            guard let previous = before.removeValue(forKey: id) else {
                changes.append(
                    RegistryChange(
                        id: id, kind: .added, fields: newLeaves.map { .init(path: $0.path, old: nil, new: $0.value.text) },
                        touchesCode: touches(nil)))
                continue
            }
            guard previous != object else { continue }
            let oldLeaves = previous.leaves(prefix: "").filter { $0.path != "id" }
            var fields: [RegistryChange.Field] = []
            for leaf in newLeaves {
                let was = oldLeaves.first { $0.path == leaf.path }?.value
                if was != leaf.value { fields.append(.init(path: leaf.path, old: was?.text, new: leaf.value.text)) }
            }
            for leaf in oldLeaves where !newLeaves.contains(where: { $0.path == leaf.path }) {
                fields.append(.init(path: leaf.path, old: leaf.value.text, new: nil))
            }
            changes.append(RegistryChange(id: id, kind: .changed, fields: fields, touchesCode: touches(previous)))
        }
        for (id, _) in old?.accounts ?? [] where before[id] != nil {
            changes.append(RegistryChange(id: id, kind: .removed, fields: [], touchesCode: false))
        }
        // Tool descriptions, as `tool NAME`: code, every one.
        var toolsBefore: [String: JSONValue] = [:]
        for (name, object) in old?.tools ?? [] { toolsBefore[name] = object }
        for (name, object) in new.tools {
            let leaves = object.leaves(prefix: "").filter { $0.path != "tool" }
            guard let previous = toolsBefore.removeValue(forKey: name) else {
                changes.append(
                    RegistryChange(
                        id: "tool " + name, kind: .added, fields: leaves.map { .init(path: $0.path, old: nil, new: $0.value.text) },
                        touchesCode: true))
                continue
            }
            guard previous != object else { continue }
            let oldLeaves = previous.leaves(prefix: "").filter { $0.path != "tool" }
            var fields: [RegistryChange.Field] = []
            for leaf in leaves where oldLeaves.first(where: { $0.path == leaf.path })?.value != leaf.value {
                fields.append(.init(path: leaf.path, old: oldLeaves.first { $0.path == leaf.path }?.value.text, new: leaf.value.text))
            }
            for leaf in oldLeaves where !leaves.contains(where: { $0.path == leaf.path }) {
                fields.append(.init(path: leaf.path, old: leaf.value.text, new: nil))
            }
            changes.append(RegistryChange(id: "tool " + name, kind: .changed, fields: fields, touchesCode: true))
        }
        for (name, _) in old?.tools ?? [] where toolsBefore[name] != nil {
            changes.append(RegistryChange(id: "tool " + name, kind: .removed, fields: [], touchesCode: true))
        }
        return changes
    }
}
