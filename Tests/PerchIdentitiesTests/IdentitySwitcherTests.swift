import Foundation
import PerchCore
import Testing

@testable import PerchIdentities

@Suite("Applying and checking tool identities in a scratch HOME", .serialized)
struct IdentitySwitcherTests {
    @Test("kube: kubectl config use-context and set-context --namespace are run; status reads the kubeconfig; a hand change is drift")
    func kube() throws {
        let scratch = try ScratchHome()
        try scratch.writeKubeconfig(current: "dev")
        let account = Account.with("work", ToolIdentities(kube: .init(context: "prod", namespace: "web")))
        let report = scratch.switcher().apply(account)
        #expect(report.results == [IdentityResult(tool: .kube, status: .applied, detail: "prod, namespace web")])
        #expect(scratch.calls("kubectl") == ["config use-context prod", "config set-context --current --namespace web"])
        let checks = scratch.switcher().check(account)
        #expect(checks.map(\.matches) == [true])
        // By hand, as someone would with kubectl or kubectx.
        try scratch.writeKubeconfig(current: "dev")
        let drifted = scratch.switcher().check(account)
        #expect(drifted.first?.matches == false)
        #expect(drifted.first?.actual == "dev, namespace web")
        #expect(IdentitySwitcher.hasDrift(drifted))
    }

    @Test("kube: a context kubectl does not know fails with kubectl's own reason")
    func kubeFailure() throws {
        let scratch = try ScratchHome()
        try scratch.writeKubeconfig()
        let report = scratch.switcher().apply(.with("x", ToolIdentities(kube: .init(context: "nope"))))
        #expect(report.results.first?.status == .failed)
        #expect(report.results.first?.detail == #"exited with status 1: error: no context exists with the name: "nope""#)
    }

    @Test("a program that is not installed is a skip, not a failure")
    func notInstalled() throws {
        let scratch = try ScratchHome(fakes: [], systemPath: false)
        let account = Account.with("w", ToolIdentities(kube: .init(context: "prod"), gcloud: "work", gh: .init(user: "ada")))
        let report = scratch.switcher().apply(account)
        #expect(report.results.map(\.status) == [.skipped, .skipped, .skipped])
        #expect(report.results.map(\.detail) == ["kubectl not found", "gcloud not found", "gh not found"])
        #expect(report.failures.isEmpty)
    }

    @Test("a tool that runs past its timeout is killed and reported as failed")
    func timeout() throws {
        let scratch = try ScratchHome(fakes: [])
        try scratch.install("kubectl", "sleep 30\n")
        let started = Date()
        let report = scratch.switcher(timeout: 300).apply(.with("w", ToolIdentities(kube: .init(context: "prod"))))
        #expect(report.results.first == IdentityResult(tool: .kube, status: .failed, detail: "timed out after 300 ms and was killed"))
        #expect(Date().timeIntervalSince(started) < 10, "killed, not waited for")
    }

    @Test("gcloud: configurations activate is run; the active configuration is read from active_config")
    func gcloud() throws {
        let scratch = try ScratchHome()
        try scratch.write("[core]\naccount = ada@work\n", to: "gcloud/configurations/config_work")
        let account = Account.with("w", ToolIdentities(gcloud: "work"))
        #expect(scratch.switcher().check(account).first?.actual == "default", "gcloud's own default with no active_config")
        #expect(scratch.switcher().apply(account).results.first?.status == .applied)
        #expect(scratch.calls("gcloud") == ["config configurations activate work --quiet"])
        #expect(scratch.switcher().check(account).first?.matches == true)
        try scratch.write("default", to: "gcloud/active_config")
        #expect(scratch.switcher().check(account).first?.matches == false, "drift after a hand change")
    }

    @Test("gh: auth switch with the host and user; the active user is read from hosts.yml")
    func gh() throws {
        let scratch = try ScratchHome()
        let account = Account.with("w", ToolIdentities(gh: .init(user: "ada-work")))
        #expect(scratch.switcher().apply(account).results.first?.status == .applied)
        #expect(scratch.calls("gh") == ["auth switch --hostname github.com --user ada-work"])
        #expect(scratch.switcher().check(account).first?.matches == true)
        try scratch.write("github.com:\n    users:\n        ada-work:\n        other:\n    user: other\n", to: "gh/hosts.yml")
        let check = scratch.switcher().check(account).first
        #expect(check?.matches == false)
        #expect(check?.actual == "other on github.com")
    }

    @Test(
        "git: Perch's include file is written; after perch setup git, git config user.email in HOME prints the account's",
        .enabled(if: ScratchHome.installed("git"), "git is not installed"))
    func git() throws {
        let scratch = try ScratchHome()
        try scratch.write("[user]\n\tname = Someone\n", to: ".gitconfig")
        let account = Account.with("w", ToolIdentities(git: .init(name: "Ada \"W\"", email: "ada@work.example")))
        let before = scratch.switcher().apply(account)
        #expect(before.results.first?.status == .skipped, "not in use before setup")
        #expect(before.results.first?.detail.contains("perch setup git") == true)
        #expect(
            IdentitySetup.run(.git, undo: false, scratch.switcher())
                == .changed("added include.path = \(scratch.switcher().files.gitInclude) to your global git config"))
        #expect(IdentitySetup.run(.git, undo: false, scratch.switcher()) != .changed(""), "once")
        #expect(scratch.read(".gitconfig")?.components(separatedBy: "include").count == 2, "one include section, added once")
        #expect(scratch.switcher().apply(account).results.first?.status == .applied)
        // What a commit outside a repository uses: the global config with its includes. (Plain
        // `git config --global KEY` does not follow includes, by git's design.)
        #expect(scratch.run("git", ["-C", scratch.home, "config", "user.email"]) == "ada@work.example")
        #expect(
            scratch.run("git", ["-C", scratch.home, "config", "user.name"]) == "Ada \"W\"",
            "Perch's include comes after the user's own [user]")
        #expect(scratch.run("git", ["config", "--global", "--includes", "user.email"]) == "ada@work.example")
        #expect(scratch.switcher().check(account).first?.matches == true)
        // git config by hand changes the user's own [user], which Perch's include overrides: no drift.
        _ = scratch.run("git", ["config", "--global", "user.email", "someone@else"])
        #expect(scratch.switcher().check(account).first?.matches == true)
        // Perch's file edited by hand: drift.
        try scratch.write("[user]\n\temail = hand@edit\n", to: ".config/perch/git/identity.gitconfig")
        let drifted = scratch.switcher().check(account).first
        #expect(drifted?.matches == false, "drift after a hand edit")
        #expect(drifted?.actual == "Someone <hand@edit>")
        #expect(scratch.read(".gitconfig")?.contains("[user]\n\tname = Someone") == true, "the user's own lines stay")
        guard case .changed = IdentitySetup.run(.git, undo: true, scratch.switcher()) else {
            Issue.record("undo did nothing")
            return
        }
        #expect(scratch.read(".gitconfig")?.contains("perch") == false)
    }

    @Test(
        "ssh: after perch setup ssh, ssh -G shows the account's identity file; --undo removes exactly the two lines",
        .enabled(if: ScratchHome.installed("ssh"), "ssh is not installed"))
    func ssh() throws {
        let scratch = try ScratchHome()
        let own = "Host old\n  User me\n"
        try scratch.write(own, to: ".ssh/config")
        let account = Account.with("w", ToolIdentities(ssh: .init(hosts: ["github.com", "gitlab.com"], identityFile: "~/.ssh/id_work")))
        #expect(scratch.switcher().apply(account).results.first?.status == .skipped)
        #expect(scratch.switcher().check(account).first?.matches == false)
        guard case .changed = IdentitySetup.run(.ssh, undo: false, scratch.switcher()) else {
            Issue.record("setup did nothing")
            return
        }
        #expect(scratch.read(".ssh/config")?.hasSuffix(own) == true)
        #expect(scratch.read(".ssh/config")?.hasPrefix("# Added by `perch setup ssh`") == true, "at the top, before any Host")
        #expect(scratch.switcher().apply(account).results.first?.status == .applied)
        let output = scratch.run("ssh", ["-F", scratch.home + "/.ssh/config", "-G", "gitlab.com"]) ?? ""
        #expect(
            ToolReaders.sshIdentityFiles(fromSSHG: output).first.map(scratch.environment.expandingTilde) == scratch.home + "/.ssh/id_work")
        #expect(scratch.switcher().check(account).first?.matches == true)
        _ = IdentitySetup.run(.ssh, undo: true, scratch.switcher())
        #expect(scratch.read(".ssh/config") == own)
    }

    @Test("a switch to an account without git empties Perch's own git file, so the previous identity does not linger")
    func ownFilesEmptied() throws {
        let scratch = try ScratchHome()
        _ = scratch.switcher().apply(.with("a", ToolIdentities(git: .init(email: "a@x"))))
        #expect(scratch.read(".config/perch/git/identity.gitconfig")?.contains("a@x") == true)
        _ = scratch.switcher().apply(.with("b", ToolIdentities()))
        #expect(scratch.read(".config/perch/git/identity.gitconfig")?.contains("a@x") == false)
    }

    @Test("the results are recorded with the time in Perch's own file, read back by status")
    func recorded() throws {
        let scratch = try ScratchHome(fakes: [], systemPath: false)
        let report = scratch.switcher().apply(.with("w", ToolIdentities(kube: .init(context: "c"), aws: "p")))
        let last = scratch.switcher().lastReport()
        #expect(last?.report == report)
        #expect(last?.time.hasSuffix("Z") == true)
        #expect(scratch.switcher().files.results == scratch.home + "/.local/state/perch/state.identities.json")
    }

    @Test("the sample accounts never start a program nor write a tool's file")
    func samplesTouchNothing() throws {
        let scratch = try ScratchHome()
        let account = Account.with(
            "s",
            ToolIdentities(
                git: .init(email: "a@b"), kube: .init(context: "prod"), gh: .init(user: "u"), env: [.init(name: "X", value: "1")]))
        let report = scratch.switcher(samplesOnly: true).apply(account)
        #expect(report.results.map(\.status) == [.skipped, .skipped, .skipped, .applied])
        #expect(scratch.calls("kubectl").isEmpty && scratch.calls("gh").isEmpty)
        #expect(scratch.read(".config/perch/git/identity.gitconfig") == nil)
        #expect(scratch.read(".gitconfig") == nil)
    }

    @Test("a dry run changes nothing, file by file, and starts no program that changes a tool")
    func dryRun() throws {
        let scratch = try ScratchHome()
        try scratch.writeKubeconfig()
        try scratch.write("[core]\n", to: "gcloud/configurations/config_work")
        let account = Account.with(
            "w",
            ToolIdentities(
                git: .init(email: "a@b"), ssh: .init(hosts: ["h"], identityFile: "~/k"), kube: .init(context: "prod", namespace: "web"),
                gcloud: "work", gh: .init(user: "u"), aws: "p", env: [.init(name: "T", value: "v")]))
        let before = scratch.snapshot()
        let plan = scratch.switcher().plan(account)
        #expect(scratch.snapshot() == before)
        #expect(!scratch.calls("kubectl").contains { $0.contains("use-context") || $0.contains("set-context") })
        #expect(scratch.calls("gcloud").isEmpty && scratch.calls("gh").isEmpty)
        #expect(plan.count == 7)
        #expect(
            plan.contains(
                "kube: kubectl config use-context prod; kubectl config set-context --current --namespace web (now: dev, namespace default)")
        )
        #expect(plan.contains("gcloud: gcloud config configurations activate work (now: default)"))
    }
}

@Suite("Real kubectl and gcloud against a scratch KUBECONFIG and CLOUDSDK_CONFIG", .serialized)
struct RealToolTests {
    @Test(
        "kubectl: use-context through the real program changes the scratch kubeconfig only",
        .enabled(if: ScratchHome.installed("kubectl"), "kubectl is not installed"))
    func realKubectl() throws {
        let scratch = try ScratchHome(fakes: [])
        try scratch.writeKubeconfig(current: "dev")
        let account = Account.with("w", ToolIdentities(kube: .init(context: "prod", namespace: "api")))
        let report = scratch.switcher(timeout: 30_000).apply(account)
        #expect(report.results.first?.status == .applied, "\(report.results)")
        #expect(scratch.run("kubectl", ["config", "current-context"]) == "prod")
        #expect(ToolReaders.kubeCurrentContext(scratch.environment) == "prod", "the file read agrees with kubectl")
        #expect(scratch.switcher(timeout: 30_000).check(account).first?.matches == true)
        _ = scratch.run("kubectl", ["config", "use-context", "dev"])
        #expect(scratch.switcher(timeout: 30_000).check(account).first?.matches == false)
    }

    @Test(
        "gcloud: configurations activate through the real program writes the scratch active_config",
        .enabled(if: ScratchHome.installed("gcloud"), "gcloud is not installed"))
    func realGcloud() throws {
        let scratch = try ScratchHome(fakes: [])
        guard scratch.run("gcloud", ["config", "configurations", "create", "work", "--no-activate", "--quiet"]) != nil else {
            Issue.record("gcloud could not create a configuration in the scratch folder")
            return
        }
        let account = Account.with("w", ToolIdentities(gcloud: "work"))
        let report = scratch.switcher(timeout: 60_000).apply(account)
        #expect(report.results.first?.status == .applied, "\(report.results)")
        #expect(scratch.read("gcloud/active_config") == "work")
        #expect(scratch.switcher().check(account).first?.matches == true)
    }
}
