/// One of an account's `"remotes"`: the repositories it owns by their remote URL, written
/// without a scheme or user (`github.com/acme/*`, `gitlab.example.com/team/**`). A remote URL
/// matches in any of its forms (git-clone(1), "GIT URLS"): `https://[user@]host[:port]/path`,
/// `ssh://[user@]host[:port]/path`, scp-like `[user@]host:path`, `git://host/path`; with or
/// without `.git` and a trailing `/`, host and path compared without regard to case (as
/// GitHub, GitLab and Bitbucket treat them). In the pattern `*` matches within one path
/// component and `**` across components. Pure.
public struct RemotePattern: Hashable, Sendable {
    /// As written in the config.
    public var written: String
    /// Lowercased, without a trailing `/` or `.git`: `github.com/acme/*`.
    public var normalized: String

    public init(_ written: String) {
        self.written = written
        self.normalized = Self.normalize(written)
    }

    public static func == (a: RemotePattern, b: RemotePattern) -> Bool { a.normalized == b.normalized }
    public func hash(into hasher: inout Hasher) { hasher.combine(normalized) }

    /// Why `text` cannot be a remote pattern, or nil: it is `HOST/PATH`, without a scheme,
    /// user, space or line break, the host without wildcards, the path without `[` or `]`
    /// (git's wildmatch would read a class where this matcher reads a letter).
    public static func problem(_ text: String) -> String? {
        if text.isEmpty { return "must not be empty" }
        if text.contains(where: { $0.isNewline || $0 == " " || $0 == "\t" }) { return "\"\(text)\" holds a space or line break" }
        if text.contains("://") || text.contains("@") {
            return "\"\(text)\" names a scheme or user; write the host and path only, like github.com/acme/*"
        }
        let parts = text.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, !parts[1].isEmpty else { return "\"\(text)\" needs a host and a path, like github.com/acme/*" }
        if parts[0].contains(where: { "*?[".contains($0) }) { return "\"\(text)\": the host may not hold wildcards" }
        // git's wildmatch reads `[` as a class (and fails every match when it is not closed),
        // this matcher as a letter: the two would disagree, and no repository path holds one.
        if parts[1].contains(where: { $0 == "[" || $0 == "]" }) {
            return "\"\(text)\" holds a [ or ]: a remote pattern takes * (within a folder), ** (across folders) and ? only"
        }
        return nil
    }

    /// `text` lowercased, without trailing slashes and a final `.git`.
    static func normalize(_ text: String) -> String {
        var text = text.lowercased()
        while text.hasSuffix("/") { text.removeLast() }
        if text.hasSuffix(".git") { text.removeLast(4) }
        return text
    }

    /// A remote URL as `host/path` (lowercased, no port, user, scheme, trailing `/` or `.git`),
    /// or nil when it names no host (a local path, `file://`).
    public static func hostAndPath(_ url: String) -> String? {
        var url = url.trimmingWhitespace
        var host: Substring
        var path: Substring
        if let scheme = Self.schemeEnd(url) {
            let name = url[..<scheme].lowercased()
            guard ["ssh", "git+ssh", "ssh+git", "https", "http", "git", "ftp", "ftps"].contains(name) else { return nil }
            let rest = url[url.index(scheme, offsetBy: 3)...]
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            host = rest[..<slash]
            path = rest[slash...].drop { $0 == "/" }
            if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
            if host.hasPrefix("[") {
                // An IPv6 address: the port follows the bracket.
                if let close = host.firstIndex(of: "]") { host = host[...close] }
            } else if let colon = host.firstIndex(of: ":") {
                host = host[..<colon]
            }
        } else {
            // scp-like: a colon before any slash (git-clone(1)); else a local path.
            guard let colon = url.firstIndex(of: ":"), !url[..<colon].contains("/") else { return nil }
            host = url[..<colon]
            path = url[url.index(after: colon)...].drop { $0 == "/" }
            if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        }
        guard !host.isEmpty, !path.isEmpty else { return nil }
        url = normalize(String(host) + "/" + String(path))
        return url
    }

    /// Where `://` starts in `url`, or nil.
    static func schemeEnd(_ url: String) -> String.Index? {
        var index = url.startIndex
        while index < url.endIndex {
            if url[index...].hasPrefix("://") { return index }
            if url[index] == "/" || url[index] == "@" { return nil }
            index = url.index(after: index)
        }
        return nil
    }

    /// Whether remote `url` is one this pattern owns.
    public func matches(url: String) -> Bool {
        guard let target = Self.hostAndPath(url) else { return false }
        return Self.glob(Array(normalized.utf8), Array(target.utf8))
    }

    /// `*` within one component, `**` across components, `?` one byte but `/`.
    static func glob(_ pattern: [UInt8], _ text: [UInt8]) -> Bool {
        let slash = UInt8(ascii: "/")
        let star = UInt8(ascii: "*")
        func match(_ p: Int, _ t: Int) -> Bool {
            if p == pattern.count { return t == text.count }
            if pattern[p] == star {
                let double = p + 1 < pattern.count && pattern[p + 1] == star
                let next = double ? p + 2 : p + 1
                var end = t
                while true {
                    if match(next, end) { return true }
                    if end == text.count || (!double && text[end] == slash) { return false }
                    end += 1
                }
            }
            guard t < text.count else { return false }
            if pattern[p] == UInt8(ascii: "?") { return text[t] != slash && match(p + 1, t + 1) }
            return pattern[p] == text[t] && match(p + 1, t + 1)
        }
        return match(0, 0)
    }

    /// The patterns of git's `includeIf "hasconfig:remote.*.url:…"` (git-config(1),
    /// "Conditional includes", git 2.36 or later) that together match this pattern's remotes in
    /// their https, ssh and scp-like forms, with or without a user, port or `.git`. git's
    /// wildmatch tells case, so each letter is written as a class of both cases (`[gG]`).
    public var gitPatterns: [String] {
        let host = String(normalized.prefix { $0 != "/" })
        let path = String(normalized.drop { $0 != "/" }.dropFirst())
        let h = Self.anyCase(host)
        let p = Self.anyCase(path)
        var forms = [
            "https://\(h)/\(p)", "https://*@\(h)/\(p)", "https://\(h):*/\(p)", "https://*@\(h):*/\(p)", "http://\(h)/\(p)",
            "ssh://\(h)/\(p)", "ssh://*@\(h)/\(p)", "git://\(h)/\(p)",
            "ssh://\(h):*/\(p)", "ssh://*@\(h):*/\(p)", "*@\(h):\(p)", "\(h):\(p)",
        ]
        // `*` at the end already takes `.git`, but not a trailing slash (wildmatch's `*` stops at
        // `/`); a literal end takes neither.
        forms += path.hasSuffix("*") ? forms.map { $0 + "/" } : forms.flatMap { [$0 + ".git", $0 + "/", $0 + ".git/"] }
        return forms
    }

    /// `text` with each ASCII letter as a wildmatch class of both cases (`Ab` → `[aA][bB]`).
    static func anyCase(_ text: String) -> String {
        var result = ""
        for character in text {
            if let ascii = character.asciiValue, character.isLetter {
                let lower = Character(Unicode.Scalar(ascii | 0x20))
                let upper = Character(Unicode.Scalar(ascii & ~0x20))
                result += "[\(lower)\(upper)]"
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// Which of `accounts` owns a repository with remotes `urls`: the first account with a
    /// pattern matching one of them, with that pattern; nil for none.
    public static func owner(of urls: [String], in accounts: [Account]) -> (account: String, pattern: String)? {
        for account in accounts {
            for written in account.identities.remotes where urls.contains(where: RemotePattern(written).matches(url:)) {
                return (account.id, written)
            }
        }
        return nil
    }
}
