import PerchCore
import PerchStore

/// `perch import`: accounts proposed from the identities the tools already hold (git identities
/// of the global config and its `includeIf` files, ssh keys and `Host` blocks, kube contexts,
/// gcloud configurations, gh users, AWS profiles). What belongs to one person becomes one
/// account (``merge(_:existing:)``); the rest stay one account per identity, grouped by tool.
public enum IdentityImport {
    /// The proposed accounts for what the tools of `environment` hold (each adapter's
    /// ``ToolAdapter/importCandidates(in:)``, in the order of ``ToolAdapters/registry``), merged
    /// by ``merge(_:existing:)``; identities already named by an account of `existing` are left
    /// out, and no id repeats one of `existing`.
    public static func propose(_ environment: IdentityEnvironment, existing: [Account]) -> [Account] {
        let context = ToolContext(environment: environment)
        let known = Set(existing.flatMap(\.identities.settings))
        let candidates = ToolAdapters.registry.flatMap { $0.importCandidates(in: context) }.filter { !known.contains($0.setting) }
        return merge(candidates, existing: existing)
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
    static func linkKeys(_ texts: [String]) -> [String] {
        var keys: [String] = []
        func add(_ new: [String]) { for key in new where !keys.contains(key) { keys.append(key) } }
        for text in texts {
            let lower = text.lowercased()
            if let at = lower.lastIndex(of: "@"), at != lower.startIndex, !lower.contains(" ") {
                add([lower])
                add(lower[lower.index(after: at)...].split(separator: ".").dropLast().flatMap(words))
                add(words(lower[..<at]))
            } else {
                add(words(lower))
            }
        }
        return keys
    }

    /// The label a group linked by `key` is named after: the key, or for an email its first word.
    static func label(_ key: String) -> String {
        guard key.contains("@") else { return key }
        return linkKeys([key]).dropFirst().first ?? "account"
    }

    /// Candidates (one identity each) as proposed accounts, one person's identities in one
    /// account. Pure: the same candidates give the same proposals.
    ///
    /// Repeatedly, the key (``linkKeys(_:)``) held by identities of the most tools not yet placed
    /// (at least two; ties: the key met first) makes an account named after it (``label(_:)``),
    /// with, for each of those tools, the first such identity holding fewest keys; an account
    /// holds one identity per tool. Identities left make an account each, named as their
    /// adapter proposes. Merged accounts come first; settings follow the registry's order; a
    /// gh user's handle becomes the account's. Ids are made unique against `existing` and each other.
    public static func merge(_ candidates: [ImportCandidate], existing: [Account]) -> [Account] {
        let keys = candidates.map { linkKeys($0.keys) }
        var placed = [Bool](repeating: false, count: candidates.count)
        var groups: [(label: String, members: [Int])] = []
        while true {
            var tools: [String: Set<IdentityTool>] = [:]
            var first: [String: Int] = [:]
            var order = 0
            for index in candidates.indices where !placed[index] {
                for key in keys[index] {
                    tools[key, default: []].insert(candidates[index].setting.tool)
                    if first[key] == nil {
                        first[key] = order
                        order += 1
                    }
                }
            }
            let linking = tools.filter { $0.value.count >= 2 }.keys
            guard let key = linking.min(by: { (tools[$0]!.count, first[$1]!) > (tools[$1]!.count, first[$0]!) }) else { break }
            var members: [Int] = []
            for tool in tools[key]! {
                let holders = candidates.indices.filter { !placed[$0] && candidates[$0].setting.tool == tool && keys[$0].contains(key) }
                if let best = holders.min(by: { (keys[$0].count, $0) < (keys[$1].count, $1) }) { members.append(best) }
            }
            for member in members { placed[member] = true }
            groups.append((label(key), members.sorted { toolOrder(candidates[$0].setting.tool) < toolOrder(candidates[$1].setting.tool) }))
        }
        var taken = Set(existing.map(\.id))
        var proposals: [Account] = []
        for group in groups {
            let members = group.members.map { candidates[$0] }
            proposals.append(
                Account(
                    id: uniqueID(group.label, taken: &taken), name: group.label.prefix(1).uppercased() + group.label.dropFirst(),
                    handle: members.lazy.compactMap(\.handle).first, identities: ToolIdentities(members.map(\.setting))))
        }
        for index in candidates.indices where !placed[index] {
            let candidate = candidates[index]
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
    /// are for reading; `--write` inserts the accounts themselves).
    public static func fragment(_ proposals: [Account]) -> String {
        var text = ""
        var heading: String?
        for (index, account) in proposals.enumerated() {
            let title = account.group ?? "\(account.id): " + account.identities.tools.map(\.rawValue).joined(separator: ", ")
            if title != heading {
                heading = title
                text += "// \(title)\n"
            }
            text += ConfigWriter.jsonLine(account) + (index == proposals.count - 1 ? "" : ",") + "\n"
        }
        return text
    }
}
