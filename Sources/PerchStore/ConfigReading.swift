import PerchDomain

#if canImport(Glibc)
    import Glibc
#endif

/// One pass over a config document (format version 1) that collects the accounts and every
/// problem and warning, each as `line L, column C: json.path: what is wrong`.
struct ConfigReading {
    let document: JSONDocument
    let reportUnknownKeys: Bool
    private(set) var problems: [String] = []
    private(set) var warnings: [String] = []
    /// The ids of registry accounts: an account of the file with one of them is the user's
    /// override of that account (``overrides``), not an account of its own.
    var overrideIDs: Set<String> = []
    /// The overrides found, in file order: the account's index in the list, its id and its value.
    private(set) var overrides: [(index: Int, id: String, element: JSONDocument.Index)] = []
    /// Line starts, found on the first message only: a valid config never pays for them.
    private var positions: JSONDocument.Positions?

    init(document: JSONDocument, reportUnknownKeys: Bool) {
        self.document = document
        self.reportUnknownKeys = reportUnknownKeys
    }

    /// The keys of format version 1, top level and account.
    static let fileKeys = ["version", "accounts"]
    static let accountKeys = ["id", "name", "handle", "group", "color", "onSwitch", "catalog", "directories", "remotes", "expect", "agent"]

    private mutating func place(_ value: JSONDocument.Index) -> String {
        if positions == nil { positions = JSONDocument.Positions(document) }
        let (line, column) = positions!.position(of: document.range(value).lowerBound)
        return "line \(line), column \(column): "
    }

    private mutating func problem(_ value: JSONDocument.Index, _ text: String) {
        problems.append(place(value) + text)
    }

    private mutating func warning(_ value: JSONDocument.Index, _ text: String) {
        warnings.append(place(value) + text)
    }

    /// The accounts of a file without problems (and those without problems of a file with some).
    mutating func file() -> [Account] {
        let root = document.root
        guard document.kind(root) == .object else {
            problem(root, #"(top level): expected an object like {"accounts": [{"id": "work", "name": "Work"}]}"#)
            return []
        }
        var version: JSONDocument.Index?
        var list: JSONDocument.Index?
        var unknown: [(key: String, at: JSONDocument.Index)] = []
        for (key, value) in document.members(root) {
            if document.keyEquals(key, "version") {
                version = value
            } else if document.keyEquals(key, "accounts") {
                list = value
            } else {
                unknown.append((document.string(key) ?? "", key))
            }
        }
        for (key, at) in unknown.sorted(by: { $0.key < $1.key }) {
            warning(at, unknownKeyWarning(key, at: "", known: Self.fileKeys))
        }
        if let version, document.kind(version) != .null {
            // `1.0` and `1e0` are the number 1 too (RFC 8259 does not tell them apart).
            let number = document.integer(version) ?? document.wholeNumber(version)
            if number != ConfigLoader.currentVersion {
                let found = number.map(String.init) ?? "not a whole number"
                problem(version, "version: this Perch reads config version \(ConfigLoader.currentVersion), found \(found)")
            }
        }
        guard let list else {
            problem(root, "accounts: missing (required); `perch init` writes a starter config")
            return []
        }
        switch document.kind(list) {
        case .array: break
        case .null:
            problem(list, "accounts: expected a list, found null")
            return []
        default:
            problem(list, "accounts: expected a list")
            return []
        }
        let elements = document.elements(list)
        if elements.isEmpty {
            // A registry's accounts are accounts enough.
            if !overrideIDs.isEmpty { return [] }
            problem(list, "accounts: the list is empty; add at least one account")
            return []
        }
        var accounts: [Account] = []
        accounts.reserveCapacity(elements.count)
        var ids = IDTable(capacity: elements.count)
        var bindsFolders = false
        let document = self.document
        document.bytes.withUnsafeBufferPointer { bytes in
            document.nodes.withUnsafeBufferPointer { nodes in
                for (index, element) in elements.enumerated() {
                    if !overrideIDs.isEmpty, let idValue = document.value(of: element, forKey: "id"),
                        let id = document.string(idValue), overrideIDs.contains(id)
                    {
                        if let first = overrides.first(where: { $0.id == id }) {
                            problem(idValue, "accounts[\(index)].id: duplicate id \"\(id)\" (first at accounts[\(first.index)])")
                        } else {
                            overrides.append((index, id, element))
                        }
                        continue
                    }
                    // Most accounts are settled by their bytes; the others, and every problem, go the long way.
                    if let (idValue, hash) = Self.appendPlainAccount(element, nodes: nodes, bytes: bytes, to: &accounts) {
                        if let first = ids.insert(idValue, hash: hash, account: index, in: document) {
                            let id = accounts[accounts.count - 1].id
                            problem(idValue, "accounts[\(index)].id: duplicate id \"\(id)\" (first at accounts[\(first)])")
                        }
                        continue
                    }
                    let (account, id, idValue) = self.account(element, index: index)
                    // Every problem is reported: a duplicate id too, in an account with other problems.
                    if let id, let idValue, !id.isEmpty, let first = ids.insert(idValue, account: index, in: document) {
                        problem(idValue, "accounts[\(index)].id: duplicate id \"\(id)\" (first at accounts[\(first)])")
                    }
                    if let account {
                        bindsFolders = bindsFolders || !account.identities.directories.isEmpty
                        accounts.append(account)
                    }
                }
            }
        }
        guard bindsFolders else { return accounts }
        // A folder bound to two accounts would pick one of them by the order of the file.
        var bound: [String: String] = [:]
        for account in accounts {
            for folder in account.identities.directories {
                // `~/work` and `/home/ada/work` are one folder.
                let key = DirectoryRules.absolute(folder, home: PerchPaths.environment("HOME") ?? "~")
                if let other = bound[key] {
                    problem(list, "accounts: \"\(folder)\" is in the directories of both \"\(other)\" and \"\(account.id)\"")
                } else {
                    bound[key] = account.id
                }
            }
        }
        return accounts
    }

    /// The ids seen so far, by the string value that holds each: an open-addressing table keyed by
    /// the text's hash, so that no `String` is hashed (the standard library's hashing cost more
    /// than reading the file).
    private struct IDTable {
        /// Per slot: the high bits of an id's hash (compared before the text) and its account,
        /// 8 bytes, so that the table of 100,000 ids stays within 1 MiB (a cache miss per id
        /// had cost 10 ms in a table three times the size).
        var slots: [(hash: UInt32, account: Int32)]
        /// The string value of each account's id, by account (-1 when it has none).
        var values: [Int32]
        let mask: Int

        init(capacity: Int) {
            var size = 16
            while size * 3 < capacity * 4 { size <<= 1 }
            slots = Array(repeating: (0, -1), count: size)
            values = Array(repeating: -1, count: capacity)
            mask = size - 1
        }

        /// Adds string `value` (the id of account `account`); returns the account that had the
        /// same id first, or nil when it is new.
        /// - Parameter hash: `document.stringHash(value)`, when known.
        mutating func insert(_ value: JSONDocument.Index, hash: UInt64? = nil, account: Int, in document: JSONDocument) -> Int? {
            // FNV-1a's low bits repeat for ids alike but for their last characters: mixed first.
            var hash = hash ?? document.stringHash(value)
            hash ^= hash >> 33
            hash &*= 0xff51_afd7_ed55_8ccd
            hash ^= hash >> 33
            let check = UInt32(truncatingIfNeeded: hash >> 32)
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot].account >= 0 {
                let other = Int(slots[slot].account)
                if slots[slot].hash == check, document.stringsEqual(Int(values[other]), value) { return other }
                slot = (slot + 1) & mask
            }
            slots[slot] = (check, Int32(account))
            values[account] = Int32(value)
            return nil
        }
    }

    /// Appends an element of `accounts` that bytes alone show to be a valid account, and returns
    /// where its id is, with the id's ``JSONDocument/stringHash(_:)``; nil (nothing appended) sends it through ``account(_:index:)``, which reads
    /// every other element and finds every problem. It must be an object whose keys are among `id`, `name`, `handle`, `group`,
    /// `color` and `onSwitch`, each a string of printable ASCII (0x20–0x7E) without escapes, with
    /// an id of `a`–`z`, `0`–`9`, `.`, `_`, `-` not beginning with `-`, a name beginning with a
    /// character other than a space or `-`, a handle and group not only spaces, a colour's name
    /// and non-empty optional fields. Such text meets ``AccountValidation``'s rules and holds no
    /// grapheme cluster to cut, so the account is the one ``account(_:index:)`` makes, with no
    /// `Character` looked at (those checks were most of the cost of loading the accounts).
    private static func appendPlainAccount(
        _ element: JSONDocument.Index, nodes: UnsafeBufferPointer<JSONDocument.Node>, bytes: UnsafeBufferPointer<UInt8>,
        to accounts: inout [Account]
    ) -> (id: JSONDocument.Index, hash: UInt64)? {
        let object = nodes[element]
        guard object.kind == .object else { return nil }
        var id: JSONDocument.Index?
        var name: JSONDocument.Index?
        var handle: JSONDocument.Index?
        var group: JSONDocument.Index?
        var color: JSONDocument.Index?
        var onSwitch: JSONDocument.Index?
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var key = element + 1
        for _ in 0..<object.count {
            let value = key + 1
            let node = nodes[value]
            guard let field = plainField(nodes[key], bytes), node.kind == .string, !node.escaped else { return nil }
            // The text between the quotes: at least one byte, all printable ASCII.
            let start = Int(node.start) + 1
            let end = Int(node.end) - 1
            guard start < end else { return nil }
            var i = start
            switch field {
            case .id:
                guard bytes[start] != 0x2D else { return nil }
                while i < end {
                    let byte = bytes[i]
                    guard (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x2D && byte <= 0x39 && byte != 0x2F) || byte == 0x5F else {
                        return nil
                    }
                    hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
                    i += 1
                }
                id = value
            case .name:
                guard bytes[start] != 0x20, bytes[start] != 0x2D, isPrintableASCII(bytes, start, end) else { return nil }
                name = value
            case .handle, .group:
                var shows = false
                while i < end {
                    let byte = bytes[i]
                    guard byte >= 0x20, byte < 0x7F else { return nil }
                    shows = shows || byte != 0x20
                    i += 1
                }
                guard shows else { return nil }
                if field == .handle { handle = value } else { group = value }
            case .color, .onSwitch:
                guard isPrintableASCII(bytes, start, end) else { return nil }
                if field == .color { color = value } else { onSwitch = value }
            }
            key = Int(node.next)
        }
        guard let id, let name else { return nil }
        // Without an escape, the text is the bytes between the quotes, known to be ASCII.
        func text(_ value: JSONDocument.Index) -> String {
            let start = Int(nodes[value].start) + 1
            let count = Int(nodes[value].end) - 1 - start
            return String(unsafeUninitializedCapacity: count) { text in
                text.baseAddress!.initialize(from: bytes.baseAddress! + start, count: count)
                return count
            }
        }
        var terminalColor: AccountColor?
        if let color {
            terminalColor = AccountColor(name: text(color))
            guard terminalColor != nil else { return nil }
        }
        accounts.append(
            Account(
                id: text(id), name: text(name), handle: handle.map(text), group: group.map(text), color: terminalColor,
                onSwitch: onSwitch.map(text)))
        return (id, hash)
    }

    /// Whether `bytes[start..<end]` are all printable ASCII (0x20–0x7E).
    @inline(__always)
    private static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var i = start
        while i < end {
            guard bytes[i] >= 0x20, bytes[i] < 0x7F else { return false }
            i += 1
        }
        return true
    }

    /// The account fields ``appendPlainAccount(_:nodes:bytes:to:)`` reads.
    private enum PlainField {
        case id, name, handle, group, color, onSwitch
    }

    /// Which plain field key `node` names, compared as bytes; nil for another key or one with an escape.
    @inline(__always)
    private static func plainField(_ node: JSONDocument.Node, _ bytes: UnsafeBufferPointer<UInt8>) -> PlainField? {
        guard !node.escaped else { return nil }
        let s = Int(node.start) + 1
        func reads(_ word: StaticString) -> Bool {
            memcmp(bytes.baseAddress! + s, word.utf8Start, word.utf8CodeUnitCount) == 0
        }
        switch node.end - node.start - 2 {
        case 2: return bytes[s] == 0x69 && bytes[s + 1] == 0x64 ? .id : nil
        case 4: return reads("name") ? .name : nil
        case 5: return reads("group") ? .group : reads("color") ? .color : nil
        case 6: return reads("handle") ? .handle : nil
        case 8: return reads("onSwitch") ? .onSwitch : nil
        default: return nil
        }
    }

    /// Which of ``accountKeys`` string `key` is, compared as bytes; nil for another key.
    private func accountField(_ key: JSONDocument.Index) -> Int? {
        let range = document.range(key)
        let length = range.count - 2
        if document.nodes[key].escaped { return document.string(key).flatMap { Self.accountKeys.firstIndex(of: $0) } }
        return document.bytes.withUnsafeBufferPointer { bytes in
            for (field, name) in Self.accountKeyBytes.enumerated() where name.count == length {
                var same = true
                for i in 0..<length where bytes[range.lowerBound + 1 + i] != name[i] {
                    same = false
                    break
                }
                if same { return field }
            }
            return nil
        }
    }

    static let accountKeyBytes = accountKeys.map { Array($0.utf8) }

    /// Where each of ``accountKeys`` is in one account, by position in that list (no array: one
    /// allocation per account was a tenth of the load).
    private struct Fields {
        var id, name, handle, group, color, onSwitch, catalog, directories, remotes, expect, agent: JSONDocument.Index?

        subscript(field: Int) -> JSONDocument.Index? {
            get {
                switch field {
                case 0: id
                case 1: name
                case 2: handle
                case 3: group
                case 4: color
                case 5: onSwitch
                case 6: catalog
                case 7: directories
                case 8: remotes
                case 9: expect
                default: agent
                }
            }
            set {
                switch field {
                case 0: id = newValue
                case 1: name = newValue
                case 2: handle = newValue
                case 3: group = newValue
                case 4: color = newValue
                case 5: onSwitch = newValue
                case 6: catalog = newValue
                case 7: directories = newValue
                case 8: remotes = newValue
                case 9: expect = newValue
                default: agent = newValue
                }
            }
        }
    }

    /// One element of `accounts`: the account when it has no problem, and its id as written (when
    /// a string, for the duplicate check, whatever else is wrong) with where the id is.
    private mutating func account(_ element: JSONDocument.Index, index: Int) -> (Account?, String?, JSONDocument.Index?) {
        // The JSON path is built only for a message: building it for every account is costly.
        let path = { "accounts[\(index)]" }
        guard document.kind(element) == .object else {
            problem(element, #"\#(path()): expected an object like {"id": "work", "name": "Work"}"#)
            return (nil, nil, nil)
        }
        var values = Fields()
        var unknown: [(key: String, at: JSONDocument.Index)] = []
        // Tool identities (IdentityConfig): only keys that are not basic fields are looked at.
        var tools: [(tool: IdentityTool, at: JSONDocument.Index)] = []
        var key = document.firstChild(element)
        for _ in 0..<document.count(element) {
            let value = key! + 1
            if let field = accountField(key!) {
                values[field] = value
            } else if let tool = document.string(key!).flatMap(ToolConfigRegistry.reader(for:))?.tool {
                tools.append((tool, value))
            } else if reportUnknownKeys {
                unknown.append((document.string(key!) ?? "", key!))
            }
            key = document.after(value)
        }
        let before = problems.count
        func string(_ field: Int, required: Bool) -> String? {
            let name = Self.accountKeys[field]
            guard let value = values[field], document.kind(value) != .null else {
                if required { problem(values[field] ?? element, "\(path()).\(name): missing (required)") }
                return nil
            }
            guard let text = document.string(value) else {
                problem(value, "\(path()).\(name): expected a string")
                return nil
            }
            if !required, text.isEmpty {
                problem(value, "\(path()).\(name): must not be empty (leave the key out instead)")
                return nil
            }
            // A handle or group of only spaces shows nothing where the account's handle or group goes.
            if !required, field == 2 || field == 3, let blank = AccountValidation.optionalTextProblem(text) {
                problem(value, "\(path()).\(name): \(blank.message)")
                return nil
            }
            return text
        }
        let id = string(0, required: true)
        let name = string(1, required: true)
        let handle = string(2, required: false)
        let group = string(3, required: false)
        let colorName = string(4, required: false)
        let onSwitch = string(5, required: false)
        let catalog = catalogCommands(values.catalog, path: path)
        let directories = directoryList(values.directories, path: path)
        let remotes = remoteList(values.remotes, path: path)
        let expect = expectations(values.expect, path: path)
        // `"agent": true`: perch exec gives it an agent's scope (AgentScope), --agent or not.
        // `{"coAuthoredBy": "Name <email>"}` is an agent's too, whose commits then carry that
        // trailer (through the guard's commit-msg hook).
        var agent = false
        var coAuthoredBy: String?
        if let value = values.agent, document.kind(value) != .null {
            switch document.kind(value) {
            case .true: agent = true
            case .false: agent = false
            case .object:
                agent = true
                var member = document.firstChild(value)
                for _ in 0..<document.count(value) {
                    let memberValue = member! + 1
                    let key = document.string(member!) ?? ""
                    if key == "coAuthoredBy" {
                        let text = document.string(memberValue)
                        if let text, Self.isTrailerPerson(text) {
                            coAuthoredBy = text
                        } else {
                            problem(memberValue, #"\#(path()).agent.coAuthoredBy: expected "Name <email>" on one line"#)
                        }
                    } else if reportUnknownKeys {
                        warning(member!, unknownKeyWarning(key, at: path() + ".agent", known: ["coAuthoredBy"]))
                    }
                    member = document.after(memberValue)
                }
            default: problem(value, #"\#(path()).agent: expected true, false or {"coAuthoredBy": "Name <email>"}"#)
            }
        }
        // Sorted: the message order must not depend on the order of keys in the file.
        if !unknown.isEmpty {
            for (key, at) in unknown.sorted(by: { $0.key < $1.key }) {
                warning(at, unknownKeyWarning(key, at: path(), known: Self.accountKeys + IdentityConfig.keys))
            }
        }
        // The same rules as the `Add account…` form, from one place.
        if let id, let problem = AccountValidation.idProblem(id) { self.problem(values[0]!, "\(path()).id: \(problem.message)") }
        if let name, let problem = AccountValidation.nameProblem(name) {
            self.problem(values[1]!, "\(path()).name: \(problem.message)")
        }
        var color: AccountColor?
        if let colorName {
            color = AccountColor(name: colorName)
            if color == nil {
                let names = AccountColor.allCases.map(\.name).joined(separator: ", ")
                problem(values[4]!, "\(path()).color: \"\(colorName)\" is not one of \(names)")
            }
        }
        // Most accounts name no tool, folder, remote nor server: nothing to gather or sort.
        var identities = ToolIdentities.none
        if !tools.isEmpty || !directories.isEmpty || !remotes.isEmpty || !expect.isEmpty {
            identities = Self.identities(tools, directories: directories, remotes: remotes, expect: expect, path: path, in: &self)
        }
        identities.agent = agent
        identities.coAuthoredBy = coAuthoredBy
        guard problems.count == before, let id, let name else { return (nil, id, values[0]) }
        let account = Account(
            id: id, name: name, handle: handle, group: group, color: color, onSwitch: onSwitch, identities: identities,
            catalog: catalog)
        return (account, id, values[0])
    }

    /// An account's tool identities from its tool members, with its folders, remotes and servers.
    private static func identities(
        _ tools: [(tool: IdentityTool, at: JSONDocument.Index)], directories: [String], remotes: [String], expect: [String: String],
        path: () -> String, in reading: inout ConfigReading
    ) -> ToolIdentities {
        let document = reading.document
        var identities = ToolIdentities()
        for (tool, at) in tools where document.kind(at) != .null {
            let parsed = IdentityConfig.parse(
                [(tool.rawValue, JSONValue(document, at))], at: path(), reportUnknownKeys: reading.reportUnknownKeys)
            for text in parsed.problems { reading.problem(at, text) }
            for text in parsed.warnings { reading.warning(at, text) }
            identities.settings += parsed.identities.settings
        }
        identities.settings.sort { ToolConfigRegistry.order(of: $0.tool) < ToolConfigRegistry.order(of: $1.tool) }
        identities.directories = directories
        identities.remotes = remotes
        identities.expect = expect
        return identities
    }

    /// Whether `text` is a person as a git trailer names one: `Name <email>`, printable, on one
    /// line, nothing after the `>`.
    static func isTrailerPerson(_ text: String) -> Bool {
        guard let open = text.firstIndex(of: "<"), text.hasSuffix(">"), open > text.startIndex,
            text[text.index(after: open)...].dropLast().contains("@")
        else { return false }
        return !text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
            && text.filter { $0 == "<" || $0 == ">" }.count == 2
    }

    /// An account's `directories`: a list of folders, each absolute or starting with `~/`
    /// (`["~/work", "/srv/acme"]`), none twice; empty when absent or null.
    private mutating func directoryList(_ value: JSONDocument.Index?, path: () -> String) -> [String] {
        guard let value, document.kind(value) != .null else { return [] }
        guard document.kind(value) == .array else {
            problem(value, #"\#(path()).directories: expected a list of folders like ["~/work"]"#)
            return []
        }
        var folders: [String] = []
        // Bug (trust issue): the check for a folder listed twice compared each with every earlier
        // one, and 100,000 folders took over 120 s; a set of normalized forms makes it linear.
        var seen: Set<String> = []
        for (index, element) in document.elements(value).enumerated() {
            let place = "\(path()).directories[\(index)]"
            guard let text = document.string(element) else {
                problem(element, "\(place): expected a string")
                continue
            }
            if let reason = DirectoryRules.problem(text) {
                problem(element, "\(place): \(reason)")
            } else if !seen.insert(DirectoryRules.normalized(text)).inserted {
                problem(element, "\(place): \"\(text)\" is listed twice")
            } else {
                folders.append(text)
            }
        }
        return folders
    }

    /// An account's `remotes`: a list of remote patterns (`["github.com/acme/*"]`, see
    /// ``RemotePattern``), none twice; empty when absent or null.
    private mutating func remoteList(_ value: JSONDocument.Index?, path: () -> String) -> [String] {
        guard let value, document.kind(value) != .null else { return [] }
        guard document.kind(value) == .array else {
            problem(value, #"\#(path()).remotes: expected a list of remotes like ["github.com/acme/*"]"#)
            return []
        }
        var patterns: [String] = []
        var seen: Set<RemotePattern> = []
        for (index, element) in document.elements(value).enumerated() {
            let place = "\(path()).remotes[\(index)]"
            guard let text = document.string(element) else {
                problem(element, "\(place): expected a string")
                continue
            }
            if let reason = RemotePattern.problem(text) {
                problem(element, "\(place): \(reason)")
            } else if !seen.insert(RemotePattern(text)).inserted {
                problem(element, "\(place): \"\(text)\" is listed twice")
            } else {
                if let note = RemotePattern.warning(text) { warning(element, "\(place): \(note)") }
                patterns.append(text)
            }
        }
        return patterns
    }

    /// The tools whose servers `expect` may name (`perch verify --online`): those of the registry
    /// that accept an expectation (``ToolConfigReader/acceptsExpectation``), in its order.
    static var expectKeys: [String] { ToolConfigRegistry.readers.filter(\.acceptsExpectation).map(\.tool.rawValue) }

    /// An account's `expect` (`{"ssh": "ada-work", "aws": "123456789012"}`): what each server
    /// should answer; empty when absent or null.
    private mutating func expectations(_ value: JSONDocument.Index?, path: () -> String) -> [String: String] {
        guard let value, document.kind(value) != .null else { return [:] }
        guard document.kind(value) == .object else {
            problem(value, #"\#(path()).expect: expected an object like {"ssh": "ada-work", "aws": "123456789012"}"#)
            return [:]
        }
        var expect: [String: String] = [:]
        for member in document.members(value) {
            let key = document.string(member.key) ?? ""
            let place = "\(path()).expect.\(key)"
            guard Self.expectKeys.contains(key) else {
                problem(member.key, "\(place): unknown server; expect names \(Self.expectKeys.joined(separator: ", "))")
                continue
            }
            guard let text = document.string(member.value), !text.isEmpty else {
                problem(member.value, "\(place): expected a non-empty string")
                continue
            }
            expect[key] = text
        }
        return expect
    }

    /// The keys of an account's `catalog` object.
    static let catalogKeys = ["command", "preview", "open"]

    /// An account's `catalog` (`{"command": "…", "preview": "…", "open": "…"}`, each optional and
    /// a string with something in it); nil when absent or null. Problems are collected like the
    /// other fields'; unknown keys are warnings when asked for.
    private mutating func catalogCommands(_ value: JSONDocument.Index?, path: () -> String) -> CatalogCommands? {
        guard let value, document.kind(value) != .null else { return nil }
        guard document.kind(value) == .object else {
            problem(value, #"\#(path()).catalog: expected an object like {"command": "gh repo list"}"#)
            return nil
        }
        var commands = CatalogCommands()
        for (key, member) in document.members(value) {
            guard let field = Self.catalogKeys.firstIndex(where: { document.keyEquals(key, $0) }) else {
                if reportUnknownKeys {
                    warning(key, unknownKeyWarning(document.string(key) ?? "", at: path() + ".catalog", known: Self.catalogKeys))
                }
                continue
            }
            let name = Self.catalogKeys[field]
            guard document.kind(member) != .null else { continue }
            guard let text = document.string(member) else {
                problem(member, "\(path()).catalog.\(name): expected a string")
                continue
            }
            if text.allSatisfy(\.isWhitespace) {
                problem(member, "\(path()).catalog.\(name): must not be empty (leave the key out instead)")
                continue
            }
            switch field {
            case 0: commands.command = text
            case 1: commands.preview = text
            default: commands.open = text
            }
        }
        return commands
    }
}
