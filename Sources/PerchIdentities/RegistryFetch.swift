import Glibc
import PerchStore

/// Fetches a registry (`perch registry add`, `update`) with git itself: into a bare repository
/// of Perch's own, at a branch, tag or commit, its commit's signature checked when asked, and
/// its `perch-registry.json` read from the commit's tree. Nothing of the repository is checked
/// out or run: no hook, no filter, no submodule.
public enum RegistryFetch {
    /// What a fetch found.
    public struct Fetched: Hashable, Sendable {
        /// The commit the ref names now (hex).
        public var commit: String
        /// The registry file at that commit.
        public var bytes: [UInt8]
    }

    /// Why a fetch found nothing usable; ``description`` is one line, git's own reason last
    /// (control characters shown as `?`).
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// One line, git's own reason last.
        public var description: String
        /// The failure saying `description`.
        public init(_ description: String) { self.description = description }
    }

    /// git's first `fatal:` or `error:` line (its reason; the lines after it are advice), at
    /// most 200 characters, control characters shown as `?`; nil when there is none.
    static func gitReason(_ result: ProgramResult) -> String? {
        guard case .exited(let status, _, let stderr) = result else { return nil }
        let lines = stderr.split(whereSeparator: \.isNewline)
        guard let at = lines.firstIndex(where: { $0.hasPrefix("ssh:") || $0.hasPrefix("fatal:") || $0.hasPrefix("error:") }) else {
            return nil
        }
        // A reason that goes on on the next line (`fatal: unable to connect to 127.0.0.1:`, then the errno) is joined.
        let line = lines[at].hasSuffix(":") && at + 1 < lines.count ? lines[at] + " " + lines[at + 1] : lines[at]
        return Optional(line).map {
            "exited with status \(status): "
                + String($0.prefix(200).map { $0.isASCII && ($0.asciiValue! < 0x20 || $0.asciiValue! == 0x7F) ? "?" : $0 })
        }
    }

    /// What every git command of a fetch is given: only the transports a registry may come by
    /// (https, http, ssh, git, file: `ext::` would run a command, `fd::` hangs on a descriptor),
    /// no hook, and no OpenPGP or X.509 verifier (only ssh signatures are checked against the
    /// keys the user named).
    static let hardening = [
        "-c", "protocol.allow=never", "-c", "protocol.https.allow=always", "-c", "protocol.http.allow=always", "-c",
        "protocol.ssh.allow=always", "-c", "protocol.git.allow=always", "-c", "protocol.file.allow=always", "-c",
        "core.hooksPath=/dev/null", "-c", "gpg.openpgp.program=false", "-c", "gpg.x509.program=false",
    ]

    /// How long git may take to fetch, in milliseconds, by default (60 s).
    public static let defaultTimeout: Int64 = 60_000

    /// Whether `ref` can be asked for: a branch or tag name (`git check-ref-format
    /// --allow-onelevel`'s rules, checked here without a shell: no `..`, no control
    /// characters, no space, `~^:?*[\`, no leading `-`, `.` or `/`) or a commit's hex digits.
    public static func isValidRef(_ ref: String) -> Bool {
        guard !ref.isEmpty, ref.utf8.count <= 255, !ref.hasPrefix("-"), !ref.hasPrefix("."), !ref.hasPrefix("/"), !ref.hasSuffix("/"),
            !ref.hasSuffix("."), !ref.hasSuffix(".lock"), !ref.contains(".."), !ref.contains("//"), !ref.contains("@{"), ref != "@"
        else { return false }
        // No part may start with `.` or end with `.lock`.
        guard !ref.split(separator: "/").contains(where: { $0.hasPrefix(".") || $0.hasSuffix(".lock") }) else { return false }
        return ref.utf8.allSatisfy { $0 > 0x20 && $0 != 0x7F && !"~^:?*[\\".utf8.contains($0) }
    }

    /// Whether `path` can be a folder of the repository: relative, no `.` or `..` part, no control character.
    public static func isValidPath(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.hasPrefix("-") else { return false }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." } && path.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x7F }
    }

    /// The environment git runs in: the user's (their ssh, credential helpers and `insteadOf`
    /// rules apply), without what would point git at another repository, and never asking on
    /// the terminal.
    static func gitEnvironment(_ environment: IdentityEnvironment) -> IdentityEnvironment {
        var environment = environment
        for name in [
            "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE",
            "GIT_COMMON_DIR", "GIT_PREFIX", "GIT_CEILING_DIRECTORIES",
        ] {
            environment.variables[name] = nil
        }
        environment.variables["GIT_TERMINAL_PROMPT"] = "0"
        return environment
    }

    /// Checks that `commit` (its object's text in `header`) carries an OpenPGP signature that
    /// `verify` (git verify-commit --raw, gpg's status lines on stderr, doc/DETAILS in GnuPG)
    /// reports as `VALIDSIG` by `key` (its primary key's or a subkey's fingerprint, any case), and
    /// no `EXPKEYSIG`, `REVKEYSIG` or `ERRSIG`.
    /// - Throws: ``Failure`` naming what is wrong.
    static func verifyOpenPGP(_ commit: String, key: String, header: String, verify: () -> ProgramResult) throws(Failure) {
        let short = commit.prefix(7)
        let signature = header.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
            .first { $0.hasPrefix("gpgsig ") || $0.hasPrefix("gpgsig-sha256 ") }
        guard let signature, signature.hasSuffix(" -----BEGIN PGP SIGNATURE-----") else {
            throw Failure("commit \(short) is not signed by key \(key): it carries no OpenPGP signature")
        }
        let result = verify()
        guard case .exited(let status, _, let said) = result else {
            throw Failure("commit \(short) is not signed by key \(key): git verify-commit \(result.failure ?? "")")
        }
        let lines = said.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("[GNUPG:] ") }.map { $0.split(separator: " ") }
        let wanted = key.uppercased()
        let valid = lines.contains { words in
            words.count >= 3 && words[1] == "VALIDSIG" && (words[2].uppercased() == wanted || words.last?.uppercased() == wanted)
        }
        let spoilt = lines.contains {
            ["EXPKEYSIG", "REVKEYSIG", "ERRSIG", "BADSIG", "EXPSIG"].contains(String($0.count > 1 ? $0[1] : ""))
        }
        guard status == 0, valid, !spoilt else {
            throw Failure("commit \(short) is not signed by key \(key)" + (valid ? " (a signature is expired, revoked or bad)" : ""))
        }
    }

    /// Whether `key` can name an OpenPGP key: its v4 fingerprint, 40 hex digits.
    public static func isFingerprint(_ key: String) -> Bool {
        key.utf8.count == 40 && key.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }
    }

    /// Whether `commit` descends from `ancestor` (or is it) in `repository` (`git merge-base
    /// --is-ancestor`): an update that is not moves the registry back or onto rewritten history.
    public static func descends(_ commit: String, from ancestor: String, repository: String, environment: IdentityEnvironment) -> Bool {
        let result = ProgramRunner.run(
            "git", ["--git-dir=" + repository] + hardening + ["merge-base", "--is-ancestor", ancestor, commit],
            in: gitEnvironment(environment),
            folder: "/", detached: true)
        return result.output != nil
    }

    /// Fetches `url` into `repository` (made bare when missing) and reads the registry file at `ref`.
    /// - Parameters:
    ///   - ref: a branch, tag or commit; nil for the remote's default branch (its `HEAD`).
    ///   - path: the folder holding `perch-registry.json`; nil for the top.
    ///   - allowedSigners: when given, the commit must carry an ssh signature `git verify-commit`
    ///     accepts with this file as `gpg.ssh.allowedSignersFile` (an OpenPGP one is refused: the
    ///     user's whole keyring would judge it, not the keys named).
    ///   - openPGPKey: when given (a key's fingerprint, 40 hex digits), the commit must carry an
    ///     OpenPGP signature that `git verify-commit --raw` reports valid (gpg's `VALIDSIG`) by
    ///     that key or a subkey of it, from the user's keyring: no other key of the keyring counts.
    ///   - timeout: for each git command, in milliseconds.
    /// - Throws: ``Failure``; `repository` may then hold objects, never a change Perch uses.
    public static func fetch(
        url: String, ref: String?, path: String?, repository: String, allowedSigners: String?, environment: IdentityEnvironment,
        openPGPKey: String? = nil, timeout: Int64 = defaultTimeout
    ) throws(Failure) -> Fetched {
        let environment = gitEnvironment(environment)
        func git(_ arguments: [String], limit: Int = ProgramRunner.outputLimit) -> ProgramResult {
            ProgramRunner.run(
                "git", ["--git-dir=" + repository] + hardening + arguments,
                in: environment, timeout: timeout, folder: "/", detached: true, stdoutLimit: limit)
        }
        if access(repository + "/HEAD", F_OK) != 0 {
            do { try FileSystem.createDirectory(FileSystem.directory(of: repository)) } catch { throw Failure("\(error)") }
            let made = ProgramRunner.run("git", ["init", "--bare", "--quiet", repository], in: environment, timeout: timeout, folder: "/")
            if let failure = made.failure { throw Failure("git init \(repository): \(failure)") }
        }
        var refspecs = ["+refs/heads/*:refs/perch/heads/*", "+refs/tags/*:refs/perch/tags/*"]
        if ref == nil { refspecs.append("+HEAD:refs/perch/HEAD") }
        let fetched = git(["fetch", "--quiet", "--no-tags", "--prune", "--no-write-fetch-head", "--", url] + refspecs)
        if let failure = fetched.failure { throw Failure("cannot fetch: git fetch " + (gitReason(fetched) ?? failure)) }
        // The ref as a branch, then a tag, then a commit's hex digits.
        var candidates = ["refs/perch/HEAD"]
        if let ref {
            let hex = ref.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
            if hex, ref.utf8.count == 40 || ref.utf8.count == 64 {
                // Bug (hostile review): a branch named as the pinned commit moved the pin.
                candidates = [ref]
            } else {
                candidates = ["refs/perch/heads/" + ref, "refs/perch/tags/" + ref]
                if ref.utf8.count >= 4, hex { candidates.append(ref) }
            }
        }
        var commit: String?
        for candidate in candidates {
            if let found = git(["rev-parse", "--verify", "--quiet", "--end-of-options", candidate + "^{commit}"]).output {
                commit = String(found.filter { !$0.isWhitespace })
                break
            }
        }
        guard let commit, commit.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }), commit.utf8.count >= 40
        else {
            throw Failure(
                ref.map { "no branch, tag or commit \"\($0)\" there" } ?? "the repository has no default branch (HEAD); name one with --ref"
            )
        }
        if let allowedSigners {
            // Only an ssh signature is checked against the file: an OpenPGP one would be judged
            // by the user's whole keyring, not by the keys named. Bug (hostile review): git's
            // words were looked for in its output, and an OpenPGP key whose user id held them passed.
            let header = git(["cat-file", "commit", commit]).output ?? ""
            let signature = header.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
                .first { $0.hasPrefix("gpgsig ") || $0.hasPrefix("gpgsig-sha256 ") }
            guard let signature, signature.hasSuffix(" -----BEGIN SSH SIGNATURE-----") else {
                throw Failure("commit \(commit.prefix(7)) is not signed by a key of \(allowedSigners): it carries no ssh signature")
            }
            let verified = git(["-c", "gpg.ssh.allowedSignersFile=" + allowedSigners, "verify-commit", commit])
            if let failure = verified.failure {
                throw Failure("commit \(commit.prefix(7)) is not signed by a key of \(allowedSigners): git verify-commit \(failure)")
            }
        }
        if let openPGPKey {
            try verifyOpenPGP(commit, key: openPGPKey, header: git(["cat-file", "commit", commit]).output ?? "") {
                git(["-c", "gpg.openpgp.program=gpg", "verify-commit", "--raw", commit])
            }
        }
        let file = (path.map { $0 + "/" } ?? "") + RegistryDefinitions.fileName
        let read = git(["cat-file", "blob", commit + ":" + file], limit: 256 << 20)
        guard case .exited(0, let text, _) = read else {
            throw Failure("commit \(commit.prefix(7)) has no \(file)")
        }
        return Fetched(commit: commit, bytes: Array(text.utf8))
    }
}
