/// git's URL rewriting (git-config(1), `url.<base>.insteadOf` and `url.<base>.pushInsteadOf`;
/// git's `remote.c`, `alias_url`): a URL starting with a rule's prefix has that prefix replaced
/// by the rule's base, the longest matching prefix winning; between prefixes of one length, the
/// first base to appear in the config wins, then its first prefix. Prefixes and bases are
/// compared byte for byte. Pure.
public struct GitURLRewrites: Hashable, Sendable {
    /// One `url.<base>.insteadOf = <prefix>` (or `pushInsteadOf`).
    public struct Rule: Hashable, Sendable {
        /// What replaces the prefix: the section's subsection.
        public var base: String
        /// What a URL starts with to be rewritten: the value.
        public var prefix: String

        public init(base: String, prefix: String) {
            self.base = base
            self.prefix = prefix
        }
    }

    /// `insteadOf` rules, in config order: for every URL.
    public var insteadOf: [Rule]
    /// `pushInsteadOf` rules, in config order: for a remote's URLs when it has no `pushurl`.
    public var pushInsteadOf: [Rule]

    public init(insteadOf: [Rule] = [], pushInsteadOf: [Rule] = []) {
        self.insteadOf = insteadOf
        self.pushInsteadOf = pushInsteadOf
    }

    /// The rules of two configs in git's order (`global + local`: the earlier config's first).
    public static func + (earlier: GitURLRewrites, later: GitURLRewrites) -> GitURLRewrites {
        GitURLRewrites(insteadOf: earlier.insteadOf + later.insteadOf, pushInsteadOf: earlier.pushInsteadOf + later.pushInsteadOf)
    }

    /// `url` as git fetches from it: rewritten by the longest `insteadOf` prefix, or as it is.
    public func rewritten(_ url: String) -> String {
        Self.rewrite(url, insteadOf) ?? url
    }

    /// `url` rewritten by the longest `pushInsteadOf` prefix, or nil when none matches.
    public func rewrittenForPush(_ url: String) -> String? {
        Self.rewrite(url, pushInsteadOf)
    }

    /// git's `alias_url`: rules grouped by base in order of first appearance, each base's
    /// prefixes in order; a strictly longer prefix replaces the one found.
    static func rewrite(_ url: String, _ rules: [Rule]) -> String? {
        var bases: [[UInt8]] = []
        var prefixes: [[UInt8]: [[UInt8]]] = [:]
        for rule in rules {
            let base = Array(rule.base.utf8)
            if prefixes[base] == nil { bases.append(base) }
            prefixes[base, default: []].append(Array(rule.prefix.utf8))
        }
        let bytes = Array(url.utf8)
        var best: (base: [UInt8], length: Int)?
        for base in bases {
            for prefix in prefixes[base]! where bytes.starts(with: prefix) && (best == nil || best!.length < prefix.count) {
                best = (base, prefix.count)
            }
        }
        guard let best else { return nil }
        return String(decoding: best.base + bytes[best.length...], as: UTF8.self)
    }
}
