import Glibc
import PerchDomain
import PerchInterface
import PerchStore

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
}
