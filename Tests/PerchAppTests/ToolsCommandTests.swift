import FoundationEssentials
import Glibc
import PerchDomain
import PerchInterface
import PerchStore
import Testing

@testable import PerchApp
@testable import PerchIdentities

/// A scratch folder (mode 0700) for one test, removed after it; nothing under the real home.
final class ToolsScratchFolder {
    let path: String

    init() {
        var template = Array("/tmp/perch-tools-test-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    deinit { _ = try? FileManager.default.removeItem(atPath: path) }

    /// Writes `text` to `name` in the folder with `mode`; its path.
    @discardableResult
    func write(_ name: String, _ text: String, mode: mode_t = 0o600) -> String {
        let file = path + "/" + name
        #expect(FileManager.default.createFile(atPath: file, contents: Data(text.utf8)))
        chmod(file, mode)
        return file
    }
}

/// `perch tools`: the list of every tool a run knows, a description's text, and the
/// descriptions' problems (docs/tools.md).
@Suite("perch tools")
struct ToolsCommandTests {
    static let acme = """
        {
          // a tool of the user's
          "version": 1,
          "tool": "acme",
          "title": "Acme CLI",
          "program": "acmectl",
          "settings": {
        \t"home": {"kind": "folder", "variable": "ACME_HOME", "required": true},
            "user": {"kind": "identity"}
          },
          "whoami": {"command": ["acmectl", "whoami"], "expect": "user"}
        }

        """

    /// The built-in tools, the shipped ones, and those of `folder`, as a run would install them.
    static func registry(folder: ToolsScratchFolder) -> (adapters: [any ToolAdapter], problems: [String]) {
        let loaded = ToolDescriptions.load(
            folder: folder.path, home: folder.path, builtIn: ToolAdapters.builtIn.map(\.tool.rawValue))
        return (ToolAdapters.builtIn + loaded.adapters.map { $0 as any ToolAdapter }, loaded.problems)
    }

    /// Runs `arguments` (after `perch`) on a captured console with `adapters` and `problems`.
    static func run(_ arguments: [String], adapters: [any ToolAdapter], problems: [String] = []) throws -> (Int32, String, String) {
        let command = try #require(try CommandLineParser.parse(arguments).command as? ToolsCommand)
        let console = Console(captured: true)
        let status = CommandLineTool(files: FileOptions(), console: console).tools(command, adapters: adapters, problems: problems)
        return (status, console.output, console.errors)
    }

    @Test(
        "tools takes nothing, --json, or show NAME",
        arguments: [
            (["tools"], false, nil, false), (["tools", "--json"], false, nil, true), (["tools", "show", "az"], true, "az", false),
            (["--json", "tools"], false, nil, true),
        ] as [([String], Bool, String?, Bool)])
    func parses(arguments: [String], show: Bool, name: String?, json: Bool) throws {
        let command = try #require(try CommandLineParser.parse(arguments).command as? ToolsCommand)
        #expect(command.show == show)
        #expect(command.shown == name)
        #expect(command.json == json)
    }

    @Test(
        "usage errors of tools",
        arguments: [
            (["tools", "show"], "'perch tools show' needs a tool's name (perch tools lists them)"),
            (["tools", "list"], "'perch tools' takes show NAME, or nothing to list the tools, not 'list'"),
            (["tools", "show", "az", "--json"], "option --json goes with the list (perch tools --json), not with show"),
            (["tools", "show", "az", "codex"], "unexpected argument 'codex'"),
            (["tools", "--limit", "3"], "option --limit does not apply to 'perch tools'"),
        ])
    func usageErrors(arguments: [String], message: String) {
        do {
            let parsed = try CommandLineParser.parse(arguments)
            Issue.record("accepted: \(parsed)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("the list gives each tool's name, title, source, per shell or global and variables, in aligned columns")
    func list() throws {
        let folder = ToolsScratchFolder()
        let file = folder.write("acme.json", Self.acme)
        let (adapters, problems) = Self.registry(folder: folder)
        #expect(problems.isEmpty, "\(problems)")
        let (status, output, errors) = try Self.run(["tools"], adapters: adapters)
        #expect(status == ExitStatus.ok)
        #expect(errors.isEmpty)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.count == adapters.count)
        #expect(lines.map { String($0.prefix { $0 != " " }) } == adapters.map(\.tool.rawValue), "registry order")
        let row = { (name: String) in lines.first { $0.hasPrefix(name + " ") } ?? "" }
        #expect(row("git").contains("built in") && row("git").contains("global"))
        #expect(row("aws").contains("AWS CLI") && row("aws").contains("per shell") && row("aws").hasSuffix("AWS_PROFILE"))
        #expect(row("docker").contains("global") && row("docker").hasSuffix("DOCKER_CONTEXT"))
        #expect(row("env").hasSuffix("any the account names (env.NAME)"))
        #expect(row("az").contains("Azure CLI") && row("az").contains("shipped") && row("az").hasSuffix("AZURE_CONFIG_DIR"))
        #expect(row("npm").hasSuffix("NPM_CONFIG_USERCONFIG"))
        let acme = row("acme")
        #expect(acme.contains("Acme CLI") && acme.contains(file) && acme.contains("per shell") && acme.hasSuffix("ACME_HOME"), "\(acme)")
        // Each column starts where the same column of every other line starts.
        for column in ["Acme CLI", "per shell"] {
            let start = try #require(acme.range(of: column)).lowerBound.utf16Offset(in: acme)
            let other = row("claude")
            let word = column == "Acme CLI" ? "Claude Code" : "per shell"
            #expect(try #require(other.range(of: word)).lowerBound.utf16Offset(in: other) == start, "\(acme)\n\(other)")
        }
    }

    @Test("--json gives every tool as an object, with the file of a user's description and null elsewhere")
    func json() throws {
        struct Tool: Decodable, Equatable {
            var name: String
            var title: String
            var source: String
            var file: String?
            var program: String?
            var perShell: Bool
            var variables: [String]
        }
        let folder = ToolsScratchFolder()
        let file = folder.write("acme.json", Self.acme)
        let (adapters, _) = Self.registry(folder: folder)
        let (status, output, _) = try Self.run(["tools", "--json"], adapters: adapters)
        #expect(status == ExitStatus.ok)
        let tools = try JSONDecoder().decode([Tool].self, from: Data(output.utf8))
        #expect(tools.map(\.name) == adapters.map(\.tool.rawValue))
        #expect(
            tools.first { $0.name == "acme" }
                == Tool(
                    name: "acme", title: "Acme CLI", source: "file", file: file, program: "acmectl", perShell: true,
                    variables: ["ACME_HOME"]))
        #expect(
            tools.first { $0.name == "az" }
                == Tool(
                    name: "az", title: "Azure CLI", source: "shipped", file: nil, program: "az", perShell: true,
                    variables: ["AZURE_CONFIG_DIR"]))
        let kube = try #require(tools.first { $0.name == "kube" })
        #expect(kube.source == "built in" && !kube.perShell && kube.title == "kubectl" && kube.file == nil)
        #expect(output.contains("\"file\" : null") || output.contains("\"file\":null"), "a missing file is null, not left out")
    }

    // A title cannot hold a control character once parsed; made by hand, it must still reach
    // the terminal harmless, in the text and in the JSON.
    @Test("control and bidirectional characters of a description are shown, never sent raw")
    func controlsEscaped() throws {
        let description = ToolDescription(
            tool: "evil", title: "Evil\u{1B}[31m\u{202E}", program: nil, documentation: nil,
            settings: [.init(key: "home", kind: .folder, variable: "EVIL_HOME", required: true, defaultValue: nil)], overrides: [],
            global: nil, whoami: nil, server: nil, secrets: [], expiry: nil, origin: "/nowhere/evil\u{7}.json")
        let adapters: [any ToolAdapter] = [DescribedToolAdapter(description)]
        let (_, text, _) = try Self.run(["tools"], adapters: adapters)
        #expect(text.contains("Evil^[[31m\\u{202E}"), "\(text)")
        #expect(text.contains("/nowhere/evil^G.json"))
        let (_, json, _) = try Self.run(["tools", "--json"], adapters: adapters)
        #expect(!json.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E || $0.value == 0x07 }, "\(json)")
        #expect(json.lowercased().contains("\\u001b[31m\\u202e"), "\(json)")
    }

    @Test("show prints a shipped description's text as it is shipped")
    func showShipped() throws {
        let folder = ToolsScratchFolder()
        let (adapters, _) = Self.registry(folder: folder)
        for (name, text) in ShippedToolDescriptions.all {
            let (status, output, errors) = try Self.run(["tools", "show", name], adapters: adapters)
            #expect(status == ExitStatus.ok)
            #expect(errors.isEmpty)
            #expect(output == text + "\n", "\(name)")
            // What it prints is a description Perch reads back as the same tool.
            let (parsed, problems) = ToolDescription.parse(Array(output.utf8), origin: ShippedToolDescriptions.origin, builtIn: [])
            #expect(problems.isEmpty && parsed?.tool == name, "\(problems)")
        }
    }

    @Test("show prints the user's file, its tabs kept and its control characters shown")
    func showUserFile() throws {
        let folder = ToolsScratchFolder()
        let text = Self.acme.replacing("a tool of the user's", with: "a tool of the user's \u{1B}]0;title\u{7}")
        folder.write("acme.json", text)
        let (adapters, problems) = Self.registry(folder: folder)
        #expect(problems.isEmpty, "a comment may hold anything: \(problems)")
        let (status, output, _) = try Self.run(["tools", "show", "acme"], adapters: adapters)
        #expect(status == ExitStatus.ok)
        #expect(output.contains("\n\t\"home\": {\"kind\": \"folder\""), "the tab is kept")
        #expect(output.contains("// a tool of the user's ^[]0;title^G\n"))
        #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        #expect(output.hasSuffix("}\n"))
    }

    // A user's file of a shipped tool's name takes its place: show prints the file.
    @Test("show of a shipped name a user's file replaces prints the file")
    func showReplaced() throws {
        let folder = ToolsScratchFolder()
        let az = ShippedToolDescriptions.all.first { $0.name == "az" }!.text.replacing("Azure CLI", with: "My Azure")
        let file = folder.write("az.json", az)
        let (adapters, problems) = Self.registry(folder: folder)
        #expect(problems.isEmpty, "\(problems)")
        let (_, output, _) = try Self.run(["tools", "show", "az"], adapters: adapters)
        #expect(output.contains("\"title\": \"My Azure\""))
        let (_, list, _) = try Self.run(["tools"], adapters: adapters)
        #expect(list.split(separator: "\n").first { $0.hasPrefix("az ") }?.contains(file) == true, "\(list)")
    }

    @Test(
        "show of an unknown or built-in tool exits 1 and says why",
        arguments: [
            (
                "nope",
                "perch: no tool 'nope'; the tools are git, ssh, kube, gcloud, gh, aws, docker, env, claude, codex, az, fly, terraform, npm"
            ),
            ("git", "perch: git is built into Perch: it has no description to show"),
        ])
    func showUnknown(name: String, message: String) throws {
        let folder = ToolsScratchFolder()
        let (adapters, _) = Self.registry(folder: folder)
        let (status, output, errors) = try Self.run(["tools", "show", name], adapters: adapters)
        #expect(status == ExitStatus.unmet)
        #expect(output.isEmpty)
        #expect(errors.hasPrefix(message), "\(errors)")
    }

    @Test("the completions offer show, then the described tools' names, the user's included", arguments: CompletionShell.allCases)
    func completions(shell: CompletionShell) throws {
        let folder = ToolsScratchFolder()
        folder.write("acme.json", Self.acme)
        let (adapters, _) = Self.registry(folder: folder)
        let names = "claude codex az fly terraform npm acme"
        let script = ToolLists.$given.withValue(adapters) { Completion.script(for: shell) }
        switch shell {
        case .bash: #expect(script.contains(#"1) COMPREPLY=($(compgen -W "\#(names)" -- "$cur"))"#))
        case .zsh: #expect(script.contains("1) compadd -- \(names) ;;"))
        case .fish: #expect(script.contains("complete -c perch -n 'test (__perch_command) = \"tools +\"' -a '\(names)'"))
        }
        #expect(script.contains("show"))
        #expect(!script.contains("git ssh kube gcloud gh aws docker env claude"), "a built-in tool has no description to show")
    }

    @Test("a refused description is listed as a problem on stderr after the tools that loaded, exit 2")
    func problems() throws {
        let folder = ToolsScratchFolder()
        folder.write("acme.json", Self.acme, mode: 0o666)
        let (adapters, problems) = Self.registry(folder: folder)
        #expect(problems.count == 1 && problems[0].contains("can be written by others"), "\(problems)")
        let (status, output, errors) = try Self.run(["tools"], adapters: adapters, problems: problems)
        #expect(status == ExitStatus.usage)
        #expect(!output.contains("acme") && output.contains("Azure CLI"), "what loaded is listed")
        let lines = errors.split(separator: "\n").map(String.init)
        #expect(lines.first == "perch: " + problems[0])
        #expect(lines.count == 2 && lines[1].contains("not used"), "\(errors)")
        let (showStatus, shown, _) = try Self.run(["tools", "show", "az"], adapters: adapters, problems: problems)
        #expect(showStatus == ExitStatus.usage && shown.contains("\"tool\": \"az\""))
    }
}
