import Foundation
import PerchStore
import PerchTestSupport
import Testing

@testable import PerchDomain
@testable import PerchIdentities
@testable import PerchInterface

/// Perch's reader of a repository's config (``GitConfigReader`` through
/// ``PlaceOwner/remotes(of:home:)``) against git itself, over configs generated from a seeded
/// generator: includes (relative, nested, missing, cyclic, too deep, `~/`), conditional
/// includes (`gitdir:`, `gitdir/i:`, `onbranch:`, `hasconfig:`, unknown), variables on a
/// header's line, old-style sections, quoting, escapes, continuations, comments, CRLF, a BOM,
/// case variants, other sections with `url` keys, `insteadOf` rules, and malformed lines.
@Suite("git config reading, against git")
struct GitConfigDifferentialTests {
    /// `PERCH_GITCONFIG_SEED` and `PERCH_GITCONFIG_CASES` change the run; a failure names both.
    static let seed = ProcessInfo.processInfo.environment["PERCH_GITCONFIG_SEED"].flatMap { UInt64($0) } ?? 0x9E37_2039
    static let cases = ProcessInfo.processInfo.environment["PERCH_GITCONFIG_CASES"].flatMap { Int($0) } ?? 10_000
    static let workers = 3
    static let keys = #"^(remote\..*\.(push)?url|url\..*\.(push)?insteadof)$"#

    @Test("Perch reads the remotes and rewrites of 10,000 generated configs as git config does", .enabled(if: ScratchHome.installed("git")))
    func remotesAgreeWithGit() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("perch-gitconfig-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let global = base + "/global"
        _ = FileManager.default.createFile(atPath: global, contents: Data())
        let tally = Tally()
        let started = ContinuousClock.now
        let group = DispatchGroup()
        for worker in 0..<Self.workers {
            group.enter()
            Thread {
                defer { group.leave() }
                let root = base + "/w\(worker)"
                var previous: ConfigCase?
                for index in stride(from: worker, to: Self.cases, by: Self.workers) {
                    let generated = ConfigCase.generate(seed: Self.seed, index: index)
                    previous?.remove(from: root + "/c")
                    tally.add(index: index, Self.compare(generated, root: root, global: global))
                    previous = generated
                }
            }.start()
        }
        group.wait()
        let elapsed = (ContinuousClock.now - started).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        let summary =
            "\(tally.count) generated configs (seed \(Self.seed)): \(tally.withURLs) with remote URLs (\(tally.urls) in all), "
            + "\(tally.empty) with none, \(tally.refused) refused by git; \(tally.disagreements.count) disagreements; "
            + "\(String(format: "%.1f", seconds)) s with \(Self.workers) at a time"
        print(summary)
        #expect(tally.count == Self.cases)
        #expect(tally.refused > Self.cases / 20 && tally.withURLs > Self.cases / 3, "the generator lost its mix: \(summary)")
        let shown = tally.disagreements.sorted { $0.index < $1.index }.prefix(5).map(\.text).joined(separator: "\n\n")
        #expect(tally.disagreements.count == 0, "\(summary)\n\nthe first disagreements:\n\(shown)")
    }

    @Test(
        "git's insteadOf and pushInsteadOf rewrites, global then local, give the fetch and push URLs git remote get-url gives",
        .enabled(if: ScratchHome.installed("git")))
    func rewritesAgreeWithGit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("perch-rewrites-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/repo/.git/objects", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/repo/.git/refs/heads", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try ConfigCase.write(Array("ref: refs/heads/main\n".utf8), to: folder + "/repo/.git/HEAD")
        let bases = ["https://github.com/", "git@github.com:", "ssh://git@work/", "X", ""]
        let prefixes = ["gh:", "g", "gh:acme/", "https://", "https://github.com/", "git@github.com:", "", "work:", "gh:acme/site"]
        let urls = ["gh:acme/site", "gh:x", "https://github.com/acme/site", "git@github.com:acme/site.git", "work:site", "other"]
        var random = SplitMix64(seed: Self.seed)
        var disagreements: [String] = []
        let cases = 500
        for index in 0..<cases {
            func pick(_ items: [String]) -> String { items[Int.random(in: 0..<items.count, using: &random)] }
            func rules() -> String {
                (0..<Int.random(in: 0...4, using: &random)).map { _ in
                    "[url \"\(pick(bases))\"]\n\t\(pick(["insteadOf", "pushInsteadOf", "insteadOf"])) = \(pick(prefixes))\n"
                }.joined()
            }
            let global = rules()
            var local = rules() + "[remote \"origin\"]\n"
            for _ in 0..<Int.random(in: 1...3, using: &random) { local += "\turl = \(pick(urls))\n" }
            for _ in 0..<Int.random(in: 0...2, using: &random) where Int.random(in: 0..<3, using: &random) == 0 {
                local += "\tpushurl = \(pick(urls))\n"
            }
            try ConfigCase.write(Array(global.utf8), to: folder + "/global")
            try ConfigCase.write(Array(local.utf8), to: folder + "/repo/.git/config")
            let environment = [
                "PWD=" + folder + "/repo", "HOME=" + folder, "PATH=/usr/local/bin:/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM=1",
                "GIT_CONFIG_GLOBAL=" + folder + "/global", "LC_ALL=C",
            ]
            func git(_ arguments: [String]) -> [String] {
                let run = Self.run(
                    ["git", "remote", "get-url", "--all"] + arguments + ["origin"], environment: environment, in: folder + "/repo")
                // A line each, empty ones too (a rewrite to an empty base).
                return String(decoding: run.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(
                    String.init)
            }
            let globalRules = try GitRemotes(
                config: GitConfigReader.read(
                    folder + "/global", at: GitConfigReader.Place(home: folder, gitDirectory: nil), files: RepositoryFiles()
                )
                .get()
            ).rewrites
            let remotes = try PlaceOwner.remotes(of: folder + "/repo", home: folder).get()
            let rewrites = globalRules + remotes.rewrites
            let origin = remotes.remotes.first { $0.name == "origin" }
            let fetch = origin?.fetchURLs(rewrites) ?? []
            let push = origin?.pushTargets(rewrites) ?? []
            let gitFetch = git([])
            let gitPush = git(["--push"])
            if fetch != gitFetch || push != gitPush {
                disagreements.append(
                    "case \(index) of seed \(Self.seed): global \(global.debugDescription), local \(local.debugDescription): "
                        + "git fetches \(gitFetch), pushes \(gitPush); Perch fetches \(fetch), pushes \(push)")
            }
        }
        print("\(cases) generated rewrite configs (seed \(Self.seed)): \(disagreements.count) disagreements")
        #expect(disagreements.count == 0, "\(disagreements.prefix(5).joined(separator: "\n"))")
    }

    /// Runs `arguments` (the program first, found in /usr/local/bin, /usr/bin or /bin) in
    /// `folder` with exactly `environment`.
    static func run(_ arguments: [String], environment: [String], in folder: String) -> (status: Int32, stdout: [UInt8], stderr: String) {
        guard
            let program = ["/usr/local/bin/", "/usr/bin/", "/bin/"].map({ $0 + arguments[0] }).first(
                where: FileManager.default.isExecutableFile),
            let spawned = try? ProcessSpawn.spawn(program, arguments, environment: environment, attachment: .captured, folder: folder)
        else { return (-1, [], "not started") }
        let collected = ProcessSpawn.collect(spawned, timeout: 30_000, stdoutLimit: 1 << 20, stderrTail: 2048)
        let status: Int32
        switch collected.ending {
        case .exited(let code): status = code
        case .signalled(let signal): status = 128 + signal
        case .timedOut: status = -2
        }
        return (status, collected.stdout, String(decoding: collected.stderr, as: UTF8.self))
    }

    /// What one case gave.
    struct Outcome {
        var refused = false
        var urls = 0
        var disagreement: String?
    }

    /// Writes `generated` under `root`, asks git and Perch, and compares.
    static func compare(_ generated: ConfigCase, root: String, global: String) -> Outcome {
        let folder = root + "/c"
        do {
            try generated.write(to: folder)
        } catch {
            return Outcome(disagreement: "case \(generated.index) could not be written: \(error)")
        }
        let start = folder + "/" + generated.start
        let git = askGit(in: start, root: folder, global: global)
        let perch = PlaceOwner.remotes(of: start, home: folder + "/home")
        let expected = git.expected
        var outcome = Outcome(refused: expected == nil, urls: expected?.entries.count ?? 0)
        let agrees: Bool
        switch perch {
        case .success(let remotes): agrees = expected == Expected(remotes)
        case .failure: agrees = expected == nil
        }
        if !agrees {
            let said: String
            switch perch {
            case .success(let remotes): said = "\(Expected(remotes))"
            case .failure(let refusal): said = "refused: \(refusal.reason)"
            }
            outcome.disagreement =
                "case \(generated.index) of seed \(seed) (PERCH_GITCONFIG_SEED=\(seed)), root \(folder):\n\(generated.described(root: folder))\n"
                + "git (status \(git.status)): \(git.expected.map { "\($0)" } ?? "refused") \(git.stderr.debugDescription)\n"
                + "Perch: \(said)"
        }
        return outcome
    }

    /// What git answered, and what Perch must say then.
    struct GitAnswer {
        var status: Int32
        var stdout: [UInt8]
        var stderr: String

        /// The remotes git lists, or nil where Perch must refuse: git failed (status 1 is "no
        /// key matched"), or listed a remote URL or rewrite without a value (git's remote
        /// commands stop at it).
        var expected: Expected? {
            guard status == 0 || status == 1 else { return nil }
            var expected = Expected()
            for record in stdout.split(separator: 0, omittingEmptySubsequences: false).dropLast() {
                let newline = record.firstIndex(of: 0x0A)
                let key = String(decoding: record[..<(newline ?? record.endIndex)], as: UTF8.self)
                let value = newline.map { String(decoding: record[(record.index(after: $0))...], as: UTF8.self) }
                guard let (section, name, variable) = GitRemotes.split(key) else { return nil }
                guard let value else {
                    if section == "remote" && name.utf8.first == UInt8(ascii: "/") { continue }
                    return nil
                }
                if section == "remote" {
                    expected.entries.append(GitRemotes.Entry(remote: name, isPush: variable == "pushurl", url: value))
                } else if variable == "insteadof" {
                    expected.insteadOf.append(GitURLRewrites.Rule(base: name, prefix: value))
                } else {
                    expected.pushInsteadOf.append(GitURLRewrites.Rule(base: name, prefix: value))
                }
            }
            return expected
        }
    }

    /// The remote entries and rewrites, compared byte for byte.
    struct Expected: Equatable, CustomStringConvertible {
        var entries: [GitRemotes.Entry] = []
        var insteadOf: [GitURLRewrites.Rule] = []
        var pushInsteadOf: [GitURLRewrites.Rule] = []

        init() {}
        init(_ remotes: GitRemotes) {
            entries = remotes.entries
            insteadOf = remotes.rewrites.insteadOf
            pushInsteadOf = remotes.rewrites.pushInsteadOf
        }

        static func == (a: Expected, b: Expected) -> Bool {
            func bytes(_ entries: [GitRemotes.Entry]) -> [[UInt8]] {
                entries.map { Array("\($0.remote)\u{0}\($0.isPush)\u{0}\($0.url)".utf8) }
            }
            func bytes(_ rules: [GitURLRewrites.Rule]) -> [[UInt8]] { rules.map { Array("\($0.base)\u{0}\($0.prefix)".utf8) } }
            return bytes(a.entries) == bytes(b.entries) && bytes(a.insteadOf) == bytes(b.insteadOf)
                && bytes(a.pushInsteadOf) == bytes(b.pushInsteadOf)
        }

        var description: String {
            let remotes = entries.map { "remote.\($0.remote).\($0.isPush ? "pushurl" : "url")=\($0.url)".debugDescription }
            let rules =
                insteadOf.map { "insteadOf \($0.base) <- \($0.prefix)".debugDescription }
                + pushInsteadOf.map { "pushInsteadOf \($0.base) <- \($0.prefix)".debugDescription }
            return "[" + (remotes + rules).joined(separator: ", ") + "]"
        }
    }

    /// `git config --local --includes --null --get-regexp` started in `start` (its PWD: a
    /// symlink's path is kept), with a scratch HOME and an empty global config.
    static func askGit(in start: String, root folder: String, global: String) -> GitAnswer {
        let environment = [
            "PWD=" + start, "HOME=" + folder + "/home", "PATH=/usr/local/bin:/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM=1",
            "GIT_CONFIG_GLOBAL=" + global,
            "LC_ALL=C",
        ]
        let run = run(["git", "config", "--local", "--includes", "--null", "--get-regexp", keys], environment: environment, in: start)
        return GitAnswer(status: run.status, stdout: run.stdout, stderr: run.stderr)
    }

    /// Every worker's outcomes.
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var count = 0
        private(set) var refused = 0
        private(set) var withURLs = 0
        private(set) var empty = 0
        private(set) var urls = 0
        private(set) var disagreements: [(index: Int, text: String)] = []

        func add(index: Int, _ outcome: Outcome) {
            lock.lock()
            defer { lock.unlock() }
            count += 1
            if outcome.refused { refused += 1 } else if outcome.urls > 0 { withURLs += 1 } else { empty += 1 }
            urls += outcome.urls
            if let text = outcome.disagreement { disagreements.append((index, text)) }
        }
    }
}

/// One generated repository: its config, the files it may include, and its `HEAD`. Paths are
/// relative to the case's folder; `@ROOT@` in a file stands for that folder, `@UROOT@` for it
/// in capitals.
struct ConfigCase {
    var index: Int
    var files: [String: [UInt8]] = [:]
    var head = "ref: refs/heads/main\n"
    /// Where git and Perch start: the repository, a folder in it, or the same through `link`,
    /// a symlink to it.
    var start = "repo"

    static let top = "repo/.git/config"

    /// The case `index` of the run with `seed`: the same whatever runs before it.
    static func generate(seed: UInt64, index: Int) -> ConfigCase {
        // The run's stream's `index`th number seeds the case: cases share no stretch of numbers.
        var stream = SplitMix64(seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        var generator = ConfigGenerator(seed: stream.next())
        return generator.generate(index: index)
    }

    /// Every folder a case's files may be in, made once a worker.
    static let skeleton = ["repo/.git/objects", "repo/.git/refs/heads", "repo/sub", "home", "inc/deep", "inc/folder", "chain"]

    /// Writes the case under `folder` (its skeleton made when missing), with POSIX calls:
    /// Foundation's file calls took twice as long as git.
    func write(to folder: String) throws {
        if access(folder, F_OK) != 0 {
            for path in Self.skeleton {
                try FileManager.default.createDirectory(atPath: folder + "/" + path, withIntermediateDirectories: true)
            }
            try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: "repo")
        }
        try Self.write(Array(head.utf8), to: folder + "/repo/.git/HEAD")
        for (path, bytes) in files { try Self.write(Self.substitute(bytes, root: folder), to: folder + "/" + path) }
    }

    /// Removes the files ``write(to:)`` wrote, leaving the skeleton.
    func remove(from folder: String) {
        for path in files.keys { unlink(folder + "/" + path) }
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    }

    /// `bytes` with `@ROOT@` and `@UROOT@` replaced.
    static func substitute(_ bytes: [UInt8], root: String) -> [UInt8] {
        var text = bytes
        for (mark, value) in [("@UROOT@", root.uppercased()), ("@ROOT@", root)] {
            let mark = Array(mark.utf8)
            var result: [UInt8] = []
            var index = 0
            while index < text.count {
                if text[index...].starts(with: mark) {
                    result += Array(value.utf8)
                    index += mark.count
                } else {
                    result.append(text[index])
                    index += 1
                }
            }
            text = result
        }
        return text
    }

    /// Every file, escaped, for a failure message.
    func described(root: String) -> String {
        var lines = ["started in \(start); HEAD: \(head.debugDescription)"]
        for path in files.keys.sorted() {
            lines.append("\(path): \(String(decoding: Self.substitute(files[path]!, root: root), as: UTF8.self).debugDescription)")
        }
        return lines.joined(separator: "\n")
    }
}

/// The seeded generator of ``ConfigCase``s.
struct ConfigGenerator {
    var random: SplitMix64
    var files: [String: [UInt8]] = [:]
    var crlf = 0

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// Files an include may name, beside the top config; the chain's files nest 8 to 12 deep.
    static let slots = ["inc/a", "inc/b", "inc/deep/c", "home/h", "repo/shared", "repo/.git/extra"]
    static let missing = ["inc/missing", "nowhere/x", "home/none"]

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }

    mutating func generate(index: Int) -> ConfigCase {
        var generated = ConfigCase(index: index)
        generated.head = pick([
            "ref: refs/heads/main\n", "ref: refs/heads/main\n", "ref: refs/heads/main\n", "ref: refs/heads/feature/x\n",
            "ref:  refs/heads/Main\n",
            "0123456789abcdef0123456789abcdef01234567\n",
        ])
        generated.start = pick(["repo", "repo", "repo", "repo/sub", "link", "link", "link/sub"])
        files[ConfigCase.top] = []
        files[ConfigCase.top] = file(at: ConfigCase.top, urlFree: false, budget: 3)
        if chance(3) {
            // A chain of includes 8 to 12 deep: git allows 10.
            let length = Int.random(in: 8...12, using: &random)
            for link in 0..<length {
                let next = link + 1 < length ? "[include]\n\tpath = \(link + 1)\n" : ""
                files["chain/\(link)"] = Array("\(next)[remote \"chain\(link)\"]\n\turl = chain-\(link)\n".utf8)
            }
            files[ConfigCase.top]! += Array("[include]\n\tpath = ../../chain/0\n".utf8)
        }
        generated.files = files
        return generated
    }

    /// One file's text: blocks of sections and comments.
    mutating func file(at path: String, urlFree: Bool, budget: Int) -> [UInt8] {
        crlf = pick([0, 0, 0, 0, 0, 1, 2])
        var text: [UInt8] = []
        if chance(4) { text += [0xEF, 0xBB, 0xBF] } else if chance(1) { text += [0xEF, 0xBB] }
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            text += block(in: path, urlFree: urlFree, budget: budget)
        }
        if chance(10), let last = text.last, last == 0x0A {
            text.removeLast()
            if text.last == 0x0D { text.removeLast() }
        }
        return text
    }

    mutating func end() -> String {
        switch crlf {
        case 1: "\r\n"
        case 2: chance(50) ? "\r\n" : "\n"
        default: "\n"
        }
    }

    /// A section header and its variables, an include, a comment or a malformed line.
    mutating func block(in path: String, urlFree: Bool, budget: Int) -> [UInt8] {
        var text = ""
        let kind = Int.random(in: 0..<100, using: &random)
        switch kind {
        case 0..<8:
            text += pick(["# [remote \"fake\"]", "; url = nothing", "", "   ", "\t# comment \"quoted", "#", ";x"]) + end()
        case 8..<24 where budget > 0:
            return Array(text.utf8) + include(in: path, urlFree: urlFree, budget: budget)
        case 24:
            text +=
                pick([
                    "9url = x", "url x", "=x", "\"x\"", "[remote \"x\" ]", "[remote \"x", "[remote x]", "[]", "[re mote]", "-x = y",
                    "[remote \"a\nb\"]",
                ])
                + end()
        default:
            let remote = !urlFree && kind < 75
            text += remote ? remoteHeader() : otherHeader()
            let count = Int.random(in: 0...3, using: &random)
            if chance(30) {
                text += pick([" ", "", "\t"]) + variable(remote: remote)
            } else {
                text += end()
            }
            for _ in 0..<count { text += pick(["\t", "", "  "]) + variable(remote: remote) }
        }
        return Array(text.utf8)
    }

    mutating func remoteHeader() -> String {
        let names = [
            "origin", "origin", "fork", "Origin", "up stream", "a.b", #"with\"quote"#, #"back\\slash"#, #"esc\aped"#, "/slash", "", "日本",
            "tab\there", "x;y#z",
        ]
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return "[remote.\(pick(["origin", "Origin", "a.b", "fork-2", "", "UP"]))]"
        case 1: return "[\(pick(["REMOTE", "Remote", "rEmOtE"])) \"\(pick(names))\"]"
        case 2: return "[remote\(pick(["  ", "\t", " \t"]))\"\(pick(names))\"]"
        case 3: return pick(["[remote]", "[remotes \"origin\"]", "[remote-x \"origin\"]", "[remote.origin \"sub\"]"])
        default: return "[remote \"\(pick(names))\"]"
        }
    }

    mutating func otherHeader() -> String {
        pick([
            "[submodule \"lib\"]", "[url \"https://github.com/\"]", "[url \"git@github.com:\"]", "[URL \"work:\"]", "[url \"\"]", "[url]",
            "[branch \"main\"]", "[core]", "[user]", "[url.gh]", "[url \"https://github.com/acme/\"]",
        ])
    }

    /// `name = value` with any of git's spellings.
    mutating func variable(remote: Bool) -> String {
        let names =
            remote
            ? ["url", "url", "url", "URL", "Url", "pushurl", "pushURL", "fetch", "url2", "x-url", "insteadOf"]
            : ["url", "insteadOf", "InsteadOf", "pushInsteadOf", "email", "path", "url"]
        let name = pick(names)
        if chance(3) { return name + pick(["", " ", "\t"]) + end() }
        return name + pick([" = ", "=", "\t=\t", " =", "= ", "  =  "]) + value() + pick(["", "", " ", "\t", " # c", " ;c", "#x"]) + end()
    }

    /// A value from pieces: URLs, spaces, quotes, escapes, continuations, comments.
    mutating func value() -> String {
        let urls = [
            "git@github.com:acme/site.git", "https://github.com/acme/site", "ssh://git@gitlab.example.com:2222/team/app.git",
            "https://ada@github.com/ada/notes/", "gh:acme/x", "work:site", "../local/path", "file:///srv/repo.git",
            "git@github.com:/acme/site.git",
            "https://github.com/", "git@github.com:", "https://github.com/acme/",
        ]
        var text = pick(urls)
        var inComment = false
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            let piece: String
            var kind = Int.random(in: 0..<200, using: &random)
            if kind >= 140 && kind <= 143 && chance(50) { kind = 199 }
            switch kind {
            case 0..<50: piece = pick(urls)
            case 50..<74: piece = pick([" ", "  ", "\t", " \t "])
            case 74..<88: piece = pick(["\"quoted part\"", "\"a#b;c\"", "\" lead\"", "\"\"", "\"tab\there\""])
            case 88..<104: piece = pick([#"\\"#, #"\""#, #"\n"#, #"\t"#, #"\b"#])
            case 104..<116: piece = inComment ? "a" : "\\" + end() + pick(["", " ", "\t"])
            case 116..<124:
                piece = pick([" # comment", " ; comment", "#c", ";"])
                inComment = true
            case 124..<136: piece = pick(["é", "日本", "\u{0B}", "\u{0C}", "\r"])
            case 136..<140: piece = pick(["=", "[x]", "a=b"])
            // What git refuses: an unknown escape, an unclosed quote, a line end inside quotes.
            case 140: piece = pick([#"\x"#, #"\ "#, #"\a"#])
            case 141: piece = "\""
            case 142: piece = inComment ? "a" : "\"open\nclose\""
            case 143: piece = "\u{0}"
            default: piece = pick(["a", "b", "/x", ".git", "/"])
            }
            text += piece
        }
        return text
    }

    /// `[include]` or `[includeIf "…"]` with a `path`, and the file it names.
    mutating func include(in path: String, urlFree: Bool, budget: Int) -> [UInt8] {
        var header: String
        var condition: String?
        switch Int.random(in: 0..<12, using: &random) {
        case 0..<4: header = pick(["[include]", "[include]", "[Include]", "[INCLUDE]", "[include \"x\"]", "[include.]"])
        default:
            condition = self.condition()
            header = "[\(pick(["includeIf", "includeIf", "includeif", "IncludeIf"])) \"\(condition!)\"]"
        }
        let hasconfig = condition?.hasPrefix("hasconfig:") == true
        var text = header
        text += chance(25) ? pick([" ", ""]) : end() + pick(["\t", ""])
        var pathValue: String
        var target: String?
        switch Int.random(in: 0..<20, using: &random) {
        case 0: pathValue = pick(["", "inc/folder", "~nosuchuser-perch/x"])
        case 1..<3: pathValue = pick(Self.missing)
        case 3..<5: pathValue = pick([ConfigCase.top, path])
        default: pathValue = pick(Self.slots)
        }
        if pathValue.isEmpty || pathValue.hasPrefix("~") || pathValue == "inc/folder" {
            if pathValue == "inc/folder" { pathValue = spelling(of: pathValue, from: path) }
            // As written.
        } else {
            target = pathValue
            pathValue = spelling(of: pathValue, from: path)
        }
        if chance(3) {
            text += pick(["path", "PATH"]) + end()
        } else {
            let quoted = chance(15) ? "\"\(pathValue)\"" : pathValue
            text += pick(["path", "path", "Path", "PATH"]) + pick([" = ", "="]) + quoted + pick(["", " ", " # c"]) + end()
        }
        if let target, files[target] == nil, !Self.missing.contains(target) {
            files[target] = []
            files[target] = file(at: target, urlFree: urlFree || (hasconfig && chance(70)), budget: budget - 1)
        }
        return Array(text.utf8)
    }

    /// How an include names `target` from the file at `from`: relative, absolute or `~/`.
    mutating func spelling(of target: String, from: String) -> String {
        if target.hasPrefix("home/"), chance(40) { return "~/" + target.dropFirst(5) }
        if chance(25) { return "@ROOT@/" + target }
        let folder = from.split(separator: "/").dropLast()
        let parts = target.split(separator: "/")
        var common = 0
        while common < folder.count, common < parts.count - 1, folder[common] == parts[common] { common += 1 }
        let relative = Array(repeating: "..", count: folder.count - common) + parts[common...].map(String.init)
        let text = relative.joined(separator: "/")
        return chance(10) ? "./" + text : text
    }

    mutating func condition() -> String {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4:
            return pick([
                "gitdir:@ROOT@/repo/", "gitdir:@ROOT@/repo/.git", "gitdir:@ROOT@/repo", "gitdir:@ROOT@/other/", "gitdir:repo/",
                "gitdir:repo/.git", "gitdir:**/repo/.git", "gitdir:@ROOT@/re*/", "gitdir:@ROOT@/r?po/", "gitdir:@ROOT@/[qr]epo/",
                "gitdir:@ROOT@/[!x]epo/", "gitdir:@ROOT@/**", "gitdir:~/", "gitdir:~/../repo/", "gitdir:./", "gitdir:./.git",
                "gitdir:./../", "gitdir:@UROOT@/REPO/", "gitdir/i:@UROOT@/REPO/", "gitdir/i:repo/", "gitdir/i:REPO/.GIT", "gitdir:/",
                "gitdir:", "gitdir:~nosuchuser-perch/x/", "gitdir:@ROOT@/repo/.git/", "gitdir/i:./", "gitdir:@ROOT@/*/.git",
                "gitdir:@ROOT@/link/", "gitdir:@ROOT@/link/.git", "gitdir:link/",
                "gitdir/i:@UROOT@/LINK/",
            ])
        case 4..<7:
            return pick([
                "onbranch:main", "onbranch:ma*", "onbranch:Main", "onbranch:feature/", "onbranch:feature/*", "onbranch:**", "onbranch:*",
                "onbranch:", "onbranch:feature/x", "onbranch:[mM]ain",
            ])
        case 7..<9:
            return "hasconfig:remote.*.url:"
                + pick(["https://github.com/**", "git@github.com:*/*", "*", "**", "nomatch", "git@github.com:acme/site.git", "gh:*"])
        default:
            return pick([
                "GitDir:@ROOT@/", "gitdir", "foo:bar", "", "Onbranch:main", "HasConfig:remote.*.url:*", "hasconfig:remote.x.url:*",
            ])
        }
    }
}
