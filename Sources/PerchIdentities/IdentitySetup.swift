import Glibc
import PerchDomain
import PerchStore

/// `perch setup git|ssh [--undo]`: the one include line Perch adds to the user's own git or ssh
/// config, with consent, so that its own files take effect; and its removal.
public enum IdentitySetup {
    /// What a setup did.
    public enum Outcome: Hashable, Sendable {
        /// The line was added (or removed, for an undo): the message says where.
        case changed(String)
        /// Nothing to do: the message says why.
        case unchanged(String)
        /// It could not be done.
        case failed(String)
    }

    /// The comment Perch puts above the line it adds to `~/.ssh/config`, so an undo finds both.
    static let sshMarker = "# Added by `perch setup ssh`; `perch setup ssh --undo` removes these two lines."
    /// The marker when there was no `~/.ssh/config` before: an undo that leaves the file empty
    /// then removes it, so no empty file stays where there was none.
    static let sshCreatedMarker = "# Added by `perch setup ssh`, which made this file; `perch setup ssh --undo` removes these two lines."

    /// What `perch setup TOOL` would change, in one sentence (shown before asking).
    public static func describe(_ tool: IdentityTool, undo: Bool, _ switcher: IdentitySwitcher) -> String {
        let files = switcher.files
        let environment = switcher.environment
        let include = GitConfigFile.shown(files.gitInclude, environment)
        let target = GitConfigFile.target(files.userGitConfigs, include: files.gitInclude, environment: environment)
        let gitConfig = GitConfigFile.shown(target, environment)
        switch (tool, undo) {
        case (.git, false):
            let placed = GitConfigFile.placingInclude(
                in: try? FileSystem.read(target), shownInclude: include, include: files.gitInclude, environment: environment)
            guard let placed else {
                return includedElsewhere(target, switcher)
                    ? "move the include of \(include) to \(gitConfig), where your rules are"
                    : "leave \(gitConfig) as it is (it already includes \(include) in the right place)"
            }
            return "put `[include] path = \(include)` in \(gitConfig) \(placed.where)"
        case (.git, true):
            let holding = files.userGitConfigs.filter { includedElsewhere("", switcher, only: $0) }
            return
                "remove the include of \(include) from \((holding.isEmpty ? [target] : holding).map { GitConfigFile.shown($0, environment) }.joined(separator: " and "))"
        case (.ssh, false):
            return
                "add `Include \(includePath(files.sshInclude, home: environment.home))` at the top of \(GitConfigFile.shown(files.userSSHConfig, environment))"
        default:
            return
                "remove the `Include \(includePath(files.sshInclude, home: environment.home))` line Perch added to \(GitConfigFile.shown(files.userSSHConfig, environment))"
        }
    }

    /// Adds (or with `undo` removes) the include line for `tool` (git or ssh).
    public static func run(_ tool: IdentityTool, undo: Bool, _ switcher: IdentitySwitcher) -> Outcome {
        switch tool {
        case .git: return undo ? undoGit(switcher) : setUpGit(switcher)
        case .ssh: return undo ? undoSSH(switcher.context) : setUpSSH(switcher.context)
        default: return .failed("only git and ssh need setting up")
        }
    }

    /// Places Perch's include in the user's global git config file that holds their rules
    /// (``GitConfigFile/target(_:include:environment:)``), after their plain `[user]` and before
    /// their `includeIf` rules (moving it there when it was elsewhere, as after `git config
    /// --global user.email …` appended a `[user]` below it, or in the other global file), written
    /// atomically with the file's mode kept and every other byte as it was.
    private static func setUpGit(_ switcher: IdentitySwitcher) -> Outcome {
        let files = switcher.files
        let environment = switcher.environment
        let include = GitConfigFile.shown(files.gitInclude, environment)
        let target = GitConfigFile.target(files.userGitConfigs, include: files.gitInclude, environment: environment)
        let gitConfig = GitConfigFile.shown(target, environment)
        // The file must exist for git not to complain; an empty one changes nothing.
        if access(files.gitInclude, F_OK) != 0 {
            do { try FileSystem.writeAtomically(Array(GitAdapter.ownText(files).utf8), to: files.gitInclude, mode: 0o644) } catch {
                return .failed("\(error)")
            }
        }
        let existing: FileContents?
        do {
            existing = try FileSystem.readContents(target)
        } catch {
            guard error.isNotFound else { return .failed("\(error)") }
            existing = nil
        }
        // Out of the other global file first: there it would beat the rules, or be beaten.
        var moved = false
        for other in files.userGitConfigs where other != target {
            switch removeGitInclude(from: other, switcher) {
            case .changed: moved = true
            case .unchanged: break
            case .failed(let message): return .failed(message)
            }
        }
        guard
            let placed = GitConfigFile.placingInclude(
                in: existing?.bytes, shownInclude: include, include: files.gitInclude, environment: environment)
        else {
            return moved
                ? .changed("moved the include of \(include) to \(gitConfig), where your rules are")
                : .unchanged("\(gitConfig) already includes \(include) in the right place")
        }
        do {
            try FileSystem.writeAtomically(placed.bytes, to: target, mode: mode_t(existing?.mode ?? 0o644))
        } catch {
            return .failed("\(error)")
        }
        return .changed("put `[include] path = \(include)` in \(gitConfig) \(placed.where)")
    }

    /// Whether a global git file other than `target` includes Perch's file (setup then moves it).
    private static func includedElsewhere(_ target: String, _ switcher: IdentitySwitcher, only: String? = nil) -> Bool {
        switcher.files.userGitConfigs.contains { path in
            guard path != target, only == nil || only == path, let bytes = try? FileSystem.read(path) else { return false }
            let lines = FileLines(bytes)
            return GitConfigFile.removingInclude(from: lines, include: switcher.files.gitInclude, environment: switcher.environment)
                != lines
        }
    }

    /// Removes Perch's include from the global git file at `path`, giving back every other byte;
    /// a file `perch setup git` made and nothing else was written into goes again.
    private static func removeGitInclude(from path: String, _ switcher: IdentitySwitcher) -> Outcome {
        let shownPath = GitConfigFile.shown(path, switcher.environment)
        guard let contents = try? FileSystem.readContents(path) else { return .unchanged("") }
        let lines = FileLines(contents.bytes)
        let kept = GitConfigFile.removingInclude(from: lines, include: switcher.files.gitInclude, environment: switcher.environment)
        guard kept != lines else { return .unchanged("") }
        if GitConfigFile.madeByPerch(lines), kept.bytes.allSatisfy({ $0 == 0x0A || $0 == 0x0D || $0 == 0x20 || $0 == 0x09 }) {
            guard unlink(FileSystem.resolvingSymbolicLink(path)) == 0 || errno == ENOENT else {
                return .failed("\(FileError(path: path, code: errno, operation: "remove"))")
            }
            return .changed("removed \(shownPath), which only held the include Perch added")
        }
        do {
            try FileSystem.writeAtomically(kept.bytes, to: path, mode: mode_t(contents.mode))
        } catch {
            return .failed("\(error)")
        }
        return .changed("removed the include of \(GitConfigFile.shown(switcher.files.gitInclude, switcher.environment)) from \(shownPath)")
    }

    private static func undoGit(_ switcher: IdentitySwitcher) -> Outcome {
        var messages: [String] = []
        for path in switcher.files.userGitConfigs {
            switch removeGitInclude(from: path, switcher) {
            case .changed(let message): messages.append(message)
            case .unchanged: break
            case .failed(let message): return .failed(message)
            }
        }
        guard !messages.isEmpty else {
            return .unchanged(
                "your global git config does not include \(GitConfigFile.shown(switcher.files.gitInclude, switcher.environment))")
        }
        return .changed(messages.joined(separator: "; "))
    }

    /// Whether `~/.ssh/config` has Perch's `Include` line.
    public static func sshIncluded(_ context: ToolContext) -> Bool {
        guard let text = ToolReaders.read(context.files.userSSHConfig) else { return false }
        return text.split(whereSeparator: \.isNewline).contains {
            includeTarget($0).map(context.environment.expandingTilde) == context.files.sshInclude
        }
    }

    /// `path` as an `Include` line names it: `~/…` under HOME, as the docs show it and as a
    /// dotfile repository shared between machines needs, in quotes when it holds a space. ssh
    /// expands `~` to the home of the password database (ssh_config(5)), so `~` is written only
    /// when that is `HOME`; else the whole path.
    // Bug (everyday issue): perch setup ssh wrote the absolute path.
    static func includePath(_ path: String, home: String, passwordHome: String? = PerchPaths.passwordHome()) -> String {
        let tilde = !home.isEmpty && home == passwordHome && path.hasPrefix(home + "/")
        let shown = tilde ? "~" + path.dropFirst(home.count) : path
        return shown.contains(" ") ? "\"\(shown)\"" : shown
    }

    /// The path an `Include` line names, or nil.
    private static func includeTarget(_ line: Substring) -> String? {
        let trimmed = line.trimmingWhitespace
        guard trimmed.lowercased().hasPrefix("include ") || trimmed.lowercased().hasPrefix("include\t") else { return nil }
        return ToolReaders.unquoted(trimmed.dropFirst(8)[...])
    }

    private static func setUpSSH(_ switcher: ToolContext) -> Outcome {
        let files = switcher.files
        // Bug (everyday issue): these lines named both files by their absolute paths, where setup git says `~/…`.
        let (config, include) = (shownPath(files.userSSHConfig, switcher), shownPath(files.sshInclude, switcher))
        if sshIncluded(switcher) { return .unchanged("\(config) already includes \(include)") }
        let existing: FileContents?
        do {
            existing = try FileSystem.readContents(files.userSSHConfig)
        } catch {
            guard error.isNotFound else { return .failed("\(error)") }
            existing = nil
        }
        do {
            if access(files.sshInclude, F_OK) != 0 {
                try FileSystem.writeAtomically(
                    Array(SSHAdapter.ownText(files).utf8), to: files.sshInclude, mode: 0o600)
            }
            // At the top: an Include after a Host line would apply only to that host. Whole lines
            // with the file's own line ends, every byte of the user's as it was.
            var lines = FileLines(existing?.bytes ?? [])
            lines.insert(
                [
                    existing == nil ? sshCreatedMarker : sshMarker,
                    "Include \(Self.includePath(files.sshInclude, home: switcher.environment.home))",
                ],
                at: 0)
            let folder = FileSystem.directory(of: files.userSSHConfig)
            if existing == nil, access(folder, F_OK) != 0 {
                mkdir(folder, 0o700)
            }
            try FileSystem.writeAtomically(lines.bytes, to: files.userSSHConfig, mode: mode_t(existing?.mode ?? 0o600))
        } catch {
            return .failed("\(error)")
        }
        return .changed("added `Include \(Self.includePath(files.sshInclude, home: switcher.environment.home))` at the top of \(config)")
    }

    private static func undoSSH(_ switcher: ToolContext) -> Outcome {
        let files = switcher.files
        let (config, include) = (shownPath(files.userSSHConfig, switcher), shownPath(files.sshInclude, switcher))
        let written = Self.includePath(files.sshInclude, home: switcher.environment.home)
        guard sshIncluded(switcher), let contents = try? FileSystem.readContents(files.userSSHConfig) else {
            return .unchanged("\(config) does not include \(include)")
        }
        var lines = FileLines(contents.bytes)
        let texts = lines.texts
        let created = texts.contains(sshCreatedMarker[...])
        lines.remove(
            texts.indices.filter {
                texts[$0] == sshMarker[...] || texts[$0] == sshCreatedMarker[...]
                    || includeTarget(texts[$0]).map(switcher.environment.expandingTilde) == files.sshInclude
            })
        // Perch made the file and nothing else was written into it since: it goes again. A
        // file that was there, even empty, is given back byte for byte.
        if created, lines.texts.allSatisfy({ $0.allSatisfy(\.isWhitespace) }) {
            guard unlink(FileSystem.resolvingSymbolicLink(files.userSSHConfig)) == 0 || errno == ENOENT else {
                return .failed("\(FileError(path: files.userSSHConfig, code: errno, operation: "remove"))")
            }
            return .changed("removed \(config), which only held the `Include \(written)` line Perch added")
        }
        do {
            try FileSystem.writeAtomically(lines.bytes, to: files.userSSHConfig, mode: mode_t(contents.mode))
        } catch {
            return .failed("\(error)")
        }
        return .changed("removed the `Include \(written)` line from \(config)")
    }

    /// `path` as `~/…` when under HOME, as the rest of Perch's output names files.
    private static func shownPath(_ path: String, _ context: ToolContext) -> String {
        GitConfigFile.shown(path, context.environment)
    }
}
