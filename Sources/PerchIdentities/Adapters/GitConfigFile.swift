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
        return path.hasPrefix(home + "/") ? "~" + path.dropFirst(home.count) : path
    }

    /// One line of a git config file, read for its section.
    struct Line {
        var text: Substring
        /// The section this line opens (`user`, `includeif "gitdir:~/work/"`, lowercased name), if any.
        var opens: String?
    }

    static func lines(_ text: String) -> [Line] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard trimmed.hasPrefix("["), let close = trimmed.firstIndex(of: "]") else { return Line(text: line, opens: nil) }
            let inner = trimmed[trimmed.index(after: trimmed.startIndex)..<close]
            let name = inner.prefix { $0 != " " && $0 != "\"" && $0 != "." }.lowercased()
            return Line(text: line, opens: name + inner.dropFirst(name.count))
        }
    }

    /// The 1-based number of the last line setting `key` (`user.email`) in `path`, or nil.
    static func lastLine(of key: String, in path: String) -> Int? {
        guard let bytes = try? FileSystem.read(path), let dot = key.firstIndex(of: ".") else { return nil }
        let section = key[..<dot].lowercased()
        let name = key[key.index(after: dot)...].lowercased()
        var inSection = false
        var found: Int?
        for (number, line) in lines(String(decoding: bytes, as: UTF8.self)).enumerated() {
            if let opens = line.opens {
                inSection = opens == section
                // `[user] email = x` on one line.
                let rest = line.text.drop { $0 != "]" }.dropFirst().drop { $0 == " " || $0 == "\t" }
                if inSection, rest.lowercased().hasPrefix(name) { found = number + 1 }
                continue
            }
            let trimmed = line.text.drop { $0 == " " || $0 == "\t" }.lowercased()
            if inSection, trimmed.hasPrefix(name), trimmed.dropFirst(name.count).first.map({ $0 == " " || $0 == "=" || $0 == "\t" }) ?? true {
                found = number + 1
            }
        }
        return found
    }

    /// What `perch setup git` would make of `text`: the text with Perch's include (removed from
    /// wherever it was) placed after the last `[user]` section and before the first `includeIf`
    /// section after it; and where it goes, in words. Nil when it is there already.
    static func placingInclude(in text: String, include: String, shownInclude: String, environment: IdentityEnvironment) -> (
        text: String, where: String
    )? {
        var kept = removingInclude(from: text, include: include, environment: environment)
        while kept.last?.text.isEmpty == true { kept.removeLast() }
        let lastUser = kept.lastIndex { $0.opens == "user" }
        // The end of the last [user] section: the next section's line.
        var insertAt = kept.count
        var after = "at the end"
        if let lastUser {
            insertAt = kept[(lastUser + 1)...].firstIndex { $0.opens != nil } ?? kept.count
            after = "after your [user] (line \(lastUser + 1))"
        }
        if let firstRule = kept[..<insertAt].firstIndex(where: { $0.opens?.hasPrefix("includeif") == true }), lastUser == nil {
            insertAt = firstRule
        }
        // Back over blank lines and comments that belong to the next section.
        while insertAt > 0, kept[insertAt - 1].text.trimmingWhitespace.isEmpty || kept[insertAt - 1].text.trimmingWhitespace.hasPrefix("#"),
            insertAt < kept.count
        {
            insertAt -= 1
        }
        if let rule = kept[insertAt...].firstIndex(where: { $0.opens?.hasPrefix("includeif") == true }) {
            after += ", before your includeIf rules (line \(rule + 1)), so they still win in their folders"
        }
        let block = [marker, "[include]", "\tpath = \(shownInclude)"].map { Line(text: $0[...], opens: nil) }
        kept.insert(contentsOf: block, at: insertAt)
        let result = kept.map { String($0.text) }.joined(separator: "\n") + "\n"
        return result == text ? nil : (result, after)
    }

    /// `text`'s lines without Perch's include (its marker, its `path` line, and an `[include]`
    /// header left with nothing under it).
    static func removingInclude(from text: String, include: String, environment: IdentityEnvironment) -> [Line] {
        let all = lines(text)
        var kept: [Line] = []
        var index = 0
        while index < all.count {
            let line = all[index]
            if line.text == marker[...] {
                index += 1
                continue
            }
            if line.opens == "include" {
                // Collect the section's body.
                var end = index + 1
                while end < all.count, all[end].opens == nil, all[end].text != marker[...] { end += 1 }
                let body = all[(index + 1)..<end].filter { !isPerchPath($0.text, include: include, environment) }
                let removed = end - index - 1 - body.count
                if removed > 0, !body.contains(where: { !$0.text.trimmingWhitespace.isEmpty && !$0.text.trimmingWhitespace.hasPrefix("#") }) {
                    index = end
                    continue
                }
                kept.append(line)
                kept += body
                index = end
                continue
            }
            kept.append(line)
            index += 1
        }
        return kept
    }

    /// Whether `line` is `path = <Perch's file>` (with or without `~`, quoted or not).
    static func isPerchPath(_ line: Substring, include: String, _ environment: IdentityEnvironment) -> Bool {
        let trimmed = line.trimmingWhitespace
        guard trimmed.lowercased().hasPrefix("path"), let equals = trimmed.firstIndex(of: "=") else { return false }
        var value = trimmed[trimmed.index(after: equals)...].trimmingWhitespace
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
        return environment.expandingTilde(value) == include
    }
}
