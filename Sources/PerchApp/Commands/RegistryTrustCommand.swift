import Glibc
import PerchStore

/// `perch registry trust NAME`: the registry's code shown, and run from now on once agreed.
struct RegistryTrustCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "registry trust", summary: "show a registry's code (onSwitch, commands) and let it run, for this commit only",
        operands: [Operand(name: "NAME")])
    static var details: String { RegistryAddCommand.details }
    var files = FileOptions()
    var name = ""
    @Option(RegistryOption.commit) var commit: String? = nil
    mutating func bind(operands: [String]) { name = operands[0] }
    func run(_ tool: CommandLineTool) -> Int32 { tool.registryTrust(self) }
}

extension CommandLineTool {
    func registryTrust(_ options: RegistryTrustCommand) -> Int32 {
        let command = "registry trust"
        guard var index = registryIndex(command), let definitions = acceptedDefinitions(index, command: command) else {
            return ExitStatus.unmet
        }
        guard let position = index.registries.firstIndex(where: { $0.name == options.name }) else {
            console.error("registry trust: no registry \(shown(options.name)); perch registry list shows them")
            return ExitStatus.unmet
        }
        var record = index.registries[position]
        let found = definitions[record.name]!
        let code = found.codeText
        if code.isEmpty {
            console.print("Registry \(record.name) at \(record.shortCommit) holds no code: nothing to trust.")
            return ExitStatus.ok
        }
        if record.trusts(found) {
            console.print("The code of registry \(record.name) at \(record.shortCommit) is trusted already.")
            return ExitStatus.ok
        }
        console.print("Registry \(record.name) (\(shown(record.url))) at \(record.commit) asks to run, as you:")
        for line in found.codeLines { console.print("  " + shown(line)) }
        if let previous = record.trustedCommit {
            console.print("(You trusted its code at \(previous.prefix(7)); this differs.)")
        }
        if let given = options.commit {
            guard record.commit.hasPrefix(given) else {
                console.error("registry trust: \(record.name) is at \(record.commit), not \(given); nothing trusted")
                return ExitStatus.unmet
            }
        } else {
            guard isatty(STDIN_FILENO) == 1 else {
                console.error("registry trust: read the code above, then run it on a terminal, or with --commit \(record.commit)")
                return ExitStatus.unmet
            }
            console.write("Run this code, as you (tool descriptions: on every switch that names the tool)? [y/N] ")
            guard let answer = readLine(), answer.lowercased().hasPrefix("y") else {
                console.print("Nothing trusted; the code stays inert.")
                return ExitStatus.unmet
            }
        }
        record.trustedCode = code
        record.trustedCommit = record.commit
        let read = index
        index.registries[position] = record
        guard commitRegistries(index, definitions, replacing: read, command: "registry trust", failure: "nothing trusted") else {
            return ExitStatus.unmet
        }
        console.print("Trusted the code of registry \(record.name) at \(record.shortCommit); a commit that changes it needs trust again.")
        return ExitStatus.ok
    }
}
