import PerchDomain
import PerchStore

/// `perch import`: accounts proposed from the identities the tools already hold (git identities
/// of the global config and its `includeIf` files, ssh keys and `Host` blocks, kube contexts,
/// gcloud configurations, gh users, AWS profiles). What belongs to one person becomes one
/// account (``merge(_:existing:)``); the rest stay one account per identity, grouped by tool.
public enum IdentityImport {
    /// The proposed accounts for what the tools of `environment` hold (each adapter's
    /// ``ToolAdapter/importCandidates(in:)``, in the order of ``ToolAdapters/registry``), merged
    /// by ``merge(_:existing:owners:)``. An identity an account of `existing` already names
    /// (``ToolAdapter/importIdentity(_:in:)``: the same kube context in another namespace, the
    /// same key for other hosts) is never proposed again, but still links: what belongs with it
    /// is proposed as an addition to that account (a proposal whose id is the account's).
    public static func propose(_ environment: IdentityEnvironment, existing: [Account]) -> [Account] {
        let context = ToolContext(environment: environment)
        let candidates = ToolAdapters.registry.flatMap { $0.importCandidates(in: context) }
        func identity(_ setting: ToolSetting) -> String {
            let named = ToolAdapters.adapter(for: setting.tool)?.importIdentity(setting, in: environment) ?? setting.summary
            return setting.tool.rawValue + "\u{0}" + named
        }
        var named: [String: String] = [:]
        for account in existing {
            for setting in account.identities.settings where named[identity(setting)] == nil { named[identity(setting)] = account.id }
        }
        return merge(candidates, existing: existing, owners: candidates.map { named[identity($0.setting)] })
    }

    /// Words that name no one: environments, roles, regions, providers and key types. They never
    /// link identities (a `default` AWS profile and a `default` gcloud configuration are not one
    /// person's by that name).
    static let genericWords: Set<String> = [
        "prod", "production", "prd", "dev", "devel", "development", "staging", "stage", "stg", "test", "testing", "qa", "uat",
        "preprod", "sandbox", "live", "local", "default", "main", "admin", "administrator", "readonly", "read", "write", "ro",
        "rw", "user", "users", "power", "poweruser", "developer", "viewer", "owner", "root", "sso", "role", "profile",
        "config", "context", "cluster", "account", "eu", "us", "ap", "west", "east", "north", "south", "central", "gke", "eks",
        "aks", "arn", "aws", "gcp", "azure", "kind", "com", "org", "net", "io", "co", "example", "github", "gitlab",
        "noreply", "mail", "id", "rsa", "dsa", "ecdsa", "ed25519", "sk", "key", "ssh", "git", "gh", "www",
    ]

    /// The lowercase words of `text` that may link identities: runs of letters and digits, at
    /// least two long, not only digits, not in ``genericWords``.
    static func words(_ text: some StringProtocol) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init).filter {
            $0.count >= 2 && !$0.allSatisfy(\.isNumber) && !genericWords.contains($0)
        }
    }

    /// The keys by which an identity known by `texts` (``ImportCandidate/keys``) links to
    /// identities of other tools, most telling first: for an email (`ada@work.example`) the
    /// whole address, then the words of its domain without the last label (`work`), then those
    /// of its name part (`ada`); for any other text its words.
    static func linkKeys(_ texts: [String]) -> [String] { links(texts).all }

    /// ``linkKeys(_:)`` of `texts` and then of `weak` (each also as one word: `adalovelace`),
    /// with the strong ones apart: every key but the name part of an email and the words of
    /// `weak` (``ImportCandidate/weakKeys``).
    static func links(_ texts: [String], weak: [String] = []) -> (all: [String], strong: Set<String>) {
        var keys: [String] = []
        var strong: Set<String> = []
        func add(_ new: [String], strong isStrong: Bool) {
            for key in new {
                if !keys.contains(key) { keys.append(key) }
                if isStrong { strong.insert(key) }
            }
        }
        for text in texts {
            let lower = text.lowercased()
            if let at = lower.lastIndex(of: "@"), at != lower.startIndex, !lower.contains(" ") {
                add([lower], strong: true)
                add(lower[lower.index(after: at)...].split(separator: ".").dropLast().flatMap(words), strong: true)
                add(words(lower[..<at]), strong: false)
            } else {
                add(words(lower), strong: true)
            }
        }
        for text in weak {
            // A person's name also as one word: `Ada Lovelace` is the gh user `adalovelace`.
            let parts = text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
            add(words(text.lowercased()) + (parts.count > 1 ? words(parts.joined()) : []), strong: false)
        }
        return (keys, strong)
    }

    /// Whether `key` is a whole address (an email, or an ssh key's `user@host` comment).
    static func isAddress(_ key: String) -> Bool { key.contains("@") }

    /// The label a group linked by `key` is named after: the key, or for an email its first word.
    static func label(_ key: String) -> String {
        guard key.contains("@") else { return key }
        return linkKeys([key]).dropFirst().first ?? "account"
    }

    /// Identities found together: one person's for certain (the same whole address, or named
    /// by the same account), at most one per tool.
    private struct Unit {
        var members: [Int]
        /// The account of the config that already names some of them, if any.
        var owner: String?
        /// The tools of the members.
        var tools: Set<IdentityTool>
        /// The tools no other identity may bring: the members' and, for an owner, the account's.
        var blocked: Set<IdentityTool>
        var alive = true
    }

    /// Candidates (one identity each) as proposed accounts, one person's identities in one
    /// account. Pure: the same candidates give the same proposals, and the order they come in
    /// changes only which of two equal choices is made.
    ///
    /// First, identities that are one person's for certain become one unit: those an account of
    /// `existing` names (`owners[i]` is its id), and those sharing a whole address (an ssh key
    /// whose comment is exactly a git email), whatever else their names say; a unit holds one
    /// identity per tool. Then, repeatedly, the key (``linkKeys(_:)``) held by units of the
    /// most tools (at least two units and two tools; ties: the key met first) joins them: the
    /// first holder (owned, then of most tools, then of fewest keys) able to take in another
    /// takes in every holder whose tools it lacks, and is named after the key (``label(_:)``)
    /// unless it was named before; a group so made goes on taking in what later keys link to it.
    /// Strong keys are tried before weak ones (a person's name, an email's name part), which
    /// every identity of one person shares, and a key that joins nothing is set aside.
    /// Identities left make an account each, named as their adapter proposes. A group
    /// holding an owned unit is an addition to that account: its id, with only the identities
    /// of tools the account does not name yet. Merged accounts come first; settings follow the
    /// registry's order; a gh user's handle becomes the account's. Ids of new accounts are made
    /// unique against `existing` and each other.
    public static func merge(_ candidates: [ImportCandidate], existing: [Account], owners: [String?]? = nil) -> [Account] {
        let owners = owners ?? [String?](repeating: nil, count: candidates.count)
        let links = candidates.map { Self.links($0.keys, weak: $0.weakKeys) }
        let accounts = Dictionary(existing.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var units: [Unit] = []
        var unitOf = [Int](repeating: 0, count: candidates.count)
        var ownerUnit: [String: Int] = [:]
        for index in candidates.indices {
            let tool = candidates[index].setting.tool
            if let owner = owners[index], let unit = ownerUnit[owner] {
                units[unit].members.append(index)
                units[unit].tools.insert(tool)
                unitOf[index] = unit
                continue
            }
            let blocked = Set(owners[index].flatMap { accounts[$0]?.identities.tools } ?? []).union([tool])
            if let owner = owners[index] { ownerUnit[owner] = units.count }
            unitOf[index] = units.count
            units.append(Unit(members: [index], owner: owners[index], tools: [tool], blocked: blocked))
        }
        func keyCount(_ unit: Int) -> Int { units[unit].members.map { links[$0].all.count }.reduce(0, +) }
        /// Units first for a group: owned, then of most tools, then of fewest keys, then first found.
        func precedes(_ a: Int, _ b: Int) -> Bool {
            let left = (units[a].owner == nil ? 1 : 0, -units[a].tools.count, keyCount(a), units[a].members.min()!)
            let right = (units[b].owner == nil ? 1 : 0, -units[b].tools.count, keyCount(b), units[b].members.min()!)
            return left < right
        }
        /// Whether `other` may join a group of `tools` owned by `owner`.
        func joins(_ other: Int, tools: Set<IdentityTool>, owner: String?) -> Bool {
            units[other].blocked.isDisjoint(with: tools) && (owner == nil || units[other].owner == nil || units[other].owner == owner)
        }
        func merge(_ other: Int, into base: Int) {
            units[base].members += units[other].members
            units[base].tools.formUnion(units[other].tools)
            units[base].blocked.formUnion(units[other].blocked)
            units[base].owner = units[base].owner ?? units[other].owner
            units[other].alive = false
            for member in units[other].members { unitOf[member] = base }
        }
        // Whole addresses, in sorted order: the same identities give the same units whatever their order.
        let addresses = Set(links.flatMap { $0.all.filter(isAddress) }).sorted()
        for address in addresses {
            var holders: [Int] = []
            for index in candidates.indices where links[index].all.contains(address) && !holders.contains(unitOf[index]) {
                holders.append(unitOf[index])
            }
            guard holders.count > 1 else { continue }
            holders.sort(by: precedes)
            for other in holders.dropFirst() where joins(other, tools: units[holders[0]].blocked, owner: units[holders[0]].owner) {
                merge(other, into: holders[0])
            }
        }
        // Words: a group, once made, takes in what a later key links to it, for the tools it lacks.
        var labels: [Int: String] = [:]
        var grouped: [Int] = []  // units made by a key, in the order made
        for strongOnly in [true, false] {
            var spent = Set<String>()
            while true {
                let live = units.indices.filter { units[$0].alive }.sorted { units[$0].members.min()! < units[$1].members.min()! }
                var tools: [String: Set<IdentityTool>] = [:]
                var holders: [String: [Int]] = [:]
                var first: [String: Int] = [:]
                for unit in live {
                    for member in units[unit].members.sorted() {
                        for key in links[member].all where !isAddress(key) && !spent.contains(key) {
                            guard !strongOnly || links[member].strong.contains(key) else { continue }
                            tools[key, default: []].formUnion(units[unit].tools)
                            if !(holders[key] ?? []).contains(unit) { holders[key, default: []].append(unit) }
                            if first[key] == nil { first[key] = first.count }
                        }
                    }
                }
                let linking = holders.keys.filter { holders[$0]!.count >= 2 && tools[$0]!.count >= 2 }
                guard let key = linking.min(by: { (tools[$0]!.count, first[$1]!) > (tools[$1]!.count, first[$0]!) }) else { break }
                // The first holder that can take in another takes in every one it can.
                let sorted = holders[key]!.sorted(by: precedes)
                guard
                    let base = sorted.first(where: { base in
                        sorted.contains { $0 != base && joins($0, tools: units[base].blocked, owner: units[base].owner) }
                    })
                else {
                    spent.insert(key)
                    continue
                }
                for unit in sorted where unit != base && joins(unit, tools: units[base].blocked, owner: units[base].owner) {
                    merge(unit, into: base)
                    if let label = labels[unit], labels[base] == nil {
                        labels[base] = label
                        grouped.append(base)
                    }
                }
                if labels[base] == nil {
                    labels[base] = label(key)
                    grouped.append(base)
                }
            }
        }
        var groups: [(label: String, units: [Int])] = grouped.filter { units[$0].alive }.map { (labels[$0]!, [$0]) }
        var placed = Set(groups.map { $0.units[0] })
        for unit in units.indices where units[unit].alive && !placed.contains(unit) {
            guard units[unit].members.count > 1 || units[unit].owner != nil else { continue }
            let address = units[unit].members.lazy.flatMap { links[$0].all.filter(isAddress) }.first
            groups.append((address.map(label) ?? candidates[units[unit].members[0]].idBase, [unit]))
            placed.insert(unit)
        }
        let live = units.indices.filter { units[$0].alive }.sorted { units[$0].members.min()! < units[$1].members.min()! }
        var taken = Set(existing.map(\.id))
        var proposals: [Account] = []
        for group in groups {
            let members = group.units.flatMap { units[$0].members }.sorted {
                (toolOrder(candidates[$0].setting.tool), $0) < (toolOrder(candidates[$1].setting.tool), $1)
            }
            if let owner = group.units.lazy.compactMap({ units[$0].owner }).first {
                let new = members.filter { owners[$0] == nil }.map { candidates[$0] }
                guard !new.isEmpty, let account = accounts[owner] else { continue }
                proposals.append(
                    Account(id: owner, name: account.name, handle: account.handle, identities: ToolIdentities(new.map(\.setting))))
                continue
            }
            let found = members.map { candidates[$0] }
            proposals.append(
                Account(
                    id: uniqueID(group.label, taken: &taken), name: group.label.prefix(1).uppercased() + group.label.dropFirst(),
                    handle: found.lazy.compactMap(\.handle).first, identities: ToolIdentities(found.map(\.setting))))
        }
        for unit in live where !placed.contains(unit) {
            let candidate = candidates[units[unit].members[0]]
            proposals.append(
                Account(
                    id: uniqueID(candidate.idBase, taken: &taken), name: candidate.name, handle: candidate.handle, group: candidate.group,
                    identities: ToolIdentities([candidate.setting])))
        }
        return proposals
    }

    /// `tool`'s place in ``ToolAdapters/registry`` (unknown tools last).
    static func toolOrder(_ tool: IdentityTool) -> Int {
        ToolAdapters.registry.firstIndex { $0.tool == tool } ?? Int.max
    }

    /// The git identities of the global config (`user.*`) and of each file its `includeIf.*.path`
    /// names, without repeats.
    static func gitIdentities(_ environment: IdentityEnvironment) -> [GitAdapter.Setting] {
        func identity(_ arguments: [String]) -> GitAdapter.Setting? {
            let run = ProgramRunner.run(
                "git", ["config"] + arguments + ["--get-regexp", "^user\\.(name|email|signingkey)$"], in: environment)
            guard let output = run.output else { return nil }
            var git = GitAdapter.Setting()
            for line in output.split(whereSeparator: \.isNewline) {
                let parts = line.split(separator: " ", maxSplits: 1)
                let value = parts.count > 1 ? String(parts[1]) : ""
                switch parts[0].lowercased() {
                case "user.name": git.name = value
                case "user.email": git.email = value
                case "user.signingkey": git.signingKey = value
                default: break
                }
            }
            return git == GitAdapter.Setting() ? nil : git
        }
        var found: [GitAdapter.Setting] = []
        if let global = identity(["--global", "--no-includes"]) { found.append(global) }
        let includes = ProgramRunner.run("git", ["config", "--global", "--get-regexp", "^includeif\\..*\\.path$"], in: environment)
        for line in (includes.output ?? "").split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { continue }
            var path = environment.expandingTilde(String(parts[1]))
            if !path.hasPrefix("/") { path = environment.home + "/" + path }  // relative to the global config's folder
            if let git = identity(["--file", path]), !found.contains(git) { found.append(git) }
        }
        return found
    }

    /// `text` as an account id: lowercase letters, digits, `.`, `_` and `-`, others as `-`.
    static func derivedID(_ text: String) -> String {
        var id = ""
        for scalar in text.lowercased().unicodeScalars {
            let ok = (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") || scalar == "." || scalar == "_" || scalar == "-"
            if ok {
                id.unicodeScalars.append(scalar)
            } else if !id.hasSuffix("-") {
                id += "-"
            }
        }
        while id.hasSuffix("-") { id.removeLast() }
        return id.isEmpty ? "account" : id
    }

    static func uniqueID(_ base: String, taken: inout Set<String>) -> String {
        let root = derivedID(base)
        var id = root
        var number = 2
        while taken.contains(id) {
            id = "\(root)-\(number)"
            number += 1
        }
        taken.insert(id)
        return id
    }

    /// The proposals as a config fragment: the `accounts` elements, one per line, each run of
    /// one group (an account of several tools: its tools) after a comment line (the comments
    /// are for reading; `--write` inserts the accounts themselves). A proposal adding to an
    /// account of `existing` is a comment naming what it adds, since its id is taken.
    public static func fragment(_ proposals: [Account], existing: [Account] = []) -> String {
        let ids = Set(existing.map(\.id))
        let new = proposals.filter { !ids.contains($0.id) }
        var text = ""
        var heading: String?
        for (index, account) in new.enumerated() {
            let title = account.group ?? "\(account.id): " + account.identities.tools.map(\.rawValue).joined(separator: ", ")
            if title != heading {
                heading = title
                text += "// \(title)\n"
            }
            text += ConfigWriter.jsonLine(account) + (index == new.count - 1 ? "" : ",") + "\n"
        }
        for addition in proposals where ids.contains(addition.id) {
            guard let target = existing.first(where: { $0.id == addition.id }) else { continue }
            let edits = edits(adding: addition, to: target)
            guard !edits.isEmpty else { continue }
            text += "// adds to \(addition.id):"
            for case .set(_, let path, let json) in edits { text += " \"\(path.joined(separator: "."))\": \(json)" }
            text += "\n"
        }
        return text
    }

    /// The config edits that add to `account` what `addition` names and it does not: each tool
    /// it names no identity for, and folders and remotes it does not list yet (appended to its own).
    public static func edits(adding addition: Account, to account: Account) -> [ConfigEdit] {
        var edits: [ConfigEdit] = []
        let named = Set(account.identities.tools)
        for setting in addition.identities.settings where !named.contains(setting.tool) {
            guard let reader = ToolConfigRegistry.reader(for: setting.tool.rawValue) else { continue }
            edits.append(.set(id: account.id, path: [setting.tool.rawValue], json: reader.json(setting)))
        }
        let folders = addition.identities.directories.filter { !account.identities.directories.contains($0) }
        if !folders.isEmpty {
            let all = account.identities.directories + folders
            edits.append(
                .set(id: account.id, path: ["directories"], json: "[" + all.map(ConfigWriter.jsonString).joined(separator: ", ") + "]"))
        }
        let remotes = addition.identities.remotes.filter { !account.identities.remotes.contains($0) }
        if !remotes.isEmpty {
            let all = account.identities.remotes + remotes
            edits.append(
                .set(id: account.id, path: ["remotes"], json: "[" + all.map(ConfigWriter.jsonString).joined(separator: ", ") + "]"))
        }
        return edits
    }
}
