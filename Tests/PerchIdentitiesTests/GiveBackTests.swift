import Foundation
import PerchDomain
import PerchInterface
import PerchStore
import Testing

@testable import PerchIdentities

/// One way a user's file may be written, for the give-back tests: the same lines with and
/// without a final newline, with CRLF line ends, with comments and tabs, behind a UTF-8
/// byte-order mark, and reached through a symbolic link.
struct FileVariant: Sendable, CustomTestStringConvertible {
    var name: String
    /// The file's bytes made from its lines (each ending with `\n`) and the file kind's
    /// comment start (`#`, `//`).
    var bytes: @Sendable (String, String) -> [UInt8]
    /// Whether the file is a symbolic link to a file elsewhere (which is what gets edited).
    var symlinked = false

    var testDescription: String { name }

    static let all: [FileVariant] = [
        FileVariant(name: "with a final newline") { text, _ in Array(text.utf8) },
        FileVariant(name: "without a final newline") { text, _ in Array(text.dropLast().utf8) },
        FileVariant(name: "with CRLF line ends") { text, _ in Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8) },
        FileVariant(name: "with comments, tabs and blank lines") { text, comment in
            // Tabs only inside comments: YAML refuses a tab where a token could start.
            Array("\(comment) mine:\t kept\n\n  \n\(text)\(comment) the end\t\n\n".utf8)
        },
        FileVariant(name: "with a byte-order mark") { text, _ in [0xEF, 0xBB, 0xBF] + Array(text.utf8) },
        FileVariant(name: "through a symbolic link", bytes: { text, _ in Array(text.utf8) }, symlinked: true),
    ]

    /// Writes `text` as this variant at `path` (for a link, the target goes in `elsewhere`);
    /// returns the bytes written.
    func plant(_ text: String, at path: String, elsewhere: String, comment: String = "#") throws -> [UInt8] {
        let bytes = bytes(text, comment)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if symlinked {
            try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
            let target = elsewhere + "/" + (path as NSString).lastPathComponent
            try Data(bytes).write(to: URL(fileURLWithPath: target))
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        } else {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        return bytes
    }

    /// Expects `path` to hold `bytes` again (and to be a link still, for a linked variant).
    func expectGivenBack(_ bytes: [UInt8], at path: String, _ what: String) {
        if symlinked {
            let link = try? FileManager.default.destinationOfSymbolicLink(atPath: path)
            #expect(link != nil, "\(what): still a symbolic link")
        }
        let now = FileManager.default.contents(atPath: path).map { [UInt8]($0) }
        let same = now == bytes
        #expect(
            same,
            "\(what) \(name): \(String(decoding: now ?? [], as: UTF8.self).debugDescription), was \(String(decoding: bytes, as: UTF8.self).debugDescription)"
        )
    }
}

/// Issue 33, item 2: every file Perch edits and gives back (the global git config, the ssh
/// config, the kubeconfig, gcloud's `active_config`, the accounts config) comes back byte for
/// byte after setup and undo, or a switch and `perch reset`.
@Suite("Files given back byte for byte", .serialized)
struct GiveBackTests {
    static let gitconfig = "[user]\n\tname = Me\n\temail = me@home.example\n[includeIf \"gitdir:~/work/\"]\n\tpath = ~/.gitconfig-work\n"

    @Test(
        "bug: setup git then its undo dropped the final newline of ~/.gitconfig; now it comes back byte for byte",
        arguments: FileVariant.all)
    func gitconfigGivenBack(_ variant: FileVariant) throws {
        let scratch = try ScratchHome(fakes: [])
        let path = scratch.home + "/.gitconfig"
        let before = try variant.plant(Self.gitconfig, at: path, elsewhere: scratch.root + "/dotfiles")
        guard case .changed = IdentitySetup.run(.git, undo: false, scratch.switcher()) else {
            Issue.record("setup git changed nothing")
            return
        }
        #expect(FileManager.default.contents(atPath: path).map { [UInt8]($0) } != before, "setup added its include")
        _ = try scratch.session().run(to: Account.with("work", .make(git: .init(name: "Ada", email: "ada@work.example"))))
        #expect(scratch.gitUses("user.email") == "ada@work.example", "the include works in this variant")
        #expect(IdentitySetup.run(.git, undo: true, scratch.switcher()) != .failed(""))
        variant.expectGivenBack(before, at: path, "~/.gitconfig")
    }

    @Test("git's XDG file (~/.config/git/config) is given back byte for byte after setup git and its undo", arguments: FileVariant.all)
    func xdgGitConfigGivenBack(_ variant: FileVariant) throws {
        let scratch = try ScratchHome(fakes: [])
        let path = scratch.home + "/.config/git/config"
        let before = try variant.plant(Self.gitconfig, at: path, elsewhere: scratch.root + "/dotfiles")
        #expect(IdentitySetup.run(.git, undo: false, scratch.switcher()) != .failed(""))
        #expect(!FileManager.default.fileExists(atPath: scratch.home + "/.gitconfig"), "no ~/.gitconfig made to outrank the XDG file")
        #expect(IdentitySetup.run(.git, undo: true, scratch.switcher()) != .failed(""))
        variant.expectGivenBack(before, at: path, "~/.config/git/config")
    }

    @Test("the ssh config is given back byte for byte after setup ssh and its undo", arguments: FileVariant.all)
    func sshConfigGivenBack(_ variant: FileVariant) throws {
        let scratch = try ScratchHome(fakes: [])
        let path = scratch.home + "/.ssh/config"
        let before = try variant.plant(
            "Host github.com\n\tUser git\n\tIdentityFile ~/.ssh/id_home\n", at: path, elsewhere: scratch.root + "/dotfiles")
        guard case .changed = IdentitySetup.run(.ssh, undo: false, scratch.switcher()) else {
            Issue.record("setup ssh changed nothing")
            return
        }
        #expect(IdentitySetup.sshIncluded(scratch.switcher().context))
        #expect(IdentitySetup.run(.ssh, undo: true, scratch.switcher()) != .failed(""))
        variant.expectGivenBack(before, at: path, "~/.ssh/config")
    }

    @Test("an ssh config that existed empty is given back empty, not removed")
    func emptySSHConfigKept() throws {
        let scratch = try ScratchHome(fakes: [])
        let path = scratch.home + "/.ssh/config"
        try scratch.write("", to: ".ssh/config")
        #expect(IdentitySetup.run(.ssh, undo: false, scratch.switcher()) != .failed(""))
        #expect(IdentitySetup.run(.ssh, undo: true, scratch.switcher()) != .failed(""))
        #expect(FileManager.default.contents(atPath: path) == Data())
    }

    static let kubeconfig = """
        apiVersion: v1
        kind: Config
        clusters:
        - cluster:
            server: https://127.0.0.1:1
          name: local
        contexts:
        - context:
            cluster: local
            user: ada
          name: dev
        - context:
            cluster: local
            user: ada
          name: prod
        current-context: "dev"   # mine
        users:
        - name: ada
          user: {}

        """

    @Test("the kubeconfig is given back byte for byte after a switch and perch reset", arguments: FileVariant.all)
    func kubeconfigGivenBack(_ variant: FileVariant) throws {
        let scratch = try ScratchHome(fakes: ["gh", "gcloud"] + (ScratchHome.installed("kubectl") ? [] : ["kubectl"]))
        let before = try variant.plant(Self.kubeconfig, at: scratch.kubeconfig, elsewhere: scratch.root + "/dotfiles")
        let kubeOnly = Account.with("work", .make(kube: .init(context: "prod")))
        let result = try scratch.session().run(to: kubeOnly)
        #expect(result.outcome != nil, "\(result.report.results.map(\.summary))")
        #expect(ToolReaders.kubeCurrentContext(scratch.environment) == "prod")
        let reset = try scratch.session().restoreBaselines()
        #expect(reset.report.results.map(\.status) == [.restored], "\(reset.report.results.map(\.summary))")
        variant.expectGivenBack(before, at: scratch.kubeconfig, "the kubeconfig")
    }

    @Test("a kubeconfig without current-context is given back without it after a switch and perch reset", arguments: FileVariant.all)
    func kubeconfigWithoutContextGivenBack(_ variant: FileVariant) throws {
        let scratch = try ScratchHome(fakes: ["gh", "gcloud"] + (ScratchHome.installed("kubectl") ? [] : ["kubectl"]))
        let text = Self.kubeconfig.replacingOccurrences(of: "current-context: \"dev\"   # mine\n", with: "")
        let before = try variant.plant(text, at: scratch.kubeconfig, elsewhere: scratch.root + "/dotfiles")
        let result = try scratch.session().run(to: Account.with("work", .make(kube: .init(context: "prod"))))
        #expect(result.outcome != nil, "\(result.report.results.map(\.summary))")
        _ = try scratch.session().restoreBaselines()
        variant.expectGivenBack(before, at: scratch.kubeconfig, "the kubeconfig")
    }

    @Test("gcloud's active_config is given back byte for byte after a switch and perch reset", arguments: FileVariant.all)
    func gcloudGivenBack(_ variant: FileVariant) throws {
        let scratch = try ScratchHome(fakes: ["gh", "kubectl"] + (ScratchHome.installed("gcloud") ? [] : ["gcloud"]))
        try scratch.write("[core]\naccount = ada@home\n", to: "gcloud/configurations/config_dev")
        try scratch.write("[core]\naccount = ada@work\n", to: "gcloud/configurations/config_work")
        let path = scratch.gcloudFolder + "/active_config"
        let before = try variant.plant("dev\n", at: path, elsewhere: scratch.root + "/dotfiles")
        let result = try scratch.session().run(to: Account.with("work", .make(gcloud: "work")))
        #expect(result.outcome != nil, "\(result.report.results.map(\.summary))")
        #expect(ToolReaders.gcloudActiveConfiguration(scratch.environment) == "work")
        _ = try scratch.session().restoreBaselines()
        variant.expectGivenBack(before, at: path, "active_config")
    }

    @Test("the accounts config is given back byte for byte after adding an account and removing it", arguments: FileVariant.all)
    func accountsConfigGivenBack(_ variant: FileVariant) throws {
        let scratch = try ScratchHome(fakes: [])
        let path = scratch.home + "/.config/perch/accounts.json"
        let text = "{\n\t// mine\n\t\"accounts\": [\n\t\t{\"id\": \"home\", \"name\": \"Home\"}\n\t]\n}\n"
        let before = try variant.plant(text, at: path, elsewhere: scratch.root + "/dotfiles", comment: "//")
        guard (try? ConfigWriter.append(Account(id: "new", name: "New"), to: path, samples: [])) != nil else {
            Issue.record("the account could not be added to the \(variant.name) config")
            return
        }
        #expect(FileManager.default.contents(atPath: path).map { [UInt8]($0) } != before, "the account was added")
        _ = try ConfigWriter.removeAccount("new", from: path, state: nil)
        variant.expectGivenBack(before, at: path, "accounts.json")
    }
}
