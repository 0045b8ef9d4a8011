/// The config's `"directories"`: which account a folder belongs to. A folder binds itself and
/// everything below it; where two bound folders hold a path, the deepest wins (as direnv and
/// git's `includeIf "gitdir:…/"` rules written in that order do). Pure: the home folder is given.
public enum DirectoryRules {
    /// One bound folder: the account and the folder as written and as an absolute path.
    public struct Rule: Hashable, Sendable {
        /// The id of the account the folder is bound to.
        public var account: String
        /// As written in the config (`~/work`).
        public var written: String
        /// Absolute, `~` expanded, no trailing `/` (`/home/ada/work`).
        public var folder: String
        public init(account: String, written: String, folder: String) {
            self.account = account
            self.written = written
            self.folder = folder
        }
    }

    /// Why `text` cannot be a bound folder, or nil when it can: it must be absolute or start
    /// with `~/`, hold no line break, and not be `/` itself (every path would be bound).
    public static func problem(_ text: String) -> String? {
        if text.isEmpty { return "must not be empty" }
        if text.contains(where: \.isNewline) { return "\"\(text)\" holds a line break" }
        guard text.hasPrefix("/") || text.hasPrefix("~/") || text == "~" else {
            return "\"\(text)\" is not an absolute path or one starting with ~/"
        }
        if normalized(text) == "/" { return "\"/\" would bind every folder" }
        // git's gitdir: patterns and the shell hook compare the path as written: a `..`, `.` or
        // doubled slash would bind nothing (both see the folder by its plain path).
        let parts = normalized(text).split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        if parts.contains(where: { $0 == ".." || $0 == "." }) || parts.dropLast().contains("") {
            return "\"\(text)\" holds a . or .. or a doubled /; write the folder plainly, as \(plain(text))"
        }
        return nil
    }

    /// `text` with `.`, `..` and doubled slashes resolved on the path alone (no symlink is read).
    static func plain(_ text: String) -> String {
        let home = text.hasPrefix("~")
        var parts: [Substring] = []
        for part in text.dropFirst(home ? 1 : 0).split(separator: "/") where part != "." {
            if part == ".." { if !parts.isEmpty { parts.removeLast() } } else { parts.append(part) }
        }
        return (home ? "~/" : "/") + parts.joined(separator: "/")
    }

    /// `text` without trailing slashes (`~/work/` → `~/work`), `/` kept.
    public static func normalized(_ text: String) -> String {
        var text = text
        while text.count > 1, text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// `text` as an absolute folder: `~` replaced by `home`, no trailing slash.
    public static func absolute(_ text: String, home: String) -> String {
        let folder = normalized(text)
        if folder == "~" { return normalized(home) }
        if folder.hasPrefix("~/") { return normalized(home) + folder.dropFirst() }
        return folder
    }

    /// Every bound folder of `accounts`, shallowest first (the order git's rules are written in,
    /// so that a deeper folder's rule comes later and wins).
    public static func rules(_ accounts: [Account], home: String) -> [Rule] {
        accounts.flatMap { account in
            account.identities.directories.map { Rule(account: account.id, written: $0, folder: absolute($0, home: home)) }
        }.sorted { ($0.folder.utf8.count, $0.folder) < ($1.folder.utf8.count, $1.folder) }
    }

    /// The rule that holds `path` (absolute), the deepest when several do; nil for none.
    public static func match(_ path: String, in rules: [Rule]) -> Rule? {
        let path = normalized(path)
        return rules.last { path == $0.folder || path.hasPrefix($0.folder == "/" ? "/" : $0.folder + "/") }
    }
}
