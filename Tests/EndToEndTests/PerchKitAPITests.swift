import Foundation
import Testing

/// PerchKit's public API against the baseline committed in api/ (one file per module, written by
/// `make api-baseline`), compared by scripts/perchkit-api.sh with the toolchain's
/// swift-api-digester: a public declaration removed or changed fails with the digester's errors,
/// one added passes. `make test` names the debug build's module folder in `PERCHKIT_MODULES`;
/// without it the suite is reported as skipped.
@Suite("PerchKit's public API", .serialized)
struct PerchKitAPITests {
    /// The repository's root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .path
    static let script = root + "/scripts/perchkit-api.sh"

    /// The folder of the build's compiled modules: `$PERCHKIT_MODULES`, or nil.
    static let modules: String? = {
        guard let path = ProcessInfo.processInfo.environment["PERCHKIT_MODULES"], !path.isEmpty else { return nil }
        return path
    }()

    /// Why the suite cannot run here, or nil.
    static let missing: String? = {
        guard let modules else { return "PERCHKIT_MODULES names no module folder (make test names the debug build's)" }
        for module in ["TerminalText", "PerchKit", "PerchKitTerminal", "PerchKitLoop"] {
            let path = modules + "/" + module + ".swiftmodule"
            if !FileManager.default.fileExists(atPath: path) {
                return "\(path) does not exist (swift build --target PerchKitLoop builds it)"
            }
        }
        let tools = try? Spawn.run(["sh", "-c", "test -x \"$(dirname \"$(readlink -f \"$(command -v swift)\")\")/swift-api-digester\""])
        return tools?.status == 0 ? nil : "no swift-api-digester beside the swift on PATH"
    }()

    @Test(
        "TerminalText, PerchKit, PerchKitTerminal and PerchKitLoop keep every public declaration of their baseline in api/",
        .enabled(if: missing == nil, "\(missing ?? "")"))
    func publicAPIKeepsTheBaseline() throws {
        let modules = try #require(Self.modules)
        let check = try Spawn.run([Self.script, "check", modules, Self.root + "/api"])
        #expect(check.status == 0, "\(check.stderr)\(check.stdout)")
    }

    /// The check itself, so that it cannot pass by comparing nothing: a baseline given one
    /// declaration more than the module has (`Sheet.withdrawn(_:)`, a copy of `Sheet.layout(_:)`
    /// renamed) is a declaration removed.
    @Test(
        "A baseline naming a public method the module lacks fails the check with the digester's error naming it",
        .enabled(if: missing == nil, "\(missing ?? "")"))
    func removedDeclarationFails() throws {
        let modules = try #require(Self.modules)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("perchkit-api-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        for module in ["TerminalText", "PerchKit", "PerchKitTerminal", "PerchKitLoop"] {
            let baseline = try Data(contentsOf: URL(fileURLWithPath: Self.root + "/api/" + module + ".json"))
            try baseline.write(to: URL(fileURLWithPath: scratch + "/" + module + ".json"))
        }
        let edit = """
            import copy, json, sys
            path = sys.argv[1]
            with open(path) as file:
                baseline = json.load(file)
            sheet = next(d for d in baseline["ABIRoot"]["children"] if d.get("kind") == "TypeDecl" and d.get("name") == "Sheet")
            withdrawn = copy.deepcopy(next(d for d in sheet["children"] if d.get("name") == "layout"))
            withdrawn["name"], withdrawn["printedName"] = "withdrawn", "withdrawn(_:)"
            for key in ("usr", "mangledName"):
                withdrawn[key] = withdrawn[key].replace("6layout", "9withdrawn")
            sheet["children"].append(withdrawn)
            with open(path, "w") as file:
                json.dump(baseline, file, indent=2)
            """
        let edited = try Spawn.run(["python3", "-c", edit, scratch + "/PerchKit.json"])
        try #require(edited.status == 0, "\(edited.stderr)")
        let check = try Spawn.run([Self.script, "check", modules, scratch])
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        #expect(check.stderr.contains("API breakage: func Sheet.withdrawn(_:) has been removed"), "\(check.stderr)")
        #expect(check.stderr.contains("PerchKit: its public API differs from \(scratch)/PerchKit.json"), "\(check.stderr)")
    }

    /// Issue 48: a component that declared messages and misspelt `receive` (`receive(_:context:)`)
    /// compiled, and its messages were never handled. Now only a component without messages has
    /// a default `receive`.
    @Test(
        "A pane with messages and a misspelt receive does not compile; spelt right, it does",
        .enabled(if: missing == nil, "\(missing ?? "")"))
    func misspeltReceiveIsACompileError() throws {
        let modules = try #require(Self.modules)
        let folder = NSTemporaryDirectory() + "perchkit-receive-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func typecheck(_ receive: String) throws -> (status: Int32, stderr: String) {
            let source = """
                import PerchKit
                struct CountPane: Pane {
                    enum Message: Sendable { case counted(Int) }
                    var title: String { "Count" }
                    var keys: KeyTable<Never> { KeyTable("Count") }
                    mutating func update(_ input: ComponentInput<Never>, _ context: Context) -> [Reaction<Message>] { [] }
                    \(receive)
                    func render(into frame: inout Frame, in area: Rect, _ context: Context) {}
                }
                """
            let file = folder + "/CountPane.swift"
            try source.write(toFile: file, atomically: true, encoding: .utf8)
            let result = try Spawn.run(["swiftc", "-typecheck", "-I", modules, file])
            return (result.status, result.stderr)
        }
        let misspelt = try typecheck("mutating func receive(_ message: Message, context: Context) -> [Reaction<Message>] { [] }")
        #expect(misspelt.status != 0, "compiled")
        #expect(misspelt.stderr.contains("does not conform to protocol"), "\(misspelt.stderr)")
        let right = try typecheck("mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>] { [] }")
        #expect(right.status == 0, "\(right.stderr)")
    }

    /// Issue 48: a layer could reply with any value, a presenter tell its layers any message and
    /// a component send the model any message: one of the wrong type compiled and was dropped at
    /// run time. Each now names its receiver's type, and a wrong value is the compiler's error.
    @Test(
        "A reply, a message to presented layers and a message to the model of the wrong type do not compile; of the right type, they do",
        .enabled(if: missing == nil, "\(missing ?? "")"),
        arguments: [
            ("reply", "return [Self.reply(\"three\"), .dismiss]", "return [Self.reply(3), .dismiss]"),
            (
                "tellPresented", "return [.tellPresented(MenuLayer.self, 3)]",
                "return [.tellPresented(MenuLayer.self, .preview([\"ready\"]))]"
            ),
            ("send", "return [.send(to: CountModel.self, \"three\")]", "return [.send(to: CountModel.self, .add(3))]"),
        ])
    func routingMistakesAreCompileErrors(_ reaction: String, _ wrong: String, _ right: String) throws {
        let modules = try #require(Self.modules)
        let folder = NSTemporaryDirectory() + "perchkit-routing-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func typecheck(_ body: String) throws -> (status: Int32, stderr: String) {
            let source = """
                import PerchKit
                struct CountModel: AppModel {
                    enum Message: Sendable { case add(Int) }
                    var total = 0
                    mutating func receive(_ message: Message, _ context: Context) -> [Reaction<Message>] { [] }
                }
                struct PickLayer: Layer {
                    typealias Reply = Int
                    var keys: KeyTable<Never> { KeyTable("Pick") }
                    mutating func update(_ input: ComponentInput<Never>, _ context: Context) -> [Reaction<Never>] {
                        \(body)
                    }
                    func render(into frame: inout Frame, in area: Rect, _ context: Context) {}
                }
                """
            let file = folder + "/PickLayer.swift"
            try source.write(toFile: file, atomically: true, encoding: .utf8)
            let result = try Spawn.run(["swiftc", "-typecheck", "-I", modules, file])
            return (result.status, result.stderr)
        }
        let mistaken = try typecheck(wrong)
        #expect(mistaken.status != 0, "\(reaction) of the wrong type compiled")
        #expect(mistaken.stderr.contains("error:") && mistaken.stderr.contains("PickLayer.swift"), "\(mistaken.stderr)")
        let correct = try typecheck(right)
        #expect(correct.status == 0, "\(reaction): \(correct.stderr)")
    }
}
