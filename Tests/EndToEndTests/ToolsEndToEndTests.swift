import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The per-shell acme description the described-tool tests use, as a user's file (shown back
/// line by line, each with its line end).
private let acmeDescription = ToolDescriptionTexts.perShell() + "\n"

/// `perch tools` on the release binary, in a scratch HOME with a description of the user's
/// (docs/tools.md): listed, shown, used by an account, and refused once others can write it.
@Suite("perch tools, end to end", .serialized, .currentBinary)
struct ToolsEndToEndTests {
    @Test("a user's description is listed and shown; made world-writable, it is refused and tools exits 2")
    func userDescription() throws {
        var cli = try PerchCommandLine()
        defer { cli.remove() }
        cli.extraEnvironment = ["GIT_CONFIG_NOSYSTEM": "1", "NO_COLOR": "1"]
        let folder = cli.home.appendingPathComponent("config/perch/tools")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o700)
        let file = folder.appendingPathComponent("acme.json").path
        try acmeDescription.write(toFile: file, atomically: false, encoding: .utf8)
        chmod(file, 0o600)
        try cli.writeConfig(#"{"version": 1, "accounts": [{"id": "work", "name": "Work", "acme": {"home": "~/.acme-work"}}]}"#)

        let listed = try cli.run(["tools"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stderr.isEmpty)
        let acme = listed.stdout.split(separator: "\n").first { $0.hasPrefix("acme ") }.map(String.init) ?? ""
        #expect(acme.contains("Acme CLI"), "\(listed.stdout)")
        #expect(acme.contains("~/config/perch/tools/acme.json") && acme.contains("per shell") && acme.hasSuffix("ACME_HOME"), "\(acme)")
        #expect(listed.stdout.contains("Azure CLI") && listed.stdout.contains("shipped"))

        let shown = try cli.run(["tools", "show", "acme"])
        #expect(shown.status == 0)
        #expect(shown.stdout == acmeDescription)

        let json = try cli.run(["tools", "--json"])
        let tools = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let entry = try #require(tools.first { $0["name"] as? String == "acme" })
        #expect(entry["source"] as? String == "file" && entry["file"] as? String == file)

        // The account naming it gets its variable, as an absolute path.
        let env = try cli.run(["env", "work", "--shell", "bash"])
        #expect(env.status == 0, "\(env.stderr)")
        #expect(
            env.stdout.contains("export ACME_HOME=\(cli.home.path)/.acme-work")
                || env.stdout.contains("ACME_HOME='\(cli.home.path)/.acme-work'"))

        // Others may write it now: it names programs Perch runs, so it is refused.
        chmod(file, 0o666)
        let refused = try cli.run(["tools"])
        #expect(refused.status == 2)
        #expect(!refused.stdout.contains("acme") && refused.stdout.contains("Azure CLI"), "what loaded is still listed")
        #expect(
            refused.stderr.contains(
                "perch: tool description ~/config/perch/tools/acme.json: the file can be written by others (mode 666)"), "\(refused.stderr)"
        )
        // Every command that reads the config stops with it, as with a bad config.
        let list = try cli.run(["list"])
        #expect(list.status == 2)
        #expect(list.stderr.contains("acme.json"), "\(list.stderr)")
        // Refused, it is no tool this run knows; the refusal is said too, and wins the status.
        let unknown = try cli.run(["tools", "show", "acme"])
        #expect(
            unknown.status == 2 && unknown.stderr.contains("no tool 'acme'") && unknown.stderr.contains("written by others"),
            "\(unknown.stderr)")
    }
}
