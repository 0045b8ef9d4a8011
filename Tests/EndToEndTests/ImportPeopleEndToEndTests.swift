import Foundation
import PerchTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A scratch HOME with three people's identities (work at Acme, a client, Globex, and
/// personal), as the tools write them: one user.name for all, the emails in `includeIf` files
/// named after nothing, ssh keys named by role whose comments are the emails, gh users in
/// hosts.yml (a fake `gh` on PATH, as gh is not installed here), kube contexts in a scratch
/// KUBECONFIG. git is the real one.
private struct PeopleHome {
    var cli: PerchCommandLine
    var home: URL { cli.home }
    var bin: String { home.appendingPathComponent("bin").path }

    init() throws {
        cli = try PerchCommandLine()
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        writeExecutable("#!/bin/sh\nexit 0\n", to: bin + "/gh")
        try write(
            "[user]\n\tname = Ada Lovelace\n\temail = ada@lovelace.example\n[includeIf \"gitdir:~/src/one/\"]\n\tpath = ~/.config/git/a.inc\n"
                + "[includeIf \"gitdir:~/src/two/\"]\n\tpath = ~/.gitconfig-2\n", ".gitconfig")
        try write("[user]\n\temail = ada@acme.example\n", ".config/git/a.inc")
        try write("[user]\n\tname = Ada Lovelace\n\temail = ada@globex.example\n", ".gitconfig-2")
        for (file, comment) in [
            ("id_ed25519", "ada@lovelace.example"), ("id_ed25519_employer", "ada@acme.example"),
            ("id_ed25519_contract", "ada@globex.example"),
        ] {
            try write("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI\(file.count) \(comment)\n", ".ssh/\(file).pub")
            try write("-----BEGIN OPENSSH PRIVATE KEY-----\n\(file)\n", ".ssh/\(file)")
        }
        try write(
            "github.com:\n    users:\n        ada-acme:\n        adalovelace:\n    user: adalovelace\n"
                + "git.globex.example:\n    users:\n        ada:\n    user: ada\n", "gh/hosts.yml")
        try write(
            "apiVersion: v1\nkind: Config\ncontexts:\n- context: {cluster: a, user: a}\n  name: acme-prod\n"
                + "- context: {cluster: g, user: g}\n  name: globex-dev\n- context: {cluster: h, user: h}\n  name: lovelace-homelab\n"
                + "current-context: acme-prod\n", ".kube/config")
        cli.extraEnvironment = [
            "PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "KUBECONFIG": home.appendingPathComponent(".kube/config").path, "CLOUDSDK_CONFIG": home.appendingPathComponent("gcloud").path,
            "GH_CONFIG_DIR": home.appendingPathComponent("gh").path, "AWS_CONFIG_FILE": home.appendingPathComponent(".aws/config").path,
            "GIT_CONFIG_NOSYSTEM": "1", "SHELL": "/bin/sh",
        ]
    }

    func write(_ text: String, _ relative: String) throws {
        let url = home.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func run(_ arguments: String...) throws -> Spawn.Result { try cli.run(arguments) }

    /// Runs git in this HOME's environment, in `folder` (relative to HOME).
    @discardableResult
    func git(_ folder: String, _ arguments: String...) throws -> Spawn.Result {
        let path = home.appendingPathComponent(folder).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return try Spawn.run(["git", "-C", path] + arguments, environment: cli.environment)
    }

    /// `perch import --json …`'s proposals.
    func proposals(_ arguments: String...) throws -> [[String: Any]] {
        let result = try cli.run(["import", "--json"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "\(result.stdout)")
    }
}

/// The identities of `proposal` as the config writes them.
private func identities(_ proposal: [String: Any]) -> [String: Any] { proposal["identities"] as? [String: Any] ?? [:] }
private func field(_ proposal: [String: Any], _ tool: String, _ key: String) -> String? {
    (identities(proposal)[tool] as? [String: Any])?[key] as? String
}

@Suite(
    "perch import with three people's identities in one HOME", .serialized,
    .enabled(if: ShellEndToEndTests.installed("git"), "git is not installed: the git identities would be missing"), .currentBinary)
struct ImportPeopleEndToEndTests {
    @Test("three people's identities are proposed as exactly three accounts, each with the key whose comment is its email (--json)")
    func threeAccounts() throws {
        let scratch = try PeopleHome()
        defer { scratch.cli.remove() }
        let text = try scratch.run("import")
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.split(separator: "\n").filter { $0.hasPrefix("{") }.count == 3, "\(text.stdout)")
        let proposals = try scratch.proposals()
        #expect(proposals.count == 3, "\(text.stdout)")
        var keyOf: [String: String] = [:]
        for proposal in proposals {
            #expect(proposal["adds"] as? Bool == false)
            if let email = field(proposal, "git", "email") { keyOf[email] = field(proposal, "ssh", "identityFile") }
        }
        #expect(keyOf["ada@acme.example"] == "~/.ssh/id_ed25519_employer", "\(text.stdout)")
        #expect(keyOf["ada@globex.example"] == "~/.ssh/id_ed25519_contract", "\(text.stdout)")
        #expect(keyOf["ada@lovelace.example"] == "~/.ssh/id_ed25519", "\(text.stdout)")
        for proposal in proposals { #expect(identities(proposal).count == 4, "git, ssh, kube and gh each: \(proposal)") }
    }

    @Test(
        "bug: after --write, import proposed work-2 with what work names; now nothing, and an account naming only git gets the rest added")
    func addsToExisting() throws {
        let scratch = try PeopleHome()
        defer { scratch.cli.remove() }
        let original =
            "// mine\n{\"accounts\": [\n  {\"id\": \"work\", \"name\": \"Work\", \"git\": {\"email\": \"ADA@acme.example\"}}, // kept\n]}\n"
        try scratch.cli.writeConfig(original)
        let proposals = try scratch.proposals()
        #expect(proposals.count == 3, "\(proposals)")
        let work = try #require(proposals.first { $0["id"] as? String == "work" }, "\(proposals)")
        #expect(work["adds"] as? Bool == true)
        #expect(Set(identities(work).keys) == ["ssh", "kube", "gh"], "git is work's own already")
        let written = try scratch.run("import", "--write")
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stderr.contains("Added ssh, kube, gh to work"), "\(written.stderr)")
        let config = try String(contentsOfFile: scratch.cli.configPath, encoding: .utf8)
        #expect(config.hasPrefix("// mine\n") && config.contains("// kept"), "\(config)")
        #expect(config.contains("\"identityFile\": \"~/.ssh/id_ed25519_employer\""), "\(config)")
        #expect(try String(contentsOfFile: scratch.cli.configPath + ".bak", encoding: .utf8) == original)
        let again = try scratch.run("import")
        #expect(again.stdout.contains("Found no identities to import"), "nothing is proposed twice: \(again.stdout)")
    }

    @Test(
        "--scan proposes a folder whose clones are all one account's, and a remote for a clone elsewhere; a remote's text is never printed raw"
    )
    func scan() throws {
        let scratch = try PeopleHome()
        defer { scratch.cli.remove() }
        for folder in ["src/one/site", "src/one/api", "src/two/portal", "src/loose"] { try scratch.git(folder, "init", "-q") }
        try scratch.git("src/one/site", "remote", "add", "origin", "git@github.com:acme/site.git")
        try scratch.git("src/two/portal", "remote", "add", "origin", "https://git.globex.example/ada/portal")
        try scratch.git("src/loose", "remote", "add", "origin", "git@github.com:ada-acme/dotfiles.git")
        try scratch.git("src/loose", "config", "user.email", "ada@acme.example")
        try scratch.git("src/hostile", "init", "-q")
        try scratch.git("src/hostile", "remote", "add", "origin", "https://github.com/x/\u{1b}]0;owned\u{07}\u{1b}[31mred")
        let proposals = try scratch.proposals("--scan", scratch.home.appendingPathComponent("src").path)
        let acme = try #require(proposals.first { field($0, "git", "email") == "ada@acme.example" }, "\(proposals)")
        #expect(acme["directories"] as? [String] == ["~/src/one"], "\(acme)")
        #expect(acme["remotes"] as? [String] == ["github.com/ada-acme/dotfiles"], "\(acme)")
        let globex = try #require(proposals.first { field($0, "git", "email") == "ada@globex.example" })
        #expect(globex["directories"] as? [String] == ["~/src/two"], "\(globex)")
        let text = try scratch.run("import", "--scan", "~/src")
        #expect(text.status == 0, "\(text.stderr)")
        #expect(!text.stdout.contains("\u{1b}") && !text.stderr.contains("\u{1b}"), "\(text.stdout)")
        #expect(!text.stdout.contains("github.com/x/"), "a remote with controls in it makes no pattern: \(text.stdout)")
        #expect(text.stdout.contains("\"directories\": [\"~/src/one\"]"), "\(text.stdout)")
        let missing = try scratch.run("import", "--scan", "~/nowhere")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("--scan ~/nowhere: not a folder"), "\(missing.stderr)")
        let both = try scratch.run("import", "--json", "--write")
        #expect(both.status == 2, "\(both.stderr)")
    }
}
