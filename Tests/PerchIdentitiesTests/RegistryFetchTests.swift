import Foundation
import PerchCore
import PerchIdentities
import PerchStore
import PerchTestSupport
import Testing

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

    @Test("a folder given by --path is read; a commit without the file says so")
    func path() throws {
        let scratch = try ScratchHome(fakes: [])
        let repo = try repository(scratch, folder: "teams/web")
        let fetched = try RegistryFetch.fetch(
            url: repo, ref: nil, path: "teams/web", repository: scratch.root + "/m.git", allowedSigners: nil, environment: scratch.environment)
        #expect(String(decoding: fetched.bytes, as: UTF8.self).contains(#""id": "a""#))
        let failure = try #require(throws: RegistryFetch.Failure.self) {
            try RegistryFetch.fetch(url: repo, ref: nil, path: nil, repository: scratch.root + "/m.git", allowedSigners: nil, environment: scratch.environment)
        }
        #expect(failure.description.hasSuffix("has no perch-registry.json"))
    }

    // Bug class (trust issue): a URL is data; git's ext:: transport would run it as a command.
    @Test("an ext:: URL runs nothing, a URL that looks like an option is no option, and a fetch that fails says git's reason")
    func hostileURLs() throws {
        let scratch = try ScratchHome(fakes: [])
        let marker = scratch.root + "/ran"
        for url in ["ext::sh -c touch% \(marker)", "--upload-pack=touch \(marker)", scratch.root + "/no-such-repository"] {
            let failure = try #require(throws: RegistryFetch.Failure.self) {
                try RegistryFetch.fetch(
                    url: url, ref: nil, path: nil, repository: scratch.root + "/m.git", allowedSigners: nil, environment: scratch.environment)
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
