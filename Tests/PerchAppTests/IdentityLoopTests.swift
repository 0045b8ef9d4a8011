import Foundation
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchInterfaceTesting
import PerchKit
import PerchStore
import PerchTestSupport
import Synchronization
import Testing

@testable import PerchApp
@testable import PerchKitTerminal

/// The interface applies identities on its worker, before the hook, and shows them in Overview.
extension LoopSuites {
    @Suite("Tool identities through the loop", .serialized)
    struct IdentityLoopTests {
        @Test(
            "a pick applies the account's kube context on the worker, then runs its hook, which sees the context already switched; Overview shows ✓"
        )
        func applyThenHook() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("perch-identity-loop-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let kubeconfig = folder + "/kubeconfig"
            try "contexts:\n- context: {}\n  name: dev\n- context: {}\n  name: prod\ncurrent-context: dev\n".write(
                toFile: kubeconfig, atomically: true, encoding: .utf8)
            // Perch writes current-context itself; kubectl is only asked for the namespace (slowly).
            writeExecutable(
                "#!/bin/sh\nsleep 0.2\n[ \"$2\" = use-context ] && sed -i \"s/^current-context:.*/current-context: $3/\" \"$KUBECONFIG\"\nexit 0\n",
                to: folder + "/bin/kubectl")
            let marker = folder + "/hook-saw"
            let accounts = [
                Account(id: "a", name: "Alpha"),
                Account(
                    id: "b", name: "Beta", onSwitch: "grep current-context '\(kubeconfig)' > '\(marker)'",
                    identities: ToolIdentities([KubeAdapter.setting(.init(context: "prod"))])),
            ]
            let environment = IdentityEnvironment(
                variables: ["HOME": folder, "PATH": folder + "/bin:/usr/bin:/bin", "KUBECONFIG": kubeconfig],
                statePath: folder + "/state.json")
            var ends: [Int32] = [0, 0]
            _ = pipe(&ends)
            let backend = RecordingBackend(size: Size(width: 80, height: 24), inputDescriptor: ends[0])
            let loop = PerchRunner(
                app: TabApp.perch(accounts: accounts, size: backend.size), backend: backend,
                store: StateStore(path: folder + "/state.json"),
                gestures: .init(), identities: IdentitySwitcher(environment: environment))
            let status = Mutex<Int32?>(nil)
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) let running = loop
            Thread {
                let result = running.run()
                status.withLock { $0 = result }
                done.signal()
            }.start()
            let keys = Array("a\u{1B}[B\r".utf8)
            _ = keys.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
            #expect(waitUntil { backend.frames.last?.text.contains("✓ kube  prod") == true }, "applied, checked, shown")
            #expect(
                waitUntil { (try? String(contentsOfFile: marker, encoding: .utf8)) == "current-context: prod\n" },
                "the hook ran after kubectl")
            let last = IdentitySwitcher(environment: environment).lastReport()
            #expect(last?.report.results == [IdentityResult(tool: .kube, status: .applied, detail: "prod")], "recorded with the switch")
            _ = Array("q".utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
            #expect(done.wait(timeout: .now() + 10) == .success)
            #expect(status.withLock { $0 } == 0)
        }
    }
}
