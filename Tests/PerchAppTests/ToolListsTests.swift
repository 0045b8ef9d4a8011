import PerchDomain
import PerchIdentities
import PerchInterface
import PerchStore
import Testing

@testable import PerchApp

/// A tool no build of Perch has, to show that a new adapter reaches every list of tools.
private struct DummyAdapter: PerShellToolAdapter {
    var tool: IdentityTool { IdentityTool("perchdummy") }
    var fieldPaths: [String] { ["perchdummy.handle", "perchdummy.KEY"] }
    func read(_ reader: inout ToolMemberReader) -> ToolSetting? { nil }
    func json(_ setting: ToolSetting) -> String { "{}" }
    var acceptsExpectation: Bool { true }
    var scopeCarrier: String? { "its home through PERCHDUMMY_HOME" }
    var configExample: ToolConfigExample? { ToolConfigExample(#""perchdummy": { "handle": "you" }"#) }
}

@Suite("Tool lists from the adapter registry")
struct ToolListsTests {
    // Bug: the help of `perch switch` and `perch set` listed the tools by hand and left docker out.
    @Test("the help of switch and set names every tool of the registry, docker included")
    func registryInHelp() {
        let switchHelp = Help.text(of: SwitchCommand.self)
        let setHelp = Help.text(of: SetCommand.self)
        for adapter in ToolAdapters.registry {
            #expect(switchHelp.contains(adapter.tool.rawValue), "switch lacks \(adapter.tool.rawValue)")
            for path in adapter.fieldPaths {
                #expect(setHelp.contains(path), "set lacks \(path)")
            }
        }
        // The paragraph is wrapped at 80 columns: the list is read across its line breaks.
        #expect(switchHelp.split(whereSeparator: \.isNewline).joined(separator: " ").contains("gh, aws, docker, env"))
        #expect(setHelp.contains("docker.context"))
    }

    @Test("a registered adapter appears in help, the man page, set's paths and every shell's completions")
    func dummyEverywhere() {
        let before = (Help.text(of: SwitchCommand.self), ManPage.text, Completion.script(for: .bash))
        ToolLists.$given.withValue(ToolAdapters.registry + [DummyAdapter()]) {
            // Last in the list, after the built-in and the described tools; wrapped at 80 columns.
            let switchHelp = Help.text(of: SwitchCommand.self).split(whereSeparator: \.isNewline).joined(separator: " ")
            #expect(switchHelp.contains("env, ") && switchHelp.contains(", perchdummy)"))
            // Wrapped at 86 columns: read across its line breaks.
            #expect(
                Help.text(of: SetCommand.self).split(whereSeparator: \.isNewline).joined(separator: " ").contains(
                    "perchdummy.handle, perchdummy.KEY"))
            let page = ManPage.text
            #expect(page.contains("perchdummy.handle"), "man: perch set's paths")
            #expect(page.split(whereSeparator: \.isNewline).joined(separator: " ").contains(", perchdummy)"), "man: perch switch's tools")
            #expect(ToolLists.setPaths.contains("perchdummy.handle"))
            #expect(ToolLists.settablePaths.contains("perchdummy.KEY"), "set's hint after an unknown key")
            #expect(ToolLists.setPaths.contains("perchdummy."), "a key of any name is completed up to its dot")
            #expect(ToolLists.currentFields.contains("perchdummy.handle"))
            #expect(!ToolLists.currentFields.contains("perchdummy.KEY"), "--field offers no placeholder")
            for shell in CompletionShell.allCases {
                let script = Completion.script(for: shell)
                #expect(script.contains("perchdummy.handle"), "\(shell) lacks the dummy's path")
            }
        }
        #expect(!before.0.contains("perchdummy") && !before.1.contains("perchdummy") && !before.2.contains("perchdummy"))
        #expect(!Help.text(of: SetCommand.self).contains("perchdummy"), "the dummy stays in the task that gave it")
    }

    /// Issue 48: `expect`'s tools, the man page's scopes and the starter config named the tools by
    /// hand; each now comes from an adapter's capability.
    @Test("an adapter's expectation, scope and example reach expect, set's paths, the man page's SCOPES and perch init's config")
    func dummyCapabilities() throws {
        func parse(_ text: String) throws -> ConfigLoader.Parsed { try ConfigLoader.parse(Array(text.utf8), path: "config.json") }
        let expecting = #"{"version": 1, "accounts": [{"id": "w", "name": "W", "expect": {"perchdummy": "ada"}}]}"#
        let withDummy = ToolAdapters.registry + [DummyAdapter()]
        try ToolLists.$given.withValue(withDummy) {
            try ToolConfigRegistry.$given.withValue(withDummy) {
                #expect(ToolLists.setPaths.contains("expect.perchdummy"))
                #expect(ManPage.text.contains(#"\fIperchdummy\fR: its home through \fBPERCHDUMMY_HOME\fR"#), "man: SCOPES")
                #expect(StarterConfig.text.contains(#"      // "perchdummy": { "handle": "you" },"#))
                let started = try parse(StarterConfig.text)
                #expect(started.accounts.map(\.id) == ["work", "personal", "oss"])
                let expected = try parse(expecting)
                #expect(expected.accounts.first?.identities.expect == ["perchdummy": "ada"])
            }
        }
        try ToolConfigRegistry.$given.withValue(ToolAdapters.registry) {
            #expect(throws: ConfigError.self) { try parse(expecting) }
            do {
                _ = try parse(expecting)
            } catch {
                #expect("\(error)".contains("expect.perchdummy: unknown server; expect names ssh, kube, gh, aws"), "\(error)")
            }
            // Every built-in tool's example is there, commented out but env's, and the file reads.
            let text = StarterConfig.text
            for adapter in ToolAdapters.registry { if let example = adapter.configExample { #expect(text.contains(example.member)) } }
            #expect(text.contains(#"      "env": { "TEAM": "web" }"#) && text.contains(#"      // "git": {"#))
            let read = try parse(text)
            #expect(read.accounts.first?.identities.settings.map(\.tool.rawValue) == ["env"], "env only")
        }
        #expect(!ManPage.text.contains("PERCHDUMMY"))
    }
}
