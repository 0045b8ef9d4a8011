import Glibc
import PerchCore
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
        let gitConfig = GitConfigFile.shown(files.userGitConfig, environment)
        switch (tool, undo) {
        case (.git, false):
            let text = (try? FileSystem.read(files.userGitConfig)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            guard
                let placed = GitConfigFile.placingInclude(
                    in: text, include: files.gitInclude, shownInclude: include, environment: environment)
            else { return "leave \(gitConfig) as it is (it already includes \(include) in the right place)" }
            return "put `[include] path = \(include)` in \(gitConfig) \(placed.where)"
        case (.git, true): return "remove the include of \(include) from \(gitConfig)"
        case (.ssh, false): return "add `Include \(files.sshInclude)` at the top of \(files.userSSHConfig)"
        default: return "remove the `Include \(files.sshInclude)` line Perch added to \(files.userSSHConfig)"
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

    /// Places Perch's include in the user's global git config after their plain `[user]` and
    /// before their `includeIf` rules (moving it there when it was elsewhere, as after `git
    /// config --global user.email …` appended a `[user]` below it), written atomically with the
    /// file's mode kept.
    private static func setUpGit(_ switcher: IdentitySwitcher) -> Outcome {
        let files = switcher.files
        let environment = switcher.environment
        let include = GitConfigFile.shown(files.gitInclude, environment)
        let gitConfig = GitConfigFile.shown(files.userGitConfig, environment)
        // The file must exist for git not to complain; an empty one changes nothing.
        if access(files.gitInclude, F_OK) != 0 {
            do { try FileSystem.writeAtomically(Array(GitAdapter.ownText(files).utf8), to: files.gitInclude, mode: 0o644) } catch {
                return .failed("\(error)")
            }
        }
        let existing: FileContents?
        do {
            existing = try FileSystem.readContents(files.userGitConfig)
        } catch {
            guard error.isNotFound else { return .failed("\(error)") }
            existing = nil
        }
        let text = existing.map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
        guard
            let placed = GitConfigFile.placingInclude(in: text, include: files.gitInclude, shownInclude: include, environment: environment)
        else { return .unchanged("\(gitConfig) already includes \(include) in the right place") }
        do {
            try FileSystem.writeAtomically(Array(placed.text.utf8), to: files.userGitConfig, mode: mode_t(existing?.mode ?? 0o644))
        } catch {
            return .failed("\(error)")
        }
        return .changed("put `[include] path = \(include)` in \(gitConfig) \(placed.where)")
    }

    private static func undoGit(_ switcher: IdentitySwitcher) -> Outcome {
        let files = switcher.files
        let environment = switcher.environment
        let include = GitConfigFile.shown(files.gitInclude, environment)
        guard let contents = try? FileSystem.readContents(files.userGitConfig) else {
            return .unchanged("your global git config does not include \(include)")
        }
        let text = String(decoding: contents.bytes, as: UTF8.self)
        let kept = GitConfigFile.removingInclude(from: text, include: files.gitInclude, environment: environment).map { String($0.text) }
            .joined(separator: "\n")
        guard kept != text else { return .unchanged("your global git config does not include \(include)") }
        do {
            try FileSystem.writeAtomically(Array(kept.utf8), to: files.userGitConfig, mode: mode_t(contents.mode))
        } catch {
            return .failed("\(error)")
        }
        return .changed("removed the include of \(include) from \(GitConfigFile.shown(files.userGitConfig, environment))")
    }

    /// Whether `~/.ssh/config` has Perch's `Include` line.
    public static func sshIncluded(_ context: ToolContext) -> Bool {
        guard let text = ToolReaders.read(context.files.userSSHConfig) else { return false }
        return text.split(whereSeparator: \.isNewline).contains { includeTarget($0) == context.files.sshInclude }
    }

    /// The path an `Include` line names, or nil.
    private static func includeTarget(_ line: Substring) -> String? {
        let trimmed = line.trimmingWhitespace
        guard trimmed.lowercased().hasPrefix("include ") || trimmed.lowercased().hasPrefix("include\t") else { return nil }
        return ToolReaders.unquoted(trimmed.dropFirst(8)[...])
    }

    private static func setUpSSH(_ switcher: ToolContext) -> Outcome {
        let files = switcher.files
        if sshIncluded(switcher) { return .unchanged("\(files.userSSHConfig) already includes \(files.sshInclude)") }
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
                    Array("# Written by Perch; replaced at each switch.\n".utf8), to: files.sshInclude, mode: 0o600)
            }
            // At the top: an Include after a Host line would apply only to that host.
            let line =
                "\(existing == nil ? sshCreatedMarker : sshMarker)\nInclude \(files.sshInclude.contains(" ") ? "\"\(files.sshInclude)\"" : files.sshInclude)\n"
            let folder = FileSystem.directory(of: files.userSSHConfig)
            if existing == nil, access(folder, F_OK) != 0 {
                mkdir(folder, 0o700)
            }
            try FileSystem.writeAtomically(
                Array(line.utf8) + (existing?.bytes ?? []), to: files.userSSHConfig, mode: mode_t(existing?.mode ?? 0o600))
        } catch {
            return .failed("\(error)")
        }
        return .changed("added `Include \(files.sshInclude)` at the top of \(files.userSSHConfig)")
    }

    private static func undoSSH(_ switcher: ToolContext) -> Outcome {
        let files = switcher.files
        guard sshIncluded(switcher), let contents = try? FileSystem.readContents(files.userSSHConfig) else {
            return .unchanged("\(files.userSSHConfig) does not include \(files.sshInclude)")
        }
        let text = String(decoding: contents.bytes, as: UTF8.self)
        var kept: [Substring] = []
        var created = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == sshCreatedMarker[...] { created = true }
            if line == sshMarker[...] || line == sshCreatedMarker[...] || includeTarget(line) == files.sshInclude { continue }
            kept.append(line)
        }
        // Perch made the file and nothing else was written into it since: it goes again.
        if created, kept.allSatisfy({ $0.allSatisfy(\.isWhitespace) }) {
            guard unlink(files.userSSHConfig) == 0 || errno == ENOENT else {
                return .failed("\(FileError(path: files.userSSHConfig, code: errno, operation: "remove"))")
            }
            return .changed("removed \(files.userSSHConfig), which only held the `Include \(files.sshInclude)` line Perch added")
        }
        do {
            let remaining = kept.joined(separator: "\n")
            if remaining.allSatisfy(\.isWhitespace) {
                // The file held nothing but Perch's lines (setup made it): none is left, not an empty one.
                if unlink(files.userSSHConfig) != 0 {
                    return .failed("cannot remove \(files.userSSHConfig): \(String(cString: strerror(errno)))")
                }
            } else {
                try FileSystem.writeAtomically(Array(remaining.utf8), to: files.userSSHConfig, mode: mode_t(contents.mode))
            }
        } catch {
            return .failed("\(error)")
        }
        return .changed("removed the `Include \(files.sshInclude)` line from \(files.userSSHConfig)")
    }
}
