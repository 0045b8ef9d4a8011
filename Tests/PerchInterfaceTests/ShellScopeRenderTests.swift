import PerchInterfaceTesting
import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

/// Issue 19: started in a shell with an account of its own, Overview shows it beside the
/// global one, and says what a pick changes.
@Suite("Overview in a scoped shell")
struct ShellScopeRenderTests {
    @Test("a pinned shell's account is shown under the global one, with what a pick does; a following shell shows nothing of it")
    func pinnedShell() {
        var info = RunInfo()
        info.shellScope = RunInfo.ShellScope(account: "work", kind: "pinned")
        let state = TabApp.perch(
            accounts: Account.samples, saved: SavedState(currentAccount: "personal"), size: Size(width: 80, height: 24), info: info)
        let lines = state.render().lines
        let signed = lines.firstIndex { $0.contains("● Personal") }
        let shell = lines.firstIndex { $0.contains("This shell: Work (perch use)") }
        #expect(signed != nil && shell != nil && signed! < shell!, "\(lines)")
        #expect(lines.contains { $0.contains("A pick here switches the global account; this shell keeps its own.") })
        let plain = TabApp.perch(
            accounts: Account.samples, saved: SavedState(currentAccount: "personal"), size: Size(width: 80, height: 24))
        #expect(!plain.render().lines.contains { $0.contains("This shell") })
    }
}
