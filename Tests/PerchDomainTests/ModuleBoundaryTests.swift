import Foundation
import Testing

/// Perch's modules say what they are: the domain imports no interface and does no I/O, and the
/// store and the tool identities build on the domain alone. SwiftPM lets a target import any
/// module the build has made, declared or not (`PerchStore` once imported PerchKit this way), so
/// the imports themselves are read.
@Suite("Module boundaries")
struct ModuleBoundaryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The modules each of `module`'s files imports, with the file that imports it.
    static func imports(of module: String) throws -> [(file: String, module: String)] {
        let folder = root.appendingPathComponent("Sources/\(module)")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
        var found: [(String, String)] = []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let at = words.firstIndex(of: "import"), at + 1 < words.count else { continue }
                guard words[..<at].allSatisfy({ $0.hasPrefix("@") }) else { continue }
                found.append((file, String(words[at + 1])))
            }
        }
        return found
    }

    @Test("The domain imports nothing of PerchKit or the interface, and no I/O: only the standard library and TerminalText")
    func domainIsPure() throws {
        let imports = try Self.imports(of: "PerchDomain")
        #expect(imports.count >= 2, "the domain's imports were read: \(imports.count)")
        for (file, module) in imports {
            #expect(["Swift", "Synchronization", "TerminalText"].contains(module), "PerchDomain/\(file) imports \(module)")
        }
    }

    @Test(
        "PerchStore and PerchIdentities build on the domain: neither imports the interface or PerchKit",
        arguments: ["PerchStore", "PerchIdentities"])
    func storeAndIdentitiesOnTheDomain(_ module: String) throws {
        let imports = try Self.imports(of: module)
        #expect(imports.contains { $0.module == "PerchDomain" })
        for (file, imported) in imports {
            #expect(!imported.hasPrefix("PerchKit") && imported != "PerchInterface", "\(module)/\(file) imports \(imported)")
        }
    }

    @Test("No module re-exports another (@_exported): each file says what it uses")
    func noReExports() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
        var read = 0
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            read += 1
            #expect(!text.contains("@_exported"), "\(file) re-exports a module")
        }
        #expect(read > 100)
    }
}
