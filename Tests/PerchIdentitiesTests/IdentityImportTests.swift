import Foundation
import PerchDomain
import PerchInterface
import PerchStore
import Testing

@testable import PerchIdentities

@Suite("perch import from scratch files of each kind", .serialized)
struct IdentityImportTests {
    private func scratchWithEverything() throws -> ScratchHome {
        let scratch = try ScratchHome(fakes: [])
        try scratch.writeKubeconfig()
        try scratch.write("[core]\n", to: "gcloud/configurations/config_work")
        try scratch.write("[core]\n", to: "gcloud/configurations/config_side-1")
        try scratch.write(
            "[default]\nregion = eu-west-1\n\n[profile work-admin]\nregion = x\n[ profile dev ]\n[sso-session s]\n", to: ".aws/config")
        try scratch.write(
            "github.com:\n    users:\n        ada:\n        ada-work:\n    user: ada\nghe.corp:\n    user: ada-corp\n", to: "gh/hosts.yml")
        try scratch.write(
            "[user]\n\tname = Ada\n\temail = ada@home.example\n[includeIf \"gitdir:~/work/\"]\n\tpath = ~/.gitconfig-work\n",
            to: ".gitconfig")
        try scratch.write("[user]\n\temail = ada@work.example\n\tsigningKey = K1\n", to: ".gitconfig-work")
        return scratch
    }

    @Test("from scratch files of each kind, one person's identities are one account and the rest stay one per tool")
    func proposals() throws {
        let scratch = try scratchWithEverything()
        let proposals = IdentityImport.propose(scratch.environment, existing: [Account(id: "kube-dev", name: "Taken")])
        let byID = Dictionary(uniqueKeysWithValues: proposals.map { ($0.id, $0) })
        let work = try #require(byID["work"], "gcloud work, aws work-admin, gh ada-work and git ada@work.example share the word work")
        #expect(work.name == "Work")
        #expect(work.identities.gcloud == "work")
        #expect(work.identities.aws == "work-admin")
        #expect(work.identities.gh == .init(user: "ada-work"))
        #expect(work.handle == "@ada-work")
        #expect(byID["kube-dev-2"]?.identities.kube?.context == "dev", "an id already in the config is not reused")
        #expect(byID["kube-prod"]?.identities.kube?.context == "prod")
        #expect(byID["gcloud-side-1"]?.identities.gcloud == "side-1")
        #expect(Set(proposals.compactMap(\.identities.aws)) == ["default", "work-admin", "dev"])
        #expect(byID["gh-ada-corp"]?.identities.gh == .init(user: "ada-corp", host: "ghe.corp"))
        if ScratchHome.installed("git") {
            #expect(work.identities.git == .init(email: "ada@work.example", signingKey: "K1"), "from the includeIf file")
            let ada = try #require(byID["ada"], "git ada@home.example and gh ada share the word ada")
            #expect(ada.identities.git == .init(name: "Ada", email: "ada@home.example"))
            #expect(ada.identities.gh == .init(user: "ada"))
            #expect(ada.identities.tools == [.git, .gh], "in the registry's order")
        }
        #expect(Array(proposals.prefix { $0.group == nil }.map(\.id)) == (ScratchHome.installed("git") ? ["work", "ada"] : ["work"]))
        #expect(Set(proposals.map(\.id)).count == proposals.count)
    }

    @Test("ssh keys and Host blocks become ssh settings, named after the key and linked by its comment")
    func sshKeys() throws {
        let scratch = try ScratchHome(fakes: [])
        try scratch.write("ssh-ed25519 AAAAC3Nza ada@work.example\n", to: ".ssh/id_ed25519_work.pub")
        try scratch.write("private\n", to: ".ssh/id_ed25519_work")
        try scratch.write("ssh-ed25519 AAAAC3Nzb\n", to: ".ssh/id_home.pub")
        try scratch.write("private\n", to: ".ssh/id_home")
        try scratch.write("ssh-ed25519 AAAAC3Nzc lonely\n", to: ".ssh/no_private_key.pub")
        try scratch.write("private\n", to: ".ssh/deploy")
        try scratch.write(
            """
            # my hosts
            Host github-home gitlab.home.example *.home
              IdentityFile ~/.ssh/id_home
            Host=deploy.example
              IdentityFile=~/.ssh/deploy
            Match host x
              IdentityFile ~/.ssh/id_ed25519_work

            """, to: ".ssh/config")
        try scratch.write("[core]\n", to: "gcloud/configurations/config_work")
        let proposals = IdentityImport.propose(scratch.environment, existing: [])
        let byID = Dictionary(uniqueKeysWithValues: proposals.map { ($0.id, $0) })
        #expect(
            byID["work"]?.identities.ssh == .init(hosts: ["github.com"], identityFile: "~/.ssh/id_ed25519_work"),
            "a key no Host block names is for github.com; its comment's domain links it to gcloud work")
        #expect(byID["work"]?.identities.gcloud == "work")
        #expect(byID["ssh-home"]?.identities.ssh == .init(hosts: ["github-home", "gitlab.home.example"], identityFile: "~/.ssh/id_home"))
        #expect(byID["ssh-deploy"]?.identities.ssh == .init(hosts: ["deploy.example"], identityFile: "~/.ssh/deploy"))
        #expect(!proposals.contains { $0.identities.ssh?.identityFile.contains("no_private_key") == true }, "a .pub alone is no key")
        #expect(proposals.count == 3)
    }

    @Test("Host blocks are read with their keywords in any case, '=' or spaces, quotes, and Match ending a block")
    func hostBlocks() {
        let blocks = ToolReaders.sshHostBlocks(
            "Host a b\n  identityfile \"~/.ssh/my key\"\nHOST=c\n\tIdentityFile = ~/.ssh/c\nMatch all\n  IdentityFile ~/.ssh/m\n#Host d\n")
        #expect(blocks.map(\.patterns) == [["a", "b"], ["c"]])
        #expect(blocks.map(\.identityFiles) == [["~/.ssh/my key"], ["~/.ssh/c"]])
    }

    @Test("identities an account already names are not proposed again")
    func knownLeftOut() throws {
        let scratch = try scratchWithEverything()
        let existing = [Account(id: "p", name: "P", identities: ToolIdentities.make(kube: .init(context: "prod"), aws: "dev"))]
        let proposals = IdentityImport.propose(scratch.environment, existing: existing)
        #expect(!proposals.contains { $0.identities.kube?.context == "prod" || $0.identities.aws == "dev" })
        #expect(proposals.contains { $0.identities.kube?.context == "dev" })
    }

    @Test("the fragment is the accounts, one per line, that load as a config's accounts")
    func fragmentLoads() throws {
        let scratch = try scratchWithEverything()
        let proposals = IdentityImport.propose(scratch.environment, existing: [])
        let fragment = IdentityImport.fragment(proposals)
        let lines = fragment.split(separator: "\n").filter { !$0.hasPrefix("//") }
        let config = "{\"accounts\": [\n" + lines.joined(separator: "\n") + "\n]}"
        let parsed = try ConfigLoader.parse(Array(config.utf8), path: "fragment")
        #expect(parsed.accounts == proposals)
        #expect(
            fragment.hasPrefix(ScratchHome.installed("git") ? "// work: git, gcloud, gh, aws\n" : "// work: gcloud, gh, aws\n"),
            "an account of several tools first, after a line naming its tools")
        #expect(fragment.contains("// Kubernetes\n"))
    }

    @Test("nothing to import in an empty home")
    func empty() throws {
        let scratch = try ScratchHome(fakes: [])
        #expect(IdentityImport.propose(scratch.environment, existing: []).isEmpty)
    }
}

@Suite("Running a tool's program")
struct ProgramRunnerTests {
    @Test("the exit status, stdout and the last stderr line are reported; a missing program is named")
    func results() throws {
        let scratch = try ScratchHome(fakes: [])
        try scratch.install("tool", "echo out; echo first >&2; echo 'last line' >&2; exit 4\n")
        let result = ProgramRunner.run("tool", [], in: scratch.environment)
        #expect(result == .exited(status: 4, stdout: "out\n", stderr: "first\nlast line\n"))
        #expect(result.failure == "exited with status 4: last line")
        #expect(ProgramRunner.run("no-such-tool", [], in: scratch.environment) == .notFound(program: "no-such-tool"))
    }

    @Test("arguments reach the program as they are, without a shell")
    func arguments() throws {
        let scratch = try ScratchHome(fakes: [])
        try scratch.install("args", "for a in \"$@\"; do printf '[%s]' \"$a\"; done\n")
        #expect(ProgramRunner.run("args", ["a b", "$HOME", "'q'"], in: scratch.environment).output == "[a b][$HOME]['q']")
    }

    @Test("a program that leaves a child holding its output is still ended at the timeout")
    func childHoldsPipe() throws {
        let scratch = try ScratchHome(fakes: [])
        try scratch.install("forks", "sleep 30 &\necho started\nexit 0\n")
        let started = Date()
        let result = ProgramRunner.run("forks", [], in: scratch.environment, timeout: 300)
        #expect(result == .timedOut(milliseconds: 300) || result.output == "started\n")
        #expect(Date().timeIntervalSince(started) < 10)
    }
}

/// The merging of `perch import`, a pure function from candidates to proposals.
@Suite("perch import: what belongs to one person becomes one account")
struct IdentityImportMergeTests {
    private static func kube(_ name: String) -> ImportCandidate {
        ImportCandidate(idBase: "kube-" + name, name: name, group: "Kubernetes", setting: KubeAdapter.setting(.init(context: name)))
    }
    private static func gcloud(_ name: String) -> ImportCandidate {
        ImportCandidate(idBase: "gcloud-" + name, name: name, group: "gcloud", setting: GcloudAdapter.setting(name))
    }
    private static func aws(_ name: String) -> ImportCandidate {
        ImportCandidate(idBase: "aws-" + name, name: name, group: "AWS", setting: AWSAdapter.setting(name))
    }
    private static func gh(_ user: String) -> ImportCandidate {
        ImportCandidate(
            idBase: "gh-" + user, name: "\(user) on github.com", group: "GitHub", handle: "@" + user,
            setting: GitHubAdapter.setting(.init(user: user)), keys: [user])
    }
    private static func git(_ email: String, name: String? = nil) -> ImportCandidate {
        ImportCandidate(
            idBase: "git-x", name: "git", group: "git", setting: GitAdapter.setting(.init(name: name, email: email)),
            keys: [email] + (name.map { [$0] } ?? []))
    }
    private static func ssh(_ file: String, comment: String) -> ImportCandidate {
        ImportCandidate(
            idBase: "ssh-" + file, name: "ssh key " + file, group: "ssh",
            setting: SSHAdapter.setting(.init(hosts: ["github.com"], identityFile: "~/.ssh/" + file)), keys: [file, comment])
    }

    @Test("kube work-prod, gcloud work, aws work-admin, git ada@work.example, gh ada-work and an ssh key make one account work")
    func oneAccount() {
        let proposals = IdentityImport.merge(
            [
                Self.git("ada@work.example"), Self.git("ada@home.example", name: "Ada Lovelace"),
                Self.ssh("id_work", comment: "ada@work.example"),
                Self.kube("work-prod"), Self.kube("minikube"), Self.gcloud("work"), Self.gh("ada-work"), Self.aws("work-admin"),
            ], existing: [])
        #expect(proposals.count == 3)
        let work = proposals[0]
        #expect(work.id == "work")
        #expect(work.name == "Work")
        #expect(work.group == nil)
        #expect(work.handle == "@ada-work")
        #expect(work.identities.tools == [.git, .ssh, .kube, .gcloud, .gh, .aws])
        #expect(work.identities.kube?.context == "work-prod")
        #expect(work.identities.git?.email == "ada@work.example")
        #expect(proposals[1].identities.git?.email == "ada@home.example", "nothing of another tool shares its words")
        #expect(proposals[2].id == "kube-minikube")
    }

    @Test("words that name no one (default, dev, prod, admin) link nothing")
    func genericWords() {
        let proposals = IdentityImport.merge(
            [Self.kube("dev"), Self.gcloud("default"), Self.aws("default"), Self.aws("dev")], existing: [])
        #expect(proposals.map(\.id) == ["kube-dev", "gcloud-default", "aws-default", "aws-dev"])
    }

    @Test("an account holds one identity per tool: the first with fewest words joins, the others stay alone")
    func onePerTool() {
        let proposals = IdentityImport.merge(
            [Self.kube("acme-eu-staging-blue"), Self.kube("acme-prod"), Self.gcloud("acme"), Self.aws("acme-admin")], existing: [])
        #expect(proposals.map(\.id) == ["acme", "kube-acme-eu-staging-blue"])
        #expect(proposals[0].identities.kube?.context == "acme-prod")
    }

    @Test("the word most tools share goes first; a person's name then links what is left")
    func mostToolsFirst() {
        let proposals = IdentityImport.merge(
            [Self.git("ada@work.example"), Self.git("ada@home.example"), Self.kube("work-prod"), Self.gh("ada"), Self.gh("ada-work")],
            existing: [])
        #expect(proposals.map(\.id) == ["work", "ada"])
        #expect(proposals[0].identities.gh == .init(user: "ada-work"))
        #expect(proposals[1].identities.git?.email == "ada@home.example")
        #expect(proposals[1].identities.gh == .init(user: "ada"))
    }

    @Test("an email links git and an ssh key's comment; the account is named after its domain, never the address")
    func emailLinks() {
        let proposals = IdentityImport.merge(
            [Self.git("b.c@mail.corp.example"), Self.ssh("key7", comment: "b.c@mail.corp.example")], existing: [])
        #expect(proposals.count == 1)
        #expect(proposals[0].id == "corp")
        #expect(!proposals[0].name.contains("@"))
        #expect(proposals[0].identities.tools == [.git, .ssh])
    }

    @Test("a merged account's id is made unique against the config's, and the same candidates give the same proposals")
    func uniqueAndPure() {
        let candidates = [Self.gcloud("work"), Self.aws("work"), Self.kube("work")]
        let proposals = IdentityImport.merge(candidates, existing: [Account(id: "work", name: "Work")])
        #expect(proposals.map(\.id) == ["work-2"])
        #expect(IdentityImport.merge(candidates, existing: [Account(id: "work", name: "Work")]) == proposals)
    }

    @Test("git identities sharing an email are one, missing fields taken from the later ones")
    func gitSameEmail() {
        let merged = GitAdapter.mergedByEmail([
            .init(email: "ada@work.example", signingKey: "K1"), .init(name: "Ada", email: "Ada@Work.example", signingKey: "K2"),
            .init(name: "Solo"),
        ])
        #expect(merged == [.init(name: "Ada", email: "ada@work.example", signingKey: "K1"), .init(name: "Solo")])
    }

    @Test(
        "a git identity alone is named after the person or the email's name part, with its domain, never the address",
        .enabled(if: ScratchHome.installed("git"), "needs git"))
    func gitNames() throws {
        let scratch = try ScratchHome(fakes: [])
        try scratch.write("[user]\n\temail = grace@navy.example\n", to: ".gitconfig")
        let proposals = IdentityImport.propose(scratch.environment, existing: [])
        #expect(proposals.map(\.name) == ["grace (navy.example)"])
        #expect(proposals.map(\.id) == ["git-navy.example"])
    }
}
