import Foundation
import PerchDomain
import PerchInterface
import PerchStore
import PerchTestSupport
import Testing

@testable import PerchIdentities

/// A registry fetched by git itself, from a repository on disk.
@Suite("Registries: fetching with git at a ref, and what is refused", .serialized)
struct RegistryFetchTests {
    /// Runs git in `folder` with the scratch environment; its output.
    @discardableResult
    func git(_ arguments: [String], in folder: String, _ scratch: ScratchHome) throws -> String {
        let result = ProgramRunner.run(
            "git", ["-c", "user.name=Test", "-c", "user.email=test@example.com"] + arguments, in: scratch.environment, folder: folder)
        guard let output = result.output else { throw TestFailure("git \(arguments): \(result.failure ?? "")") }
        return output
    }

    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// A repository with one commit of `perch-registry.json` (in `folder` when given), tagged `v1`, on branch `main`.
    func repository(_ scratch: ScratchHome, file: String = #"{"accounts": [{"id": "a", "name": "A"}]}"#, folder: String? = nil) throws
        -> String
    {
        let repo = scratch.root + "/origin"
        try FileManager.default.createDirectory(atPath: repo + "/" + (folder ?? ""), withIntermediateDirectories: true)
        try git(["init", "-q", "-b", "main"], in: repo, scratch)
        try file.write(toFile: repo + "/" + (folder.map { $0 + "/" } ?? "") + "perch-registry.json", atomically: true, encoding: .utf8)
        try git(["add", "-A"], in: repo, scratch)
        try git(["commit", "-qm", "one"], in: repo, scratch)
        try git(["tag", "v1"], in: repo, scratch)
        return repo
    }

    @Test("the default branch, a branch, a tag and a commit each give their commit and file; a later commit moves only the branch")
    func refs() throws {
        let scratch = try ScratchHome(fakes: [])
        let repo = try repository(scratch)
        let first = try git(["rev-parse", "HEAD"], in: repo, scratch).filter { !$0.isWhitespace }
        try #"{"accounts": [{"id": "b", "name": "B"}]}"#.write(toFile: repo + "/perch-registry.json", atomically: true, encoding: .utf8)
        try git(["commit", "-qam", "two"], in: repo, scratch)
        let second = try git(["rev-parse", "HEAD"], in: repo, scratch).filter { !$0.isWhitespace }
        let mirror = scratch.root + "/mirror.git"
        func fetch(_ ref: String?) throws -> RegistryFetch.Fetched {
            try RegistryFetch.fetch(
                url: "file://" + repo, ref: ref, path: nil, repository: mirror, allowedSigners: nil, environment: scratch.environment)
        }
        #expect(try fetch(nil).commit == second)
        #expect(try fetch("main").commit == second)
        #expect(try fetch("v1").commit == first)
        let byCommit = try fetch(String(first.prefix(12)))
        #expect(byCommit.commit == first)
        #expect(String(decoding: byCommit.bytes, as: UTF8.self).contains(#""id": "a""#))
        let missing = try #require(throws: RegistryFetch.Failure.self) { try fetch("nope") }
        #expect(missing.description == #"no branch, tag or commit "nope" there"#)
    }

    // Bug (hostile review): a branch named as the pinned commit's 40 hex digits moved the pin.
    @Test("a full commit id names that commit only, whatever branch or tag has its name; a later commit descends, an older does not")
    func pinnedCommit() throws {
        let scratch = try ScratchHome(fakes: [])
        let repo = try repository(scratch)
        let first = try git(["rev-parse", "HEAD"], in: repo, scratch).filter { !$0.isWhitespace }
        try #"{"accounts": [{"id": "evil", "name": "Evil"}]}"#.write(
            toFile: repo + "/perch-registry.json", atomically: true, encoding: .utf8)
        try git(["commit", "-qam", "two"], in: repo, scratch)
        let second = try git(["rev-parse", "HEAD"], in: repo, scratch).filter { !$0.isWhitespace }
        try git(["branch", "-f", first, "main"], in: repo, scratch)
        let mirror = scratch.root + "/m.git"
        let fetched = try RegistryFetch.fetch(
            url: repo, ref: first, path: nil, repository: mirror, allowedSigners: nil, environment: scratch.environment)
        #expect(fetched.commit == first)
        #expect(RegistryFetch.descends(second, from: first, repository: mirror, environment: scratch.environment))
        #expect(!RegistryFetch.descends(first, from: second, repository: mirror, environment: scratch.environment))
    }

    // Bug (hostile review): the ssh check looked for git's words in its output, and an OpenPGP
    // key whose user id held them passed for any key of the user's keyring.
    @Test("with allowed signers: a commit signed by a key named there is used; unsigned, another key's or an OpenPGP signature is refused")
    func signatures() throws {
        let scratch = try ScratchHome(fakes: [])
        guard scratch.environment.which("ssh-keygen") != nil else { return }
        let keys = scratch.root + "/keys"
        try FileManager.default.createDirectory(atPath: keys, withIntermediateDirectories: true)
        for name in ["good", "other"] {
            _ = ProgramRunner.run(
                "ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", keys + "/" + name], in: scratch.environment)
        }
        let goodKey = try String(contentsOfFile: keys + "/good.pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        try "team@acme.example namespaces=\"git\" \(goodKey)\n".write(toFile: keys + "/allowed", atomically: true, encoding: .utf8)
        let repo = try repository(scratch)
        func commit(signedBy key: String?) throws {
            try "{\"accounts\": [{\"id\": \"a\", \"name\": \"\(UUID().uuidString)\"}]}".write(
                toFile: repo + "/perch-registry.json", atomically: true, encoding: .utf8)
            var arguments = ["commit", "-qam", "next"]
            if let key {
                arguments = ["-c", "gpg.format=ssh", "-c", "user.signingkey=" + keys + "/" + key, "commit", "-S", "-qam", "signed"]
            }
            try git(arguments, in: repo, scratch)
        }
        func fetch() throws -> RegistryFetch.Fetched {
            try RegistryFetch.fetch(
                url: repo, ref: "main", path: nil, repository: scratch.root + "/m.git", allowedSigners: keys + "/allowed",
                environment: scratch.environment)
        }
        try commit(signedBy: "good")
        let head = try git(["rev-parse", "HEAD"], in: repo, scratch).filter { !$0.isWhitespace }
        #expect(try fetch().commit == head)
        try commit(signedBy: nil)
        #expect(try #require(throws: RegistryFetch.Failure.self) { try fetch() }.description.hasSuffix("it carries no ssh signature"))
        try commit(signedBy: "other")
        #expect(
            try #require(throws: RegistryFetch.Failure.self) { try fetch() }.description.contains("git verify-commit exited with status"))
        guard scratch.environment.which("gpg") != nil else { return }
        var environment = scratch.environment
        environment.variables["GNUPGHOME"] = scratch.root + "/gnupg"
        mkdir(scratch.root + "/gnupg", 0o700)
        _ = ProgramRunner.run(
            "gpg",
            ["--batch", "--passphrase", "", "--quick-gen-key", #"Good "git" signature <evil@example.com>"#, "ed25519", "sign", "never"],
            in: environment)
        let listed = ProgramRunner.run("gpg", ["--list-keys", "--with-colons"], in: environment).output ?? ""
        let fingerprint = try #require(
            listed.split(separator: "\n").first { $0.hasPrefix("fpr") }?.split(separator: ":", omittingEmptySubsequences: false)[9])
        try "{\"accounts\": [{\"id\": \"a\", \"name\": \"G\"}]}".write(
            toFile: repo + "/perch-registry.json", atomically: true, encoding: .utf8)
        let signed = ProgramRunner.run(
            "git",
            ["-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "user.signingkey=" + fingerprint, "commit", "-S", "-qam", "gpg"],
            in: environment, folder: repo)
        #expect(signed.output != nil, "\(signed)")
        var fetchEnvironment = environment
        fetchEnvironment.variables["GNUPGHOME"] = scratch.root + "/gnupg"
        let failure = try #require(throws: RegistryFetch.Failure.self) {
            try RegistryFetch.fetch(
                url: repo, ref: "main", path: nil, repository: scratch.root + "/m.git", allowedSigners: keys + "/allowed",
                environment: fetchEnvironment)
        }
        #expect(failure.description.hasSuffix("it carries no ssh signature"))
    }

    @Test(
        "with an OpenPGP key named: a commit signed by it is used; one signed by another key of the keyring, unsigned or ssh-signed is refused"
    )
    func openPGPKey() throws {
        let scratch = try ScratchHome(fakes: [])
        guard scratch.environment.which("gpg") != nil else { return }
        var environment = scratch.environment
        environment.variables["GNUPGHOME"] = scratch.root + "/gnupg"
        mkdir(scratch.root + "/gnupg", 0o700)
        var fingerprints: [String] = []
        for who in ["Maintainer <maintainer@acme.example>", "Stranger <stranger@example.com>"] {
            let made = ProgramRunner.run(
                "gpg", ["--batch", "--passphrase", "", "--quick-gen-key", who, "ed25519", "sign", "never"], in: environment, timeout: 60_000
            )
            #expect(made.output != nil, "\(made)")
            let listed = ProgramRunner.run("gpg", ["--list-keys", "--with-colons", who], in: environment).output ?? ""
            let fingerprint = try #require(
                listed.split(separator: "\n").first { $0.hasPrefix("fpr") }?.split(separator: ":", omittingEmptySubsequences: false)[9])
            fingerprints.append(String(fingerprint))
        }
        let repo = try repository(scratch)
        func commit(signedBy key: String?) throws -> String {
            try "{\"accounts\": [{\"id\": \"a\", \"name\": \"\(UUID().uuidString)\"}]}".write(
                toFile: repo + "/perch-registry.json", atomically: true, encoding: .utf8)
            let signing = key.map { ["-c", "user.signingkey=" + $0, "commit", "-S"] } ?? ["commit"]
            let made = ProgramRunner.run(
                "git", ["-c", "user.name=T", "-c", "user.email=t@example.com"] + signing + ["-qam", "next"], in: environment, folder: repo)
            #expect(made.output != nil, "\(made)")
            return try git(["rev-parse", "HEAD"], in: repo, scratch).filter { !$0.isWhitespace }
        }
        func fetch() throws -> RegistryFetch.Fetched {
            try RegistryFetch.fetch(
                url: repo, ref: "main", path: nil, repository: scratch.root + "/m.git", allowedSigners: nil, environment: environment,
                openPGPKey: fingerprints[0].lowercased())
        }
        let signed = try commit(signedBy: fingerprints[0])
        #expect(try fetch().commit == signed)
        _ = try commit(signedBy: fingerprints[1])
        #expect(
            try #require(throws: RegistryFetch.Failure.self) { try fetch() }.description.hasSuffix(
                "is not signed by key \(fingerprints[0].lowercased())"))
        _ = try commit(signedBy: nil)
        #expect(try #require(throws: RegistryFetch.Failure.self) { try fetch() }.description.hasSuffix("it carries no OpenPGP signature"))
        #expect(RegistryFetch.isFingerprint(fingerprints[0]) && !RegistryFetch.isFingerprint("ABCDEF"))
    }

    @Test(
        "gpg's status lines decide: VALIDSIG by the key or by a subkey of it; an expired, revoked or bad signature beside it does not pass")
    func openPGPStatus() throws {
        let key = String(repeating: "A", count: 40)
        let header = "tree 1\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n\nmessage"
        func check(_ lines: String, status: Int32 = 0) -> Bool {
            (try? RegistryFetch.verifyOpenPGP("c0ffee0", key: key, header: header) { .exited(status: status, stdout: "", stderr: lines) })
                != nil
        }
        #expect(check("[GNUPG:] GOODSIG X\n[GNUPG:] VALIDSIG \(key) 2026-12-06 0 4 0 22 10 00 \(key)\n"))
        #expect(check("[GNUPG:] VALIDSIG \(String(repeating: "B", count: 40)) 2026-12-06 0 4 0 22 10 00 \(key)\n"), "a subkey of the key")
        #expect(
            !check(
                "[GNUPG:] VALIDSIG \(String(repeating: "B", count: 40)) 2026-12-06 0 4 0 22 10 00 \(String(repeating: "C", count: 40))\n"))
        #expect(!check("[GNUPG:] EXPKEYSIG X\n[GNUPG:] VALIDSIG \(key) 2026 0 4 0 22 10 00 \(key)\n"))
        #expect(!check("[GNUPG:] VALIDSIG \(key) 2026 0 4 0 22 10 00 \(key)\n", status: 1))
        #expect(!check("Good \"git\" signature for \(key)\n"), "git's words are not gpg's status")
    }

    @Test("a folder given by --path is read; a commit without the file says so")
    func path() throws {
        let scratch = try ScratchHome(fakes: [])
        let repo = try repository(scratch, folder: "teams/web")
        let fetched = try RegistryFetch.fetch(
            url: repo, ref: nil, path: "teams/web", repository: scratch.root + "/m.git", allowedSigners: nil,
            environment: scratch.environment)
        #expect(String(decoding: fetched.bytes, as: UTF8.self).contains(#""id": "a""#))
        let failure = try #require(throws: RegistryFetch.Failure.self) {
            try RegistryFetch.fetch(
                url: repo, ref: nil, path: nil, repository: scratch.root + "/m.git", allowedSigners: nil, environment: scratch.environment)
        }
        #expect(failure.description.hasSuffix("has no perch-registry.json"))
    }

    // Bug class (trust issue): a URL is data; git's ext:: transport would run it as a command.
    @Test("an ext:: URL runs nothing, a URL that looks like an option is no option, and a fetch that fails says git's reason")
    func hostileURLs() throws {
        let scratch = try ScratchHome(fakes: [])
        let marker = scratch.root + "/ran"
        // fd:: (a transport on a descriptor) hung until the timeout: only known transports are let in.
        for url in ["ext::sh -c touch% \(marker)", "fd::3", "--upload-pack=touch \(marker)", scratch.root + "/no-such-repository"] {
            let failure = try #require(throws: RegistryFetch.Failure.self) {
                try RegistryFetch.fetch(
                    url: url, ref: nil, path: nil, repository: scratch.root + "/m.git", allowedSigners: nil,
                    environment: scratch.environment)
            }
            #expect(failure.description.hasPrefix("cannot fetch: git fetch exited with status"), "\(failure)")
            #expect(!FileManager.default.fileExists(atPath: marker), "\(url) ran a command")
        }
    }

    @Test("every ref Perch accepts, git's check-ref-format accepts too (differential)", arguments: 0..<4)
    func refsAgreeWithGit(seed: UInt64) throws {
        let scratch = try ScratchHome(fakes: [])
        var random = SplitMix64(seed: seed)
        let alphabet = Array("ab.-/_~^:?*[\\@{} \u{7F}\u{01}é1")
        var accepted = 0
        for _ in 0..<150 {
            let length = Int(random.next() % 8) + 1
            let ref = String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
            guard RegistryFetch.isValidRef(ref) else { continue }
            accepted += 1
            let result = ProgramRunner.run("git", ["check-ref-format", "--allow-onelevel", ref], in: scratch.environment)
            #expect(result.output != nil, "Perch accepts \(ref.debugDescription) but git does not")
        }
        #expect(accepted > 5, "the sample held too few valid refs to compare")
        for bad in ["-x", "a..b", "a b", "a:b", "main@{1}", "x.lock", "/a", "a/"] { #expect(!RegistryFetch.isValidRef(bad), "\(bad)") }
        for bad in ["/etc", "../x", "a/../b", "./a", "-p"] { #expect(!RegistryFetch.isValidPath(bad), "\(bad)") }
    }
}

/// The allowed-signers line Perch writes for an account that signs with ssh.
@Suite("Signing: the allowed-signers principal")
struct AllowedSignersPrincipalTests {
    // Bug (hostile review): a registry's `git.email` of `*@* namespaces="git" KEY #` wrote a
    // line trusting an attacker's key for every address into the global allowed-signers file.
    @Test("an email with white space, pattern characters, quotes or controls is no principal; a plain one is")
    func principal() {
        #expect(GitAdapter.isPlainPrincipal("ada@acme.example"))
        for bad in ["*@*", #"a@b namespaces="git" ssh-ed25519 AAAA #"#, "a@b,c@d", "!a@b", "a b@c", "a@b\n", "", "a?@b"] {
            #expect(!GitAdapter.isPlainPrincipal(bad), "\(bad.debugDescription)")
        }
    }
}
