import Foundation
import PerchCore
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

    @Test("each kind of identity is found, grouped by tool in the adapters' order, with ids derived and made unique")
    func proposals() throws {
        let scratch = try scratchWithEverything()
        let proposals = IdentityImport.propose(scratch.environment, existing: [Account(id: "kube-dev", name: "Taken")])
        let byID = Dictionary(uniqueKeysWithValues: proposals.map { ($0.id, $0) })
        #expect(byID["kube-dev-2"]?.identities.kube?.context == "dev", "an id already in the config is not reused")
        #expect(byID["kube-prod"]?.identities.kube?.context == "prod")
        #expect(byID["gcloud-work"]?.identities.gcloud == "work")
        #expect(byID["gcloud-side-1"]?.identities.gcloud == "side-1")
        #expect(Set(proposals.compactMap(\.identities.aws)) == ["default", "work-admin", "dev"])
        #expect(byID["gh-ada"]?.identities.gh == .init(user: "ada"))
        #expect(byID["gh-ada-work"]?.identities.gh == .init(user: "ada-work"))
        #expect(byID["gh-ada-corp"]?.identities.gh == .init(user: "ada-corp", host: "ghe.corp"))
        if ScratchHome.installed("git") {
            #expect(byID["git-home.example"]?.identities.git == .init(name: "Ada", email: "ada@home.example"))
            #expect(
                byID["git-work.example"]?.identities.git == .init(email: "ada@work.example", signingKey: "K1"), "from the includeIf file")
        }
        let groups = proposals.compactMap(\.group)
        #expect(
            groups
                == groups.sorted {
                    ["git", "Kubernetes", "gcloud", "GitHub", "AWS"].firstIndex(of: $0)! < ["git", "Kubernetes", "gcloud", "GitHub", "AWS"]
                        .firstIndex(of: $1)!
                })
        #expect(Set(proposals.map(\.id)).count == proposals.count)
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
        #expect(fragment.hasPrefix(ScratchHome.installed("git") ? "// git\n" : "// Kubernetes\n"), "in the adapters' order")
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
