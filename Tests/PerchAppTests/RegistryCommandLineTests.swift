import Testing

@testable import PerchApp

@Suite("CommandLineOptions: the registry commands")
struct RegistryCommandLineTests {
    @Test("each command and option parses into its field; --set repeats")
    func valid() throws {
        let add = try #require(
            CommandLineParser.parse([
                "registry", "add", "acme", "git@github.com:acme/registry.git", "--ref", "v2", "--path", "teams/web", "--set", "email=a@b",
                "--set", "team=web", "--allowed-signers", "~/signers", "--timeout", "5", "--yes",
            ]).command as? RegistryAddCommand)
        #expect(add.name == "acme" && add.url == "git@github.com:acme/registry.git" && add.ref == "v2" && add.path == "teams/web")
        #expect(add.values == ["email": "a@b", "team": "web"] && add.allowedSigners == "~/signers" && add.timeout == 5 && add.yes)
        let gpg = try #require(
            CommandLineParser.parse(["registry", "add", "a", "u", "--signing-key", String(repeating: "ab", count: 20)]).command
                as? RegistryAddCommand)
        #expect(gpg.signingKey == String(repeating: "AB", count: 20))
        let update = try #require(CommandLineParser.parse(["registry", "update"]).command as? RegistryUpdateCommand)
        #expect(update.name == nil && !update.yes)
        let trust = try #require(
            CommandLineParser.parse(["registry", "trust", "acme", "--commit", "abcdef1"]).command as? RegistryTrustCommand)
        #expect(trust.name == "acme" && trust.commit == "abcdef1")
        for url in ["git@github.com:acme/r.git", "ssh://git@127.0.0.1:2222/srv/r.git", "https://ada@git.example/r.git?ref=main", "/srv/r"] {
            #expect(!RegistryAddCommand.holdsSecret(url), "\(url)")
        }
        #expect(throws: UsageError.self, "the group alone names its members") { try CommandLineParser.parse(["registry"]) }
    }

    // The trust boundary: a URL is data Perch keeps and shows; a ref or path is an argument git reads.
    @Test(
        "each misuse is refused with its message: --yes never grants trust, no secret in a URL, no ref or path git would read otherwise",
        arguments: [
            (["registry", "trust", "acme", "--yes"], "option --yes does not apply to 'perch registry trust'"),
            (
                ["registry", "add", "a", "https://ada:hunter2@git.example/r.git"],
                "the URL holds a password or token, which Perch would keep and show; give it without, and let git's credential helper hold the secret"
            ),
            (
                ["registry", "add", "a", "https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/a/b"],
                "the URL holds a password or token, which Perch would keep and show; give it without, and let git's credential helper hold the secret"
            ),
            // Bug (hostile review): a token in a query, an scp-like user or a percent-encoded password passed.
            (
                ["registry", "add", "a", "https://gitlab.example/r.git?private_token=glpat-abcdefghijklmnopqrst"],
                "the URL holds a password or token, which Perch would keep and show; give it without, and let git's credential helper hold the secret"
            ),
            (
                ["registry", "add", "a", "ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com:acme/r.git"],
                "the URL holds a password or token, which Perch would keep and show; give it without, and let git's credential helper hold the secret"
            ),
            (
                ["registry", "add", "a", "https://ada%3Ahunter2@git.example/r.git"],
                "the URL holds a password or token, which Perch would keep and show; give it without, and let git's credential helper hold the secret"
            ),
            (
                ["registry", "add", "a", "https://git.example/r.git#access_token=glpat-abcdefghijklmnopqrst"],
                "the URL holds a password or token, which Perch would keep and show; give it without, and let git's credential helper hold the secret"
            ),
            (
                ["registry", "add", "a", "https://git.example/r.git;token=abc"],
                "the URL holds a password or token, which Perch would keep and show; give it without, and let git's credential helper hold the secret"
            ),
            (
                ["registry", "add", "a", "u", "--allowed-signers", "f", "--signing-key", String(repeating: "a", count: 40)],
                "use either --allowed-signers (ssh keys) or --signing-key (an OpenPGP key), not both"
            ),
            (
                ["registry", "add", "a", "u", "--signing-key", "0xDEADBEEF"],
                "option --signing-key needs an OpenPGP key's fingerprint (40 hex digits), not '0xDEADBEEF'"
            ),
            (
                ["registry", "add", "tools-a", "u"],
                "a registry's name is made of a–z, 0–9, '.', '_', '-' (not first), and starts neither tools- nor accounts-, not 'tools-a'"
            ),
            (
                ["registry", "add", "a", "--", "--upload-pack=touch /tmp/x"],
                "URL must be a URL or path git can fetch, not '--upload-pack=touch /tmp/x'"
            ),
            (["registry", "add", "a", "u", "--ref", "a..b"], "option --ref needs a branch, tag or commit name, not 'a..b'"),
            (["registry", "add", "a", "u", "--path", "../x"], "option --path needs a relative folder without . or .. parts, not '../x'"),
            (
                ["registry", "add", "A!", "u"],
                "a registry's name is made of a–z, 0–9, '.', '_', '-' (not first), and starts neither tools- nor accounts-, not 'A!'"
            ),
            (["registry", "add", "a", "u", "--set", "email"], "option --set needs NAME=VALUE, not 'email'"),
            (["registry", "trust", "a", "--commit", "xyz"], "option --commit needs at least 7 hex digits of a commit, not 'xyz'"),
        ])
    func invalid(arguments: [String], message: String) throws {
        let error = try #require(throws: UsageError.self) { try CommandLineParser.parse(arguments) }
        #expect(error.description == message)
    }
}
