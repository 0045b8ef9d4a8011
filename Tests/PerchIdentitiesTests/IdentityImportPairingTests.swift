import Foundation
import PerchDomain
import PerchInterface
import PerchStore
import Testing

@testable import PerchIdentities

/// `perch import` with the identities of three people (work, client, personal) in one home:
/// one user.name for all, emails in `includeIf` files named after nothing, ssh keys named by
/// role whose comments are the emails, gh users on two hosts, kube contexts.
@Suite("perch import pairs one person's identities, whatever the files are called", .serialized)
struct IdentityImportPairingTests {
    static let hasGit = ScratchHome.installed("git")

    /// The home: work (ada@acme.example), client (ada@globex.example) and personal
    /// (ada@lovelace.example), each with a git email, an ssh key, a gh user and a kube context.
    static func threePeople() throws -> ScratchHome {
        let scratch = try ScratchHome(fakes: [])
        try scratch.write(
            """
            [user]
            \tname = Ada Lovelace
            \temail = ada@lovelace.example
            [includeIf "gitdir:~/src/one/"]
            \tpath = ~/.config/git/a.inc
            [includeIf "gitdir:~/src/two/"]
            \tpath = ~/.gitconfig-2

            """, to: ".gitconfig")
        try scratch.write("[user]\n\temail = ada@acme.example\n", to: ".config/git/a.inc")
        try scratch.write("[user]\n\tname = Ada Lovelace\n\temail = ada@globex.example\n", to: ".gitconfig-2")
        // Keys named by role; their comments are the emails. The personal key is the plain id_ed25519.
        for (file, comment) in [
            ("id_ed25519", "ada@lovelace.example"), ("id_ed25519_employer", "ada@acme.example"),
            ("id_ed25519_contract", "ada@globex.example"),
        ] {
            try scratch.write("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI\(file.count) \(comment)\n", to: ".ssh/\(file).pub")
            try scratch.write("private\n", to: ".ssh/\(file)")
        }
        try scratch.write(
            """
            github.com:
                users:
                    ada-acme:
                    adalovelace:
                user: adalovelace
            git.globex.example:
                users:
                    ada:
                user: ada

            """, to: "gh/hosts.yml")
        try scratch.write(
            """
            apiVersion: v1
            kind: Config
            contexts:
            - context: {cluster: a, user: a}
              name: acme-prod
            - context: {cluster: g, user: g}
              name: globex-dev
            - context: {cluster: h, user: h}
              name: lovelace-homelab
            current-context: acme-prod

            """, to: ".kube/config")
        return scratch
    }

    /// Each proposal as the sorted identities it names (`tool summary`), for comparing groupings.
    static func grouping(_ proposals: [Account]) -> Set<[String]> {
        Set(proposals.map { $0.identities.settings.map { "\($0.tool.rawValue) \($0.summary)" }.sorted() })
    }

    @Test(
        "three people's identities make exactly three accounts, each with its own key, in every order the files are found",
        .enabled(if: hasGit, "needs git"))
    func threeAccounts() throws {
        let scratch = try Self.threePeople()
        let proposals = IdentityImport.propose(scratch.environment, existing: [])
        #expect(proposals.count == 3, "\(proposals.map(\.id))")
        let byEmail = Dictionary(
            proposals.compactMap { account in account.identities.git?.email.map { ($0, account) } }, uniquingKeysWith: { a, _ in a })
        let key = { (email: String) in byEmail[email]?.identities[.ssh]?.value(as: SSHAdapter.Setting.self)?.identityFile }
        #expect(key("ada@acme.example") == "~/.ssh/id_ed25519_employer")
        #expect(key("ada@globex.example") == "~/.ssh/id_ed25519_contract")
        #expect(key("ada@lovelace.example") == "~/.ssh/id_ed25519")
        #expect(byEmail["ada@acme.example"]?.identities.kube?.context == "acme-prod")
        #expect(byEmail["ada@acme.example"]?.identities.gh == .init(user: "ada-acme"))
        #expect(byEmail["ada@globex.example"]?.identities.kube?.context == "globex-dev")
        #expect(byEmail["ada@globex.example"]?.identities.gh == .init(user: "ada", host: "git.globex.example"))
        #expect(byEmail["ada@lovelace.example"]?.identities.kube?.context == "lovelace-homelab")
        #expect(byEmail["ada@lovelace.example"]?.identities.gh == .init(user: "adalovelace"))
        // The same grouping whatever order the tools' files give the identities in.
        let candidates = ToolAdapters.registry.flatMap { $0.importCandidates(in: ToolContext(environment: scratch.environment)) }
        let expected = Self.grouping(proposals)
        var orders = [candidates, candidates.reversed()]
        for shift in 1..<candidates.count { orders.append(Array(candidates[shift...] + candidates[..<shift])) }
        for order in orders {
            #expect(Self.grouping(IdentityImport.merge(order, existing: [])) == expected, "\(order.map(\.name))")
        }
    }

    @Test(
        "bug: a name part shared by every email paired the personal git identity with the client's key, though the personal key's comment was exactly its email"
    )
    func wholeAddressFirst() {
        func git(_ email: String) -> ImportCandidate {
            ImportCandidate(
                idBase: "git-x", name: "git", group: "git", setting: GitAdapter.setting(.init(name: "Ada Lovelace", email: email)),
                keys: [email], weakKeys: ["Ada Lovelace"])
        }
        func ssh(_ file: String, _ comment: String) -> ImportCandidate {
            ImportCandidate(
                idBase: "ssh-" + file, name: "ssh key " + file, group: "ssh",
                setting: SSHAdapter.setting(.init(hosts: ["github.com"], identityFile: "~/.ssh/" + file)), keys: [file, comment])
        }
        let gh = ImportCandidate(
            idBase: "gh-ada", name: "ada on github.com", group: "GitHub", handle: "@ada",
            setting: GitHubAdapter.setting(.init(user: "ada")),
            keys: ["ada"])
        let candidates = [
            ssh("id_client", "ada@client.example"), gh, git("ada@home.example"), ssh("id_ed25519_laptop", "ada@home.example"),
            git("ada@client.example"),
        ]
        for order in [candidates, candidates.reversed()] {
            let proposals = IdentityImport.merge(order, existing: [])
            let home = proposals.first { $0.identities.git?.email == "ada@home.example" }
            #expect(home?.identities[.ssh]?.value(as: SSHAdapter.Setting.self)?.identityFile == "~/.ssh/id_ed25519_laptop")
            let client = proposals.first { $0.identities.git?.email == "ada@client.example" }
            #expect(client?.identities[.ssh]?.value(as: SSHAdapter.Setting.self)?.identityFile == "~/.ssh/id_client")
        }
    }

    @Test(
        "bug: after the accounts exist, import proposed work-2 with identities work already names (written otherwise: email case, key's .pub, namespace, gh host)",
        .enabled(if: hasGit, "needs git"))
    func namedIdentitiesLeftOut() throws {
        let scratch = try Self.threePeople()
        let work = Account(
            id: "work", name: "Work",
            identities: ToolIdentities([
                GitAdapter.setting(.init(email: "Ada@Acme.example")),
                SSHAdapter.setting(
                    .init(hosts: ["github.com", "gitlab.com"], identityFile: scratch.home + "/.ssh/id_ed25519_employer.pub")),
                KubeAdapter.setting(.init(context: "acme-prod", namespace: "web")),
                GitHubAdapter.setting(.init(user: "ada-acme", host: "github.com")),
            ]))
        let proposals = IdentityImport.propose(scratch.environment, existing: [work])
        #expect(!proposals.contains { $0.identities.git?.email == "ada@acme.example" })
        #expect(!proposals.contains { $0.identities.kube?.context == "acme-prod" })
        #expect(!proposals.contains { $0.identities.gh?.user == "ada-acme" })
        #expect(!proposals.contains { $0.identities[.ssh]?.summary.contains("employer") == true })
        #expect(!proposals.contains { $0.id.hasPrefix("work-") || $0.id.hasPrefix("acme") }, "\(proposals.map(\.id))")
        #expect(proposals.count == 2, "the other two people: \(proposals.map(\.id))")
    }

    @Test(
        "a proposal adds to an existing account the tools it does not name yet, under the account's own id",
        .enabled(if: hasGit, "needs git"))
    func addsToExisting() throws {
        let scratch = try Self.threePeople()
        let work = Account(
            id: "work", name: "Work", handle: "@me", identities: ToolIdentities([GitAdapter.setting(.init(email: "ada@acme.example"))]))
        let proposals = IdentityImport.propose(scratch.environment, existing: [work])
        let addition = try #require(proposals.first { $0.id == "work" }, "\(proposals.map(\.id))")
        #expect(addition.identities.tools == [.ssh, .kube, .gh], "git is work's own already")
        #expect(addition.identities[.ssh]?.value(as: SSHAdapter.Setting.self)?.identityFile == "~/.ssh/id_ed25519_employer")
        #expect(addition.name == "Work")
        #expect(proposals.count == 3)
        let edits = IdentityImport.edits(adding: addition, to: work)
        #expect(edits.map(\.id) == ["work", "work", "work"])
        #expect(IdentityImport.fragment(proposals, existing: [work]).contains("// adds to work: \"ssh\": "))
    }
}
