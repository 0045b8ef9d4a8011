import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchStore

/// `perch tools [show NAME]`: every tool this run knows (built in, shipped as a description, or
/// described in a file of the user's), and the text of one description (docs/tools.md).
struct ToolsCommand: PerchCommand {
    static let configuration = CommandConfiguration(
        name: "tools", summary: "list the tools Perch knows and where each comes from; show NAME prints a description",
        operands: [
            Operand(
                name: "show NAME", optional: true, completion: .values(["show"]), knows: "takes show NAME, or nothing to list the tools"),
            // Left out of the usage line, which shows it with show; completed with the described tools.
            Operand(name: "NAME", optional: true, completion: .describedTool, hidden: true),
        ], touchesFiles: false, recoversInterruptedSwitch: false)
    static let details: String =
        "Prints one line per tool this run knows: its name, its title, where it comes from\n"
        + "(built in; shipped, a description Perch carries; or the description's file), per\n"
        + "shell or global, and the variables that carry an account to one process. A tool\n"
        + "described as data is read from $XDG_CONFIG_HOME/perch/tools/NAME.json (default\n"
        + "~/.config/perch/tools); a file named for a shipped tool takes its place (see\n"
        + "docs/tools.md). --json prints [{\"name\", \"title\", \"source\", \"file\", \"program\",\n"
        + "\"perShell\", \"variables\"}, …]. show NAME prints the JSON text of NAME's\n"
        + "description, to copy to that folder and edit. Exit status 1 for an unknown or\n"
        + "built-in NAME; 2 when a description was refused or is faulty (each problem on\n"
        + "stderr, after the output)."
    /// `--json`, for the list.
    @Option(SharedOption.json) var json = false
    /// The tool `show` names; nil for the list.
    var shown: String?
    /// Whether `show` was given.
    var show = false

    mutating func bind(operands: [String]) {
        show = operands.first == "show"
        shown = operands.dropFirst().first
    }

    func validate() throws(UsageError) {
        if show, shown == nil { throw UsageError(description: "'perch tools show' needs a tool's name (perch tools lists them)") }
        if show, json { throw UsageError(description: "option --json goes with the list (perch tools --json), not with show") }
    }

    func run(_ tool: CommandLineTool) -> Int32 { tool.tools(self) }
}

/// A tool as `perch tools --json` prints it.
struct ToolJSON: Encodable, Equatable {
    /// The config key (`az`).
    var name: String
    /// Its name in prose (`Azure CLI`).
    var title: String
    /// `built in`, `shipped` or `file`.
    var source: String
    /// The description's path, for `file`; nil otherwise.
    var file: String?
    /// The program it is known by, when one is.
    var program: String?
    /// Whether a switch changes it for one process or shell only (no global state).
    var perShell: Bool
    /// The variables that carry an account to one process.
    var variables: [String]

    init(_ adapter: any ToolAdapter) {
        name = adapter.tool.rawValue
        title = adapter.title
        program = adapter.program
        perShell = adapter.isPerShell
        variables = adapter.exportedNames
        if let described = adapter as? DescribedToolAdapter {
            let shipped = described.description.origin == ShippedToolDescriptions.origin
            source = shipped ? "shipped" : "file"
            file = shipped ? nil : described.description.origin
        } else {
            source = "built in"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case name, title, source, file, program, perShell, variables
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(title, forKey: .title)
        try container.encode(source, forKey: .source)
        try container.encode(file, forKey: .file)
        try container.encode(program, forKey: .program)
        try container.encode(perShell, forKey: .perShell)
        try container.encode(variables, forKey: .variables)
    }
}

extension CommandLineTool {
    /// `perch tools`, from `adapters` (the registry) and the description `problems` found at
    /// start-up: the list (or one description's text), then each problem on stderr (exit 2).
    func tools(
        _ options: ToolsCommand, adapters: [any ToolAdapter] = ToolLists.adapters, problems: [String] = ToolAdapters.descriptionProblems
    ) -> Int32 {
        let status = options.show ? showTool(options.shown ?? "", adapters: adapters) : listTools(adapters, json: options.json)
        guard !problems.isEmpty else { return status }
        for problem in problems { console.error(problem) }
        console.error(
            "a tool description that is refused or faulty is not used; every command that reads the config stops until it is put right (docs/tools.md)"
        )
        return ExitStatus.usage
    }

    /// One line per tool: name, title, where it comes from, per shell or global, its variables;
    /// columns padded to the widest.
    private func listTools(_ adapters: [any ToolAdapter], json: Bool) -> Int32 {
        let tools = adapters.map(ToolJSON.init)
        if json { return printJSON(tools) }
        let rows = zip(adapters, tools).map { adapter, tool in
            // env carries whatever names an account gives it.
            let variables =
                adapter.tool == .env
                ? "any the account names (env.NAME)" : tool.variables.isEmpty ? "–" : tool.variables.joined(separator: " ")
            return [
                shown(tool.name), shown(tool.title), tool.file.map(shownPath) ?? tool.source, tool.perShell ? "per shell" : "global",
                variables,
            ]
        }
        var widths = [Int](repeating: 0, count: 4)
        for row in rows {
            for column in 0..<4 { widths[column] = max(widths[column], columns(row[column])) }
        }
        var text = ""
        for row in rows {
            for column in 0..<4 { text += row[column] + String(repeating: " ", count: widths[column] - columns(row[column]) + 2) }
            text += shown(row[4]) + "\n"
        }
        console.write(text)
        return ExitStatus.ok
    }

    /// The JSON text of `name`'s description: the shipped text, or the user's file as it is now
    /// (control characters other than tabs and line ends shown, as all output from a file).
    private func showTool(_ name: String, adapters: [any ToolAdapter]) -> Int32 {
        guard let adapter = adapters.first(where: { $0.tool.rawValue == name }) else {
            console.error(
                "no tool '\(name)'; the tools are " + adapters.map(\.tool.rawValue).joined(separator: ", ") + " (perch tools lists them)")
            return ExitStatus.unmet
        }
        guard let described = adapter as? DescribedToolAdapter else {
            console.error(
                "\(name) is built into Perch: it has no description to show (docs/identities.md says what it reads)")
            return ExitStatus.unmet
        }
        let origin = described.description.origin
        let text: String
        if origin == ShippedToolDescriptions.origin {
            guard let shipped = ShippedToolDescriptions.all.first(where: { $0.name == name }) else {
                console.error("the shipped description of \(name) is missing from this build")
                return ExitStatus.unmet
            }
            text = shipped.text
        } else {
            do {
                text = String(decoding: try FileSystem.read(origin, limit: 1 << 20), as: UTF8.self)
            } catch {
                console.error("\(shownPath(origin)) cannot be read: \(String(cString: strerror(error.code)))")
                return ExitStatus.unmet
            }
        }
        // Line by line (CRLF too), so a tab stays a tab and nothing else can drive the terminal.
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        if lines.last?.isEmpty == true { lines.removeLast() }
        for line in lines {
            console.print(line.split(separator: "\t", omittingEmptySubsequences: false).map { shown(String($0)) }.joined(separator: "\t"))
        }
        return ExitStatus.ok
    }
}
