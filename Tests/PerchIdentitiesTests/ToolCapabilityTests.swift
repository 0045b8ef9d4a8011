import Foundation
import PerchCore
import PerchStore
import Testing

@testable import PerchIdentities

/// A tool of the test's own, known only to the registry handed to the audit: it keeps a token
/// in `~/.vault-token` and says so through its adapter's audit capability.
private struct VaultAdapter: ToolAdapter, SecretAuditing {
    var tool: IdentityTool { IdentityTool("vault") }
    func read(_ reader: inout ToolMemberReader) -> ToolSetting? { nil }
    func json(_ setting: ToolSetting) -> String { "{}" }
    func wanted(_ setting: ToolSetting?, account: Account, in context: ToolContext) -> ToolState? { nil }
    func current(in context: ToolContext) -> Result<ToolState, ToolFailure> { .success(ToolState()) }
    func apply(_ state: ToolState, in context: ToolContext) -> ToolStep { .skipped("a test's tool") }
    func describe(_ state: ToolState) -> String { "vault" }
    func check(_ setting: ToolSetting, in context: ToolContext) -> IdentityCheck {
        IdentityCheck(tool: tool, expected: "", actual: nil, matches: nil)
    }

    func auditSecrets(_ run: inout SecretAudit.Run) {
        let path = run.environment.expandingTilde("~/.vault-token")
        guard let file = run.read(path) else { return }
        run.readableByOthers(file, accounts: run.accounts.map(\.id))
    }
}

/// Issue 48: the secret audit named every tool in a list of its own, so a tool added to the
/// registry was never audited. Each tool's audit is now a capability of its adapter.
@Suite("Tool capabilities come from the registry")
struct ToolCapabilityTests {
    @Test("A tool added to the registry with the audit capability is audited; the same audit without it finds nothing there")
    func auditAsksEachAdapter() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("perch-capability-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let home = root + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try "s.vaulttoken0000".write(toFile: home + "/.vault-token", atomically: false, encoding: .utf8)
        chmod(home + "/.vault-token", 0o644)
        let environment = IdentityEnvironment(
            variables: ["HOME": home, "PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1", "XDG_CONFIG_HOME": home + "/.config"],
            statePath: home + "/.local/state/perch/state.json")
        let accounts = [Account(id: "work", name: "Work")]
        let with = SecretAudit.audit(
            accounts: accounts, environment: environment, folder: root, adapters: ToolAdapters.builtIn + [VaultAdapter()])
        #expect(with.findings.contains { $0.file.hasSuffix(".vault-token") && $0.severity == .high }, "\(with.findings)")
        let without = SecretAudit.audit(accounts: accounts, environment: environment, folder: root, adapters: ToolAdapters.builtIn)
        #expect(!without.findings.contains { $0.file.hasSuffix(".vault-token") })
        // Every built-in adapter but the per-shell env has the capability: none is audited by name.
        let auditing = ToolAdapters.builtIn.filter { $0 is any SecretAuditing }.map(\.tool.rawValue)
        #expect(auditing == ["git", "ssh", "kube", "gh", "aws", "docker"], "\(auditing)")
    }
}
