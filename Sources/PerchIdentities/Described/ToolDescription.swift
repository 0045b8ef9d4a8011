import PerchDomain
import PerchStore

/// A tool described as data (docs/tools.md): a file `$XDG_CONFIG_HOME/perch/tools/NAME.json`
/// of the user's, or one of the descriptions Perch ships (``ShippedToolDescriptions``), read
/// and checked by ``parse(_:origin:)``. ``DescribedToolAdapter`` makes it a tool like the
/// built-in ones.
///
/// Everything in it is data: the programs it names run with arguments, never through a shell;
/// the values an account gives are checked before they are put in an argument or a file; the
/// answers of the programs it names are never printed raw (``DescribedToolAdapter``).
public struct ToolDescription: Hashable, Sendable {
    /// The format version this build reads.
    public static let currentVersion = 1

    /// What one key of the tool's member of an account is (`"configDir": {"kind": "folder", …}`).
    public struct Setting: Hashable, Sendable {
        public enum Kind: String, Hashable, Sendable, CaseIterable {
            /// A folder's path (`~/…` or absolute), exported as an absolute path.
            case folder
            /// A file's path, as ``folder``.
            case file
            /// A plain value (a profile's or subscription's name): printable, no leading `-`.
            case value
            /// Who the tool should say the account is: exported nowhere, compared with the
            /// answer of ``ToolDescription/whoami`` (and ``ToolDescription/server``).
            case identity
        }
        /// The key in an account's member (`configDir`).
        public var key: String
        public var kind: Kind
        /// The variable that carries it to one process (`AZURE_CONFIG_DIR`); nil for none.
        public var variable: String?
        /// Whether an account naming the tool must give it.
        public var required: Bool
        /// What the tool uses when the variable is unset (`~/.azure`), as written; nil when it
        /// is not known.
        public var defaultValue: String?
    }

    /// A variable that beats the tool's selection where it is set (`FLY_API_TOKEN`).
    public struct Override: Hashable, Sendable {
        public var variable: String
        public var reason: String
    }

    /// How an answer is read from what a program printed or a file holds.
    public enum Reading: Hashable, Sendable {
        /// The whole text, white space trimmed (its first line).
        case text
        /// The string (or number) at a dotted path of a JSON document (`user.name`, `[0].id`).
        case json([String])
        /// The first capture group of a regular expression (Swift `Regex` syntax) matched
        /// against the text; the whole match when it has no group.
        case pattern(String)
    }

    /// Where an answer comes from: a program with arguments (`{key}` put in from the account),
    /// or a file (`{key}/name`).
    public enum Source: Hashable, Sendable {
        case command([String])
        case file(String)
    }

    /// A question asked of the tool (``whoami``, ``server``, the global state).
    public struct Question: Hashable, Sendable {
        public var source: Source
        public var reading: Reading
        /// The identity setting the answer is compared with; nil: shown, not judged.
        public var expect: String?
    }

    /// How the tool's global account is changed by a switch.
    public enum Global: Hashable, Sendable {
        /// The setting's value is the whole content of one file (one line), which the tool reads
        /// (as gcloud's `active_config`).
        case file(path: String, setting: String)
        /// A program run with arguments, and the question that reads back what it set.
        case command(arguments: [String], setting: String, current: Question)

        /// The setting it carries.
        public var setting: String {
            switch self {
            case .file(_, let setting), .command(_, let setting, _): setting
            }
        }
    }

    /// When the tool's session ends: a time read from a file.
    public struct Expiry: Hashable, Sendable {
        public enum Format: String, Hashable, Sendable, CaseIterable {
            case epochSeconds = "epoch-s"
            case epochMilliseconds = "epoch-ms"
            case iso8601
        }
        public var file: String
        public var path: [String]
        public var format: Format
        /// What the user runs to renew it (shown, never run).
        public var renew: String?
    }

    /// The config key and the tool's name (`az`).
    public var tool: String
    /// Its name in prose (`Azure CLI`).
    public var title: String
    /// The program it is known by (`az`), for plans and `perch doctor`.
    public var program: String?
    /// Where its own documentation says what the description relies on.
    public var documentation: String?
    /// The keys of an account's member, in the order written.
    public var settings: [Setting]
    public var overrides: [Override]
    /// nil: the tool is set per shell only (`perch env` exports its variables).
    public var global: Global?
    /// "Who am I": asked by `perch verify`.
    public var whoami: Question?
    /// The server's answer, asked by `perch verify --online` only.
    public var server: Question?
    /// Files where it keeps secrets (`{configDir}/credentials.json`), for `perch audit`.
    public var secrets: [String]
    public var expiry: Expiry?
    /// Where it came from: a file's path, or `shipped`.
    public var origin: String

    /// The setting named `key`.
    public func setting(_ key: String) -> Setting? { settings.first { $0.key == key } }

    /// The variables its settings export, in the order written.
    public var variables: [String] { settings.compactMap(\.variable) }
}

// MARK: - Reading

extension ToolDescription {
    /// Names a described tool may not take: the built-in tools' and an account's own keys.
    static let reservedNames: [String] = [
        "id", "name", "handle", "group", "color", "onSwitch", "catalog", "directories", "remotes", "expect", "agent", "version",
        "accounts", "perch", "tools", "shell",
    ]

    /// Names of the code-bearing list (``EnvironmentEntry/isCodeBearingName(_:)``) that are a
    /// tool's own selection of its config, which a description may carry.
    static let toolOwnedNames = ["NPM_CONFIG_USERCONFIG"]

    /// Programs a described command may not start: a shell or anything that runs its arguments
    /// as code, since a description's commands are arguments, never a shell line.
    static let refusedPrograms: [String] = [
        "sh", "bash", "dash", "zsh", "ksh", "mksh", "fish", "csh", "tcsh", "busybox", "env", "eval", "exec", "xargs", "sudo", "doas",
        "su", "nohup", "timeout", "nice", "python", "python3", "perl", "ruby", "node", "lua", "php", "awk", "gawk", "mawk", "sed",
        "osascript", "pwsh", "powershell", "script", "watch", "ssh", "find", "perch", "nodejs", "rbash", "setsid", "stdbuf", "flock",
        "git", "npx", "tclsh", "wish", "gdb", "vim", "vi", "nvim", "emacs", "make", "chrt", "taskset", "ionice", "unshare",
        "systemd-run", "strace", "ltrace", "tmux", "screen", "setpriv", "runuser", "sg", "tar", "zip", "run-parts", "nsenter", "chroot",
        "expect", "parallel", "ld.so", "busybox", "toybox", "docker", "kubectl", "gh", "gcloud", "aws",
        "ash", "yash", "ex", "ed", "dc", "m4", "time", "sudoedit", "pkexec", "ssh-agent", "dbus-run-session", "setarch", "x86_64",
        "i386", "linux32", "linux64", "prlimit", "fakeroot", "bwrap", "firejail", "java", "deno", "bun", "go", "podman", "envdir",
        "chpst", "daemonize", "start-stop-daemon", "xterm", "rlwrap", "socat", "nc", "ncat", "curl", "wget",
    ]

    /// Beginnings of program names that run their arguments as code (`perl5.36.0`, `python3.11`).
    static let refusedProgramPrefixes = [
        "python", "perl", "ruby", "node", "php", "lua", "tcl", "pypy", "jruby", "ld-linux", "bash", "zsh", "ksh", "csh", "dash", "fish",
        "vim", "rvim", "nvim", "sudo", "doas", "awk", "nawk", "gawk", "mawk", "busybox", "java", "wish", "emacs",
    ]

    /// Reads a description from `bytes` (JSON, or JSON with comments). Every fault is one line
    /// starting with its JSON path (`settings.configDir.kind: …`); the description is nil when
    /// there is any.
    /// - Parameter origin: the file's path (or `shipped`), kept in the description.
    /// - Parameter builtIn: names of the built-in tools, which a description may not take.
    /// - Parameter checkPatterns: whether each `pattern` is compiled to be checked (0.4 ms
    ///   each): off for the shipped descriptions, which their tests check, since they are read
    ///   at every start.
    public static func parse(_ bytes: [UInt8], origin: String, builtIn: [String], checkPatterns: Bool = true) -> (
        ToolDescription?, [String]
    ) {
        let document: JSONDocument
        do {
            document = try JSONReader.read(bytes, options: .jsonWithComments)
        } catch {
            return (nil, ["line \(error.line), column \(error.column): \(error.message)"])
        }
        var reader = DescriptionReader(checkPatterns: checkPatterns)
        let description = reader.description(JSONValue(document, document.root), origin: origin, builtIn: builtIn)
        return reader.problems.isEmpty ? (description, []) : (nil, reader.problems)
    }

    /// Whether `name` can name a described tool: a lower-case letter, then lower-case letters,
    /// digits and `-`, at most 32 in all.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first), name.unicodeScalars.count <= 32 else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }
}

/// Reads a description's JSON, collecting problems with their paths.
private struct DescriptionReader {
    var checkPatterns: Bool
    var problems: [String] = []
    /// The keys of the folder and file settings read so far: the only placeholders a path takes.
    var pathKeys: [String] = []

    /// The member `key` of `members`, nil when absent or null.
    func present(_ members: [(String, JSONValue)], _ key: String) -> JSONValue? {
        members.first { $0.0 == key }.flatMap { $0.1 == .null ? nil : $0.1 }
    }

    /// Whether `key` can be a setting's key: an ASCII letter, then ASCII letters and digits.
    static func isKey(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first.properties.isASCIIHexDigit || first.isASCII && first.properties.isAlphabetic
        else { return false }
        return key.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
            && !("0"..."9").contains(first)
    }

    mutating func problem(_ place: String, _ text: String) { problems.append(place.isEmpty ? text : "\(place): \(text)") }

    func members(_ value: JSONValue) -> [(String, JSONValue)]? {
        if case .object(let members) = value { return members }
        return nil
    }

    mutating func object(_ value: JSONValue, at place: String, known: [String]) -> [(String, JSONValue)]? {
        guard let members = members(value) else {
            problem(place, "expected an object, found \(value.kind)")
            return nil
        }
        var seen: [String] = []
        for (key, _) in members {
            if !known.contains(key) {
                problem(
                    place.isEmpty ? key : "\(place).\(key)",
                    "unknown key; \(place.isEmpty ? "a description" : place) takes \(known.joined(separator: ", "))")
            }
            if seen.contains(key) { problem(place.isEmpty ? key : "\(place).\(key)", "given twice") }
            seen.append(key)
        }
        return members
    }

    mutating func string(_ members: [(String, JSONValue)], _ key: String, at place: String, required: Bool = false) -> String? {
        let path = place.isEmpty ? key : "\(place).\(key)"
        switch members.first(where: { $0.0 == key })?.1 {
        case nil, .null?:
            if required { problem(path, "missing (required)") }
            return nil
        case .string(let text)?:
            if text.isEmpty {
                problem(path, "must not be empty")
                return nil
            }
            if let bad = text.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
                problem(path, "must not hold the control character U+\(String(bad.value, radix: 16, uppercase: true))")
                return nil
            }
            return text
        case let other?:
            problem(path, "expected a string, found \(other.kind)")
            return nil
        }
    }

    mutating func description(_ root: JSONValue, origin: String, builtIn: [String]) -> ToolDescription? {
        let known = [
            "version", "tool", "title", "program", "documentation", "settings", "overrides", "global", "whoami", "server", "secrets",
            "expiry",
        ]
        guard let members = object(root, at: "", known: known) else { return nil }
        switch members.first(where: { $0.0 == "version" })?.1 {
        case .number(let number)? where number == Double(ToolDescription.currentVersion): break
        case nil: problem("version", "missing (required): write \"version\": 1")
        case let other?: problem("version", "this Perch reads version 1 only, found \(other == .null ? "null" : "\(other)")")
        }
        let tool = string(members, "tool", at: "", required: true) ?? ""
        if !tool.isEmpty {
            if !ToolDescription.isValidName(tool) {
                problem("tool", "\"\(tool)\" is not a tool name (a lower-case letter, then a–z, 0–9 and '-', at most 32)")
            } else if builtIn.contains(tool) {
                problem("tool", "\"\(tool)\" is a tool Perch has built in; choose another name")
            } else if ToolDescription.reservedNames.contains(tool) {
                problem("tool", "\"\(tool)\" is an account's own key; choose another name")
            }
            let file = origin.split(separator: "/").last.map(String.init) ?? origin
            if origin != ShippedToolDescriptions.origin, file != tool + ".json" {
                problem("tool", "\"\(tool)\" must be the file's name (\(tool).json), not \(file)")
            }
        }
        let title = string(members, "title", at: "") ?? tool
        let program = string(members, "program", at: "")
        if let program { checkProgram(program, at: "program") }
        let documentation = string(members, "documentation", at: "")
        let settings = readSettings(members.first { $0.0 == "settings" }?.1)
        let keys = settings.map(\.key)
        let overrides = readOverrides(members.first { $0.0 == "overrides" }?.1, settings: settings)
        let global = present(members, "global").flatMap { readGlobal($0, settings: settings) }
        let whoami = present(members, "whoami").flatMap { readQuestion($0, at: "whoami", settings: settings, files: true) }
        let server = present(members, "server").flatMap { readQuestion($0, at: "server", settings: settings, files: false) }
        var secrets: [String] = []
        switch members.first(where: { $0.0 == "secrets" })?.1 {
        case nil, .null?: break
        case .array(let elements)?:
            for (index, element) in elements.enumerated() {
                guard case .string(let path) = element else {
                    problem("secrets[\(index)]", "expected a path, found \(element.kind)")
                    continue
                }
                if checkPath(path, at: "secrets[\(index)]", keys: keys) { secrets.append(path) }
            }
        case let other?: problem("secrets", "expected a list of paths, found \(other.kind)")
        }
        let expiry = present(members, "expiry").flatMap { readExpiry($0, keys: keys) }
        if settings.isEmpty, problems.isEmpty { problem("settings", "names nothing an account could give") }
        return ToolDescription(
            tool: tool, title: title, program: program, documentation: documentation, settings: settings, overrides: overrides,
            global: global, whoami: whoami, server: server, secrets: secrets, expiry: expiry, origin: origin)
    }

    mutating func readSettings(_ value: JSONValue?) -> [ToolDescription.Setting] {
        guard let value, value != .null else {
            problem("settings", "missing (required)")
            return []
        }
        guard let members = object(value, at: "settings", known: members(value)?.map(\.0) ?? []) else { return [] }
        var settings: [ToolDescription.Setting] = []
        var variables: [String] = []
        for (key, element) in members {
            let place = "settings.\(key)"
            if !Self.isKey(key) {
                problem(place, "\"\(key)\" is not a key (a letter, then letters and digits)")
                continue
            }
            guard let fields = object(element, at: place, known: ["kind", "variable", "required", "default"]) else { continue }
            guard let kindText = string(fields, "kind", at: place, required: true) else { continue }
            guard let kind = ToolDescription.Setting.Kind(rawValue: kindText) else {
                problem(
                    "\(place).kind",
                    "\"\(kindText)\" is not a kind; one of \(ToolDescription.Setting.Kind.allCases.map(\.rawValue).joined(separator: ", "))"
                )
                continue
            }
            let variable = string(fields, "variable", at: place)
            if let variable {
                if kind == .identity {
                    problem("\(place).variable", "an identity is compared with the tool's answer, never exported")
                } else if let why = variableProblem(variable) {
                    problem("\(place).variable", why)
                } else if variables.contains(variable) {
                    problem("\(place).variable", "\(variable) is carried by another setting too")
                }
                variables.append(variable)
            }
            var required = false
            switch fields.first(where: { $0.0 == "required" })?.1 {
            case nil, .null?: break
            case .bool(let flag)?: required = flag
            case let other?: problem("\(place).required", "expected true or false, found \(other.kind)")
            }
            let defaultValue = string(fields, "default", at: place)
            if let defaultValue {
                if kind != .folder, kind != .file {
                    problem("\(place).default", "only a folder or a file has a default")
                } else if !(defaultValue.hasPrefix("~/") || defaultValue.hasPrefix("/")) {
                    problem("\(place).default", "must start with ~/ or /")
                } else if defaultValue.split(separator: "/").contains(where: { $0 == ".." }) {
                    problem("\(place).default", "must not hold a .. component")
                }
            }
            settings.append(.init(key: key, kind: kind, variable: variable, required: required, defaultValue: defaultValue))
            if kind == .folder || kind == .file { pathKeys.append(key) }
        }
        if !settings.isEmpty, !settings.contains(where: { $0.variable != nil }) {
            problem("settings", "no setting names a variable, so nothing could give one process the account")
        }
        return settings
    }

    /// Why `name` cannot carry a described setting: not a variable name, Perch's own, a built-in
    /// tool's, or one a shell, a loader or an interpreter acts on as code.
    func variableProblem(_ name: String) -> String? {
        if !EnvironmentEntry.isValidName(name) { return "\"\(name)\" is not a variable name" }
        if name.hasPrefix("PERCH_") { return "PERCH_ variables are Perch's own" }
        if ["PATH", "HOME", "USER", "LOGNAME", "TERM", "LANG", "SHELL", "PWD", "TZ"].contains(name) || name.hasPrefix("LC_") {
            return "\(name) belongs to every program, not to one tool"
        }
        if let owner = ToolAdapters.builtIn.first(where: { $0.exportedNames.contains(name) || $0.overrides.contains { $0.name == name } }) {
            return "\(name) belongs to the built-in tool \(owner.tool.rawValue)"
        }
        // Bug (review): PYTHONPATH, NODE_OPTIONS, XDG_CONFIG_HOME, AWS_CONFIG_FILE and the like were
        // accepted, and made git or python run code from an account's folder. Every name a
        // shell, a loader, an interpreter or a built-in tool acts on as code is refused (the
        // list `env` needs trust for), but npm's own user config, which the shipped npm
        // description carries as ~/.npmrc would be.
        if EnvironmentEntry.isCodeBearingName(name), !ToolDescription.toolOwnedNames.contains(name) {
            return "\(name) is a variable a shell, a loader, an interpreter or another tool acts on as code"
        }
        return nil
    }

    mutating func readOverrides(_ value: JSONValue?, settings: [ToolDescription.Setting]) -> [ToolDescription.Override] {
        guard let value, value != .null else { return [] }
        guard case .array(let elements) = value else {
            problem("overrides", "expected a list, found \(value.kind)")
            return []
        }
        var overrides: [ToolDescription.Override] = []
        for (index, element) in elements.enumerated() {
            let place = "overrides[\(index)]"
            guard let fields = object(element, at: place, known: ["variable", "reason"]) else { continue }
            guard let variable = string(fields, "variable", at: place, required: true),
                let reason = string(fields, "reason", at: place, required: true)
            else { continue }
            // Bug (review): an override could name any variable (PATH, HOME, SSH_AUTH_SOCK, another
            // tool's CLAUDE_CONFIG_DIR), and scopes removed it, agents' included.
            if let why = variableProblem(variable) {
                problem("\(place).variable", why)
            } else if settings.contains(where: { $0.variable == variable }) {
                problem("\(place).variable", "\(variable) carries a setting; it cannot also beat it")
            } else {
                overrides.append(.init(variable: variable, reason: reason))
            }
        }
        return overrides
    }

    /// Checks a program a description names: a bare name found on `PATH`, never a shell or
    /// anything that runs its arguments as code.
    mutating func checkProgram(_ program: String, at place: String) {
        if program.contains(Character("/")) || program.hasPrefix("-") || program.contains(Character("{"))
            || ToolGrammar.plainNameProblem(program) != nil
        {
            problem(place, "\"\(program)\" is not a program's name (a bare name found on PATH)")
        } else if ToolDescription.refusedPrograms.contains(program.lowercased())
            || ToolDescription.refusedProgramPrefixes.contains(where: { program.lowercased().hasPrefix($0) })
        {
            // A guard against mistakes: what keeps a description's programs the user's is the
            // trust rule (the file is theirs alone), since no list names every such program.
            problem(
                place,
                "\(program) runs its arguments as code (or is a tool Perch switches itself); a description names the tool's own program")
        }
    }

    /// The `{key}` placeholders in `text`, or nil (and a problem) when one is unknown or not closed.
    mutating func placeholders(_ text: String, at place: String, keys: [String]) -> [String]? {
        var found: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else {
                problem(place, "a '{' is not closed")
                return nil
            }
            let key = String(rest[rest.index(after: open)..<close])
            guard keys.contains(key) else {
                problem(place, "{\(key)} names no setting; the settings are \(keys.sorted().joined(separator: ", "))")
                return nil
            }
            found.append(key)
            rest = rest[rest.index(after: close)...]
        }
        if rest.contains(Character("}")) {
            problem(place, "a '}' is not opened")
            return nil
        }
        return found
    }

    mutating func readCommand(_ value: JSONValue?, at place: String, keys: [String]) -> [String]? {
        guard case .array(let elements)? = value, !elements.isEmpty else {
            problem(place, "expected the program and its arguments as a list of strings, like [\"az\", \"account\", \"show\"]")
            return nil
        }
        var arguments: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else {
                problem("\(place)[\(index)]", "expected a string, found \(element.kind)")
                return nil
            }
            if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                problem("\(place)[\(index)]", "must not hold a control character")
                return nil
            }
            if index == 0 {
                checkProgram(text, at: "\(place)[0]")
            } else if placeholders(text, at: "\(place)[\(index)]", keys: keys) == nil {
                return nil
            }
            arguments.append(text)
        }
        return arguments
    }

    /// Checks a path: `~/…`, an absolute path or one starting with a folder or file setting's
    /// `{key}`; no `..` component.
    mutating func checkPath(_ path: String, at place: String, keys: [String]) -> Bool {
        guard let used = placeholders(path, at: place, keys: keys) else { return false }
        // Bug (review): an identity's or a value's placeholder began a path (`{user}` as
        // /etc/shadow): only a folder's or a file's, checked as paths, may stand in one.
        if let other = used.first(where: { !pathKeys.contains($0) }) {
            problem(place, "{\(other)} is not a folder or file setting; only those stand in a path")
            return false
        }
        guard path.hasPrefix("~/") || path.hasPrefix("/") || (path.hasPrefix("{") && used.count == 1) else {
            problem(place, "\"\(path)\" must start with ~/, / or a folder setting like {configDir}")
            return false
        }
        if path.split(separator: "/").contains(where: { $0 == ".." }) {
            problem(place, "\"\(path)\" must not hold a .. component")
            return false
        }
        return true
    }

    mutating func readReading(_ fields: [(String, JSONValue)], at place: String) -> ToolDescription.Reading {
        let json = string(fields, "json", at: place)
        let pattern = string(fields, "pattern", at: place)
        switch (json, pattern) {
        case (let json?, nil):
            let path = ToolDescription.jsonPath(json)
            if path == nil { problem("\(place).json", "\"\(json)\" is not a path like user.name or [0].id") }
            return .json(path ?? [])
        case (nil, let pattern?):
            if checkPatterns {
                do {
                    _ = try Regex(pattern)
                } catch {
                    problem("\(place).pattern", "not a regular expression: \(error)")
                }
            }
            return .pattern(pattern)
        case (nil, nil): return .text
        case (_?, _?):
            problem(place, "give json or pattern, not both")
            return .text
        }
    }

    mutating func readQuestion(_ value: JSONValue, at place: String, settings: [ToolDescription.Setting], files: Bool)
        -> ToolDescription.Question?
    {
        let keys = settings.map(\.key)
        guard
            let fields = object(
                value, at: place,
                known: files ? ["command", "file", "json", "pattern", "expect"] : ["command", "json", "pattern", "expect"])
        else { return nil }
        let command = fields.first { $0.0 == "command" }?.1
        let file = string(fields, "file", at: place)
        var source: ToolDescription.Source?
        switch (command, file) {
        case (let command?, nil):
            source = readCommand(command, at: "\(place).command", keys: keys).map { .command($0) }
        case (nil, let file?):
            if checkPath(file, at: "\(place).file", keys: keys) { source = .file(file) }
        case (nil, nil): problem(place, files ? "give a command or a file" : "give a command")
        case (_?, _?): problem(place, "give a command or a file, not both")
        }
        let reading = readReading(fields, at: place)
        let expect = string(fields, "expect", at: place)
        if let expect, settings.first(where: { $0.key == expect })?.kind != .identity {
            problem("\(place).expect", "\"\(expect)\" is not an identity setting (kind \"identity\")")
        }
        return source.map { .init(source: $0, reading: reading, expect: expect) }
    }

    mutating func readGlobal(_ value: JSONValue, settings: [ToolDescription.Setting]) -> ToolDescription.Global? {
        let keys = settings.map(\.key)
        guard let fields = object(value, at: "global", known: ["file", "command", "current", "setting"]) else { return nil }
        guard let key = string(fields, "setting", at: "global", required: true) else { return nil }
        guard let setting = settings.first(where: { $0.key == key }), setting.kind != .identity else {
            problem("global.setting", "\"\(key)\" is not a folder, file or value setting")
            return nil
        }
        if let path = string(fields, "file", at: "global") {
            if fields.contains(where: { $0.0 == "command" || $0.0 == "current" }) {
                problem("global", "give a file, or a command and current, not both")
                return nil
            }
            guard path.hasPrefix("~/") || path.hasPrefix("/"), !path.contains(Character("{")),
                !path.split(separator: "/").contains(where: { $0 == ".." })
            else {
                problem("global.file", "\"\(path)\" must be a fixed path starting with ~/ or /")
                return nil
            }
            return .file(path: path, setting: key)
        }
        guard let arguments = readCommand(fields.first { $0.0 == "command" }?.1, at: "global.command", keys: keys) else { return nil }
        let given = arguments.dropFirst().flatMap(ToolDescription.placeholderKeys)
        if let other = given.first(where: { $0 != key }) {
            problem("global.command", "gives {\(other)}: a global switch is given its setting, {\(key)}, only")
        }
        if !given.contains(key) {
            problem("global.command", "never gives {\(key)}")
        }
        guard let currentValue = fields.first(where: { $0.0 == "current" })?.1 else {
            problem("global.current", "missing (required): the command that says which one is in use")
            return nil
        }
        guard let current = readQuestion(currentValue, at: "global.current", settings: settings, files: true) else { return nil }
        if case .command(let asked) = current.source, asked.contains(where: { $0.contains(Character("{")) }) {
            problem("global.current.command", "reads the tool's own state: it takes no {key}")
        }
        if case .file(let path) = current.source, path.contains(Character("{")) {
            problem("global.current.file", "reads the tool's own state: it takes no {key}")
        }
        return .command(arguments: arguments, setting: key, current: current)
    }

    mutating func readExpiry(_ value: JSONValue, keys: [String]) -> ToolDescription.Expiry? {
        guard let fields = object(value, at: "expiry", known: ["file", "json", "format", "renew"]) else { return nil }
        let file = string(fields, "file", at: "expiry", required: true)
        let json = string(fields, "json", at: "expiry", required: true)
        let formatText = string(fields, "format", at: "expiry") ?? "iso8601"
        let renew = string(fields, "renew", at: "expiry")
        let format = ToolDescription.Expiry.Format(rawValue: formatText)
        if format == nil {
            problem(
                "expiry.format",
                "\"\(formatText)\" is not a format; one of \(ToolDescription.Expiry.Format.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        let path = json.flatMap(ToolDescription.jsonPath)
        if json != nil, path == nil { problem("expiry.json", "\"\(json ?? "")\" is not a path like user.name") }
        guard let file, checkPath(file, at: "expiry.file", keys: keys), let path, let format else { return nil }
        return .init(file: file, path: path, format: format, renew: renew)
    }
}

extension ToolDescription {
    /// The keys of the `{key}` placeholders in `text`, in order (not checked).
    static func placeholderKeys(_ text: String) -> [String] {
        var keys: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            keys.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return keys
    }

    /// `user.name`, `accounts[0].id` or `[0]` as path components (`user`, `name`; `accounts`,
    /// `[0]`, `id`); nil when malformed.
    static func jsonPath(_ text: String) -> [String]? {
        var components: [String] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            var part = Substring(part)
            guard !part.isEmpty else { return nil }
            if let open = part.firstIndex(of: "[") {
                let name = part[..<open]
                if !name.isEmpty { components.append(String(name)) }
                part = part[open...]
                while part.hasPrefix("[") {
                    guard let close = part.firstIndex(of: "]"), let index = Int(part[part.index(after: part.startIndex)..<close]),
                        index >= 0
                    else { return nil }
                    components.append("[\(index)]")
                    part = part[part.index(after: close)...]
                }
                guard part.isEmpty else { return nil }
            } else {
                if part.contains(Character("]")) { return nil }
                components.append(String(part))
            }
        }
        return components.isEmpty ? nil : components
    }
}
