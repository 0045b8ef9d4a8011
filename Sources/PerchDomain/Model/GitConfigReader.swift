/// Perch's one reader of git's config files, as git 2.39 reads them (git-config(1),
/// "CONFIGURATION FILE", "Includes", "Conditional includes"; git's `config.c`), proven against
/// `git config --includes --get-regexp` by a differential test over generated configs. The shell
/// hook reads a repository's remotes at every prompt, so git is not started.
///
/// The grammar, byte for byte: a UTF-8 BOM at a file's start is skipped (a partial one is an
/// error); CRLF is a line end, a lone CR a space; `#` and `;` start a comment outside quotes;
/// `[section]`, `[section "subsection"]` (`\` quotes the next byte; no line end) and old-style
/// `[section.sub]`; a variable may follow a header on its line. Section and variable names are
/// ASCII-lowercased, an old-style subsection too, a quoted one kept as written. A name starts
/// with a letter and holds letters, digits and `-`; a name without `=` is a variable without a
/// value (git's boolean true: ``Entry/value`` nil). In a value, leading and trailing spaces go,
/// each space or tab between words outside quotes becomes one space, quotes join parts
/// (`"a"b"c d"` is `abc d`), `\n`, `\t`, `\b`, `\"` and `\\` are escapes (any other is an
/// error), `\` at a line's end joins the next line, and a line end inside quotes is an error.
/// Keys and values end at a NUL, as git's C strings do.
///
/// Includes: `include.path` and `includeIf.<condition>.path`, in place, `~/` expanded from
/// ``Place/home`` (`~user/` from the files' ``GitConfigFiles/home(ofUser:)``), a relative path
/// from the including file's folder; a missing file is skipped, more than 10 nested is an error.
/// Conditions: `gitdir:` and `gitdir/i:` against ``Place/gitDirectory`` (resolved, then as
/// given), `onbranch:` against the branch its `HEAD` names, `hasconfig:remote.*.url:` against
/// the remote URLs of this config alone, as `git config --local` evaluates it (git's other
/// commands also see the global and system configs' URLs); any other condition is false.
///
/// While a `hasconfig:` condition is decided, a file any true `includeIf` names may set no
/// remote URL, and a remote URL without a value stops git: both are refused, as git does.
///
/// Left out on purpose: `%(prefix)/` paths (git's install prefix is not known here) and include
/// paths that are not UTF-8 make the config unreadable; a file larger than the files' limit is
/// unreadable (git would read it); `onbranch:` reads `HEAD` itself, not a chain of symbolic
/// refs. The reader reads the one file it is given and its includes: a repository's
/// `config.worktree` and the global and system configs are its caller's to read.
/// A config git refuses (`bad config line`, a missing value for a path, an include it cannot
/// open, too deep) is a ``Refusal``: git itself stops there. Pure: every file is read through
/// ``GitConfigFiles``.
public enum GitConfigReader {
    /// One variable, as git hands it on.
    public struct Entry: Hashable, Sendable {
        /// `section.subsection.name` (`remote.origin.url`): section and name lowercased, the
        /// subsection as written.
        public var key: String
        /// The value, or nil for a variable written without `=`.
        public var value: String?

        public init(key: String, value: String?) {
            self.key = key
            self.value = value
        }
    }

    /// Why git refuses a config (and so works in no repository using it). The reason names
    /// paths and text from the config: data, to be escaped before it is shown.
    public struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        public var reason: String
        public init(_ reason: String) { self.reason = reason }
        public var description: String { reason }
    }

    /// A file as the reader gets it.
    public enum File: Hashable, Sendable {
        /// Its bytes.
        case contents([UInt8])
        /// It does not exist, or a folder on its path is a file (git skips such an include).
        case missing
        /// It exists but cannot be read as a config (a folder, a FIFO, too large): why.
        case unreadable(String)
    }

    /// Where a config is read.
    public struct Place: Hashable, Sendable {
        /// `HOME`, for `~/` (nil: unset, and `~/` cannot be expanded).
        public var home: String?
        /// The repository's git folder (its `.git`, or a worktree's folder in it), absolute, as
        /// git names it: by the path git was started at when the `.git` folder is in the folder
        /// it starts in, else resolved. nil outside a repository (no `gitdir:` or `onbranch:`
        /// condition holds).
        public var gitDirectory: String?

        public init(home: String?, gitDirectory: String?) {
            self.home = home
            self.gitDirectory = gitDirectory
        }
    }

    /// The variables of one file's `bytes`, in order, includes not followed.
    /// - Returns: the entries, or a ``Refusal`` naming the line git stops at.
    public static func parse(_ bytes: [UInt8]) -> Result<[Entry], Refusal> {
        var parser = Parser(bytes)
        return parser.parse().map { $0.map(\.entry) }.mapError { Refusal("bad config line \($0.line)") }
    }

    /// The variables of the config file at `path` (absolute) and of the files it includes, in
    /// git's order (each include's in its place, after its own `path` variable).
    /// - Returns: the entries; a ``Refusal`` where git refuses the config; no entries when
    ///   `path` itself is missing.
    public static func read(_ path: String, at place: Place, files: some GitConfigFiles) -> Result<[Entry], Refusal> {
        var walk = Walk(top: path, place: place, files: files, populating: false)
        do throws(Refusal) {
            try walk.read(path)
            return .success(walk.entries.map(\.entry))
        } catch {
            return .failure(error)
        }
    }
}

/// One variable as parsed: its key and value as git's C strings hold them.
struct RawEntry {
    var key: [UInt8]
    var value: [UInt8]?

    var entry: GitConfigReader.Entry {
        GitConfigReader.Entry(key: String(decoding: key, as: UTF8.self), value: value.map { String(decoding: $0, as: UTF8.self) })
    }
}

/// The line git stops reading a file at.
struct BadLine: Error {
    var line: Int
}

/// git's `config.c` parser (`git_parse_source`, `get_base_var`, `get_value`, `parse_value`).
private struct Parser {
    let bytes: [UInt8]
    var index = 0
    /// Set once the end is read; every read after it is a line end again.
    var atEnd = false
    var line = 1

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static let newline = UInt8(ascii: "\n")
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// git's `get_next_char`: CRLF as LF, the end as LF.
    mutating func next() -> UInt8 {
        guard index < bytes.count else {
            atEnd = true
            return Self.newline
        }
        var byte = bytes[index]
        index += 1
        if byte == 0x0D, index < bytes.count, bytes[index] == Self.newline {
            index += 1
            byte = Self.newline
        }
        if byte == Self.newline { line += 1 }
        return byte
    }

    /// The entries, or the line git stops at.
    mutating func parse() -> Result<[RawEntry], BadLine> {
        var entries: [RawEntry] = []
        var name: [UInt8] = []
        var sectionLength = 0
        var inComment = false
        var bomRead = 0
        var bomDone = false
        while true {
            let byte = next()
            if !bomDone {
                if byte == Self.bom[bomRead] {
                    bomRead += 1
                    bomDone = bomRead == Self.bom.count
                    continue
                }
                if bomRead > 0 { return .failure(BadLine(line: line)) }
                bomDone = true
            }
            if byte == Self.newline {
                if atEnd { return .success(entries) }
                inComment = false
                continue
            }
            if inComment || isSpace(byte) { continue }
            if byte == UInt8(ascii: "#") || byte == UInt8(ascii: ";") {
                inComment = true
                continue
            }
            if byte == UInt8(ascii: "[") {
                name = []
                guard sectionName(&name), !name.isEmpty else { return .failure(BadLine(line: line)) }
                name.append(UInt8(ascii: "."))
                sectionLength = name.count
                continue
            }
            guard isAlpha(byte) else { return .failure(BadLine(line: line)) }
            name.removeSubrange(sectionLength...)
            name.append(lowered(byte))
            guard let entry = variable(&name) else { return .failure(BadLine(line: line)) }
            entries.append(entry)
        }
    }

    /// git's `get_base_var`: a header's name after `[`, lowercased, then its quoted subsection.
    mutating func sectionName(_ name: inout [UInt8]) -> Bool {
        while true {
            let byte = next()
            if atEnd { return false }
            if byte == UInt8(ascii: "]") { return true }
            if isSpace(byte) { return subsection(&name, byte) }
            guard isKeyByte(byte) || byte == UInt8(ascii: ".") else { return false }
            name.append(lowered(byte))
        }
    }

    /// git's `get_extended_base_var`: ` "subsection"]`, kept as written, `\` quoting a byte.
    mutating func subsection(_ name: inout [UInt8], _ first: UInt8) -> Bool {
        var byte = first
        repeat {
            if byte == Self.newline { return false }
            byte = next()
        } while isSpace(byte)
        guard byte == Self.quote else { return false }
        name.append(UInt8(ascii: "."))
        while true {
            var byte = next()
            if byte == Self.newline { return false }
            if byte == Self.quote { break }
            if byte == Self.backslash {
                byte = next()
                if byte == Self.newline { return false }
            }
            name.append(byte)
        }
        return next() == UInt8(ascii: "]")
    }

    /// git's `get_value`: the rest of a variable's name, then `=` and a value, or nothing.
    mutating func variable(_ name: inout [UInt8]) -> RawEntry? {
        var byte: UInt8
        while true {
            byte = next()
            if atEnd || !isKeyByte(byte) { break }
            name.append(lowered(byte))
        }
        while byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { byte = next() }
        var value: [UInt8]?
        if byte != Self.newline {
            guard byte == UInt8(ascii: "="), let parsed = self.value() else { return nil }
            value = parsed
        }
        return RawEntry(key: cString(name), value: value.map(cString))
    }

    /// git's `parse_value`: after `=`, to the line's end (or a joined line's).
    mutating func value() -> [UInt8]? {
        var value: [UInt8] = []
        var quoted = false
        var inComment = false
        var spaces = 0
        while true {
            var byte = next()
            if byte == Self.newline { return quoted ? nil : value }
            if inComment { continue }
            if isSpace(byte) && !quoted {
                if !value.isEmpty { spaces += 1 }
                continue
            }
            if !quoted && (byte == UInt8(ascii: ";") || byte == UInt8(ascii: "#")) {
                inComment = true
                continue
            }
            value.append(contentsOf: repeatElement(UInt8(ascii: " "), count: spaces))
            spaces = 0
            if byte == Self.backslash {
                byte = next()
                switch byte {
                case Self.newline: continue
                case UInt8(ascii: "t"): byte = 0x09
                case UInt8(ascii: "b"): byte = 0x08
                case UInt8(ascii: "n"): byte = 0x0A
                case Self.backslash, Self.quote: break
                default: return nil
                }
                value.append(byte)
                continue
            }
            if byte == Self.quote {
                quoted.toggle()
                continue
            }
            value.append(byte)
        }
    }
}

/// git's `isspace`: space, tab, LF and CR only (not VT or FF).
private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
private func isAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
private func isKeyByte(_ byte: UInt8) -> Bool { isAlpha(byte) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-") }
private func lowered(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
/// `bytes` up to its first NUL, as git's C strings end.
private func cString(_ bytes: [UInt8]) -> [UInt8] { bytes.firstIndex(of: 0).map { Array(bytes[..<$0]) } ?? bytes }

/// git's include walk (`git_config_include`, `handle_path_include`, the conditions): one pass
/// over a config and its includes. The populating pass is git's `populate_remote_urls`: every
/// `hasconfig:` condition holds, and a file a true `includeIf` names may set no remote URL.
private struct Walk<Files: GitConfigFiles> {
    let top: String
    let place: Place
    let files: Files
    let populating: Bool
    typealias Place = GitConfigReader.Place
    typealias Refusal = GitConfigReader.Refusal

    /// The main pass's entries, in git's order.
    var entries: [RawEntry] = []
    /// The populating pass's `remote.*.url` values.
    var remoteURLs: [[UInt8]] = []
    /// The remote URLs `hasconfig:` conditions match, once asked.
    var hasconfigURLs: [[UInt8]]?
    var depth = 0
    var forbidRemoteURLs = false
    var parsed: [String: Result<[RawEntry], BadLine>] = [:]
    var branch: String??
    var resolvedGitDirectory: String??

    static var maximumDepth: Int { 10 }

    init(top: String, place: Place, files: Files, populating: Bool) {
        self.top = top
        self.place = place
        self.files = files
        self.populating = populating
    }

    /// Reads the config file at `path`; a missing one is empty.
    mutating func read(_ path: String) throws(Refusal) {
        switch files.file(path) {
        case .contents(let bytes): try walk(bytes, path)
        case .missing: return
        case .unreadable(let reason): throw Refusal("\(path): \(reason)")
        }
    }

    mutating func walk(_ bytes: [UInt8], _ path: String) throws(Refusal) {
        let result: Result<[RawEntry], BadLine>
        if let known = parsed[path] {
            result = known
        } else {
            var parser = Parser(bytes)
            result = parser.parse()
            parsed[path] = result
        }
        switch result {
        case .failure(let bad): throw Refusal("bad config line \(bad.line) in \(path)")
        case .success(let parsedEntries):
            for entry in parsedEntries { try visit(entry, in: path) }
        }
    }

    /// git's `git_config_include`: the entry goes on, then an include it names is read.
    mutating func visit(_ entry: RawEntry, in path: String) throws(Refusal) {
        if populating {
            if Self.isRemoteURL(entry.key) {
                if forbidRemoteURLs {
                    throw Refusal(
                        "remote URLs cannot be configured in file directly or indirectly included by includeIf.hasconfig:remote.*.url")
                }
                // git keeps a missing value as a null string and crashes on it.
                guard let value = entry.value else { throw Refusal("\(keyText(entry.key)) has no value") }
                remoteURLs.append(value)
            }
        } else {
            entries.append(entry)
        }
        if entry.key == Array("include.path".utf8) {
            try include(entry.value, from: path)
        } else if let (condition, name) = Self.conditional(entry.key), try holds(condition, in: path), name == Array("path".utf8) {
            let forbidding = forbidRemoteURLs
            if populating { forbidRemoteURLs = true }
            defer { forbidRemoteURLs = forbidding }
            try include(entry.value, from: path)
        }
    }

    /// git's `handle_path_include`.
    mutating func include(_ value: [UInt8]?, from path: String) throws(Refusal) {
        guard let value else { throw Refusal("missing value for include.path in \(path)") }
        guard var target = String(validating: value, as: UTF8.self) else { throw Refusal("an include path in \(path) is not UTF-8") }
        if target.hasPrefix("%(prefix)/") { throw Refusal("\(path) includes \(target): Perch does not know git's install prefix") }
        if target.hasPrefix("~") {
            guard let expanded = expandHome(target) else { throw Refusal("could not expand include path '\(target)'") }
            target = expanded
        }
        if !target.hasPrefix("/") {
            let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
            target = folder + target
        }
        let file = files.file(target)
        if file == .missing { return }
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maximumDepth { throw Refusal("exceeded maximum include depth (10) while including \(target) from \(path)") }
        guard case .contents(let bytes) = file else {
            if case .unreadable(let reason) = file { throw Refusal("\(target): \(reason)") }
            return
        }
        try walk(bytes, target)
    }

    /// git's `interpolate_path` of `~` and `~user`, nil when it cannot.
    func expandHome(_ text: String, resolved: Bool = false) -> String? {
        let slash = text.firstIndex(of: "/") ?? text.endIndex
        let user = text[text.index(after: text.startIndex)..<slash]
        let home: String?
        if user.isEmpty {
            home = resolved ? place.home.map { files.realPath($0) ?? $0 } : place.home
        } else {
            home = files.home(ofUser: String(user))
        }
        return home.map { $0 + text[slash...] }
    }

    /// git's `include_condition_is_true`.
    mutating func holds(_ condition: [UInt8], in path: String) throws(Refusal) -> Bool {
        if let pattern = Self.after(condition, "gitdir:") { return try matchesGitDirectory(pattern, caseFold: false, in: path) }
        if let pattern = Self.after(condition, "gitdir/i:") { return try matchesGitDirectory(pattern, caseFold: true, in: path) }
        if let pattern = Self.after(condition, "onbranch:") { return onBranch(pattern) }
        if let pattern = Self.after(condition, "hasconfig:remote.*.url:") {
            if populating { return true }
            if hasconfigURLs == nil {
                var pass = Walk(top: top, place: place, files: files, populating: true)
                pass.parsed = parsed
                try pass.read(top)
                hasconfigURLs = pass.remoteURLs
            }
            return hasconfigURLs!.contains { Wildmatch.matches(pattern, $0, flags: .pathname) }
        }
        return false
    }

    /// git's `include_by_gitdir`: the pattern against the git folder resolved, then as given.
    mutating func matchesGitDirectory(_ condition: [UInt8], caseFold: Bool, in path: String) throws(Refusal) -> Bool {
        guard let gitDirectory = place.gitDirectory else { return false }
        if condition.starts(with: Array("%(prefix)/".utf8)) {
            throw Refusal("\(path) has a gitdir: condition in %(prefix)/: Perch does not know git's install prefix")
        }
        var pattern = condition
        var prefix = 0
        if pattern.first == UInt8(ascii: "~"), let text = String(validating: pattern, as: UTF8.self),
            let expanded = expandHome(text, resolved: true)
        {
            pattern = Array(expanded.utf8)
        }
        if pattern.starts(with: Array("./".utf8)) {
            let file = files.realPath(path) ?? path
            let folder = Array(file.utf8[..<(file.utf8.lastIndex(of: UInt8(ascii: "/")) ?? file.utf8.startIndex)])
            pattern = folder + pattern.dropFirst()
            prefix = folder.count + 1
        } else if pattern.first != UInt8(ascii: "/") {
            pattern = Array("**/".utf8) + pattern
        }
        if pattern.last == UInt8(ascii: "/") { pattern += Array("**".utf8) }
        if resolvedGitDirectory == nil { resolvedGitDirectory = .some(files.realPath(gitDirectory)) }
        for candidate in [resolvedGitDirectory!, gitDirectory] {
            guard let candidate else { continue }
            let text = Array(candidate.utf8)
            if prefix > 0 {
                guard text.count >= prefix else { continue }
                let same =
                    caseFold
                    ? zip(pattern[..<prefix], text[..<prefix]).allSatisfy { lowerASCII($0) == lowerASCII($1) }
                    : pattern[..<prefix] == text[..<prefix]
                guard same else { continue }
            }
            let flags: Wildmatch.Flags = caseFold ? [.pathname, .caseFold] : .pathname
            if Wildmatch.matches(Array(pattern[prefix...]), Array(text[prefix...]), flags: flags) { return true }
        }
        return false
    }

    /// git's `include_by_branch`: the pattern (a trailing `/` taking `**`) against the branch
    /// `HEAD` names; false when `HEAD` names no branch (detached).
    mutating func onBranch(_ condition: [UInt8]) -> Bool {
        if branch == nil {
            branch = .some(
                place.gitDirectory.flatMap { folder in
                    guard case .contents(let bytes) = files.file(folder + "/HEAD") else { return nil }
                    return Self.branch(inHead: bytes)
                })
        }
        guard let name = branch! else { return false }
        var pattern = condition
        if pattern.last == UInt8(ascii: "/") { pattern += Array("**".utf8) }
        return Wildmatch.matches(pattern, Array(name.utf8), flags: .pathname)
    }

    /// The branch a `HEAD` file's `ref: refs/heads/NAME` names, nil for any other.
    static func branch(inHead bytes: [UInt8]) -> String? {
        guard let text = String(validating: bytes, as: UTF8.self), text.hasPrefix("ref:") else { return nil }
        let reference = text.dropFirst(4).trimmingWhitespace
        guard reference.hasPrefix("refs/heads/"), reference.count > 11 else { return nil }
        return String(reference.dropFirst(11))
    }

    /// `bytes` after `prefix`, or nil when it does not start so.
    static func after(_ bytes: [UInt8], _ prefix: String) -> [UInt8]? {
        let prefix = Array(prefix.utf8)
        return bytes.starts(with: prefix) ? Array(bytes[prefix.count...]) : nil
    }

    /// `includeif.<condition>.<name>`'s condition and name (git's `parse_config_key`), nil for
    /// another key or one without a condition.
    static func conditional(_ key: [UInt8]) -> ([UInt8], [UInt8])? {
        guard let rest = after(key, "includeif."), let dot = rest.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        return (Array(rest[..<dot]), Array(rest[(dot + 1)...]))
    }

    /// Whether `key` is `remote.<name>.url` (git's `add_remote_url`).
    static func isRemoteURL(_ key: [UInt8]) -> Bool {
        guard let rest = after(key, "remote."), let dot = rest.lastIndex(of: UInt8(ascii: ".")) else { return false }
        return rest[(dot + 1)...].elementsEqual("url".utf8)
    }
}

private func lowerASCII(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
private func keyText(_ key: [UInt8]) -> String { String(decoding: key, as: UTF8.self) }
