/// A repository's remotes as its config names them (git-config(1), `remote.<name>.url`,
/// `remote.<name>.pushurl`, `url.<base>.insteadOf`, `url.<base>.pushInsteadOf`), read by
/// ``GitConfigReader``: the URLs as written, and the rewrites that config holds. git also takes
/// remotes and rewrites from the global and system configs; a caller merging those puts their
/// rewrites first (``GitURLRewrites/+(_:_:)``). Pure.
public struct GitRemotes: Hashable, Sendable {
    /// One `remote.<name>.url` or `remote.<name>.pushurl`.
    public struct Entry: Hashable, Sendable {
        /// The remote's name: the subsection (`origin`).
        public var remote: String
        /// Whether it is a `pushurl`.
        public var isPush: Bool
        /// As written.
        public var url: String

        public init(remote: String, isPush: Bool, url: String) {
            self.remote = remote
            self.isPush = isPush
            self.url = url
        }

        /// Whether git's remote commands take it: they skip a name starting with `/`.
        public var known: Bool { remote.utf8.first != UInt8(ascii: "/") }
    }

    /// One remote: its URLs and push URLs as written, in config order.
    public struct Remote: Hashable, Sendable {
        public var name: String
        public var urls: [String]
        public var pushURLs: [String]

        public init(name: String, urls: [String], pushURLs: [String]) {
            self.name = name
            self.urls = urls
            self.pushURLs = pushURLs
        }

        /// Where git fetches from: each URL rewritten by `insteadOf` (git's `remote.c`).
        public func fetchURLs(_ rewrites: GitURLRewrites) -> [String] { urls.map(rewrites.rewritten) }

        /// Where git pushes to: the push URLs rewritten by `insteadOf`; without any, the URLs
        /// a `pushInsteadOf` rewrites; without any, ``fetchURLs(_:)`` (git's `alias_all_urls`).
        public func pushTargets(_ rewrites: GitURLRewrites) -> [String] {
            if !pushURLs.isEmpty { return pushURLs.map(rewrites.rewritten) }
            let pushed = urls.compactMap(rewrites.rewrittenForPush)
            return pushed.isEmpty ? fetchURLs(rewrites) : pushed
        }
    }

    /// Every `remote.<name>.url` and `pushurl` of the config, in its order (its includes' in
    /// their places), as `git config --get-regexp` lists them.
    public var entries: [Entry]
    /// The config's own `insteadOf` and `pushInsteadOf` rules.
    public var rewrites: GitURLRewrites

    public init(entries: [Entry] = [], rewrites: GitURLRewrites = GitURLRewrites()) {
        self.entries = entries
        self.rewrites = rewrites
    }

    /// The remotes and rewrites among a config's variables.
    /// - Throws: a ``GitConfigReader/Refusal`` for a `url`, `pushurl`, `insteadOf` or
    ///   `pushInsteadOf` without a value: git's remote commands stop there ("missing value").
    public init(config: [GitConfigReader.Entry]) throws(GitConfigReader.Refusal) {
        var entries: [Entry] = []
        var rewrites = GitURLRewrites()
        for entry in config {
            guard let (section, name, key) = Self.split(entry.key) else { continue }
            if section == "remote", key == "url" || key == "pushurl" {
                guard let value = entry.value else {
                    // git warns about and skips a remote whose name starts with `/`.
                    if name.utf8.first == UInt8(ascii: "/") { continue }
                    throw GitConfigReader.Refusal("missing value for '\(entry.key)'")
                }
                entries.append(Entry(remote: name, isPush: key == "pushurl", url: value))
            } else if section == "url", key == "insteadof" || key == "pushinsteadof" {
                guard let value = entry.value else { throw GitConfigReader.Refusal("missing value for '\(entry.key)'") }
                let rule = GitURLRewrites.Rule(base: name, prefix: value)
                if key == "insteadof" { rewrites.insteadOf.append(rule) } else { rewrites.pushInsteadOf.append(rule) }
            }
        }
        self.init(entries: entries, rewrites: rewrites)
    }

    /// The remotes git knows (a name starting with `/` it ignores), in order of first mention.
    public var remotes: [Remote] {
        var remotes: [Remote] = []
        var index: [[UInt8]: Int] = [:]  // names compared byte for byte, as git does
        for entry in entries where entry.known {
            let name = Array(entry.remote.utf8)
            let at = index[name] ?? remotes.count
            if at == remotes.count {
                index[name] = at
                remotes.append(Remote(name: entry.remote, urls: [], pushURLs: []))
            }
            if entry.isPush { remotes[at].pushURLs.append(entry.url) } else { remotes[at].urls.append(entry.url) }
        }
        return remotes
    }

    /// Every `remote.<name>.url` as written, in config order: what git's `includeIf
    /// "hasconfig:remote.*.url:…"` rules match (a name starting with `/` too), and so what a
    /// remote pattern is matched to.
    public var urls: [String] { entries.filter { !$0.isPush }.map(\.url) }

    /// Every `remote.<name>.pushurl` as written, in config order.
    public var pushURLs: [String] { entries.filter(\.isPush).map(\.url) }

    /// `section.subsection.key`'s parts (git's `parse_config_key`), nil without a subsection.
    static func split(_ key: String) -> (String, String, String)? {
        let bytes = Array(key.utf8)
        guard let first = bytes.firstIndex(of: UInt8(ascii: ".")), let last = bytes.lastIndex(of: UInt8(ascii: ".")), first < last
        else { return nil }
        let text = { (part: ArraySlice<UInt8>) in String(decoding: part, as: UTF8.self) }
        return (text(bytes[..<first]), text(bytes[(first + 1)..<last]), text(bytes[(last + 1)...]))
    }
}
