import PerchDomain
import Testing

/// Accounts chosen by a repository's remote (`"remotes"`): URLs in every form git takes, read
/// the way hosts treat them, and the patterns git's `hasconfig:remote.*.url:` rules get.
@Suite("Remote patterns")
struct RemotePatternTests {
    @Test(
        "a remote URL is read as host and path in each of git's forms",
        arguments: [
            ("git@github.com:acme/site.git", "github.com/acme/site"),
            ("git@GitHub.com:Acme/Site.git", "github.com/acme/site"),
            ("ssh://git@github.com/acme/site", "github.com/acme/site"),
            ("ssh://git@github.com:2222/acme/site.git", "github.com/acme/site"),
            ("https://github.com/acme/site", "github.com/acme/site"),
            ("https://ada@github.com/acme/site.git/", "github.com/acme/site"),
            ("https://gitlab.example.com:8443/team/sub/app.git", "gitlab.example.com/team/sub/app"),
            ("git://github.com/acme/site", "github.com/acme/site"),
            ("github.com:acme/site", "github.com/acme/site"),
            ("  git@github.com:acme/site.git\n", "github.com/acme/site"),
        ])
    func hostAndPath(url: String, expected: String) {
        #expect(RemotePattern.hostAndPath(url) == expected)
    }

    @Test(
        "a local path or file URL names no host", arguments: ["/srv/git/site.git", "./site", "../a:b/site", "file:///srv/site.git", ""])
    func noHost(url: String) {
        #expect(RemotePattern.hostAndPath(url) == nil)
    }

    @Test(
        "a pattern matches remotes with a port, a user, .git or not, in either case, and * stays within one component",
        arguments: [
            ("github.com/acme/*", "git@github.com:acme/site.git", true),
            ("github.com/acme/*", "ssh://git@GITHUB.com:22/ACME/Site", true),
            ("github.com/acme/*", "https://ada@github.com/acme/site/", true),
            ("github.com/acme/*", "git@github.com:acme-labs/site.git", false),
            ("github.com/acme/*", "git@github.com:acme/team/site.git", false),
            ("gitlab.example.com/team/**", "git@gitlab.example.com:team/sub/app.git", true),
            ("github.com/acme/site", "git@github.com:acme/site.git", true),
            ("github.com/acme/site", "git@github.com:acme/site2.git", false),
            ("github.com/acme/si?e", "git@github.com:acme/site.git", true),
            ("github.com/acme/*", "git@gitlab.com:acme/site.git", false),
            ("github.com/acme/*", "/srv/acme/site", false), ("github.com/**/site", "https://github.com/site", true),
            ("github.com/acme**", "git@github.com:acme/x/y", false), ("github.com/acme/*", "HTTPS://github.com/acme/site", false),
            ("github.com/acme/site", "git@github.com:acme/site.GIT", true), ("github.com/acme/*", "https://github.com//acme/site", false),
        ])
    func matches(pattern: String, url: String, expected: Bool) {
        #expect(RemotePattern(pattern).matches(url: url) == expected)
    }

    @Test(
        "a pattern is refused with its reason when it has a scheme, a user, no path, a space, a wildcard host or a [ (bug: an unclosed [ bound nothing)",
        arguments: [
            ("https://github.com/acme/*", "scheme or user"), ("git@github.com:acme/*", "scheme or user"),
            ("github.com", "needs a host and a path"),
            ("github.com/", "needs a host and a path"), ("github.com/acme /x", "space"), ("*.example.com/team/*", "may not hold wildcards"),
            ("", "must not be empty"),
            // Bug: an unclosed [ passed config check, and git's rule then bound nothing.
            ("github.com/acme/[site", "holds a [ or ]"), ("github.com/acme/[sS]ite", "holds a [ or ]"),
        ])
    func problems(pattern: String, reason: String) {
        #expect(RemotePattern.problem(pattern)?.contains(reason) == true, "\(RemotePattern.problem(pattern) ?? "nil")")
    }

    @Test("a valid pattern has no problem, and two spellings of one pattern are equal")
    func valid() {
        #expect(RemotePattern.problem("github.com/acme/*") == nil)
        #expect(RemotePattern("GitHub.com/Acme/site.git") == RemotePattern("github.com/acme/site/"))
    }

    @Test("git's patterns cover https, ssh with and without a user and a port, and scp-like forms, with letters of either case")
    func gitPatterns() {
        let patterns = RemotePattern("github.com/acme/*").gitPatterns
        #expect(patterns.contains("*@[gG][iI][tT][hH][uU][bB].[cC][oO][mM]:[aA][cC][mM][eE]/*"))
        #expect(patterns.contains("ssh://*@[gG][iI][tT][hH][uU][bB].[cC][oO][mM]:*/[aA][cC][mM][eE]/*"))
        #expect(patterns.contains("https://[gG][iI][tT][hH][uU][bB].[cC][oO][mM]/[aA][cC][mM][eE]/*"))
        // A literal last component also takes `.git` (of either case) and a trailing slash.
        let literal = RemotePattern("github.com/acme/site").gitPatterns
        #expect(
            literal.contains { $0.hasSuffix("[sS][iI][tT][eE].[gG][iI][tT]") } && literal.contains { $0.hasSuffix("[sS][iI][tT][eE]/") })
    }

    // Bug: github.com/** gave git `*@github.com:**`, and wildmatch takes `**` across folders
    // only as a whole component: no scp-like remote (git@github.com:org/repo.git) matched.
    @Test(
        "bug: host/** wrote rules git's wildmatch never matched for scp-like remotes", arguments: ["github.com/**", "github.com/**/site"])
    func doubleStarScpLike(pattern: String) {
        for url in ["git@github.com:org/site.git", "github.com:org/team/site", "git@github.com:site"] {
            let git = RemotePattern(pattern).gitPatterns.contains { Wildmatch.matches($0, url, flags: .pathname) }
            #expect(git && RemotePattern(pattern).matches(url: url), "\(pattern) with \(url)")
        }
    }

    // Bug: git@github.com:/acme/site.git bound the account in Perch's shell hook, and git's
    // rules, which had no form with the `/`, did not.
    @Test("bug: an scp-like path starting with / matched in Perch and not in git's rules; now in both")
    func scpLeadingSlash() {
        for url in ["git@github.com:/acme/site.git", "github.com:/acme/site"] {
            let pattern = RemotePattern("github.com/acme/*")
            #expect(pattern.matches(url: url) && pattern.gitPatterns.contains { Wildmatch.matches($0, url, flags: .pathname) }, "\(url)")
        }
    }

    // Bug: host/* passed config check silently, and matches no owner/repo path at all.
    @Test(
        "a pattern whose path is one component gets a warning: it matches no OWNER/REPO",
        arguments: ["host/*", "github.com/site", "host/s?te"])
    func oneComponentWarning(pattern: String) {
        #expect(RemotePattern.problem(pattern) == nil)
        #expect(RemotePattern.warning(pattern)?.contains("no OWNER/REPO") == true, "\(RemotePattern.warning(pattern) ?? "nil")")
    }

    @Test(
        "patterns with an owner, or ** for a whole host, get no warning", arguments: ["host/**", "github.com/acme/*", "github.com/*/site"])
    func noWarning(pattern: String) {
        #expect(RemotePattern.warning(pattern) == nil)
    }

    @Test("the owner of a repository is the first account with a matching remote, with the pattern as written")
    func owner() {
        var work = Account(id: "work", name: "Work")
        work.identities.remotes = ["github.com/acme/*"]
        var oss = Account(id: "oss", name: "OSS")
        oss.identities.remotes = ["github.com/**"]
        let accounts = [work, oss]
        #expect(RemotePattern.owner(of: ["git@github.com:acme/site.git"], in: accounts)?.account == "work")
        #expect(RemotePattern.owner(of: ["git@github.com:ada/notes.git"], in: accounts)?.pattern == "github.com/**")
        #expect(RemotePattern.owner(of: ["git@gitlab.com:ada/notes.git"], in: accounts) == nil)
    }
}

/// An ssh host alias resolved in a remote URL (the guard issue: `git@github.com-work:acme/site.git`
/// was not matched by `github.com/acme/*`).
@Suite("Remote patterns: ssh host aliases")
struct RemotePatternAliasTests {
    let aliases = ["github.com-work": "github.com"]

    @Test("the alias host of each URL form is replaced, user, port and path kept; other hosts and local paths are not")
    func resolving() {
        #expect(RemotePattern.resolvingAlias("git@github.com-work:acme/site.git", aliases) == "git@github.com:acme/site.git")
        #expect(RemotePattern.resolvingAlias("GitHub.com-Work:acme/site", aliases) == "github.com:acme/site")
        #expect(RemotePattern.resolvingAlias("ssh://git@github.com-work:22/acme/site", aliases) == "ssh://git@github.com:22/acme/site")
        #expect(RemotePattern.resolvingAlias("git@gitlab.com:acme/site.git", aliases) == nil)
        #expect(RemotePattern.resolvingAlias("./github.com-work:x", aliases) == nil)
        #expect(RemotePattern.resolvingAlias("git@github.com-work:acme/site.git", [:]) == nil)
    }

    @Test("owner(of:in:aliases:) matches a remote through an alias, and not without the alias map")
    func owner() {
        let account = Account(id: "work", name: "Work", identities: ToolIdentities(remotes: ["github.com/acme/*"]))
        #expect(RemotePattern.owner(of: ["git@github.com-work:acme/site.git"], in: [account], aliases: aliases)?.account == "work")
        #expect(RemotePattern.owner(of: ["git@github.com-work:acme/site.git"], in: [account]) == nil)
    }
}
