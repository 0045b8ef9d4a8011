import PerchDomain
import Synchronization

/// A JSON value as read, for the parts of the config that are checked as a whole (tool
/// identities): ``IdentityConfig`` sees only these, whatever reader produced them.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in the order written.
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x.map(\.0) == y.map(\.0) && x.map(\.1) == y.map(\.1)
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let x): hasher.combine(x)
        case .number(let x): hasher.combine(x)
        case .string(let x): hasher.combine(x)
        case .array(let x): hasher.combine(x)
        case .object(let x):
            for (key, value) in x {
                hasher.combine(key)
                hasher.combine(value)
            }
        }
    }

    /// The value at `index` of `document`, with its members in the order written.
    public init(_ document: JSONDocument, _ index: JSONDocument.Index) {
        switch document.kind(index) {
        case .object:
            self = .object(document.members(index).map { (document.string($0.key) ?? "", JSONValue(document, $0.value)) })
        case .array: self = .array(document.elements(index).map { JSONValue(document, $0) })
        case .string: self = .string(document.string(index) ?? "")
        case .number: self = .number(document.double(index) ?? 0)
        case .true: self = .bool(true)
        case .false: self = .bool(false)
        case .null: self = .null
        }
    }

    /// What the value is, for messages: `a string`, `a list`, `an object`.
    public var kind: String {
        switch self {
        case .null: "null"
        case .bool: "true or false"
        case .number: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }
}

/// The part of a tool adapter the config reader needs: reading the tool's member of an account
/// (`"kube": {"context": "prod"}`) with JSON-path errors, and writing it back. PerchIdentities'
/// `ToolAdapter` refines it; its registry installs the adapters here (``ToolConfigRegistry``),
/// since the config is read below the identities module.
public protocol ToolConfigReader: Sendable {
    /// The config key, and the tool's name everywhere (`kube`).
    var tool: IdentityTool { get }
    /// Reads the member (never `null`, which is the same as absent) from `reader`, adding a
    /// problem (starting with the JSON path `reader.place`) for each fault; nil when it has one.
    func read(_ reader: inout ToolMemberReader) -> ToolSetting?
    /// `setting` as the member's JSON text (`{"context": "prod"}`), for the config writer.
    func json(_ setting: ToolSetting) -> String
    /// Whether an account's `expect` may name the tool (`"expect": {"ssh": "ada-work"}`): its
    /// proof asks a server whom the key or token belongs to, and `expect` says what that server
    /// calls the account. False by default.
    var acceptsExpectation: Bool { get }
}

extension ToolConfigReader {
    /// False: the tool's proof asks no server whom it is.
    public var acceptsExpectation: Bool { false }
}

/// The tool adapters the config reader knows, in the order a switch takes them. Installed once at
/// start-up, before any config is read (as a logging system is bootstrapped); until then no key
/// is a tool.
public enum ToolConfigRegistry {
    // A handful of tools, looked up by a scan: a `[String: Int]` made here, the first of its
    // type at start-up, cost a run-time look-up of `String: Hashable` among every conformance
    // the binary holds (0.36 M instructions at every start).
    private static let installed = Mutex<Installed>(.ready([], []))

    /// What is installed: the readers and the problems, or what makes them on first use.
    private enum Installed {
        case ready([any ToolConfigReader], [String])
        case later(@Sendable () -> ([any ToolConfigReader], [String]))
    }

    /// Makes `readers` the tools (call before reading a config; later calls replace them).
    /// Safe to call from several threads at once.
    /// - Parameter problems: why tools the user described could not be read (one line each,
    ///   starting `tool description PATH:`): ``ConfigLoader/load(_:reportUnknownKeys:)`` stops
    ///   with them, since an account naming such a tool would silently lose it.
    public static func install(_ readers: [any ToolConfigReader], problems: [String] = []) {
        installed.withLock { $0 = .ready(readers, problems) }
    }

    /// Makes the tools those `make` returns (with their problems), called once, the first time
    /// they are asked for: a run that reads no config never pays for reading the tools'
    /// descriptions.
    public static func install(later make: @escaping @Sendable () -> ([any ToolConfigReader], [String])) {
        installed.withLock { $0 = .later(make) }
    }

    /// Readers given for the current task instead of the installed ones (a test's extra tool),
    /// as ``install(_:problems:)`` would make them without touching other tasks.
    @TaskLocal public static var given: [any ToolConfigReader]?

    /// The readers and problems, made now if they were installed for later.
    private static func resolved() -> ([any ToolConfigReader], [String]) {
        if let given { return (given, []) }
        return installed.withLock { state in
            switch state {
            case .ready(let readers, let problems): return (readers, problems)
            case .later(let make):
                let made = make()
                state = .ready(made.0, made.1)
                return made
            }
        }
    }

    /// The readers, in registry order.
    public static var readers: [any ToolConfigReader] { resolved().0 }

    /// Why described tools could not be read (see ``install(_:problems:)``).
    public static var problems: [String] { resolved().1 }

    /// The reader for config key `key`, or nil when it names no tool (the first of that name).
    public static func reader(for key: String) -> (any ToolConfigReader)? {
        resolved().0.first { $0.tool.rawValue == key }
    }

    /// The position of `tool` in the registry (unknown tools last), for ordering.
    public static func order(of tool: IdentityTool) -> Int {
        resolved().0.firstIndex { $0.tool == tool } ?? Int.max
    }
}

/// Reads and checks the tool identity keys of an account through the installed adapters
/// (``ToolConfigRegistry``), from values however they were read. Every problem is reported with
/// its JSON path (`accounts[2].kube.context: missing (required)`), as the rest of the config's.
public enum IdentityConfig {
    /// The account keys that name tools.
    public static var keys: [String] { ToolConfigRegistry.readers.map(\.tool.rawValue) }

    /// What reading an account's identity keys found.
    public struct Parsed: Hashable, Sendable {
        public var identities = ToolIdentities()
        public var problems: [String] = []
        public var warnings: [String] = []
    }

    /// Reads the identity keys among `members` (an account's keys and values; other keys are
    /// ignored, `null` is the same as absent) of the account at JSON path `place`. Messages
    /// start with the JSON path; the config reader puts the line and column of the tool's value
    /// before them. Settings come out in registry order.
    /// - Parameter reportUnknownKeys: whether keys inside the tools' objects that Perch does not
    ///   know are reported as warnings.
    public static func parse(_ members: [(String, JSONValue)], at place: String, reportUnknownKeys: Bool = true) -> Parsed {
        var parsed = Parsed()
        for (key, value) in members {
            guard let adapter = ToolConfigRegistry.reader(for: key), value != .null else { continue }
            var reader = ToolMemberReader(value: value, place: place + "." + key, reportUnknownKeys: reportUnknownKeys)
            let setting = adapter.read(&reader)
            if reader.problems.isEmpty, let setting { parsed.identities = parsed.identities.setting(adapter.tool, to: setting) }
            parsed.problems += reader.problems
            parsed.warnings += reader.warnings
        }
        parsed.identities.settings.sort { ToolConfigRegistry.order(of: $0.tool) < ToolConfigRegistry.order(of: $1.tool) }
        return parsed
    }
}

/// Reads the members of one tool's config member, collecting problems (each starting with its
/// JSON path) and warnings: what an adapter's ``ToolConfigReader/read(_:)`` is given.
public struct ToolMemberReader {
    /// The member's value.
    public var value: JSONValue
    /// Its JSON path (`accounts[2].kube`).
    public var place: String
    public var reportUnknownKeys: Bool
    public var problems: [String] = []
    public var warnings: [String] = []
    /// The object's members, once ``expectObject(_:)`` succeeded.
    public var members: [(String, JSONValue)] = []

    public init(value: JSONValue, place: String, reportUnknownKeys: Bool) {
        self.value = value
        self.place = place
        self.reportUnknownKeys = reportUnknownKeys
    }

    /// Whether the value is an object (else a problem naming `example` is added).
    public mutating func expectObject(_ example: String) -> Bool {
        guard case .object(let members) = value else {
            problems.append("\(place): expected an object like \(example), found \(value.kind)")
            return false
        }
        self.members = members
        return true
    }

    /// The member named `key`, or nil.
    public func member(_ key: String) -> JSONValue? { members.first { $0.0 == key }?.1 }

    /// A string member; empty strings are refused (leave the key out instead), as elsewhere.
    public mutating func string(_ key: String, required: Bool = false) -> String? {
        switch member(key) {
        case nil, .null?:
            if required { problems.append("\(place).\(key): missing (required)") }
            return nil
        case .string(let text)?:
            if text.isEmpty {
                problems.append("\(place).\(key): must not be empty" + (required ? "" : " (leave the key out instead)"))
                return nil
            }
            return text
        case let other?:
            problems.append("\(place).\(key): expected a string, found \(other.kind)")
            return nil
        }
    }

    /// A tool named by one string, written either as the string itself or as `{key: "…"}`.
    public mutating func plainOrObjectString(key: String, example: String) -> String? {
        if case .string(let text) = value {
            if text.isEmpty { problems.append("\(place): must not be empty (leave the key out instead)") }
            return text.isEmpty ? nil : text
        }
        guard expectObject(example) else { return nil }
        let text = string(key, required: true)
        finish(known: [key])
        return text
    }

    /// Adds a warning for each member not in `known` (when unknown keys are reported).
    public mutating func finish(known: [String]) {
        guard reportUnknownKeys else { return }
        for (key, _) in members where !known.contains(key) {
            warnings.append(unknownKeyWarning(key, at: place, known: known))
        }
    }
}

extension IdentityConfig {
    /// `identities` as config members (`"kube": {"context": "prod"}`), in the order a switch
    /// takes them, for the config writer; none for an account without identities.
    public static func jsonMembers(_ identities: ToolIdentities) -> [String] {
        identities.settings.compactMap { setting in
            ToolConfigRegistry.reader(for: setting.tool.rawValue).map { "\"\(setting.tool.rawValue)\": " + $0.json(setting) }
        }
    }

    /// `{"key": "value", …}` with the pairs whose value is not nil, for an adapter's ``ToolConfigReader/json(_:)``.
    public static func object(_ pairs: [(String, String?)]) -> String {
        "{" + pairs.compactMap { key, value in value.map { "\"\(key)\": \(ConfigWriter.json($0))" } }.joined(separator: ", ") + "}"
    }
}
