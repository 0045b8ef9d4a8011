import PerchCore

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
    var kind: String {
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

/// Reads and checks the tool identity keys of an account (`git`, `ssh`, `kube`, `gcloud`, `aws`,
/// `gh`, `env`; see `docs/identities.md`), from values however they were read. Every
/// problem is reported with its JSON path (`accounts[2].kube.context: missing (required)`), as
/// the rest of the config's.
public enum IdentityConfig {
    /// The account keys this reads.
    public static let keys = IdentityTool.allCases.map(\.rawValue)

    /// What reading an account's identity keys found.
    public struct Parsed: Hashable, Sendable {
        public var identities = ToolIdentities()
        public var problems: [String] = []
        public var warnings: [String] = []
    }

    /// Reads the identity keys among `members` (an account's keys and values; other keys are
    /// ignored, `null` is the same as absent) of the account at JSON path `place`. Messages
    /// start with the JSON path; the config reader puts the line and column of the tool's value
    /// before them.
    /// - Parameter reportUnknownKeys: whether keys inside the tools' objects that Perch does not
    ///   know are reported as warnings.
    public static func parse(_ members: [(String, JSONValue)], at place: String, reportUnknownKeys: Bool = true) -> Parsed {
        var parsed = Parsed()
        for (key, value) in members {
            guard let tool = IdentityTool(rawValue: key), value != .null else { continue }
            parse(tool, value, at: place + "." + key, into: &parsed, reportUnknownKeys: reportUnknownKeys)
        }
        return parsed
    }

    private static func parse(
        _ tool: IdentityTool, _ value: JSONValue, at place: String, into parsed: inout Parsed, reportUnknownKeys: Bool
    ) {
        var reader = ObjectReader(value: value, place: place, reportUnknownKeys: reportUnknownKeys)
        switch tool {
        case .git:
            guard reader.expectObject(#"{"name": "Ada", "email": "ada@work.example"}"#) else { break }
            let git = ToolIdentities.Git(
                name: reader.string("name"), email: reader.string("email"), signingKey: reader.string("signingKey"))
            reader.finish(known: ["name", "email", "signingKey"])
            if git.name == nil, git.email == nil, git.signingKey == nil, reader.problems.isEmpty {
                reader.problems.append("\(place): name at least one of name, email, signingKey")
            }
            if let email = git.email, !email.contains("@") { reader.problems.append("\(place).email: \"\(email)\" has no @") }
            if reader.problems.isEmpty { parsed.identities.git = git }
        case .ssh:
            guard reader.expectObject(#"{"host": "github.com", "identityFile": "~/.ssh/id_work"}"#) else { break }
            var hosts: [String] = []
            switch reader.member("host") {
            case .string(let host)?: hosts = [host]
            case .array(let list)?:
                for (index, element) in list.enumerated() {
                    if case .string(let host) = element {
                        hosts.append(host)
                    } else {
                        reader.problems.append("\(place).host[\(index)]: expected a string")
                    }
                }
                if list.isEmpty { reader.problems.append("\(place).host: the list is empty; name at least one host") }
            case nil, .null?: reader.problems.append("\(place).host: missing (required)")
            case let other?: reader.problems.append("\(place).host: expected a string or a list of strings, found \(other.kind)")
            }
            for (index, host) in hosts.enumerated() where host.isEmpty || host.contains(where: { $0 == " " || $0 == "\t" || $0.isNewline })
            {
                reader.problems.append(
                    "\(place).host\(hosts.count > 1 ? "[\(index)]" : ""): \"\(host)\" must be one host pattern, without spaces")
            }
            let file = reader.string("identityFile", required: true)
            if let file, file.contains(where: \.isNewline) { reader.problems.append("\(place).identityFile: must be one line") }
            reader.finish(known: ["host", "identityFile"])
            if reader.problems.isEmpty, let file { parsed.identities.ssh = ToolIdentities.SSH(hosts: hosts, identityFile: file) }
        case .kube:
            guard reader.expectObject(#"{"context": "prod", "namespace": "web"}"#) else { break }
            let context = reader.string("context", required: true)
            let namespace = reader.string("namespace")
            reader.finish(known: ["context", "namespace"])
            if reader.problems.isEmpty, let context { parsed.identities.kube = ToolIdentities.Kube(context: context, namespace: namespace) }
        case .gcloud:
            guard let name = reader.plainOrObjectString(key: "configuration", example: #"{"configuration": "work"}"#) else { break }
            // gcloud's own rule for configuration names: lowercase letters, digits and hyphens, starting with a letter.
            let valid =
                name.utf8.first.map { $0 >= 0x61 && $0 <= 0x7A } == true
                && name.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
            if !valid {
                reader.problems.append(
                    "\(place).configuration: \"\(name)\" is not a gcloud configuration name (a–z, 0–9 and '-', starting with a letter)")
            }
            if reader.problems.isEmpty { parsed.identities.gcloud = name }
        case .aws:
            guard let profile = reader.plainOrObjectString(key: "profile", example: #"{"profile": "work"}"#) else { break }
            if profile.contains(where: { $0.isNewline || $0 == "[" || $0 == "]" }) {
                reader.problems.append("\(place).profile: \"\(profile)\" is not a profile name")
            }
            if reader.problems.isEmpty { parsed.identities.aws = profile }
        case .gh:
            guard reader.expectObject(#"{"user": "ada", "host": "github.com"}"#) else { break }
            let user = reader.string("user", required: true)
            let host = reader.string("host")
            reader.finish(known: ["user", "host"])
            if reader.problems.isEmpty, let user { parsed.identities.gh = ToolIdentities.GitHub(user: user, host: host) }
        case .env:
            guard case .object(let members) = value else {
                reader.problems.append(#"\#(place): expected an object of names and values, like {"TEAM": "web"}"#)
                break
            }
            var entries: [EnvironmentEntry] = []
            for (name, element) in members {
                let path = "\(place).\(name)"
                guard case .string(let text) = element else {
                    reader.problems.append("\(path): expected a string, found \(element.kind)")
                    continue
                }
                if !EnvironmentEntry.isValidName(name) {
                    reader.problems.append("\(path): \"\(name)\" is not a variable name (A–Z, a–z, 0–9 and '_', not starting with a digit)")
                } else if EnvironmentEntry.reservedNames.contains(name) {
                    reader.problems.append(
                        "\(path): Perch sets \(name) itself" + (name == "AWS_PROFILE" ? " (use \"aws\": {\"profile\": …})" : ""))
                } else if text.utf8.contains(0) {
                    reader.problems.append("\(path): must not hold a NUL character")
                } else {
                    if EnvironmentEntry.looksLikeSecret(text) {
                        parsed.warnings.append(
                            "\(path): looks like a secret (a token or key); secrets do not belong in the config (use a secret manager or a hook)"
                        )
                    }
                    entries.append(EnvironmentEntry(name: name, value: text))
                }
            }
            if reader.problems.isEmpty { parsed.identities.env = entries.sorted { $0.name < $1.name } }
        }
        parsed.problems += reader.problems
        parsed.warnings += reader.warnings
    }
}

/// Reads the members of one tool's object, collecting problems.
private struct ObjectReader {
    var value: JSONValue
    var place: String
    var reportUnknownKeys: Bool
    var problems: [String] = []
    var warnings: [String] = []
    var members: [(String, JSONValue)] = []

    init(value: JSONValue, place: String, reportUnknownKeys: Bool) {
        self.value = value
        self.place = place
        self.reportUnknownKeys = reportUnknownKeys
    }

    mutating func expectObject(_ example: String) -> Bool {
        guard case .object(let members) = value else {
            problems.append("\(place): expected an object like \(example), found \(value.kind)")
            return false
        }
        self.members = members
        return true
    }

    func member(_ key: String) -> JSONValue? { members.first { $0.0 == key }?.1 }

    /// A string member; empty strings are refused (leave the key out instead), as elsewhere.
    mutating func string(_ key: String, required: Bool = false) -> String? {
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
    mutating func plainOrObjectString(key: String, example: String) -> String? {
        if case .string(let text) = value {
            if text.isEmpty { problems.append("\(place): must not be empty (leave the key out instead)") }
            return text.isEmpty ? nil : text
        }
        guard expectObject(example) else { return nil }
        let text = string(key, required: true)
        finish(known: [key])
        return text
    }

    mutating func finish(known: [String]) {
        guard reportUnknownKeys else { return }
        for (key, _) in members where !known.contains(key) {
            warnings.append(unknownKeyWarning(key, at: place, known: known))
        }
    }
}

extension IdentityConfig {
    /// `identities` as config members (`"kube": {"context": "prod"}`), in the order a switch
    /// applies them, for the config writer; none for an account without identities.
    public static func jsonMembers(_ identities: ToolIdentities) -> [String] {
        func object(_ pairs: [(String, String?)]) -> String {
            "{" + pairs.compactMap { key, value in value.map { "\"\(key)\": \(ConfigWriter.json($0))" } }.joined(separator: ", ") + "}"
        }
        var members: [String] = []
        if let git = identities.git {
            members.append("\"git\": " + object([("name", git.name), ("email", git.email), ("signingKey", git.signingKey)]))
        }
        if let ssh = identities.ssh {
            let hosts =
                ssh.hosts.count == 1
                ? ConfigWriter.json(ssh.hosts[0]) : "[" + ssh.hosts.map(ConfigWriter.json).joined(separator: ", ") + "]"
            members.append("\"ssh\": {\"host\": \(hosts), \"identityFile\": \(ConfigWriter.json(ssh.identityFile))}")
        }
        if let kube = identities.kube { members.append("\"kube\": " + object([("context", kube.context), ("namespace", kube.namespace)])) }
        if let name = identities.gcloud { members.append("\"gcloud\": " + object([("configuration", name)])) }
        if let gh = identities.gh { members.append("\"gh\": " + object([("user", gh.user), ("host", gh.host)])) }
        if let profile = identities.aws { members.append("\"aws\": " + object([("profile", profile)])) }
        if !identities.env.isEmpty { members.append("\"env\": " + object(identities.env.map { ($0.name, $0.value) })) }
        return members
    }
}

extension ToolIdentities {
    /// These identities with `tool`'s taken from `other` (for reading one tool at a time).
    public func taking(_ tool: IdentityTool, from other: ToolIdentities) -> ToolIdentities {
        var result = self
        switch tool {
        case .git: result.git = other.git
        case .ssh: result.ssh = other.ssh
        case .kube: result.kube = other.kube
        case .gcloud: result.gcloud = other.gcloud
        case .gh: result.gh = other.gh
        case .aws: result.aws = other.aws
        case .env: result.env = other.env
        }
        return result
    }
}
