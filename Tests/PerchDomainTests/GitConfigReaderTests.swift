import PerchDomain
import Testing

/// git's config grammar as ``GitConfigReader`` reads it (git-config(1), "CONFIGURATION FILE"):
/// each case as git 2.39 reads it (checked with `git config --file F --list`).
@Suite("git config reader")
struct GitConfigReaderTests {
    /// The variables of `text` as `key=value` (`key` alone without a value), or nil when refused.
    static func read(_ text: String) -> [String]? {
        try? GitConfigReader.parse(Array(text.utf8)).get().map { entry in entry.value.map { "\(entry.key)=\($0)" } ?? entry.key }
    }

    @Test(
        "values: quotes join, escapes, comments outside quotes, spaces trimmed at the ends and each kept inside as one space",
        arguments: [
            ("[r]\nk = \"a\"b\"c d\"", "r.k=abc d"),
            ("[r]\nk = a \\\"q\\\" \\\\ \\n\\t\\b", "r.k=a \"q\" \\ \n\t\u{8}"),
            ("[r]\nk = a # c", "r.k=a"), ("[r]\nk = a;c", "r.k=a"), ("[r]\nk = \"a # b ; c\"", "r.k=a # b ; c"),
            ("[r]\nk =   a \t  b   ", "r.k=a    b"), ("[r]\nk = a\\\n  b", "r.k=a  b"), ("[r]\nk = \" a \"", "r.k= a "),
            ("[r]\nk = \"\"  x", "r.k=x"), ("[r]\nk = a\u{0B}b", "r.k=a\u{0B}b"), ("[r]\nk = a\rb", "r.k=a b"),
            ("[r]\nk = a\\", "r.k=a"), ("[r]\nk =", "r.k="),
        ])
    func values(text: String, expected: String) {
        #expect(Self.read(text) == [expected])
    }

    @Test(
        "names: section and key lowercased, a quoted subsection kept with its escapes, an old-style one lowercased",
        arguments: [
            ("[Remote \"Origin\"]\nURL = x", "remote.Origin.url=x"), ("[remote.Origin]\nUrl = x", "remote.origin.url=x"),
            ("[remote \"a\\\"b\\\\c\\d\"]\nurl = x", "remote.a\"b\\cd.url=x"), ("[remote \"o\"] url = x", "remote.o.url=x"),
            ("[remote\t\"a b\"]url=x", "remote.a b.url=x"), ("[remote]\nurl = x", "remote.url=x"), ("[a.B.c]\nk-2 = x", "a.b.c.k-2=x"),
            ("[r]\nflag", "r.flag"), ("[r]\nflag \t", "r.flag"), ("url = x", "url=x"),
        ])
    func names(text: String, expected: String) {
        #expect(Self.read(text) == [expected])
    }

    @Test("line ends: CRLF, a last line without one, a BOM at the start, comments and blank lines")
    func lineEnds() {
        #expect(Self.read("\u{FEFF}[r]\r\n\tk = a\r\n\r\n# [remote \"x\"]\r\n; k = b\r\n\tk = \"c\"") == ["r.k=a", "r.k=c"])
    }

    @Test(
        "what git refuses: a line end in quotes, an unknown escape, a broken header, a name not starting with a letter",
        arguments: [
            "[r]\nk = \"a\nb\"", "[r]\nk = \"a", "[r]\nk = a\\x", "[r \"a\" ]", "[r \"a\nb\"]", "[]", "[r", "[r x]", "[r]\n9k = x",
            "[r]\nk x", "[r]\nk # c", "[r]\nk\u{0B}= x", "[r]\n=x", "[r]\n\"k\" = x",
        ])
    func refused(text: String) {
        #expect(Self.read(text) == nil)
    }

    @Test("a partial BOM is refused")
    func partialBOM() {
        #expect((try? GitConfigReader.parse([0xEF, 0xBB] + Array("[r]\nk = x".utf8)).get()) == nil)
    }

    /// A repository at `/r` (HEAD on `main`) with `HOME=/h` and these files.
    static func read(_ files: [String: String], unreadable: Set<String> = []) -> Result<[GitConfigReader.Entry], GitConfigReader.Refusal> {
        var files = files
        if files["/r/.git/HEAD"] == nil { files["/r/.git/HEAD"] = "ref: refs/heads/main\n" }
        return GitConfigReader.read(
            "/r/.git/config", at: GitConfigReader.Place(home: "/h", gitDirectory: "/r/.git"),
            files: InMemoryGitConfigFiles(files, unreadable: unreadable, homes: ["ada": "/home/ada"]))
    }

    static func values(_ result: Result<[GitConfigReader.Entry], GitConfigReader.Refusal>) -> [String]? {
        (try? result.get())?.filter { !$0.key.hasPrefix("include") }.compactMap(\.value)
    }

    @Test("includes: in place, relative to the including file, ~/ and ~user/ expanded, a missing file skipped")
    func includes() {
        let result = Self.read([
            "/r/.git/config": "[a]\nk = 1\n[include]\npath = ../inc\npath = ~/home\npath = ~ada/x\npath = nothing\n[a]\nk = 5",
            "/r/inc": "[a]\nk = 2", "/h/home": "[a]\nk = 3", "/home/ada/x": "[a]\nk = 4",
        ])
        #expect(Self.values(result) == ["1", "2", "3", "4", "5"])
    }

    @Test("an include 10 deep is read, 11 deep is refused, and so is a cycle")
    func depth() {
        func chain(_ length: Int) -> [String: String] {
            var files = ["/r/.git/config": "[include]\npath = /c/1"]
            for link in 1...length { files["/c/\(link)"] = "[a]\nk = \(link)\n[include]\npath = \(link + 1)" }
            return files
        }
        #expect(Self.values(Self.read(chain(10))) == (1...10).map(String.init))
        #expect(throws: GitConfigReader.Refusal.self) { try Self.read(chain(11)).get() }
        #expect(throws: GitConfigReader.Refusal.self) { try Self.read(["/r/.git/config": "[include]\npath = config"]).get() }
    }

    @Test(
        "an include git cannot read is refused: no value, a folder or FIFO, an unknown user, %(prefix)",
        arguments: ["[include]\npath", "[include]\npath = /d", "[include]\npath = ~nobody-here/x", "[include]\npath = %(prefix)/etc/x"])
    func unreadableInclude(config: String) {
        #expect(throws: GitConfigReader.Refusal.self) { try Self.read(["/r/.git/config": config], unreadable: ["/d"]).get() }
    }

    @Test(
        "conditions: gitdir: and gitdir/i: against the git folder, onbranch: against HEAD's branch, anything else false",
        arguments: [
            ("gitdir:/r/", true), ("gitdir:/r/.git", true), ("gitdir:/r", false), ("gitdir:r/", true), ("gitdir:/R/", false),
            ("gitdir/i:/R/", true), ("gitdir:/*/.git", true), ("gitdir:./", false), ("gitdir:~/", false), ("onbranch:main", true),
            ("onbranch:ma*", true), ("onbranch:Main", false), ("onbranch:feature/", false), ("GitDir:/r/", false), ("future:x", false),
        ])
    func conditions(condition: String, holds: Bool) {
        let result = Self.read(["/r/.git/config": "[includeIf \"\(condition)\"]\npath = /inc", "/inc": "[a]\nk = in"])
        #expect(Self.values(result) == (holds ? ["in"] : []))
    }

    @Test("hasconfig:remote.*.url: holds for this config's remote URLs; a file it includes may set none")
    func hasconfig() {
        let config =
            "[remote \"o\"]\nurl = https://github.com/acme/site\n[includeIf \"hasconfig:remote.*.url:https://github.com/**\"]\npath = /inc"
        #expect(
            Self.values(Self.read(["/r/.git/config": config, "/inc": "[user]\nemail = a@b"])) == ["https://github.com/acme/site", "a@b"])
        #expect(throws: GitConfigReader.Refusal.self) {
            try Self.read(["/r/.git/config": config, "/inc": "[remote \"x\"]\nurl = y"]).get()
        }
    }
}

/// git's wildmatch (`t/t3070-wildmatch.sh`'s cases with WM_PATHNAME, and case folding).
@Suite("Wildmatch")
struct WildmatchTests {
    @Test(
        "matches as git's wildmatch does with WM_PATHNAME",
        arguments: [
            ("foo", "foo", true), ("foo", "bar", false), ("???", "foo", true), ("*f", "foo", false), ("*", "foo/bar", false),
            ("**", "foo/bar", true), ("foo/**/bar", "foo/bar", true), ("foo/**/bar", "foo/a/b/bar", true), ("foo**bar", "foo/bar", false),
            ("**/foo", "foo", true), ("**/foo", "a/b/foo", true), ("*/foo", "a/b/foo", false), ("[a-c]x", "bx", true),
            ("[!a-c]x", "bx", false),
            ("[^a-c]x", "dx", true), ("a[/]b", "a/b", false), ("\\*", "*", true), ("\\*", "x", false), ("[[:alpha:]]", "q", true),
            ("[[:digit:]]", "q", false), ("[[:nope:]]", "q", false), ("[ab", "a", false), ("a/*/c", "a/b/c", true), ("a/*", "a/b/c", false),
            ("a/**", "a/b/c", true), ("*.git", "site.git", true), ("git@github.com:*/*", "git@github.com:acme/site.git", true),
        ])
    func pathname(pattern: String, text: String, expected: Bool) {
        #expect(Wildmatch.matches(pattern, text, flags: .pathname) == expected)
    }

    @Test("case folding takes ASCII letters of either case, in classes and ranges too")
    func caseFold() {
        #expect(Wildmatch.matches("/R/**", "/r/.git", flags: [.pathname, .caseFold]))
        #expect(Wildmatch.matches("[A-C]x", "bX", flags: [.pathname, .caseFold]))
        #expect(!Wildmatch.matches("/R/**", "/r/.git", flags: .pathname))
    }
}

/// git's `insteadOf` rewriting (remote.c, `alias_url`).
@Suite("git URL rewrites")
struct GitURLRewritesTests {
    @Test("the longest matching prefix wins; between equal lengths the first base to appear, then its first prefix")
    func longestPrefix() {
        let rules = GitURLRewrites(insteadOf: [
            .init(base: "https://github.com/", prefix: "gh:"), .init(base: "git@work:", prefix: "gh:acme/"),
            .init(base: "X", prefix: "g"), .init(base: "Y", prefix: "h"), .init(base: "X", prefix: "h"),
        ])
        #expect(rules.rewritten("gh:acme/site") == "git@work:site")
        #expect(rules.rewritten("gh:ada/site") == "https://github.com/ada/site")
        #expect(rules.rewritten("hub") == "Xub")
        #expect(rules.rewritten("other") == "other")
    }

    @Test("push targets: push URLs rewritten by insteadOf; else URLs pushInsteadOf rewrites; else the fetch URLs")
    func pushTargets() {
        let rules = GitURLRewrites(
            insteadOf: [.init(base: "https://github.com/", prefix: "gh:")], pushInsteadOf: [.init(base: "git@github.com:", prefix: "gh:")])
        let remote = GitRemotes.Remote(name: "origin", urls: ["gh:acme/site", "https://example.com/x"], pushURLs: [])
        #expect(remote.fetchURLs(rules) == ["https://github.com/acme/site", "https://example.com/x"])
        #expect(remote.pushTargets(rules) == ["git@github.com:acme/site"])
        #expect(GitRemotes.Remote(name: "o", urls: ["gh:a"], pushURLs: ["gh:b"]).pushTargets(rules) == ["https://github.com/b"])
        #expect(GitRemotes.Remote(name: "o", urls: ["x"], pushURLs: []).pushTargets(rules) == ["x"])
    }
}
