import Glibc
import PerchStore

/// The user's global git config as text, for the one include `perch setup git` places in it:
/// after the last plain `[user]` section and before the first `includeIf` after it, so that
/// Perch's account beats the user's plain identity while their directory rules still win in
/// their directories (git-config(1), "Includes" and "Conditional includes": a later value wins).
enum GitConfigFile {
    /// The comment above the include Perch adds, so an undo finds it.
    static let marker = "# Added by `perch setup git`; `perch setup git --undo` removes these lines."

    enum IncludeState: Equatable {
        case included, notIncluded
        case unknown(String)
    }

    /// Whether the global git config includes Perch's file (`include.path`, with or without `~`).
    static func includeState(_ context: ToolContext) -> IncludeState {
        let run = context.run("git", ["config", "--global", "--get-all", "include.path"])
        switch run {
        case .notFound: return .unknown("git not found")
        case .exited(1, _, _): return .notIncluded  // no include.path at all
        default: break
        }
        guard let output = run.output else { return .unknown(run.failure ?? "") }
        let paths = output.split(whereSeparator: \.isNewline).map { context.environment.expandingTilde(String($0)) }
        return paths.contains(context.files.gitInclude) ? .included : .notIncluded
    }

    /// `path` as `~/…` when under HOME (dotfile repositories are shared between machines).
    static func shown(_ path: String, _ environment: IdentityEnvironment) -> String {
        let home = environment.home
        return path.hasPrefix(home + "/") ? PerchPaths.tilde(path, home: home) : path
    }

    /// The global file `perch setup git` puts its include in: the one where the user's own
    /// rules and identity live, so that nothing of theirs is read after it but what it must
    /// beat. With two files (git reads `~/.config/git/config`, then `~/.gitconfig`): the first
    /// holding an `includeIf` (anything in a file read after it would beat the rules); else the
    /// last holding a `[user]`; else the one holding Perch's include; else the one that exists,
    /// `~/.gitconfig` first. A file is made only when none exists, so a new file never outranks
    /// one of the user's.
    static func target(_ files: [String], include: String, environment: IdentityEnvironment) -> String {
        guard files.count > 1 else { return files[0] }
        let texts = files.map { path in (try? FileSystem.read(path)).map { FileLines($0).texts } }
        if let index = texts.firstIndex(where: { $0?.contains { opens($0)?.hasPrefix("includeif") == true } == true }) {
            return files[index]
        }
        if let index = texts.lastIndex(where: { $0?.contains { opens($0) == "user" } == true }) { return files[index] }
        if let index = texts.lastIndex(where: { $0?.contains { isPerchPath($0, include: include, environment) } == true }) {
            return files[index]
        }
        return texts.last! != nil || texts.first! == nil ? files.last! : files.first!
    }

    /// The section line `text` opens (`user`, `includeif "gitdir:~/work/"`: the name
    /// lowercased, the subsection as written), or nil.
    static func opens(_ text: Substring) -> String? {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasPrefix("["), let close = trimmed.firstIndex(of: "]") else { return nil }
        let inner = trimmed[trimmed.index(after: trimmed.startIndex)..<close]
        let name = inner.prefix { $0 != " " && $0 != "\"" && $0 != "." }.lowercased()
        return name + inner.dropFirst(name.count)
    }

    /// The 1-based number of the first `[includeIf …]` line in `path`, or nil.
    static func firstRuleLine(in path: String) -> Int? {
        guard let bytes = try? FileSystem.read(path) else { return nil }
        return FileLines(bytes).texts.firstIndex { opens($0)?.hasPrefix("includeif") == true }.map { $0 + 1 }
    }

    /// The 1-based number of the last line setting `key` (`user.email`) in `path`, or nil.
    static func lastLine(of key: String, in path: String) -> Int? {
        guard let bytes = try? FileSystem.read(path), let dot = key.firstIndex(of: ".") else { return nil }
        let section = key[..<dot].lowercased()
        let name = key[key.index(after: dot)...].lowercased()
        var inSection = false
        var found: Int?
        for (number, line) in FileLines(bytes).texts.enumerated() {
            if let opens = opens(line) {
                inSection = opens == section
                // `[user] email = x` on one line.
                let rest = line.drop { $0 != "]" }.dropFirst().drop { $0 == " " || $0 == "\t" }
                if inSection, rest.lowercased().hasPrefix(name) { found = number + 1 }
                continue
            }
            let trimmed = line.drop { $0 == " " || $0 == "\t" }.lowercased()
            if inSection, trimmed.hasPrefix(name), trimmed.dropFirst(name.count).first.map({ $0 == " " || $0 == "=" || $0 == "\t" }) ?? true
            {
                found = number + 1
            }
        }
        return found
    }

    /// The comment above the include when `perch setup git` made the file: an undo that leaves
    /// nothing else in it removes the file, so none stays where there was none.
    static let createdMarker = "# Added by `perch setup git`, which made this file; `perch setup git --undo` removes these lines."

    /// What `perch setup git` would make of `file` (nil: no such file): its lines with Perch's
    /// include (removed from wherever it was) placed after the last `[user]` section and before
    /// the first `includeIf` section after it, every other byte as it was; and where it goes,
    /// in words. Nil when it is there already.
    static func placingInclude(in file: [UInt8]?, shownInclude: String, include: String, environment: IdentityEnvironment) -> (
        bytes: [UInt8], where: String
    )? {
        let made = file.map { madeByPerch(FileLines($0)) } ?? true
        var lines = removingInclude(from: FileLines(file ?? []), include: include, environment: environment)
        let texts = lines.texts
        let end = lines.endIndex
        let lastUser = texts[..<end].lastIndex { opens($0) == "user" }
        // The end of the last [user] section: the next section's line.
        var insertAt = end
        var after = "at the end"
        if let lastUser {
            insertAt = texts[(lastUser + 1)..<end].firstIndex { opens($0) != nil } ?? end
            after = "after your [user] (line \(lastUser + 1))"
        } else if let firstRule = texts[..<end].firstIndex(where: { opens($0)?.hasPrefix("includeif") == true }) {
            insertAt = firstRule
        }
        // Back over blank lines and comments that belong to the next section.
        while insertAt > 0, insertAt < end,
            texts[insertAt - 1].trimmingWhitespace.isEmpty || texts[insertAt - 1].trimmingWhitespace.hasPrefix("#")
        {
            insertAt -= 1
        }
        if let rule = texts[insertAt..<end].firstIndex(where: { opens($0)?.hasPrefix("includeif") == true }) {
            after += ", before your includeIf rules (line \(rule + 1)), so they still win in their folders"
        }
        lines.insert([made ? createdMarker : marker, "[include]", "\tpath = \(shownInclude)"], at: insertAt)
        return lines.bytes == file ? nil : (lines.bytes, after)
    }

    /// `file`'s lines without Perch's include (its marker, its `path` line, and an `[include]`
    /// header left with nothing under it), every other byte as it was.
    static func removingInclude(from file: FileLines, include: String, environment: IdentityEnvironment) -> FileLines {
        let texts = file.texts
        var removed: [Int] = []
        var index = 0
        while index < texts.count {
            if isMarker(texts[index]) {
                removed.append(index)
                index += 1
                continue
            }
            if opens(texts[index]) == "include" {
                // The section's body.
                var end = index + 1
                while end < texts.count, opens(texts[end]) == nil, !isMarker(texts[end]) { end += 1 }
                let paths = (index + 1..<end).filter { isPerchPath(texts[$0], include: include, environment) }
                let rest = (index + 1..<end).filter { !paths.contains($0) }
                if !paths.isEmpty,
                    !rest.contains(where: { !texts[$0].trimmingWhitespace.isEmpty && !texts[$0].trimmingWhitespace.hasPrefix("#") })
                {
                    // Nothing of the user's in it: the header and Perch's path go (blank lines stay).
                    removed += [index] + paths
                } else {
                    removed += paths
                }
                index = end
                continue
            }
            index += 1
        }
        var kept = file
        kept.remove(removed)
        return kept
    }

    /// Whether `line` is one of the comments Perch puts above its include.
    static func isMarker(_ line: Substring) -> Bool { line == marker[...] || line == createdMarker[...] }

    /// Whether `file` holds the marker of a file `perch setup git` made.
    static func madeByPerch(_ file: FileLines) -> Bool { file.texts.contains(createdMarker[...]) }
    /// Whether `line` is `path = <Perch's file>` (with or without `~`, quoted or not).
    static func isPerchPath(_ line: Substring, include: String, _ environment: IdentityEnvironment) -> Bool {
        let trimmed = line.trimmingWhitespace
        guard trimmed.lowercased().hasPrefix("path"), let equals = trimmed.firstIndex(of: "=") else { return false }
        var value = trimmed[trimmed.index(after: equals)...].trimmingWhitespace
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
        return environment.expandingTilde(value) == include
    }
}
