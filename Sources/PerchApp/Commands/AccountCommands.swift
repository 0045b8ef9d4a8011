import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchStore

/// What every account command says of the config writer.
private let writerNote =
    "The config is changed as text: its comments, key order and trailing commas stay,\n"
    + "the previous file is kept as <config>.bak, and a change that would leave a config\n"
    + "that does not load (or a key it would ignore) is refused with the reason (exit 2).\n"
    + "With no config yet, one is written holding the sample accounts and the change."

/// `perch add ID --name NAME`: a new account in the config.
struct AddCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "add", summary: "add an account to the config (--name required)", operands: [Operand(name: "ID")])
    static let details: String =
        "ID is a–z, 0–9, '.', '_' and '-', not beginning with '-', and not used yet.\n"
        + "  perch add client --name 'Client Work' --handle @ada --group Jobs\n" + writerNote

    var files = FileOptions()
    /// The new account's id.
    var id = ""
    /// `--name NAME` (required: said when missing, by the command).
    @Option(
        OptionDefinition<String>(
            info: OptionInfo(names: ["--name"], valueName: "NAME", help: "the new account's name (required)", required: true),
            parse: { $0 })) var name: String? = nil
    /// `--handle HANDLE`.
    @Option(
        OptionDefinition<String>(
            info: OptionInfo(names: ["--handle"], valueName: "HANDLE", help: "its handle, e.g. @ada (optional)"), parse: { $0 }))
    var handle: String? = nil
    /// `--group GROUP`.
    @Option(
        OptionDefinition<String>(
            info: OptionInfo(names: ["--group"], valueName: "GROUP", help: "its group in the sheet (optional)"), parse: { $0 })) var group:
        String? = nil

    mutating func bind(operands: [String]) { id = operands[0] }
    func run(_ tool: CommandLineTool) -> Int32 { tool.addAccount(self) }
}

/// `perch set ID PATH VALUE`: one field of an account.
struct SetCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "set", summary: "set a field of an account: name, git.email, kube.context, env.TEAM, …",
        operands: [.account, Operand(name: "PATH", completion: .fieldPath), Operand(name: "VALUE")])
    /// The paths named from the registry (``ToolLists``).
    static var details: String {
        ("PATH is a key of the account, dotted for a tool's key: " + ToolLists.settablePaths.joined(separator: ", ")
            + ". VALUE is written as a string, or as it is when it is a").wrapped(toColumns: 86) + "\n"
            + "JSON list or object ('[\"github.com\", \"gitlab.com\"]'). It is checked as\n"
            + "perch config check checks it: a key it does not know is refused with the paths\n"
            + "there are, and a field that cannot stand without another (kube.namespace without\n"
            + "kube.context) with the object form to set them together. ssh.host is optional\n"
            + "(github.com). The id is changed with perch rename.\n" + writerNote
    }
    var files = FileOptions()
    var id = ""
    /// The field, dotted for a tool's key (`kube.context`).
    var path = ""
    /// The value as given: a string, or JSON when it is a list or object.
    var value = ""

    mutating func bind(operands: [String]) { (id, path, value) = (operands[0], operands[1], operands[2]) }
    func run(_ tool: CommandLineTool) -> Int32 { tool.setField(self) }
}

/// `perch unset ID PATH`: one field of an account removed.
struct UnsetCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "unset", summary: "remove a field of an account", operands: [.account, Operand(name: "PATH", completion: .fieldPath)])
    static let details: String =
        "Removes the key at PATH (as for perch set); a tool's object left empty goes too.\n"
        + "The id and name cannot be removed.\n" + writerNote
    var files = FileOptions()
    var id = ""
    /// The field, as for `perch set`.
    var path = ""

    mutating func bind(operands: [String]) { (id, path) = (operands[0], operands[1]) }
    func run(_ tool: CommandLineTool) -> Int32 { tool.unsetField(self) }
}

/// `perch rename OLD NEW`: an account's id changed, with everything Perch keeps of it.
struct RenameCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "rename", summary: "give an account a new id; its state, history and panes follow",
        operands: [Operand(name: "OLD", completion: .account), Operand(name: "NEW")])
    static let details: String =
        "NEW follows the rules of an id. The current and previous account, the switch\n"
        + "history, the switch counts, the pane state and Perch's identity files follow the\n"
        + "new id, so perch current, perch - and perch history go on as before.\n" + writerNote
    var files = FileOptions()
    var old = ""
    var new = ""

    mutating func bind(operands: [String]) { (old, new) = (operands[0], operands[1]) }
    func run(_ tool: CommandLineTool) -> Int32 { tool.renameAccount(self) }
}

/// `perch remove ID`: an account taken out of the config.
struct RemoveCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "remove", summary: "remove an account from the config (asks first; --yes does not)", operands: [.account])
    static let details: String =
        "Asks first on a terminal; --yes removes without asking (needed without a\n"
        + "terminal). The history keeps the account's entries (perch history lists them);\n"
        + "its switch count and pane state go. When it is current, each tool it names first\n"
        + "gets back what it has without Perch (git your own identity, the others what they\n"
        + "had before Perch first changed them), all or nothing as in a switch, and then no\n"
        + "account is current. A tool that fails puts every tool back and removes nothing\n"
        + "(exit status 3); an interrupted switch still finishing removes nothing (exit 1).\n" + writerNote
    var files = FileOptions()
    var id = ""
    /// `--yes`: remove without asking.
    @Option(SharedOption.yes) var yes = false

    mutating func bind(operands: [String]) { id = operands[0] }
    func run(_ tool: CommandLineTool) -> Int32 { tool.removeAccount(self) }
}

/// `perch add`, `set`, `unset`, `rename` and `remove`: each changes the config through
/// ``ConfigWriter`` (the same writer as the interface's Add account form), then what Perch keeps
/// about the account (state, history, pane state, identity files).
extension CommandLineTool {
    // MARK: perch add

    func addAccount(_ options: AddCommand) -> Int32 {
        let id = options.id
        guard let name = options.name else {
            console.error("'perch add' needs --name NAME")
            console.note(Help.usage(of: AddCommand.self))
            return ExitStatus.usage
        }
        // Bug: before `perch init`, add wrote the four embedded sample accounts into the new
        // config beside the new one; with --config naming a missing file it failed, contrary to
        // its help. A missing config is made with the new account alone.
        let existing: [Account]
        if access(paths.config, F_OK) != 0 {
            existing = []
        } else {
            guard let config = loadConfig() else { return ExitStatus.usage }
            existing = config.accounts
        }
        // The form's rules, in the form's words, with the JSON path the account will have.
        let problems = AccountValidation.problems(
            id: id, name: name, handle: options.handle ?? "", group: options.group ?? "", existingIDs: Set(existing.map(\.id)))
        let place = "accounts[\(existing.count)]"
        if !problems.isEmpty {
            for field in AccountForm.fields {
                guard let problem = problems[field] else { continue }
                if case .duplicateID = problem, let index = existing.firstIndex(where: { $0.id == id }) {
                    // Bug: this said accounts[N].id for the N the new account would have had, which does not exist.
                    console.error("id: \"\(shown(id))\" is already used by accounts[\(index)] (\(shown(existing[index].name)))")
                    continue
                }
                console.error("\(place).\(field.rawValue): \(problem.message)")
            }
            return ExitStatus.usage
        }
        if let handle = options.handle, handle.isEmpty { return emptyOption("--handle") }
        if let group = options.group, group.isEmpty { return emptyOption("--group") }
        let account = Account(id: id, name: name, handle: options.handle, group: options.group)
        do {
            let outcome = try ConfigWriter.append(account, to: paths.config, samples: [])
            console.print("Added \(describe(account)) to \(shownPath(outcome.path))" + backupNote(outcome) + ".")
            return ExitStatus.ok
        } catch {
            return report(error)
        }
    }

    private func emptyOption(_ name: String) -> Int32 {
        console.error("option \(name) needs a value (leave the option out instead)")
        return ExitStatus.usage
    }

    // MARK: perch set / unset

    func setField(_ options: SetCommand) -> Int32 {
        let (id, pathText, value) = (options.id, options.path, options.value)
        guard let keys = fieldPath(pathText) else { return ExitStatus.usage }
        if keys == ["id"] {
            console.error("the id is changed with `perch rename \(shown(id)) NEW`, which carries its state and history along")
            return ExitStatus.usage
        }
        return edit(.set(id: id, path: keys, json: Self.jsonValue(value)), done: "Set \(pathText) of \(shown(id))") { lines in
            setHint(lines, id: id, keys: keys, value: value)
        }
    }

    /// After a refused `perch set`: the paths there are, for a key the config does not know; the
    /// whole object at once, for a tool's key that cannot stand without another one (bug: an
    /// unknown key was called "ignored" while it was refused, with no path listed; `ssh.host`
    /// alone gave only "ssh.identityFile: missing (required)").
    private func setHint(_ lines: [String], id: String, keys: [String], value: String) {
        if lines.contains(where: { $0.contains(": unknown key") }) {
            console.note("PATH is one of: " + ToolLists.settablePaths.joined(separator: ", ") + ".")
            return
        }
        guard keys.count == 2 else { return }
        let tool = keys[0]
        let missing = lines.compactMap { line -> String? in
            guard let start = line.firstRange(of: "].\(tool)."), let end = line.firstRange(of: ": missing (required)"),
                start.upperBound <= end.lowerBound
            else { return nil }
            return String(line[start.upperBound..<end.lowerBound])
        }
        guard !missing.isEmpty else { return }
        let members = [(keys[1], Self.jsonValue(value))] + missing.map { ($0, "\"…\"") }
        let object = "{" + members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
        console.note(
            "\(tool).\(keys[1]) cannot stand alone: \(tool) needs \(missing.map { "\(tool).\($0)" }.joined(separator: " and ")) too. "
                + "Set them together: perch set \(shown(id)) \(tool) '\(shown(object))'")
    }

    func unsetField(_ options: UnsetCommand) -> Int32 {
        let (id, pathText) = (options.id, options.path)
        guard let keys = fieldPath(pathText) else { return ExitStatus.usage }
        if keys == ["id"] || keys == ["name"] {
            // Bug: "accounts need an name".
            console.error(
                "accounts need \(keys[0] == "id" ? "an id" : "a name"); set it with `perch \(keys[0] == "id" ? "rename" : "set") \(shown(id)) …` instead"
            )
            return ExitStatus.usage
        }
        return edit(.unset(id: id, path: keys), done: "Removed \(pathText) from \(shown(id))")
    }

    /// `git.email` as keys; nil after reporting a path that is not one.
    private func fieldPath(_ text: String) -> [String]? {
        let keys = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !keys.contains(where: \.isEmpty) else {
            console.error("'\(shown(text))' is not a field path; give keys joined by dots, as git.email or env.TEAM")
            return nil
        }
        return keys
    }

    /// `text` as JSON: a list or object as written when it is one, otherwise a string.
    static func jsonValue(_ text: String) -> String {
        if let first = text.utf8.first(where: { $0 != 0x20 }), first == UInt8(ascii: "[") || first == UInt8(ascii: "{"),
            let document = try? JSONReader.read(Array(text.utf8)), [.array, .object].contains(document.kind(document.root))
        {
            return text
        }
        return ConfigWriter.jsonString(text)
    }

    /// - Parameter hint: given the lines of a refusal, after they are printed.
    private func edit(_ change: ConfigEdit, done: String, hint: ([String]) -> Void = { _ in }) -> Int32 {
        // The writer loads the config itself (a config that does not load is reported with its
        // lines, as `config check` reports it): loading it here first would read it twice.
        do {
            let outcome = try ConfigWriter.apply(change, to: paths.config)
            console.print(done + " in \(shownPath(outcome.path))" + backupNote(outcome) + ".")
            // git's rules for bound folders and remotes follow the config at once, not at the next switch.
            if let config = try? ConfigLoader.load(paths) { refreshGitDirectoryRules(config) }
            return ExitStatus.ok
        } catch {
            let status = report(error)
            if case .refused(let reason) = error { hint(reason.lines) }
            return status
        }
    }

    // MARK: perch rename

    func renameAccount(_ options: RenameCommand) -> Int32 {
        let (old, new) = (options.old, options.new)
        guard let config = loadConfig() else { return ExitStatus.usage }
        guard let index = config.accounts.firstIndex(where: { $0.id == old }) else { return noAccount(old, config) }
        if let problem = AccountValidation.idProblem(new) {
            console.error("accounts[\(index)].id: \(problem.message)")
            return ExitStatus.usage
        }
        let outcome: ConfigWriter.Outcome
        do {
            outcome = try ConfigWriter.apply(.rename(from: old, to: new), to: paths.config)
        } catch {
            return report(error)
        }
        console.print("Renamed \(shown(old)) to \(shown(new)) in \(shownPath(outcome.path))" + backupNote(outcome) + ".")
        do {
            let change = try StateStore(path: paths.state).renameAccount(from: old, to: new)
            var carried = ["its pane state and switch counts"]
            if change.wasCurrent { carried.insert("the current account", at: 0) }
            if change.historyEntries > 0 {
                carried.append("\(change.historyEntries) history entr\(change.historyEntries == 1 ? "y" : "ies")")
            }
            console.print("Carried over to \(shown(new)): " + carried.joined(separator: ", ") + ".")
        } catch {
            console.error("the config is renamed, but not the state (perch current, perch - and history): \(error)")
            return ExitStatus.unmet
        }
        renameInIdentityFiles(from: old, to: new)
        return ExitStatus.ok
    }

    /// Perch's own identity files name the account they were written for: the header of the git
    /// and ssh files (`for the account "work"`), and the `account`, `from` and `to` of the last
    /// switch's results and of the undo record. Only those places change, so a tool's value that
    /// happens to equal the id (a kube context "work") is left alone.
    func renameInIdentityFiles(from old: String, to new: String) {
        let files = PerchApp.identitySwitcher(paths, config: nil).files
        // Ids are a–z, 0–9, '.', '_' and '-': only the dot means something in a pattern.
        let pattern = old.replacing(".", with: "\\.")
        guard let keys = try? Regex(#"("(?:account|from|to|previous)"\s*:\s*)"\#(pattern)""#),
            let header = try? Regex(#"(the account \\?")\#(pattern)(\\?")"#)
        else { return }
        for path in files.all {
            guard let contents = try? FileSystem.readContents(path) else { continue }
            let text = String(decoding: contents.bytes, as: UTF8.self)
            let renamed = text.replacing(keys) { match in "\(match.output[1].substring ?? "")\"\(new)\"" }
                .replacing(header) { match in "\(match.output[1].substring ?? "")\(new)\(match.output[2].substring ?? "")" }
            if renamed != text { try? FileSystem.writeAtomically(Array(renamed.utf8), to: path, mode: mode_t(contents.mode)) }
        }
    }

    // MARK: perch remove

    func removeAccount(_ options: RemoveCommand) -> Int32 {
        let id = options.id
        guard let config = loadConfig() else { return ExitStatus.usage }
        guard let account = config.accounts.first(where: { $0.id == id }) else { return noAccount(id, config) }
        let store = StateStore(path: paths.state)
        let entries = ((try? store.history.read(limit: Int.max)) ?? []).filter { $0.account == id || $0.previous == id }.count
        let historyText =
            entries == 0
            ? "It has no history entries."
            : "Its \(entries) history entr\(entries == 1 ? "y stays" : "ies stay") (perch history lists \(entries == 1 ? "it" : "them") under \(shown(id)))."
        let perShell = Set(ToolAdapters.registry.filter(\.isPerShell).map(\.tool))
        let remover = AccountRemoval(configPath: paths.config, store: store, session: switcher(config).session(store: store, source: .cli))
        let givesBack = remover.givesBack(account)
        if !options.yes {
            guard isatty(STDIN_FILENO) == 1 else {
                console.error("perch remove asks first; run it again with --yes to remove \(shown(id)) without asking")
                return ExitStatus.usage
            }
            console.write(
                "Remove \(describe(account)) from \(paths.config)? \(historyText) Its switch count and pane state go"
                    + (givesBack ? ", and as it is current, its tools go back to your own" : "") + ".\nRemove it? [y/N] ")
            guard let answer = readLine(), answer.lowercased().hasPrefix("y") else {
                console.print("Nothing changed.")
                return ExitStatus.unmet
            }
        }
        // The current account's tools are given back first, and only if the config will take
        // the removal (``AccountRemoval``, as the interface removes one).
        let removed: AccountRemoval.Removed
        do {
            removed = try remover.remove(id, givingBack: account)
        } catch {
            switch error {
            case .config(let error): return report(error)
            case .state(let error):
                console.error("cannot give back the tools of \(shown(id)): \(error); nothing was changed")
                return ExitStatus.unmet
            case .toolFailed(let result):
                if let message = result.recovered { console.error(shown(message)) }
                console.error(
                    "cannot give back the tools of \(shown(id)): \(result.failure ?? "a tool failed"); every tool was put back and nothing was removed"
                )
                for line in result.report.results where !line.summary.isEmpty && !perShell.contains(line.tool) {
                    console.note("  " + shown(line.summary))
                }
                return ExitStatus.toolFailed
            }
        }
        if let message = removed.givenBack?.recovered { console.error(shown(message)) }
        let given = removed.givenBack?.report.results.filter { !$0.summary.isEmpty && !perShell.contains($0.tool) } ?? []
        let removal = removed.removal
        console.print("Removed \(describe(account)) from \(shownPath(removal.outcome.path))" + backupNote(removal.outcome) + ".")
        switch removal.forgotten {
        case .success(let change)?:
            console.print(historyText + (change.wasCurrent ? " It was the current account: no account is current now." : ""))
        case .failure(let error)?:
            console.error("the account is removed from the config, but the state still names it: \(error)")
            return ExitStatus.unmet
        case nil: break
        }
        if !given.isEmpty {
            console.print(
                given.allSatisfy(\.succeeded) ? "Its tools are back to your own:" : "Its tools, back to your own where they could be:")
        }
        for line in given { console.print("  " + shown(line.summary)) }
        return ExitStatus.ok
    }

    // MARK: Reporting

    private func noAccount(_ id: String, _ config: LoadedConfig) -> Int32 {
        let near = Account.suggestions(for: id, in: config.accounts)
        console.error(
            "no account '\(shown(id))'"
                + (near.isEmpty ? "" : "; did you mean " + near.map { "'\(shown($0))'" }.joined(separator: " or ") + "?"))
        return ExitStatus.unmet
    }

    func backupNote(_ outcome: ConfigWriter.Outcome) -> String {
        outcome.backupPath.map { " (the previous file is \(shownPath($0)))" } ?? " (a new config)"
    }

    /// Prints why the config was not changed; the exit status: 2 for a refused or unusable
    /// config, 1 for an account that is not there or a file that cannot be written.
    private func report(_ error: ConfigWriteError) -> Int32 {
        switch error {
        case .refused(let reason):
            console.error("nothing was written: the config would not load, or would not know a key:")
            // Bug: with no config yet, the refusal named a line and column of a file never written.
            let unwritten = access(paths.config, F_OK) != 0
            for line in reason.lines {
                // Refused, so not "ignored", as the loader says of a key it would skip.
                var text = line.replacing("unknown key, ignored (a warning)", with: "unknown key")
                if unwritten, let place = try? Regex(#": line \d+, column \d+:"#), let range = text.firstRange(of: place) {
                    text.replaceSubrange(range, with: " (the new config, not written):")
                }
                console.error(text)
            }
            return ExitStatus.usage
        case .invalid(let reason):
            for line in reason.lines { console.error(line) }
            return ExitStatus.usage
        case .noAccount(let id, _):
            // A registry's account is not in the user's file: it is changed by an override there.
            if let origin = registryOrigins(of: id).first {
                console.error(
                    "\(shown(id)) comes from registry \(origin.record.name), not from your config; to change it for yourself, "
                        + "add {\"id\": \"\(shown(id))\", …} with only the fields to override to \(shownPath(paths.config)) (perch config edit; docs/registries.md)"
                )
                return ExitStatus.unmet
            }
            // In the words every command uses for an unknown account, with what it may have meant.
            guard let config = try? ConfigLoader.load(paths) else {
                console.error("\(error)")
                return ExitStatus.unmet
            }
            return noAccount(id, config)
        case .noKey, .duplicate:
            console.error("\(error)")
            return ExitStatus.unmet
        case .file, .noAccountsList:
            console.error("\(error)")
            return ExitStatus.unmet
        }
    }
}
