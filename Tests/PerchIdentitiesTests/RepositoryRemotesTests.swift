import Foundation
import PerchDomain
import PerchInterface
import Testing

@testable import PerchIdentities

/// A repository's remotes as ``PlaceOwner/remotes(of:home:)`` reads them from its files: each
/// of the line reader's bugs, includes and conditional includes, and configs git refuses.
@Suite("A repository's remotes, read as git reads them")
struct RepositoryRemotesTests {
    /// A scratch repository: `repo/.git` (HEAD on `main`) under a scratch home.
    struct Repository {
        let home: ScratchHome
        var folder: String { home.home + "/repo" }
        var gitDir: String { folder + "/.git" }

        init(config: String, head: String = "ref: refs/heads/main\n") throws {
            home = try ScratchHome(fakes: [])
            try home.write(head, to: "repo/.git/HEAD")
            try home.write(config, to: "repo/.git/config")
        }

        var urls: [String] { PlaceOwner.remoteURLs(of: folder, home: home.home) }
        var remotes: Result<GitRemotes, GitConfigReader.Refusal> { PlaceOwner.remotes(of: folder, home: home.home) }
    }

    // Bug: `[include] path = …` was not followed: a remote in an included file bound nothing.
    @Test("bug: an included file's remotes were not read; now relative to the including file's folder, ~/ expanded, a missing file skipped")
    func includesAreFollowed() throws {
        let repository = try Repository(
            config:
                "[include]\n\tpath = ../../common/remotes\n\tpath = ~/more\n\tpath = missing\n[remote \"origin\"]\n\turl = https://github.com/acme/site\n"
        )
        try repository.home.write(
            "[remote \"fork\"]\n\turl = git@github.com:ada/site.git\n[include]\n\tpath = nested\n", to: "common/remotes")
        try repository.home.write("[remote \"mirror\"]\n\turl = https://gitlab.example.com/acme/site\n", to: "common/nested")
        try repository.home.write("[remote \"backup\"]\n\turl = ssh://git@backup.example.com/acme/site\n", to: "more")
        #expect(
            repository.urls == [
                "git@github.com:ada/site.git", "https://gitlab.example.com/acme/site", "ssh://git@backup.example.com/acme/site",
                "https://github.com/acme/site",
            ])
    }

    // Bug: `[remote "origin"] url = x` on one line was skipped.
    @Test("bug: a variable on a section's header line was skipped")
    func variableOnHeaderLine() throws {
        let repository = try Repository(config: "[remote \"origin\"] url = git@github.com:acme/site.git\n")
        #expect(repository.urls == ["git@github.com:acme/site.git"])
    }

    // Bug: old-style `[remote.origin]` sections were not taken for remotes.
    @Test("bug: an old-style [remote.origin] section was not read (its name lowercased, as git does)")
    func oldStyleSection() throws {
        let repository = try Repository(config: "[remote.Origin]\n\turl = git@github.com:acme/site.git\n")
        #expect(repository.urls == ["git@github.com:acme/site.git"])
        #expect((try? repository.remotes.get())?.remotes.map(\.name) == ["origin"])
    }

    // Bug: `url = "a"b"c d"` was read as `a`; git joins the parts.
    @Test("bug: a value of several quoted parts was cut to its first part")
    func multiPartQuotedValue() throws {
        let repository = try Repository(config: "[remote \"origin\"]\n\turl = \"git@github.com:\"acme/\"site.git\" # the site\n")
        #expect(repository.urls == ["git@github.com:acme/site.git"])
    }

    // Bug: a `\` at a line's end did not join the next line.
    @Test("bug: a backslash line continuation was not joined")
    func lineContinuation() throws {
        let repository = try Repository(config: "[remote \"origin\"]\n\turl = git@github.com:\\\nacme/site.git\n")
        #expect(repository.urls == ["git@github.com:acme/site.git"])
    }

    @Test("push URLs are read apart from URLs, and the config's own rewrites with them")
    func pushURLsAndRewrites() throws {
        let repository = try Repository(
            config:
                "[url \"git@github.com:\"]\n\tpushInsteadOf = https://github.com/\n[remote \"origin\"]\n\turl = https://github.com/acme/site\n\tpushurl = git@github.com:acme/site.git\n"
        )
        let remotes = try repository.remotes.get()
        #expect(remotes.urls == ["https://github.com/acme/site"] && remotes.pushURLs == ["git@github.com:acme/site.git"])
        #expect(remotes.rewrites.pushInsteadOf == [GitURLRewrites.Rule(base: "git@github.com:", prefix: "https://github.com/")])
        #expect(remotes.remotes.first?.pushTargets(remotes.rewrites) == ["git@github.com:acme/site.git"])
    }

    @Test("includeIf gitdir: and onbranch: hold against this repository, an unknown condition never")
    func conditionalIncludes() throws {
        let repository = try Repository(
            config: """
                [includeIf "gitdir:~/repo/"]
                \tpath = ~/by-folder
                [includeIf "onbranch:main"]
                \tpath = ~/by-branch
                [includeIf "onbranch:release/*"]
                \tpath = ~/never
                [includeIf "future:x"]
                \tpath = ~/never

                """)
        try repository.home.write("[remote \"a\"]\n\turl = https://github.com/acme/by-folder\n", to: "by-folder")
        try repository.home.write("[remote \"b\"]\n\turl = https://github.com/acme/by-branch\n", to: "by-branch")
        try repository.home.write("[remote \"c\"]\n\turl = https://github.com/acme/never\n", to: "never")
        #expect(repository.urls == ["https://github.com/acme/by-folder", "https://github.com/acme/by-branch"])
    }

    @Test(
        "a config git refuses is refused, and binds nothing",
        arguments: [
            "[remote \"origin\"]\n\turl = \"unclosed\n", "[remote \"origin\"\n\turl = x\n", "[remote \"origin\"]\n\turl = a\\qb\n",
            "[include]\n\tpath\n", "[include]\n\tpath = config\n", "[remote \"origin\"]\n\turl\n",
        ])
    func refused(config: String) throws {
        let repository = try Repository(config: config)
        #expect(throws: GitConfigReader.Refusal.self) { try repository.remotes.get() }
        #expect(repository.urls == [])
    }

    @Test("an include that is a FIFO is never opened: the config is refused at once")
    func fifoInclude() throws {
        let repository = try Repository(config: "[include]\n\tpath = ~/pipe\n[remote \"origin\"]\n\turl = x\n")
        #expect(mkfifo(repository.home.home + "/pipe", 0o600) == 0)
        #expect(throws: GitConfigReader.Refusal.self) { try repository.remotes.get() }
    }
}
