import Glibc
import PerchDomain
import PerchStore

/// The guard's check of commits: those a ref update brings (`reference-transaction`) and those
/// a push sends that the remote does not have (`pre-push`).
///
/// The rule (docs/guard.md): a commit is refused when its committer is not the account's and is
/// either who git's settings make the committer here now (`git var GIT_COMMITTER_IDENT`: the
/// config and `GIT_COMMITTER_*` variables) or the email of another of your accounts; its author
/// is held to the account too when the commit was authored now (author time equals committer
/// time) or by another of your accounts. A commit someone else made (a colleague's commit you
/// amend, rebase, cherry-pick or apply with `am`, or one fetched into a branch) keeps its author
/// and is never refused for it.
extension GitGuard {
    /// One commit as `git rev-list --format` gives it.
    public struct Commit: Hashable, Sendable {
        public var sha: String
        public var author: Ident
        public var committer: Ident
        /// The subject line, as the repository holds it (shown through `visibleControls`).
        public var subject: String
    }

    /// A name, email and time (seconds since the epoch, as git records it).
    public struct Ident: Hashable, Sendable {
        public var name: String
        public var email: String
        public var time: Int64

        public var shown: String { "\(name) <\(email)>" }

        /// Whether it is the identity `git` names (name and email, each when given; the email
        /// without regard to case, as git hosts compare it).
        func matches(_ git: GitAdapter.Setting) -> Bool {
            (git.name.map { $0 == name } ?? true) && (git.email.map { $0.lowercased() == email.lowercased() } ?? true)
        }

        /// `Name <email> 1700000000 +0000` (git var's form), or nil.
        static func parse(_ text: String) -> Ident? {
            let line = text.trimmingWhitespace
            guard let open = line.lastIndex(of: "<"), let close = line[open...].firstIndex(of: ">") else { return nil }
            let time = line[line.index(after: close)...].trimmingWhitespace.split(separator: " ").first.flatMap { Int64($0) } ?? 0
            return Ident(
                name: String(line[..<open].trimmingWhitespace), email: String(line[line.index(after: open)..<close]), time: time)
        }
    }

    /// The `--format` of `git rev-list` that ``commits(_:)`` reads: fields split by NUL, one
    /// commit a line (`%s` holds no line break).
    static let commitFormat = "%H%x00%an%x00%ae%x00%at%x00%cn%x00%ce%x00%ct%x00%s"

    /// The commits of `git rev-list --no-commit-header --format=…` output.
    static func commits(_ text: String) -> [Commit] {
        text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 8 else { return nil }
            return Commit(
                sha: fields[0], author: Ident(name: fields[1], email: fields[2], time: Int64(fields[3]) ?? 0),
                committer: Ident(name: fields[4], email: fields[5], time: Int64(fields[6]) ?? 0),
                subject: fields[7...].joined(separator: " "))
        }
    }

    /// The commits reachable from `tips` and not from `excluding` (rev-list arguments such as
    /// `--all` or `--remotes=origin`, or `^SHA`), newest first; nil when git could not tell
    /// (a timeout, a failure), which the guard takes as a refusal.
    static func newCommits(_ tips: [String], excluding: [String], in context: ProofContext) -> [Commit]? {
        guard !tips.isEmpty else { return [] }
        let run = context.run(
            "git",
            ["rev-list", "--topo-order", "--no-commit-header", "--ignore-missing", "--format=" + commitFormat] + tips + ["--not"]
                + excluding)
        guard let output = run.output else { return nil }
        return commits(output)
    }

    /// One wrong commit and what in it is wrong.
    public struct WrongCommit: Hashable, Sendable {
        public var commit: Commit
        /// The wrong identity (the committer's when both are wrong).
        public var ident: Ident
        /// "author", "committer" or "author and committer".
        public var role: String
    }

    /// Which of `commits` are made as another account than `git` (see the type's rule).
    /// `others` holds the lowercased emails of your other accounts; `settings` gives, when first
    /// needed, who git makes the committer here now.
    static func wrong(
        _ commits: [Commit], account git: GitAdapter.Setting, others: Set<String>, settings: () -> Ident?
    ) -> [WrongCommit] {
        var asked = false
        var here: Ident?
        func isHere(_ ident: Ident) -> Bool {
            if !asked {
                here = settings()
                asked = true
            }
            guard let here else { return false }
            return here.name == ident.name && here.email.lowercased() == ident.email.lowercased()
        }
        var result: [WrongCommit] = []
        for commit in commits {
            // Made here: by the account, by another of yours, or as git's settings make it now.
            // Anyone else's commit (fetched into a branch, cloned) is not judged at all.
            let committerIsAccount = commit.committer.matches(git)
            let committerIsOther = others.contains(commit.committer.email.lowercased())
            let committerWrong = !committerIsAccount && (committerIsOther || isHere(commit.committer))
            let madeHere = committerIsAccount || committerWrong
            let authorWrong =
                !commit.author.matches(git)
                && (others.contains(commit.author.email.lowercased()) || (madeHere && commit.author.time == commit.committer.time))
            guard committerWrong || authorWrong else { continue }
            let role = committerWrong && authorWrong ? "author and committer" : committerWrong ? "committer" : "author"
            result.append(WrongCommit(commit: commit, ident: committerWrong ? commit.committer : commit.author, role: role))
        }
        return result
    }

    /// The lowercased git emails of every account but `account`, less its own.
    static func otherEmails(_ accounts: [Account], but account: Account) -> Set<String> {
        let own = account.identities[.git]?.value(as: GitAdapter.Setting.self)?.email?.lowercased()
        var emails = Set<String>()
        for other in accounts where other.id != account.id {
            if let email = other.identities[.git]?.value(as: GitAdapter.Setting.self)?.email?.lowercased(), email != own {
                emails.insert(email)
            }
        }
        return emails
    }

    /// Who git makes the committer here now (`git var GIT_COMMITTER_IDENT`), or nil.
    static func committerHere(_ context: ProofContext) -> Ident? {
        context.run("git", ["var", "GIT_COMMITTER_IDENT"]).output.flatMap(Ident.parse)
    }

    /// One ref update as `reference-transaction` gives it: `OLD NEW REF`.
    public struct RefUpdate: Hashable, Sendable {
        public var old: String
        public var new: String
        public var ref: String

        /// The updates of the hook's input that give a branch or `HEAD` a new value.
        public static func parse(_ text: String) -> [RefUpdate] {
            text.split(separator: "\n").compactMap { line in
                let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
                guard parts.count == 3, parts[1].contains(where: { $0 != "0" }) else { return nil }
                guard parts[2] == "HEAD" || parts[2].hasPrefix("refs/heads/") else { return nil }
                return RefUpdate(old: parts[0], new: parts[1], ref: parts[2])
            }
        }
    }

    /// What a refusal needs of the place: who owns it and the accounts to tell yours by.
    public struct Judge: Sendable {
        public var owner: PlaceOwner
        public var account: Account
        public var accounts: [Account]

        public init(owner: PlaceOwner, account: Account, accounts: [Account]) {
            self.owner = owner
            self.account = account
            self.accounts = accounts
        }
    }

    /// The commits `updates` bring that no ref reaches yet (`git rev-list NEW… --not --all`, in
    /// `folder` with `environment`: the hook's own), newest first; nil when git could not tell.
    /// Asked before anything else is read: a new branch where a commit already is costs this one
    /// git and nothing more.
    public static func newCommits(_ updates: [RefUpdate], environment: IdentityEnvironment, folder: String) -> [Commit]? {
        let tips = Array(Set(updates.map(\.new))).sorted()
        guard !tips.isEmpty else { return [] }
        let run = ProgramRunner.run(
            "git",
            ["rev-list", "--topo-order", "--no-commit-header", "--ignore-missing", "--format=" + commitFormat] + tips + ["--not", "--all"],
            in: environment, timeout: 5000, folder: folder)
        return run.output.map(commits)
    }

    /// Why the new commits `commits` (``newCommits(_:environment:folder:)``) would enter a branch as
    /// another account than the owner's, or nil when none would; `.failure` when git could not
    /// list them. Each refusal names the commit, who it is made as and why, the fix, and what to
    /// run after it for the operation under way (a merge, cherry-pick, revert, am or rebase).
    public static func checkRefs(_ commits: [Commit], judge: Judge, in context: ProofContext) -> Verdict {
        guard let git = judge.account.identities[.git]?.value(as: GitAdapter.Setting.self), git.name != nil || git.email != nil
        else { return .allowed }
        let others = otherEmails(judge.accounts, but: judge.account)
        let wrong = wrong(commits, account: git, others: others) { committerHere(context) }
        guard let first = wrong.first else { return .allowed }
        let expected = [git.name, git.email.map { "<\($0)>" }].compactMap { $0 }.joined(separator: " ")
        var reason: String?
        var fix: String?
        if first.role != "author" {
            // Who git's settings make the committer: asked as verify asks, without the author
            // git commit exports to its hooks (GIT_AUTHOR_*, which is this commit's, not a setting).
            var asking = context
            for name in ["GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE"] {
                asking.tool.environment.variables.removeValue(forKey: name)
            }
            let answer = GitAdapter.askAuthor(git, in: asking)
            // Your own includeIf rule wins in this folder by design (docs/scopes.md): verify says
            // so with –, and the guard lets it be, unless it is strict (perch guard install --strict).
            let strict = GitGuard.isStrict(context.tool)
            if answer.verdict == .unknown, others.contains(first.ident.email.lowercased()) == false, !strict { return .allowed }
            reason = answer.reason.map {
                answer.verdict == .unknown && strict
                    ? $0 + " (the guard is strict: perch guard install without --strict lets your rule be)" : $0
            }
            fix =
                answer.fix
                ?? (answer.verdict == .unknown ? "change the email in your own rule's file, or take the rule out for this folder" : nil)
        } else {
            reason =
                "its author was given by --author or GIT_AUTHOR_* variables, or kept from a commit made as \(first.ident.email) (amend, rebase, cherry-pick)"
            fix = "make it with --reset-author (git commit --amend --reset-author for an amend), not --author"
        }
        var text = refusal(
            wrong.count == 1 ? "commit" : "\(wrong.count) commits",
            as: first.role == "author and committer" ? first.ident.shown : "\(first.ident.shown) (\(first.role))", owner: judge.owner,
            account: judge.account, expected: expected, reason: reason, fix: fix, skip: nil)
        for item in wrong.prefix(5) where wrong.count > 1 {
            text += "  \(item.commit.sha.prefix(10)) as \(item.ident.shown) (\(item.role)): \(item.commit.subject.prefix(60))\n"
        }
        if wrong.count > 5 { text += "  … and \(wrong.count - 5) more\n" }
        text += "  then: \(afterFix(in: context, sha: first.commit.sha))\n"
        text += "  (\(skip("git …")))\n"
        return .refused(text)
    }

    /// What to run once the fix is made, for the operation under way in the repository (its
    /// git folder's state files, git's own): each continues the operation, or starts it again.
    static func afterFix(in context: ProofContext, sha: String) -> String {
        let gitDir =
            context.run("git", ["rev-parse", "--absolute-git-dir"]).output?.trimmingWhitespace ?? ".git"
        func has(_ name: String) -> Bool { access(gitDir + "/" + name, F_OK) == 0 }
        if has("rebase-apply/applying") { return "git am --continue" }
        if has("rebase-merge") || has("rebase-apply") { return "git rebase --abort, then the same rebase again" }
        if has("CHERRY_PICK_HEAD") { return "git cherry-pick --continue" }
        if has("REVERT_HEAD") { return "git revert --continue" }
        if has("MERGE_HEAD") { return "git commit (the merge is kept; it concludes it)" }
        // A single revert or cherry-pick leaves its changes staged and its message prepared.
        if has("MERGE_MSG") { return "git commit (the changes and message git prepared are kept)" }
        return "the same git command again (this commit's message: git log -1 --format=%B \(sha.prefix(10)))"
    }

    /// A check's outcome.
    public enum Verdict: Hashable, Sendable {
        case allowed
        case refused(String)
        /// The check could not tell (git failed or timed out): the guard refuses, saying so.
        case failure(String)
    }

    /// Why commits a push sends (those of `updates`' local tips the remote `remote` does not
    /// have: not on its remote-tracking refs, nor its current tips) would go out as another
    /// account than the owner's: each wrong one named, with the fix that makes them again.
    /// `updates` are pre-push's input lines, `LOCAL_REF LOCAL_SHA REMOTE_REF REMOTE_SHA`.
    public static func checkPushedCommits(_ input: String, remote: String, judge: Judge, in context: ProofContext) -> Verdict {
        guard let git = judge.account.identities[.git]?.value(as: GitAdapter.Setting.self), git.name != nil || git.email != nil
        else { return .allowed }
        var tips: [String] = []
        var excluding = ["--remotes=" + remote]
        for line in input.split(separator: "\n") {
            let parts = line.split(separator: " ").map(String.init)
            guard parts.count == 4, parts[1].contains(where: { $0 != "0" }) else { continue }
            tips.append(parts[1])
            if parts[3].contains(where: { $0 != "0" }) { excluding.append("^" + parts[3]) }
        }
        // `^SHA` before `--not` would be read the other way: they go after --remotes, negated by --not.
        let negated = excluding.map { $0.hasPrefix("^") ? String($0.dropFirst()) : $0 }
        guard let commits = newCommits(tips, excluding: negated, in: context) else {
            return .failure("git rev-list could not list the commits being pushed")
        }
        let wrong = wrong(commits, account: git, others: otherEmails(judge.accounts, but: judge.account)) { committerHere(context) }
        guard !wrong.isEmpty else { return .allowed }
        let expected = [git.name, git.email.map { "<\($0)>" }].compactMap { $0 }.joined(separator: " ")
        var text =
            "perch guard: this push holds \(wrong.count == 1 ? "a commit" : "\(wrong.count) commits") not made as \(judge.account.id) (\(judge.owner.description)), which is \(expected):\n"
        for item in wrong.prefix(10) {
            text += "  \(item.commit.sha.prefix(10)) as \(item.ident.shown) (\(item.role)): \(item.commit.subject.prefix(60))\n"
        }
        if wrong.count > 10 { text += "  … and \(wrong.count - 10) more\n" }
        // The oldest wrong commit is the last rev-list gives; its parent is where to start.
        let oldest = wrong.last!.commit.sha
        let base =
            context.run("git", ["rev-parse", "--verify", "-q", oldest + "^"]).output == nil ? "--root" : String(oldest.prefix(10)) + "^"
        // Each wrong commit made again as who git is here, the others left as they are (the
        // guard off for the rebase: its picks keep the wrong author until --exec remakes them): the
        // emails go into the command quoted (they are data, never shell syntax).
        let emails = Array(Set(wrong.map { $0.ident.email })).sorted()
        let patterns = emails.map { "*" + ShellExports.posixQuoted($0) + "*" }.joined(separator: "|")
        let exec =
            "case \"$(git log -1 --format=%ae%n%ce)\" in \(patterns)) git commit --amend --no-edit --reset-author --allow-empty ;; esac"
        text +=
            "  fix: \(skipVariable)=off git rebase --exec \(ShellExports.posixQuoted(exec)) \(base) (makes each of them again as who git is here, so check that first with perch verify; the guard is off while the rebase picks them as they are, and checks the push again)\n"
        text += "  (\(skip("git push")))\n"
        return .refused(text)
    }
}
