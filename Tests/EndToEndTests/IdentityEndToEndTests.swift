import Foundation
import PerchTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Tool identities in the interface, in tmux: a pick applies them off the UI thread and Overview
/// shows each tool's mark; a change by hand shows as drift once checked, and `r` applies again.
@Suite(.serialized, .currentBinary)
struct IdentityEndToEndTests {
    @Test("A pick applies the kube context; Overview shows ✓, a slow kubectl freezes nothing, and r mends a change made by hand")
    func overviewMarks() throws {
        let home = try TmuxSession.makeScratchHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let bin = home.appendingPathComponent("bin").path
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let kubeconfig = home.appendingPathComponent("kubeconfig").path
        let contexts = "contexts:\n- context: {}\n  name: dev\n- context: {}\n  name: prod\n"
        try (contexts + "current-context: dev\n").write(toFile: kubeconfig, atomically: true, encoding: .utf8)
        // A slow kubectl: the interface must answer keys while it runs.
        writeExecutable(
            "#!/bin/sh\nsleep 1\n[ \"$2\" = use-context ] && sed -i \"s/^current-context:.*/current-context: $3/\" \"$KUBECONFIG\"\nexit 0\n",
            to: bin + "/kubectl")
        try TmuxSession.writeConfig(
            #"{"accounts": [{"id": "dev", "name": "Dev", "kube": {"context": "dev"}}, {"id": "prod", "name": "Prod", "kube": {"context": "prod"}}]}"#,
            home: home)
        let session = try TmuxSession.started(
            environment: ["KUBECONFIG": kubeconfig, "PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")],
            home: home)
        try session.expectAfter("a", shows: "Switch account")
        try session.send("Down")
        try session.expectAfter("Enter", shows: "Tools: applying…")
        try session.expectAfter("4", shows: "Long-press", timeout: 1)
        try session.expectAfter("1", shows: "Tools: applying…", timeout: 1)
        let applied = try session.waitUntil(timeout: 10) { lines in
            lines.contains { $0.contains("Tools (r applies them again)") } && lines.contains { $0.contains("✓ kube  prod") }
        }
        #expect(applied, "applied and checked")
        // By hand, as kubectx would.
        try (contexts + "current-context: dev\n").write(toFile: kubeconfig, atomically: true, encoding: .utf8)
        try session.expectAfter("r", shows: "Tools: applying…")
        let done = try session.waitUntil(timeout: 10) { lines in
            lines.contains { $0.contains("Tools (r applies them again)") } && lines.contains { $0.contains("✓ kube  prod") }
        }
        #expect(done, "applied again and checked")
        let after = try String(contentsOfFile: kubeconfig, encoding: .utf8)
        let shown = try session.screen().joined(separator: "\n")
        #expect(after.hasSuffix("current-context: prod\n"), "r applied it again: \(after)\n\(shown)")
        try session.expectAfter("q", shows: "EXIT=0")
    }
}
