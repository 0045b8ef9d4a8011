import Foundation
import Testing

/// Issue: kubeconfig races. kubectl locks the kubeconfig while it writes (`FILE.lock`); Perch
/// ignored the lock, and 60 `kubectl config set-context` beside 80 `perch switch` runs lost a
/// context in each of 4 runs.
@Suite("kubeconfig lock", .serialized, .enabled(if: ShellEndToEndTests.installed("kubectl")))
struct KubeconfigLockEndToEndTests {
    func home() throws -> ScopedHome {
        try ScopedHome(
            accounts: [
                #"{"id": "a", "name": "A", "kube": {"context": "dev"}}"#, #"{"id": "b", "name": "B", "kube": {"context": "prod"}}"#,
            ],
            contexts: ["dev", "prod"], configurations: ["default"])
    }

    @Test(
        "60 kubectl config set-context alongside 80 perch switch runs lose nothing: every context is there, and the last switch's is current"
    )
    func race() throws {
        let home = try home()
        defer { home.cli.remove() }
        let binary = TmuxSession.quote(TmuxSession.binary)
        // Two loops at once, each in its own shell; both must end within the deadline.
        // kubectl does not wait for a held lock ("config.lock: file exists"): like a script, the
        // loop tries again, at most 200 times, so that a lock held for good fails the test.
        let kubectl =
            "for i in $(seq 1 60); do n=0; until kubectl config set-context added-$i --cluster local --user ada >/dev/null 2>&1; do n=$((n+1)); [ $n -ge 200 ] && { echo FAIL-$i; break; }; sleep 0.02; done; done"
        let perch =
            "for i in $(seq 1 80); do if [ $((i % 2)) = 0 ]; then t=a; else t=b; fi; \(binary) switch $t >/dev/null 2>&1 || echo FAIL-switch-$i; done"
        let both = try Spawn.run(
            ["bash", "-c", "(\(kubectl)) > \(home.home)/kubectl.out & (\(perch)) > \(home.home)/perch.out; wait"],
            environment: home.cli.environment)
        #expect(both.status == 0, "\(both.stderr)")
        let kubectlOut = (try? String(contentsOfFile: home.home + "/kubectl.out", encoding: .utf8)) ?? ""
        let perchOut = (try? String(contentsOfFile: home.home + "/perch.out", encoding: .utf8)) ?? ""
        #expect(kubectlOut.isEmpty, "kubectl failed: \(kubectlOut)")
        #expect(perchOut.isEmpty, "perch failed: \(perchOut)")
        let contexts = try Spawn.run(["kubectl", "config", "get-contexts", "-o", "name"], environment: home.cli.environment).stdout
            .split(separator: "\n").map(String.init)
        let missing = (1...60).map { "added-\($0)" }.filter { !contexts.contains($0) }
        #expect(missing.isEmpty, "lost: \(missing)")
        #expect(contexts.contains("dev") && contexts.contains("prod"))
        let current = try Spawn.run(["kubectl", "config", "current-context"], environment: home.cli.environment).stdout
        #expect(current == "dev\n", "the 80th switch was to a (dev): \(current)")
        #expect(!FileManager.default.fileExists(atPath: home.kubeconfig + ".lock"), "no lock is left behind")
    }

    @Test("a lock left by a killed kubectl is reported with its age, and the kubeconfig is not written around it")
    func staleLock() throws {
        let home = try home()
        defer { home.cli.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: home.kubeconfig))
        FileManager.default.createFile(atPath: home.kubeconfig + ".lock", contents: nil)
        let switched = try home.cli.run(["switch", "b"])
        #expect(switched.status == 3, "\(switched.stdout)\(switched.stderr)")
        #expect(
            switched.stdout.contains("locked by \(home.kubeconfig).lock (")
                || switched.stderr.contains("locked by \(home.kubeconfig).lock ("), "\(switched.stdout)\(switched.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.kubeconfig)) == before, "not written around the lock")
        #expect(FileManager.default.fileExists(atPath: home.kubeconfig + ".lock"), "the lock is kubectl's to remove, not Perch's")
        unlink(home.kubeconfig + ".lock")
        #expect(try home.cli.run(["switch", "b"]).status == 0)
    }
}
