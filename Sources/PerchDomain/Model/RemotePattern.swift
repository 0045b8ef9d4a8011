/// One of an account's `"remotes"`: the repositories it owns by their remote URL, written
/// without a scheme or user (`github.com/acme/*`, `gitlab.example.com/team/**`). A remote URL
/// matches in each form git's rules take (``gitPatterns``, git-clone(1) "GIT URLS"):
/// `https://`, `http://`, `ssh://` and `git://` with or without `user@` and `:port`, and
/// scp-like `[user@]host:path` and `[user@]host:/path`; the path with or without `.git` and one
/// trailing `/`; ASCII letters of either case (as GitHub, GitLab and Bitbucket treat them). The
/// path is matched by git's wildmatch (``Wildmatch``): `*` and `?` within one path component,
/// `**` as a whole component across them. ``matches(url:)`` and the rules git gets agree on
/// every remote (a test asks git). Pure.
public struct RemotePattern: Hashable, Sendable {
    /// As written in the config.
    public var written: String
    /// ASCII-lowercased, without trailing `/` and a final `.git`: `github.com/acme/*`.
    public var normalized: String { didSet { compiled = Compiled(normalized) } }
    /// What ``matches(url:)`` compares, made once.
    private var compiled: Compiled

    public init(_ written: String) {
        self.written = written
        let normalized = Self.normalize(written)
        self.normalized = normalized
        self.compiled = Compiled(normalized)
    }

    /// The host's bytes and the path's wildmatch patterns, each with each ending.
    private struct Compiled: Sendable {
        var host: [UInt8]
        var paths: [[UInt8]]
        var scpPaths: [[UInt8]]

        init(_ normalized: String) {
            let host = String(normalized.prefix { $0 != "/" })
            let path = String(normalized.drop { $0 != "/" }.dropFirst())
            let endings = RemotePattern.endings(path).map { Array($0.utf8) }
            self.host = Array(host.utf8)
            paths = endings.map { RemotePattern.escaped(path) + $0 }
            scpPaths = RemotePattern.scpPaths(path).flatMap { scp in endings.map { scp + $0 } }
        }
    }

    public static func == (a: RemotePattern, b: RemotePattern) -> Bool { a.normalized == b.normalized }
    public func hash(into hasher: inout Hasher) { hasher.combine(normalized) }

    /// Why `text` cannot be a remote pattern, or nil: it is `HOST/PATH`, without a scheme,
    /// user, space or line break, the host without wildcards, the path without `[` or `]` (a
    /// class to git's wildmatch, which no repository's path needs).
    public static func problem(_ text: String) -> String? {
        if text.isEmpty { return "must not be empty" }
        if text.contains(where: { $0.isNewline || $0 == " " || $0 == "\t" }) { return "\"\(text)\" holds a space or line break" }
        if text.contains("://") || text.contains("@") {
            return "\"\(text)\" names a scheme or user; write the host and path only, like github.com/acme/*"
        }
        let parts = text.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, !parts[1].isEmpty else { return "\"\(text)\" needs a host and a path, like github.com/acme/*" }
        if parts[0].contains(where: { "*?[".contains($0) }) { return "\"\(text)\": the host may not hold wildcards" }
        // wildmatch reads `[` as a class and fails every match when it is not closed; the
        // letters' classes Perch writes (`[aA]`) would nest in one.
        if parts[1].contains(where: { $0 == "[" || $0 == "]" }) {
            return "\"\(text)\" holds a [ or ]: a remote pattern takes * (within a folder), ** (across folders) and ? only"
        }
        return nil
    }

    /// Why `text`, a valid pattern, may not be what was meant, or nil: a path of one component
    /// matches only repositories right under the host (`host/NAME`, as gitolite serves them),
    /// never an `OWNER/REPO` path.
    public static func warning(_ text: String) -> String? {
        guard problem(text) == nil else { return nil }
        let path = normalize(text).drop { $0 != "/" }.dropFirst()
        guard !path.contains("/"), path != "**" else { return nil }
        let host = text.prefix { $0 != "/" }
        return "\"\(text)\" matches only repositories right under \(host) (\(host)/NAME), no OWNER/REPO: "
            + "for an owner's repositories write \(host)/OWNER/*, for all of them \(host)/**"
    }

    /// `text` with ASCII letters lowercased, without trailing slashes and a final `.git`.
    static func normalize(_ text: String) -> String {
        var text = String(decoding: lowercasedASCII(Array(text.utf8)), as: UTF8.self)
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

    /// Whether remote `url` (as the config gives it) is one this pattern owns: one of
    /// ``gitPatterns`` matches it, decided without building them. The scheme, user, host and
    /// port are compared as those patterns' literal parts and `*`s do; the path by
    /// ``Wildmatch`` with the same path patterns and endings.
    public func matches(url: String) -> Bool { matches(Self.URLBytes(url)) }

    /// A remote URL's bytes as written and with ASCII letters lowercased, made once for every
    /// pattern it is compared with.
    struct URLBytes {
        var raw: [UInt8]
        var text: [UInt8]
        init(_ url: String) {
            raw = Array(url.utf8)
            text = RemotePattern.lowercasedASCII(raw)
        }
    }

    func matches(_ url: URLBytes) -> Bool {
        let raw = url.raw
        let text = url.text
        let host = compiled.host
        // Most patterns name another host: no need to look further.
        guard Self.find(host, in: text[...], from: 0) != nil else { return false }
        func pathMatches(_ rest: ArraySlice<UInt8>, _ patterns: [[UInt8]]) -> Bool {
            patterns.contains { Wildmatch.matches($0[...], rest, flags: .pathname) }
        }
        let slash = UInt8(ascii: "/")
        // scheme://[*@]host[:*]/path, the scheme in lowercase: the authority ends at the first
        // `/` (a `*` stops there).
        for scheme in Self.schemes where raw.starts(with: scheme) {
            let rest = text[scheme.count...]
            if let end = rest.firstIndex(of: slash), Self.authority(rest[..<end], holds: host),
                pathMatches(rest[(end + 1)...], compiled.paths)
            {
                return true
            }
        }
        // [*@]host:path and [*@]host:/path, the user without a `/`.
        var start = 0
        while let at = Self.find(host, in: text[...], from: start) {
            start = at + 1
            let colon = at + host.count
            guard colon < text.count, text[colon] == UInt8(ascii: ":"),
                at == 0 || (text[at - 1] == UInt8(ascii: "@") && !text[..<(at - 1)].contains(slash))
            else { continue }
            let rest = text[(colon + 1)...]
            if pathMatches(rest, compiled.scpPaths) { return true }
            if rest.first == slash, pathMatches(rest.dropFirst(), compiled.paths) { return true }
        }
        return false
    }

    /// The host: `normalized` up to its first `/`.
    var hostPart: String { String(normalized.prefix { $0 != "/" }) }
    /// The path pattern: `normalized` after its first `/`.
    var pathPart: String { String(normalized.drop { $0 != "/" }.dropFirst()) }

    /// The schemes of git's forms (git-clone(1), "GIT URLS"), in lowercase as git reads them,
    /// with their `://`.
    static let schemes = ["https", "http", "ssh", "git"].map { Array(($0 + "://").utf8) }

    /// Whether a URL's authority is `[*@]host[:*]` (the `*`s any text without a `/`).
    static func authority(_ authority: ArraySlice<UInt8>, holds host: [UInt8]) -> Bool {
        var start = authority.startIndex
        while let at = find(host, in: authority, from: start) {
            start = at + 1
            let end = at + host.count
            if (at == authority.startIndex || authority[at - 1] == UInt8(ascii: "@"))
                && (end == authority.endIndex || authority[end] == UInt8(ascii: ":"))
            {
                return true
            }
        }
        return false
    }

    /// Where `needle` next occurs in `text` at or after index `start`.
    static func find(_ needle: [UInt8], in text: ArraySlice<UInt8>, from start: Int) -> Int? {
        guard !needle.isEmpty else { return nil }
        var index = Swift.max(start, text.startIndex)
        while index + needle.count <= text.endIndex {
            if text[index] == needle[0] && text[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// What the path may end with after the pattern (each form is written with each): `.git`
    /// and one trailing `/` in either order; a final `*` already takes `.git`, a final `**`
    /// everything.
    static func endings(_ path: String) -> [String] {
        if path == "**" || path.hasSuffix("/**") { return [""] }
        if path.hasSuffix("*") { return ["", "/"] }
        return ["", ".git", "/", ".git/"]
    }

    /// The path patterns after scp-like `host:`. wildmatch takes `**` across folders only as a
    /// whole component, and after `:` it is none: a leading `**/` is written as no folder or as
    /// `*/**/` (any folders), a lone `**` as `*` or `*/**`.
    // Bug: github.com/** gave git `*@github.com:**`, which matched no `owner/repo`.
    static func scpPaths(_ path: String) -> [[UInt8]] {
        var rest = Substring(path)
        var leading = false
        while rest.hasPrefix("**/") {
            rest = rest.dropFirst(3)
            leading = true
        }
        if rest == "**" { return [Array("*".utf8), Array("*/**".utf8)] }
        let tail = escaped(String(rest))
        return leading ? [tail, Array("*/**/".utf8) + tail] : [tail]
    }

    /// `text` with `\` quoted for wildmatch (the only special byte a valid pattern may hold
    /// that it does not mean).
    static func escaped(_ text: String) -> [UInt8] {
        Array(text.utf8).flatMap { $0 == UInt8(ascii: "\\") ? [$0, $0] : [$0] }
    }

    static func lowercasedASCII(_ bytes: [UInt8]) -> [UInt8] { bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 } }

    /// The patterns of git's `includeIf "hasconfig:remote.*.url:…"` (git-config(1),
    /// "Conditional includes", git 2.36 or later) that together match this pattern's remotes:
    /// each scheme with and without a user and a port, scp-like with and without a user and a
    /// leading `/`, each with each of the path's endings. git's wildmatch tells case, so each
    /// ASCII letter is written as a class of both cases (`[gG]`).
    public var gitPatterns: [String] {
        let h = Self.anyCase(String(decoding: Self.escaped(hostPart), as: UTF8.self))
        let p = Self.anyCase(String(decoding: Self.escaped(pathPart), as: UTF8.self))
        var forms: [String] = []
        for scheme in ["https", "http", "ssh", "git"] {
            forms += ["\(scheme)://\(h)/\(p)", "\(scheme)://*@\(h)/\(p)", "\(scheme)://\(h):*/\(p)", "\(scheme)://*@\(h):*/\(p)"]
        }
        for scp in Self.scpPaths(pathPart).map({ Self.anyCase(String(decoding: $0, as: UTF8.self)) }) {
            forms += ["*@\(h):\(scp)", "\(h):\(scp)"]
        }
        forms += ["*@\(h):/\(p)", "\(h):/\(p)"]
        let endings = Self.endings(pathPart).map(Self.anyCase)
        return forms.flatMap { form in endings.map { form + $0 } }
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

    /// `url` with its host replaced by the host ssh resolves it to (`aliases`, lowercased, from
    /// ``SSHAliases``), when its host is one of them; else nil. The host is found as git finds it
    /// (git-clone(1), "GIT URLS"): after `scheme://` and any `user@`, before a port or the path;
    /// in the scp-like form, before the first `:` when no `/` comes first.
    public static func resolvingAlias(_ url: String, _ aliases: [String: String]) -> String? {
        guard !aliases.isEmpty else { return nil }
        if url.firstRange(of: "://") == nil {
            // scp-like only: a colon before any slash; else a local path, which names no host.
            guard let colon = url.firstIndex(of: ":"), !url[..<colon].contains("/") else { return nil }
        }
        guard let range = hostRange(of: url), let host = aliases[url[range].lowercased()] else { return nil }
        return String(url[..<range.lowerBound]) + host + String(url[range.upperBound...])
    }

    /// Where `url`'s host is, as written (case kept, an ssh alias as it is): after `scheme://`
    /// and any `user@`, before a port or the path; in the scp-like form, before the first `:`;
    /// an IPv6 address with its brackets. Nil when it names none.
    public static func hostRange(of url: String) -> Range<String.Index>? {
        var start = url.startIndex
        var end: String.Index
        if let scheme = url.firstRange(of: "://") {
            start = scheme.upperBound
            end = url[start...].firstIndex(of: "/") ?? url.endIndex
        } else {
            end = url.firstIndex(of: ":") ?? url.endIndex
        }
        if let at = url[start..<end].lastIndex(of: "@") { start = url.index(after: at) }
        if url[start..<end].hasPrefix("[") {
            if let close = url[start..<end].firstIndex(of: "]") { end = url.index(after: close) }
        } else if let colon = url[start..<end].firstIndex(of: ":") {
            end = colon
        }
        return start < end ? start..<end : nil
    }

    /// Which of `accounts` owns a repository with remotes `urls`: the first account with a
    /// pattern matching one of them, with that pattern; nil for none.
    public static func owner(of urls: [String], in accounts: [Account], aliases: [String: String] = [:]) -> (
        account: String, pattern: String
    )? {
        let urls = (urls + urls.compactMap { resolvingAlias($0, aliases) }).map(URLBytes.init)
        for account in accounts {
            for written in account.identities.remotes {
                let pattern = RemotePattern(written)
                if urls.contains(where: pattern.matches) { return (account.id, written) }
            }
        }
        return nil
    }
}
