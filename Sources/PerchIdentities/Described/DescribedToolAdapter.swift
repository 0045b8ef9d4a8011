import Glibc
import PerchDomain
import PerchStore

/// A tool described as data (``ToolDescription``, docs/tools.md), as a tool adapter: an
/// account's member (`"az": {"configDir": "~/.azure-work"}`) is read and checked as the
/// description says; its variables give one process the account (`perch exec`, `perch use`,
/// `perch env`); its global switch, when it has one, goes through the switch session (journal,
/// all or nothing, undo) like a built-in's; `perch verify` asks its "who am I".
///
/// What the tool prints or holds is data: an answer is its first line, control characters
/// removed, at most 200 characters, masked when it looks like a secret; it is compared with the
/// account's identity setting ignoring case.
public struct DescribedToolAdapter: ToolAdapter {
    public let description: ToolDescription

    /// The tool `description` describes, as it was read (``ToolDescription/parse(_:origin:builtIn:checkPatterns:)``).
    public init(_ description: ToolDescription) { self.description = description }

    /// What an account gave: the values as written, in the description's order, and the paths
    /// with `~` put in.
    public struct Values: Hashable, Sendable {
        /// The keys and values as the config has them (`~/…` kept), in the description's order.
        public var written: [ToolField]
        /// The values by key, a `folder`'s or a `file`'s as an absolute path.
        public var resolved: [String: String]
        /// The value of `key` (absolute for a path), or nil when the account does not give it.
        public func resolved(_ key: String) -> String? { resolved[key] }
    }

    public var tool: IdentityTool { IdentityTool(description.tool) }
    public var title: String { description.title }
    public var program: String? { description.program }
    public var isPerShell: Bool { description.global == nil }
    public var exportedNames: [String] { description.variables }
    public var overrides: [ToolOverride] { description.overrides.map { ToolOverride($0.variable, $0.reason) } }
    public var fieldPaths: [String] { description.settings.map { "\(description.tool).\($0.key)" } }

    /// The longest answer kept, in characters.
    static let answerLimit = 200

    // MARK: Config

    /// The setting for `written` values (key and value as in the config), with paths resolved
    /// against `home`.
    public func setting(_ written: [ToolField], home: String) -> ToolSetting {
        var resolved: [String: String] = [:]
        var ordered: [ToolField] = []
        for setting in description.settings {
            guard let field = written.first(where: { $0.name == setting.key }) else { continue }
            ordered.append(field)
            resolved[setting.key] = setting.kind == .folder || setting.kind == .file ? Self.expand(field.value, home: home) : field.value
        }
        let exports = description.settings.compactMap { setting in
            setting.variable.flatMap { name in resolved[setting.key].map { EnvironmentEntry(name: name, value: $0) } }
        }.sorted { $0.name < $1.name }
        // Bug (review): a value carried by a secret's variable (`sk-ant-…` in a key's) was shown
        // whole by a switch's plan, status and list --json. What is shown is masked, as `env`'s
        // values are; only the exports and the written values hold it.
        let shown = ordered.map { field in
            let item = description.setting(field.name)
            let secret =
                item?.kind != .folder && item?.kind != .file
                && (EnvironmentEntry.looksLikeSecret(field.value) || item?.variable.map(EnvironmentEntry.isSecretName) == true)
            return secret ? ToolField(field.name, "…" + String(field.value.suffix(4))) : field
        }
        return ToolSetting(
            tool: tool, isPerShell: isPerShell, summary: shown.map(\.value).joined(separator: ", "), fields: shown, exports: exports,
            value: Values(written: ordered, resolved: resolved))
    }

    /// `text`'s first line, white space trimmed: the value a global file holds.
    static func firstLine(_ text: String) -> String {
        (text.split(whereSeparator: \.isNewline).first.map(String.init) ?? "").trimmingWhitespace
    }

    static func expand(_ path: String, home: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst() }
        return path
    }

    public func read(_ reader: inout ToolMemberReader) -> ToolSetting? {
        let example = "{" + description.settings.prefix(2).map { "\"\($0.key)\": \"…\"" }.joined(separator: ", ") + "}"
        guard reader.expectObject(example) else { return nil }
        var written: [ToolField] = []
        for setting in description.settings {
            guard let text = reader.string(setting.key, required: setting.required) else { continue }
            let place = "\(reader.place).\(setting.key)"
            switch setting.kind {
            case .folder, .file:
                if !(text.hasPrefix("~/") || text.hasPrefix("/")) {
                    reader.problems.append("\(place): \"\(text)\" must start with ~/ or / (a \(setting.kind.rawValue))")
                    continue
                }
                if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                    reader.problems.append("\(place): must not hold a control character")
                    continue
                }
                // Bug (review): `~/../../etc` was taken, and audit then named /etc files.
                if text.split(separator: "/").contains(where: { $0 == ".." }) {
                    reader.problems.append("\(place): \"\(text)\" must not hold a .. component")
                    continue
                }
            case .value:
                if let problem = ToolGrammar.plainNameProblem(text) {
                    reader.problems.append("\(place): \"\(text)\" \(problem)")
                    continue
                }
            case .identity:
                if text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
                    reader.problems.append("\(place): must not hold a control character")
                    continue
                }
                // Bug (review): an identity given to a command (`{user}`) became an option.
                if text.hasPrefix("-") {
                    reader.problems.append("\(place): \"\(text)\" must not begin with '-' (it would read as an option)")
                    continue
                }
            }
            written.append(ToolField(setting.key, text))
        }
        reader.finish(known: description.settings.map(\.key))
        if written.isEmpty, reader.problems.isEmpty {
            reader.problems.append("\(reader.place): names none of \(description.settings.map(\.key).joined(separator: ", "))")
        }
        guard reader.problems.isEmpty else { return nil }
        return setting(written, home: Self.home)
    }

    /// The home `~` stands for in the config: `$HOME`, else the password entry's.
    static var home: String {
        var home = PerchPaths.environment("HOME") ?? PerchPaths.passwordHome() ?? "/"
        while home.count > 1, home.hasSuffix("/") { home.removeLast() }
        return home
    }

    public func json(_ setting: ToolSetting) -> String {
        IdentityConfig.object((setting.value(as: Values.self)?.written ?? []).map { ($0.name, $0.value) })
    }

    // MARK: Global state

    /// The value of `setting`'s global key, as the global switch takes it.
    func globalValue(_ setting: ToolSetting) -> String? {
        guard let global = description.global else { return nil }
        return setting.value(as: Values.self)?.resolved(global.setting)
    }

    public func wanted(_ setting: ToolSetting?, account: Account, in context: ToolContext) -> ToolState? {
        guard description.global != nil, let setting, let value = globalValue(setting) else { return nil }
        return ToolState(["value": value, "exists": "1"])
    }

    public func current(in context: ToolContext) -> Result<ToolState, ToolFailure> {
        switch description.global {
        case nil: return .success(ToolState())
        case .file(let path, _)?:
            let file = context.environment.expandingTilde(path)
            if let refusal = Self.notOwnFile(file, home: context.environment.home) { return .failure(ToolFailure(refusal)) }
            do {
                let bytes = try FileSystem.read(file)
                var state = ToolState(["value": Self.firstLine(String(decoding: bytes.prefix(4096), as: UTF8.self)), "exists": "1"])
                // The whole text as well (as gcloud's active_config), so that a give-back writes it
                // as it was. Bug: an undo or a reset wrote the value and a line end alone, so a
                // file without one, with CRLF or with a second line was not given back as it was.
                let text = String(decoding: bytes, as: UTF8.self)
                if bytes.count <= 4096, Array(text.utf8) == bytes { state["file"] = text }
                return .success(state)
            } catch {
                if error.isNotFound { return .success(ToolState(["value": "", "exists": "0"])) }
                return .failure(
                    ToolFailure(
                        "\(PerchPaths.tilde(file, home: context.environment.home)) cannot be read: \(String(cString: strerror(error.code)))"
                    ))
            }
        case .command(_, _, let question)?:
            // The value as the tool gave it (not as shown): it is compared with the account's and
            // given back by an undo or a reset. Bug: it was the shown answer, so a profile that
            // looked like a secret (`ProdAccount2024EuropeWestCluster01`) never matched after a
            // switch, and a reset ran `acmectl use …er01` with the masked text.
            switch answer(question, values: [:], environment: context.environment, shown: false, run: { context.run($0, $1) }) {
            case .success(let text): return .success(ToolState(["value": text, "exists": "1"]))
            case .failure(let failure): return .failure(failure)
            }
        }
    }

    public func currentFromFiles(in context: ToolContext) -> ToolState? {
        guard case .file? = description.global, case .success(let state) = current(in: context) else { return nil }
        return state
    }

    public func isMet(_ wanted: ToolState, by now: ToolState) -> Bool {
        if wanted["exists"] == "0" { return now["exists"] == "0" || (now["value"] ?? "").isEmpty }
        return (wanted["value"] ?? "") == (now["value"] ?? "")
    }

    public func apply(_ state: ToolState, in context: ToolContext) -> ToolStep {
        guard let global = description.global else { return .applied("per shell") }
        let value = state["value"] ?? ""
        switch global {
        case .file(let path, _):
            let file = context.environment.expandingTilde(path)
            // Bug (review): a global file that was a symbolic link (to ~/.bashrc) had its target
            // overwritten, and only its first line given back.
            if let refusal = Self.notOwnFile(file, home: context.environment.home) { return .failed(refusal) }
            if state["exists"] != "0", let own = state["file"], Self.firstLine(own) == value {
                // A before-state: the file as the user had it.
                do {
                    try FileSystem.writeAtomically(Array(own.utf8), to: file, mode: 0o600)
                } catch {
                    return .failed(
                        "cannot write \(PerchPaths.tilde(file, home: context.environment.home)): \(String(cString: strerror(error.code)))")
                }
            } else if state["exists"] == "0" || value.isEmpty {
                if unlink(file) != 0, errno != ENOENT {
                    return .failed(
                        "cannot remove \(PerchPaths.tilde(file, home: context.environment.home)): \(String(cString: strerror(errno)))")
                }
            } else {
                do {
                    try FileSystem.writeAtomically(Array((value + "\n").utf8), to: file, mode: 0o600)
                } catch {
                    return .failed(
                        "cannot write \(PerchPaths.tilde(file, home: context.environment.home)): \(String(cString: strerror(error.code)))")
                }
            }
        case .command(let arguments, let key, _):
            guard !value.isEmpty else { return .skipped("nothing to give back: no \(key) was in use") }
            // Bug (review): a value the tool had (`--delete-all-profiles`) was given back as an option.
            if value.hasPrefix("-") {
                return .failed("\(Self.shown(value)) begins with '-', which would read as an option: not given to \(arguments[0])")
            }
            let filled = arguments.map { Self.fill($0, [key: value]) }
            let run = context.run(filled[0], Array(filled.dropFirst()))
            if case .notFound = run { return .failed("\(filled[0]) not found") }
            if let failure = run.failure { return .failed("\(filled[0]): \(Self.shown(failure))") }
        }
        switch current(in: context) {
        case .failure(let failure): return .failed(failure.description)
        case .success(let now) where isMet(state, by: now): return .applied(describe(now))
        case .success(let now): return .failed("\(description.tool) reports \(describe(now)) after the switch")
        }
    }

    public func describe(_ state: ToolState) -> String {
        guard description.global != nil else { return "per shell" }
        let value = state["value"] ?? ""
        return value.isEmpty ? "none" : Self.shown(value)
    }

    /// Per shell: the variables against this environment's. Global: the global value now
    /// against the account's (the identity is told by `perch verify`, which asks the tool).
    public func check(_ setting: ToolSetting, in context: ToolContext) -> IdentityCheck {
        guard description.global != nil else {
            // Paths under the home are shown as ~/…, as everywhere in Perch's output.
            var check = IdentityEnvironmentCheck.check(self, setting, in: context)
            let home = context.environment.home
            check.expected = Self.tildeInValues(check.expected, home: home)
            check.actual = check.actual.map { Self.tildeInValues($0, home: home) }
            check.note = check.note.map { Self.tildeInValues($0, home: home) }
            return check
        }
        var check = defaultCheck(setting, in: context)
        check.expected = globalValue(setting).map(Self.shown) ?? check.expected
        return check
    }

    // MARK: Scopes

    /// The user's own global value, pinned through the global setting's variable, when it has one.
    public func ownSetting(_ own: ToolState, over environment: [String: String]) -> ToolSetting? {
        guard let global = description.global, let variable = description.setting(global.setting)?.variable,
            (environment[variable] ?? "").isEmpty, let value = own["value"], !value.isEmpty
        else { return nil }
        return setting([ToolField(global.setting, value)], home: Self.home)
    }

    /// An agent's scope for a tool its account names nothing for: each folder or file variable
    /// pointed at an empty one of Perch's, every other variable of the tool and its overrides
    /// removed.
    public func closed(in folder: String) throws(ToolFailure) -> [ScopeVariable] {
        var variables: [ScopeVariable] = []
        for setting in description.settings {
            guard let name = setting.variable else { continue }
            switch setting.kind {
            case .folder: variables.append(ScopeVariable(name, try closedFile("\(description.tool)-\(setting.key)", in: folder)))
            case .file: variables.append(ScopeVariable(name, try closedFile("\(description.tool)-\(setting.key)", in: folder, text: "")))
            case .value, .identity: variables.append(ScopeVariable(name, nil))
            }
        }
        return variables + description.overrides.map { ScopeVariable($0.variable, nil) }
    }

    /// The variables of the settings `setting` does not give, closed as ``closed(in:)`` closes
    /// them, for an agent whose account names the tool in part.
    func closedRest(_ setting: ToolSetting, in folder: String) throws(ToolFailure) -> [ScopeVariable] {
        let given = setting.value(as: Values.self)?.resolved ?? [:]
        var variables: [ScopeVariable] = []
        for item in description.settings where given[item.key] == nil {
            guard let name = item.variable else { continue }
            switch item.kind {
            case .folder: variables.append(ScopeVariable(name, try closedFile("\(description.tool)-\(item.key)", in: folder)))
            case .file: variables.append(ScopeVariable(name, try closedFile("\(description.tool)-\(item.key)", in: folder, text: "")))
            case .value, .identity: variables.append(ScopeVariable(name, nil))
            }
        }
        return variables
    }

    /// Why an agent whose account names nothing for this tool cannot have it closed: a global
    /// tool whose global setting is a plain value falls back to your own global account when
    /// its variable is removed. nil when it can be closed.
    var cannotClose: String? {
        // Bug (review): a global folder or file setting without a variable could not be closed
        // either, and was not refused.
        guard let global = description.global, let setting = description.setting(global.setting),
            setting.kind == .value || setting.variable == nil
        else { return nil }
        return
            "\(description.tool): an agent's account names it (\"\(description.tool)\": {\"\(setting.key)\": …}), or the tool would use your own \(setting.key)"
    }

    // MARK: Asking the tool

    /// `text` with each `{key}` replaced by `values[key]` (nothing else is read: no shell, no
    /// variable); a key without a value is left as it is.
    static func fill(_ text: String, _ values: [String: String]) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            let key = String(rest[rest.index(after: open)..<close])
            result += values[key] ?? "{\(key)}"
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// `NAME=VALUE` text (a per-shell check's, a verify line's) with each value under `home`
    /// shown as `~/…`, as Perch's output names paths (``PerchPaths/tilde(_:home:)``).
    static func tildeInValues(_ text: String, home: String) -> String {
        home.count > 1 ? text.replacing("=\(home)/", with: "=~/") : text
    }

    /// Why the global file at `file` is not one Perch may write: a symbolic link, or something
    /// other than a regular file (lstat(2)); nil when it is one, or is not there.
    static func notOwnFile(_ file: String, home: String) -> String? {
        let shown = PerchPaths.tilde(file, home: home)
        // Bug (review): a folder of the path that was a link (~/.beta → ~/important) had the file
        // behind it written and removed. Below the home, every folder must be itself.
        let folder = FileSystem.directory(of: file)
        if let real = realpath(folder, nil) {
            let resolved = String(cString: real)
            free(real)
            let realHome =
                realpath(home, nil).map { pointer in
                    defer { free(pointer) }
                    return String(cString: pointer)
                } ?? home
            let expected = folder == home || folder.hasPrefix(home + "/") ? realHome + folder.dropFirst(home.count) : folder
            if resolved != expected {
                return "\(shown) is reached through a symbolic link: Perch writes a tool's global file only in folders of their own"
            }
        }
        var info = stat()
        guard lstat(file, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFLNK: return "\(shown) is a symbolic link: Perch writes a tool's global file only as a file of its own (remove the link)"
        default: return "\(shown) is not a regular file"
        }
    }

    /// `text` as Perch may print it: its first line, control characters removed, at most
    /// ``answerLimit`` characters, and each word that looks like a secret masked (the whole
    /// line, or a token inside it: `Token: gho_…`).
    static func shown(_ text: String) -> String {
        // Tabs as spaces first, so that words a tab parts stay apart once controls are removed.
        let clean = cleaned(String(text.map { $0 == "\t" ? " " : $0 }))
        // Masked before it is cut, so a token at the end never shows its start.
        let masked = maskedWords(clean)
        return masked.count > answerLimit ? String(masked.prefix(answerLimit)) + "…" : masked
    }

    /// `line` with each run that looks like a secret masked to `…` and its last 4 characters:
    /// the whole line, a run of letters, digits and `_-./+~@` that looks like a token, and the
    /// run after a word naming a secret (`password`, `token`, `secret`, `key`, `bearer`,
    /// `authorization`, `credential`), whatever separates them (`=`, `:`, quotes, spaces).
    /// Bug (review): a token inside an answer (`Token: gho_…`, `password=hunter2hunter2`) was
    /// printed whole.
    static func maskedWords(_ line: String) -> String {
        let whole = EnvironmentEntry.masked(line)
        guard whole == line else { return whole }
        func isWord(_ c: Character) -> Bool { c.isLetter || c.isNumber || "_-./+~@".contains(c) }
        let names = ["password", "passwd", "pwd", "secret", "token", "key", "bearer", "authorization", "credential", "credentials"]
        var result = ""
        var secretNamed = false
        var index = line.startIndex
        while index < line.endIndex {
            guard isWord(line[index]) else {
                result.append(line[index])
                index = line.index(after: index)
                continue
            }
            var end = index
            while end < line.endIndex, isWord(line[end]) { end = line.index(after: end) }
            let word = String(line[index..<end])
            let lower = word.lowercased()
            if lower.split(whereSeparator: { "_-.".contains($0) }).contains(where: { names.contains(String($0)) }) {
                // A word naming a secret (`Authorization`, `Bearer`): the next run is the secret.
                result += word
                secretNamed = true
            } else if EnvironmentEntry.looksLikeSecret(word) || (secretNamed && word.count >= 6) {
                result += "…" + String(word.suffix(4))
                secretNamed = false
            } else {
                result += word
                secretNamed = false
            }
            index = end
        }
        return result
    }

    /// `text`'s first line, control characters removed, white space trimmed: a value as the tool
    /// gave it, neither cut nor masked (``shown(_:)`` is for printing it).
    static func cleaned(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return String(String.UnicodeScalarView(line.unicodeScalars.filter { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }))
            .trimmingWhitespace
    }

    /// The values `{key}` stands for when the tool is asked in `environment`: what the tool
    /// itself would use (the variable's value, else the setting's default), and the account's
    /// for a setting without a variable.
    func values(for setting: ToolSetting?, in environment: IdentityEnvironment) -> [String: String] {
        var values: [String: String] = [:]
        let account = setting?.value(as: Values.self)?.resolved ?? [:]
        for item in description.settings {
            if let name = item.variable {
                if let set = environment[name] {
                    values[item.key] = set
                } else if let fallback = item.defaultValue {
                    values[item.key] = environment.expandingTilde(fallback)
                }
            } else if let value = account[item.key] {
                values[item.key] = value
            }
        }
        return values
    }

    /// The answer to `question`, as ``shown(_:)`` gives it (as ``cleaned(_:)`` does when not
    /// `shown`); a failure naming what went wrong.
    func answer(
        _ question: ToolDescription.Question, values: [String: String], environment: IdentityEnvironment, shown: Bool = true,
        run: (String, [String]) -> ProgramResult
    ) -> Result<String, ToolFailure> {
        let text: String
        switch question.source {
        case .command(let arguments):
            let filled = arguments.map { Self.fill($0, values) }
            // Every `{` of a command is a placeholder (ToolDescription checks): one left has no value here.
            if let missing = filled.first(where: { $0.contains(Character("{")) }) {
                return .failure(ToolFailure("\(Self.shown(missing)): no value here"))
            }
            let result = run(filled[0], Array(filled.dropFirst()))
            if case .notFound = result { return .failure(ToolFailure("\(filled[0]) not found")) }
            guard let output = result.output else {
                return .failure(ToolFailure("\(filled.prefix(3).joined(separator: " ")): \(Self.shown(result.failure ?? "failed"))"))
            }
            text = output
        case .file(let path):
            let file = environment.expandingTilde(Self.fill(path, values))
            guard !file.contains(Character("{")) else { return .failure(ToolFailure("\(path): no value here")) }
            do {
                let bytes = try FileSystem.read(file)
                guard bytes.count <= SecretAudit.readLimit else {
                    return .failure(ToolFailure("\(PerchPaths.tilde(file, home: environment.home)) is over 1 MiB"))
                }
                text = String(decoding: bytes, as: UTF8.self)
            } catch {
                return .failure(ToolFailure("\(PerchPaths.tilde(file, home: environment.home)): \(String(cString: strerror(error.code)))"))
            }
        }
        switch Self.read(text, question.reading) {
        case let found?: return .success(shown ? Self.shown(found) : Self.cleaned(found))
        case nil: return .failure(ToolFailure("its answer holds no \(Self.readingName(question.reading))"))
        }
    }

    /// The value at `path` of `document`, or nil when a member or element is not there.
    static func jsonIndex(_ document: JSONDocument, _ path: [String]) -> JSONDocument.Index? {
        var index = document.root
        for component in path {
            if component.hasPrefix("["), let position = Int(component.dropFirst().dropLast()) {
                guard document.kind(index) == .array else { return nil }
                let elements = document.elements(index)
                guard position < elements.count else { return nil }
                index = elements[position]
            } else {
                guard document.kind(index) == .object,
                    let member = document.members(index).last(where: { document.string($0.key) == component })
                else { return nil }
                index = member.value
            }
        }
        return index
    }

    /// What `reading` finds in `text`; nil when nothing.
    static func read(_ text: String, _ reading: ToolDescription.Reading) -> String? {
        switch reading {
        case .text:
            let line = text.split(whereSeparator: \.isNewline).first.map(String.init)?.trimmingWhitespace ?? ""
            return line.isEmpty ? nil : line
        case .json(let path):
            guard let document = try? JSONReader.read(Array(text.utf8)), let index = jsonIndex(document, path) else { return nil }
            switch document.kind(index) {
            case .string: return document.string(index).flatMap { $0.isEmpty ? nil : $0 }
            case .number: return document.numberText(index).map { String($0) }
            case .true: return "true"
            case .false: return "false"
            default: return nil
            }
        case .pattern(let pattern):
            guard let regex = try? Regex(pattern), let match = try? regex.firstMatch(in: text) else { return nil }
            let found = match.output.count > 1 ? match.output[1].substring : match.output[0].substring
            return found.map { String($0) }.flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    static func readingName(_ reading: ToolDescription.Reading) -> String {
        switch reading {
        case .text: "text"
        case .json(let path): path.joined(separator: ".").replacing(".[", with: "[")
        case .pattern(let pattern): "match of \(pattern)"
        }
    }

    /// `question`'s answer as a line of `perch verify`.
    func answer(_ question: ToolDescription.Question, label: String, setting: ToolSetting, in context: ProofContext, online: Bool)
        -> ToolAnswer
    {
        let expected = question.expect.flatMap { setting.value(as: Values.self)?.resolved($0) } ?? ""
        let asked: String
        switch question.source {
        case .command(let arguments): asked = arguments.joined(separator: " ")
        case .file(let path): asked = path + " (" + Self.readingName(question.reading) + ")"
        }
        let values = values(for: setting, in: context.tool.environment)
        // Bug (review): a value from this environment that began with '-' was given to the
        // program as an option (`GCMD_PROFILE='--rm-rf=/'`).
        if let bad = values.first(where: { $0.value.hasPrefix("-") }) {
            return .unknown(
                label, kind: tool, expected: Self.shown(expected),
                reason: "\(bad.key) begins with '-' here, which would read as an option: not asked", asked: asked, online: online)
        }
        // Compared as the tool gave it, shown masked. Bug (review): the answer was masked before
        // it was compared, so an identity that looked like a secret never agreed.
        switch answer(question, values: values, environment: context.tool.environment, shown: false, run: { context.run($0, $1) }) {
        case .failure(let failure):
            return .unknown(label, kind: tool, expected: Self.shown(expected), reason: failure.description, asked: asked, online: online)
        case .success(let raw):
            let found = Self.shown(raw)
            let expected = Self.shown(expected)
            let fix =
                isPerShell
                ? "perch exec \(context.account.id) -- \(description.program ?? description.tool) … (or eval \"$(perch env \(context.account.id))\")"
                : "perch switch \(context.account.id)"
            return .judged(
                label, kind: tool, expected: expected, answer: found,
                agrees: raw.lowercased() == (question.expect.flatMap { setting.value(as: Values.self)?.resolved($0) } ?? "").lowercased(),
                reason: "\(description.title) says it is \(found)", fix: fix, asked: asked, online: online)
        }
    }

    public func ask(_ setting: ToolSetting, in context: ProofContext) -> [ToolAnswer] {
        var answers: [ToolAnswer] = []
        if isPerShell {
            var variables = IdentityProof.variables(self, setting, in: context)
            let home = context.tool.environment.home
            variables.expected = Self.tildeInValues(variables.expected, home: home)
            variables.answer = variables.answer.map { Self.tildeInValues($0, home: home) }
            answers.append(variables)
            // A shell without the account's variables would answer for the user's own account.
            if variables.verdict != .agrees { return answers }
        } else {
            let check = self.check(setting, in: context.tool)
            answers.append(
                ToolAnswer(
                    tool: description.tool, kind: tool, expected: check.expected, answer: check.actual,
                    verdict: check.matches.map { $0 ? .agrees : .disagrees } ?? .unknown, reason: check.note,
                    fix: check.matches == false ? "perch switch \(context.account.id)" : nil, asked: "perch status"))
        }
        if let whoami = description.whoami {
            answers.append(answer(whoami, label: "\(description.tool) whoami", setting: setting, in: context, online: false))
        }
        return answers
    }

    public func askServer(_ setting: ToolSetting, in context: ProofContext) -> [ToolAnswer] {
        guard let server = description.server else { return [] }
        if isPerShell, IdentityProof.variables(self, setting, in: context).verdict != .agrees { return [] }
        return [answer(server, label: "\(description.tool) server", setting: setting, in: context, online: true)]
    }
}

// MARK: - Expiry

extension DescribedToolAdapter {
    /// When `setting`'s session ends, read from the file the description's `expiry` names
    /// (its `{key}` from the account): the number or text at its JSON path, as its format says
    /// (seconds or milliseconds since the epoch, or ISO 8601). nil when the description names
    /// no expiry, or the file or the value is not there (nothing is then shown). The file is
    /// added to `inputs` (``SessionExpiryCache`` watches it).
    func sessionEnd(_ setting: ToolSetting, in context: ToolContext, inputs: inout [String]) -> SessionExpiry? {
        if case .success(let end) = readSessionEnd(setting, in: context, inputs: &inputs) { return end }
        return nil
    }

    /// ``sessionEnd(_:in:inputs:)``, or the value found when it is there but cannot be read as
    /// its format says (an agent's command then does not start).
    func readSessionEnd(_ setting: ToolSetting, in context: ToolContext, inputs: inout [String]) -> Result<SessionExpiry?, ToolFailure> {
        guard let expiry = description.expiry else { return .success(nil) }
        let values = setting.value(as: Values.self)?.resolved ?? [:]
        let path = context.environment.expandingTilde(Self.fill(expiry.file, values))
        guard !path.contains(Character("{")) else { return .success(nil) }
        inputs.append(path)
        // Only a file that is not there means no session; one that cannot be read, is not JSON,
        // or holds something other than a number or a text at the path is an end not known.
        // Bug (review): each of those let an agent start.
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(path, limit: SecretAudit.readLimit)
        } catch {
            if error.isNotFound { return .success(nil) }
            return .failure(ToolFailure("its session file \(PerchPaths.tilde(path, home: context.environment.home)) cannot be read"))
        }
        guard let document = try? JSONReader.read(bytes) else {
            return .failure(ToolFailure("its session file \(PerchPaths.tilde(path, home: context.environment.home)) is not JSON"))
        }
        if Self.jsonIndex(document, expiry.path) == nil { return .success(nil) }
        guard let found = Self.read(String(decoding: bytes, as: UTF8.self), .json(expiry.path)) else {
            return .failure(ToolFailure("its session's end (\(expiry.path.joined(separator: "."))) is neither a number nor a time"))
        }
        // Bug (review): `Int64(Double)` trapped on "inf", "nan" and 1e300 from the tool's file.
        func seconds(_ divisor: Double) -> Int64? {
            guard let number = Double(found), number.isFinite else { return nil }
            let value = number / divisor
            return abs(value) < 1e12 ? Int64(value) : nil
        }
        let ends: Int64?
        switch expiry.format {
        case .epochSeconds: ends = seconds(1)
        case .epochMilliseconds: ends = seconds(1000)
        case .iso8601: ends = SessionExpiries.iso8601(found)
        }
        guard let ends else {
            return .failure(ToolFailure("its session's end (\(Self.shown(found))) is not \(expiry.format.rawValue)"))
        }
        return .success(SessionExpiry(tool: tool, what: "session of \(description.title)", ends: ends, renew: expiry.renew))
    }
}

// MARK: - Agents

extension DescribedToolAdapter {
    /// Why an agent's command (`perch exec --agent`) whose account names this tool may not
    /// start: a folder or file the account gives that is not there (the tool would sign in
    /// afresh, or fall back to its default), or a session that has ended (its description's
    /// `expiry`). Each reason says how to put it right; none when it may start.
    func agentRefusals(_ setting: ToolSetting, in context: ToolContext, now: Int64) -> [String] {
        var reasons: [String] = []
        let values = setting.value(as: Values.self)?.resolved ?? [:]
        let program = description.program ?? description.tool
        for item in description.settings where item.kind == .folder || item.kind == .file {
            guard let path = values[item.key] else { continue }
            var info = stat()
            let wanted = item.kind == .folder ? S_IFDIR : S_IFREG
            guard stat(path, &info) != 0 || info.st_mode & S_IFMT != wanted else { continue }
            let shown = PerchPaths.tilde(path, home: context.environment.home)
            let how = item.variable.map { "sign in with \($0)=\(shown) \(program) …" } ?? "make it"
            reasons.append("\(description.tool): its \(item.kind.rawValue) \(shown) (\(item.key)) is not there: \(how)")
        }
        // Bug (review): an account naming the tool but not its global setting ran on your own.
        if values[description.global?.setting ?? ""] == nil, let why = cannotClose { reasons.append(why) }
        var inputs: [String] = []
        switch readSessionEnd(setting, in: context, inputs: &inputs) {
        case .success(let end?) where end.hasEnded(at: now):
            reasons.append("\(description.tool): its session ended at \(end.endsText)" + (end.renew.map { "; renew it: \($0)" } ?? ""))
        case .failure(let failure):
            // Fails closed: an end that cannot be read may have passed.
            reasons.append("\(description.tool): \(failure)")
        default: break
        }
        return reasons
    }
}
