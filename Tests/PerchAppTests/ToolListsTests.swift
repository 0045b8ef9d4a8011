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
}
