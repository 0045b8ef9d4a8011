import Foundation
import PerchDomain
import PerchInterface
import PerchStore
import Testing

@testable import PerchIdentities

/// A tool of the test's own, known only to the registry handed to the audit: it keeps a token
/// in `~/.vault-token` and says so through its adapter's audit capability.
private struct VaultAdapter: ToolAdapter, SecretAuditing, SessionExpiring {
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

    var readsSessionEnd: Bool { true }
    var sessionEndSource: String { "~/.vault-token's lease" }
    func sessionEnds(_ setting: ToolSetting, in context: ToolContext, inputs: inout [String]) -> [SessionExpiry] {
        [SessionExpiry(tool: tool, what: "vault lease", ends: 4_102_444_800, renew: "vault login")]
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

    @Test("A tool added with the expiry capability has its session's end read for an account that names it")
    func expiryAsksEachAdapter() throws {
        ToolAdapters.installShipped()
        let config = try ConfigLoader.parse(
            Array(#"{"accounts": [{"id": "work", "name": "Work", "env": {"A": "1"}}]}"#.utf8), path: "c.json")
        var account = try #require(config.accounts.first)
        let environment = IdentityEnvironment(
            variables: ["HOME": "/nonexistent", "PATH": "/usr/bin:/bin"], statePath: "/nonexistent/state.json")
        let context = ToolContext(environment: environment)
        var inputs: [String] = []
        let none = SessionExpiries.read(account, tool: nil, in: context, inputs: &inputs, adapters: ToolAdapters.builtIn + [VaultAdapter()])
        #expect(none.isEmpty, "an account naming no vault: nothing read")
        var vault = try #require(account.identities[IdentityTool("env")])
        vault.tool = IdentityTool("vault")
        account.identities = ToolIdentities(account.identities.settings + [vault])
        let ends = SessionExpiries.read(account, tool: nil, in: context, inputs: &inputs, adapters: ToolAdapters.builtIn + [VaultAdapter()])
        #expect(ends.map(\.what) == ["vault lease"])
        let answer = SessionExpiries.answer(try #require(ends.first))
        #expect(answer.asked.contains("vault") || answer.asked == "vault", "\(answer)")
    }
}
