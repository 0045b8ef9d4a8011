import Foundation
import Testing

/// Issue: kubeconfig races. kubectl locks the kubeconfig while it writes (`FILE.lock`); Perch
/// ignored the lock, and 60 `kubectl config set-context` beside 80 `perch switch` runs lost a
/// context in each of 4 runs.
@Suite("kubeconfig lock", .serialized, .currentBinary, .enabled(if: ShellEndToEndTests.installed("kubectl")))
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

    /// Rounds of the gcloud loop in ``raceWithGcloud()``. A round (a configuration made, default's
    /// project set: two gcloud runs) took 2.2 to 3 s alone on 2 busy cores, and 5 s beside the perch
    /// loop, which switches all the while (20 rounds: 100 s): 12 rounds keep the test near a minute.
    static let gcloudRounds = 12

    @Test(
        "gcloud changing its own files beside the kubectl and perch switch loops loses nothing: every configuration made is there, default's last project and other lines are kept, no file is emptied, the last switch's configuration is active",
        .enabled(if: ShellEndToEndTests.installed("gcloud"), "needs gcloud (make test-deps installs it)"))
    func raceWithGcloud() throws {
        let home = try ScopedHome(
            accounts: [
                #"{"id": "a", "name": "A", "kube": {"context": "dev"}, "gcloud": "ca"}"#,
                #"{"id": "b", "name": "B", "kube": {"context": "prod"}, "gcloud": "cb"}"#,
            ],
            contexts: ["dev", "prod"], configurations: ["default", "ca", "cb"])
        defer { home.cli.remove() }
        let configurations = home.gcloud + "/configurations"
        // Lines of default's beside the project, which gcloud rewrites at each set.
        try "[core]\naccount = default@example.org\n\n[compute]\nregion = europe-west1\n".write(
            toFile: configurations + "/config_default", atomically: true, encoding: .utf8)
        let before = ["ca", "cb"].map { FileManager.default.contents(atPath: configurations + "/config_" + $0) }
        let binary = TmuxSession.quote(TmuxSession.binary)
        let out = home.home + "/"
        let rounds = Self.gcloudRounds
        // Three loops at once, each in its own shell, each noting its start and end (date +%s.%N).
        // kubectl and gcloud try a failed command again, at most 200 and 5 times; gcloud takes no
        // lock, so each of its retries is noted. perch switches b then a until gcloud is done (at
        // least 80 times): the last switch is to a.
        let kubectl =
            "for i in $(seq 1 60); do n=0; until kubectl config set-context added-$i --cluster local --user ada >/dev/null 2>&1; do n=$((n+1)); [ $n -ge 200 ] && { echo FAIL-$i; break; }; sleep 0.02; done; done"
        let gcloud = """
            for i in $(seq 1 \(rounds)); do \
            for step in "config configurations create added-$i --no-activate" "config set --configuration=default core/project p-$i"; do \
            n=0; until gcloud $step >/dev/null 2>>\(out)gcloud.err; do n=$((n+1)); echo "retry $i: $step" >> \(out)gcloud.retries; \
            [ $n -ge 5 ] && { echo "FAIL-$i: $step"; break; }; sleep 0.1; done; done; done
            """
        let perch =
            "i=0; while [ $((i % 2)) = 1 ] || [ $i -lt 80 ] || [ ! -e \(out)gcloud.done ]; do i=$((i+1)); if [ $((i % 2)) = 0 ]; then t=a; else t=b; fi; \(binary) switch $t >/dev/null 2>&1 || echo FAIL-switch-$i; done; echo $i > \(out)perch.count"
        func timed(_ name: String, _ loop: String, then: String = "") -> String {
            "(date +%s.%N > \(out)\(name).start; \(loop); date +%s.%N > \(out)\(name).end\(then)) > \(out)\(name).out"
        }
        let all = try Spawn.run(
            [
                "bash", "-c",
                "\(timed("kubectl", kubectl)) & \(timed("gcloud", gcloud, then: "; touch \(out)gcloud.done")) & \(timed("perch", perch)); wait",
            ],
            environment: home.cli.environment)
        #expect(all.status == 0, "\(all.stderr)")
        let text = { (name: String) in (try? String(contentsOfFile: out + name, encoding: .utf8)) ?? "" }
        let seconds = { (name: String) in
            (Double(text(name + ".end").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0)
                - (Double(text(name + ".start").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0)
        }
        print(
            "gcloud: \(rounds) rounds in \(String(format: "%.1f", seconds("gcloud"))) s; perch: \(text("perch.count").trimmingCharacters(in: .whitespacesAndNewlines)) switches in \(String(format: "%.1f", seconds("perch"))) s; kubectl: 60 set-context in \(String(format: "%.1f", seconds("kubectl"))) s; retries: \(text("gcloud.retries").isEmpty ? "none" : text("gcloud.retries"))"
        )
        #expect(text("kubectl.out").isEmpty, "kubectl failed: \(text("kubectl.out"))")
        #expect(text("perch.out").isEmpty, "perch failed: \(text("perch.out"))")
        #expect(text("gcloud.out").isEmpty, "gcloud failed: \(text("gcloud.out"))\(text("gcloud.err"))")

        // gcloud's own answers: every configuration, and the last switch's active.
        let list = try Spawn.run(
            ["gcloud", "config", "configurations", "list", "--format=value(name,is_active)"], environment: home.cli.environment)
        #expect(list.status == 0, "\(list.stderr)")
        let listed = list.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        let names = listed.compactMap(\.first)
        let missing = (["default", "ca", "cb"] + (1...rounds).map { "added-\($0)" }).filter { !names.contains($0) }
        #expect(missing.isEmpty, "lost: \(missing); gcloud lists \(list.stdout)")
        let active = listed.filter { $0.last == "True" }.compactMap(\.first)
        #expect(active == ["ca"], "the last switch was to a (ca): gcloud lists \(list.stdout)")
        #expect(text("gcloud/active_config") == "ca", "active_config: \(text("gcloud/active_config"))")

        // gcloud's files: default's project is the last set, its other lines kept; ca's and cb's as
        // they were; none emptied (a configuration gcloud makes is empty until something is set in it).
        let defaults = text("gcloud/configurations/config_default").split(separator: "\n").map(String.init)
        for line in ["[core]", "account = default@example.org", "project = p-\(rounds)", "[compute]", "region = europe-west1"] {
            #expect(defaults.contains(line), "config_default lacks \(line): \(defaults)")
        }
        #expect(defaults.filter { $0.hasPrefix("project = ") }.count == 1, "\(defaults)")
        #expect(
            ["ca", "cb"].map { FileManager.default.contents(atPath: configurations + "/config_" + $0) } == before,
            "ca's and cb's configurations are as they were")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: configurations)) ?? []
        let empty = files.filter {
            !$0.hasPrefix("config_added-") && (FileManager.default.contents(atPath: configurations + "/" + $0) ?? Data()).isEmpty
        }
        #expect(empty.isEmpty, "emptied: \(empty)")
        #expect(files.count == 3 + rounds, "\(files.sorted())")

        // kubectl's, as in race(): every context, and the last switch's current.
        let contexts = try Spawn.run(["kubectl", "config", "get-contexts", "-o", "name"], environment: home.cli.environment).stdout
            .split(separator: "\n").map(String.init)
        let lost = (1...60).map { "added-\($0)" }.filter { !contexts.contains($0) }
        #expect(lost.isEmpty, "lost: \(lost)")
        #expect(contexts.contains("dev") && contexts.contains("prod"))
        let current = try Spawn.run(["kubectl", "config", "current-context"], environment: home.cli.environment).stdout
        #expect(current == "dev\n", "the last switch was to a (dev): \(current)")
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
