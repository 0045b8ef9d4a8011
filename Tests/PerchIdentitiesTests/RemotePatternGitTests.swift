import Foundation
import PerchDomain
import PerchInterface
import PerchStore
import Testing

@testable import PerchIdentities

/// An account's remote patterns as git matches them: a real repository per remote form, the
/// global config holding exactly the rules Perch writes (``GitDirectoryRules``, git's
/// `includeIf "hasconfig:remote.*.url:…"`), and `git config --get-all user.email` there,
/// against ``RemotePattern/matches(url:)``.
@Suite("Remote patterns, as git matches them")
struct RemotePatternGitTests {
    static let patterns = [
        "github.com/acme/*", "github.com/acme/**", "github.com/**", "gitlab.example.com/team/sub/*", "host/*", "host/**",
        "GitHub.com/Acme/*",
        "github.com/acme/Site.git", "github.com/acme/site", "github.com/**/site", "github.com/*/site", "github.com/acme/si?e",
        "github.com/acme/*e", "github.com/Zoë/*",
    ]

    /// Every form of a remote git takes for `host` and `path`, and a few it does not.
    static func forms(host: String, path: String) -> [String] {
        [
            "https://\(host)/\(path)", "https://\(host)/\(path).git", "https://\(host)/\(path)/", "https://ada@\(host)/\(path)",
            "https://\(host):8443/\(path).git", "https://ada@\(host):8443/\(path)", "http://\(host)/\(path)",
            "ssh://git@\(host)/\(path).git",
            "ssh://\(host)/\(path)", "ssh://git@\(host):2222/\(path).git/", "git://\(host)/\(path)", "git@\(host):\(path).git",
            "\(host):\(path)",
            "git@\(host):\(path)/", "git@\(host):/\(path).git", "\(host):/\(path)", "git@\(host):\(path).GIT", "HTTPS://\(host)/\(path)",
            "https://\(host)//\(path)", "git+ssh://git@\(host)/\(path)", "git@\(host)::\(path)", "https://\(host)/\(path)//",
        ]
    }

    static var urls: [String] {
        let places = [
            ("github.com", "acme/site"), ("GitHub.com", "Acme/Site"), ("github.com", "acme/site2"), ("github.com", "acme/team/site"),
            ("github.com", "ada/site"), ("github.com", "acme-labs/site"), ("gitlab.example.com", "team/sub/app"),
            ("gitlab.example.com", "team/sub/deep/app"), ("host", "site"), ("host", "org/repo"), ("example.com", "acme/site"),
            ("github.com", "zoë/notes"), ("github.com", "ZOË/notes"), ("github.com", "site"),
        ]
        return places.flatMap { forms(host: $0.0, path: $0.1) }
    }

    @Test(
        "git's includeIf rules Perch writes for each remote pattern match exactly the remotes RemotePattern.matches does",
        .enabled(if: ScratchHome.installed("git")))
    func gitAgrees() throws {
        let scratch = try ScratchHome(fakes: [])
        let files = IdentityFiles(scratch.environment)
        let accounts = Self.patterns.enumerated().map { index, pattern in
            Account(
                id: "p\(index)", name: pattern,
                identities: ToolIdentities([GitAdapter.setting(.init(email: "p\(index)@perch.test"))], remotes: [pattern]))
        }
        try FileSystem.writeAtomically(Array(GitAdapter.ownText(files).utf8), to: files.gitInclude)
        try scratch.write("[user]\n\temail = own@self.example\n[include]\n\tpath = \(files.gitInclude)\n", to: ".gitconfig")
        try GitDirectoryRules.write(accounts, in: ToolContext(environment: scratch.environment))
        let repository = scratch.home + "/repo"
        try scratch.write("ref: refs/heads/main\n", to: "repo/.git/HEAD")
        try FileManager.default.createDirectory(atPath: repository + "/.git/objects", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: repository + "/.git/refs/heads", withIntermediateDirectories: true)
        var disagreements: [String] = []
        let urls = Self.urls
        for url in urls {
            try scratch.write("[remote \"origin\"]\n\turl = \(GitAdapter.quoted(url))\n", to: "repo/.git/config")
            let output = ProgramRunner.run("git", ["config", "--get-all", "user.email"], in: scratch.environment, folder: repository).output
            let emails = Set((output ?? "").split(separator: "\n").map(String.init))
            for (index, pattern) in Self.patterns.enumerated() {
                let git = emails.contains("p\(index)@perch.test")
                let perch = RemotePattern(pattern).matches(url: url)
                if git != perch {
                    disagreements.append(
                        "\(pattern) with \(url): git \(git ? "matches" : "does not"), Perch \(perch ? "does" : "does not")")
                }
            }
        }
        print("\(urls.count) remotes × \(Self.patterns.count) patterns: \(disagreements.count) disagreements")
        #expect(disagreements.count == 0, "\(disagreements.prefix(40).joined(separator: "\n"))")
    }
}
