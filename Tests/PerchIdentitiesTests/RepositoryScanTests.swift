import PerchDomain
import PerchInterface
import PerchStore
import Testing

@testable import PerchIdentities

/// `perch import --scan`: which folders and remotes the clones found suggest, a pure choice
/// once git has been asked for each clone's remotes and email.
@Suite("perch import --scan: folders and remotes from clones")
struct RepositoryScanTests {
    static let environment = IdentityEnvironment(variables: ["HOME": "/h"], statePath: "/h/state.json")
    static let work = Account(
        id: "work", name: "Work",
        identities: ToolIdentities([GitAdapter.setting(.init(email: "ada@work.example")), GitHubAdapter.setting(.init(user: "ada-work"))]))
    static let home = Account(id: "home", name: "Home", identities: ToolIdentities([GitAdapter.setting(.init(email: "ada@home.example"))]))

    static func clone(_ path: String, _ url: String, _ email: String?) -> RepositoryScan.Repository {
        RepositoryScan.Repository(path: path, remotes: [url], email: email)
    }

    @Test(
        "a folder whose clones are all one account's is bound, the highest within the scanned folder; a clone in a mixed folder gets its remote"
    )
    func foldersAndRemotes() {
        let clones = [
            Self.clone("/h/src/work/a", "git@github.com:acme/a.git", "ada@work.example"),
            Self.clone("/h/src/work/deep/b", "https://github.com/acme/b", "ADA@work.example"),
            Self.clone("/h/src/c", "https://github.com/ada-work/c.git", nil),
            Self.clone("/h/src/d", "https://github.com/someone/d.git", "ada@home.example"),
        ]
        let result = RepositoryScan.bind(clones, under: ["/h/src"], to: [Self.work, Self.home], existing: [], in: Self.environment)
        #expect(result[0].identities.directories == ["~/src/work"])
        #expect(result[0].identities.remotes == ["github.com/ada-work/c"], "owned by gh ada-work's path")
        #expect(result[1].identities.directories.isEmpty, "~/src holds clones of both: never bound")
        #expect(result[1].identities.remotes == ["github.com/someone/d"])
    }

    @Test(
        "two clones or more of one owner, all one account's, give HOST/OWNER/*; nothing above the scanned folder or the home folder is bound"
    )
    func ownerPatternAndLimits() {
        let clones = [
            Self.clone("/h/x/a", "git@github.com:acme/a.git", "ada@work.example"),
            Self.clone("/h/y/b", "git@github.com:acme/b.git", "ada@work.example"),
            Self.clone("/h/z/c", "git@github.com:acme/c.git", "ada@home.example"),
        ]
        let result = RepositoryScan.bind(
            clones, under: ["/h/x/a", "/h/y/b", "/h/z/c"], to: [Self.work, Self.home], existing: [], in: Self.environment)
        #expect(result[0].identities.directories.isEmpty, "/h/x is above the scanned folder")
        #expect(result[0].identities.remotes == ["github.com/acme/a", "github.com/acme/b"], "acme's clones are not all work's")
        let two = RepositoryScan.bind(Array(clones.prefix(2)), under: ["/h"], to: [Self.work], existing: [], in: Self.environment)
        #expect(two[0].identities.directories == ["~/x", "~/y"], "never the home folder itself")
    }

    @Test("an account of the config gets an addition for what it gains; what it binds already is left out")
    func additions() {
        var bound = Self.work
        bound.identities.remotes = ["github.com/acme/*"]
        let clones = [
            Self.clone("/h/src/a", "git@github.com:acme/a.git", "ada@work.example"),
            Self.clone("/h/src/b", "git@github.com:other/b.git", "ada@work.example"),
        ]
        let result = RepositoryScan.bind(clones, under: ["/h/src"], to: [], existing: [bound], in: Self.environment)
        #expect(result.map(\.id) == ["work"])
        #expect(result.first?.identities.directories == ["~/src"])
        #expect(result.first?.identities.settings.isEmpty == true)
    }

    @Test(
        "the narrowest pattern of a URL is its host and path, checked against the config's rules; anything else is refused",
        arguments: [
            ("git@github.com:Acme/Site.git", "github.com/acme/site"), ("https://u@h.example:8443/a/b/c/", "h.example/a/b/c"),
            ("/srv/git/x.git", nil), ("file:///srv/x", nil), ("https://github.com/a/b*", nil), ("https://github.com/a/\u{7}b", nil),
            ("https://github.com/a/b c", nil), ("https://github.com/a/é", nil),
        ] as [(String, String?)])
    func exactPattern(_ url: String, _ pattern: String?) {
        #expect(RepositoryScan.exactPattern(url) == pattern)
    }
}
