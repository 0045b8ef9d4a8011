import PerchCore
import PerchStore

/// `perch import`: accounts proposed from the identities the tools already hold (kube contexts,
/// gcloud configurations, AWS profiles, gh hosts and users, git identities of the global config
/// and its `includeIf` files), grouped by tool, with ids derived from the names and made unique.
public enum IdentityImport {
    /// The proposed accounts, kube first, then gcloud, AWS, gh and git; identities already named
    /// by an account of `existing` are left out, and no id repeats one of `existing`.
    public static func propose(_ environment: IdentityEnvironment, existing: [Account]) -> [Account] {
        var taken = Set(existing.map(\.id))
        var proposals: [Account] = []
        func add(_ base: String, name: String, group: String, handle: String? = nil, _ identities: ToolIdentities) {
            let id = uniqueID(base, taken: &taken)
            proposals.append(Account(id: id, name: name, handle: handle, group: group, identities: identities))
        }
        let known = existing.map(\.identities)
        for context in ToolReaders.kubeContexts(environment) where !known.contains(where: { $0.kube?.context == context }) {
            add("kube-" + context, name: context, group: "Kubernetes", ToolIdentities(kube: .init(context: context)))
        }
        for name in ToolReaders.gcloudConfigurations(environment) where !known.contains(where: { $0.gcloud == name }) {
            add("gcloud-" + name, name: name, group: "gcloud", ToolIdentities(gcloud: name))
        }
        for profile in ToolReaders.awsProfiles(environment) where !known.contains(where: { $0.aws == profile }) {
            add("aws-" + profile, name: profile, group: "AWS", ToolIdentities(aws: profile))
        }
        for host in ToolReaders.ghHosts(environment) {
            let users = host.users.isEmpty ? host.active.map { [$0] } ?? [] : host.users
            for user in users where !known.contains(where: { $0.gh?.user == user && $0.gh?.hostname == host.host }) {
                let gh = ToolIdentities.GitHub(user: user, host: host.host == "github.com" ? nil : host.host)
                add("gh-" + user, name: "\(user) on \(host.host)", group: "GitHub", handle: "@" + user, ToolIdentities(gh: gh))
            }
        }
        for git in gitIdentities(environment) where !known.contains(where: { $0.git?.email == git.email && $0.git?.name == git.name }) {
            // Named after the person and the email's domain, never the address itself: a name is
            // shown on screen and in prompts, and an address there is a leak waiting to happen.
            let domain = git.email.flatMap { $0.contains("@") ? String($0.split(separator: "@").last ?? "") : nil }
            let name: String
            switch (git.name, domain) {
            case (let person?, let domain?) where !domain.isEmpty: name = "\(person) (\(domain))"
            case (let person?, _): name = person
            case (nil, let domain?) where !domain.isEmpty: name = "git (\(domain))"
            default: name = "git"
            }
            add("git-" + (domain.flatMap { $0.isEmpty ? nil : $0 } ?? git.name ?? "git"), name: name, group: "git", ToolIdentities(git: git))
        }
        return proposals
    }

    /// The git identities of the global config (`user.*`) and of each file its `includeIf.*.path`
    /// names, without repeats.
    static func gitIdentities(_ environment: IdentityEnvironment) -> [ToolIdentities.Git] {
        func identity(_ arguments: [String]) -> ToolIdentities.Git? {
            let run = ProgramRunner.run(
                "git", ["config"] + arguments + ["--get-regexp", "^user\\.(name|email|signingkey)$"], in: environment)
            guard let output = run.output else { return nil }
            var git = ToolIdentities.Git()
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
            return git == ToolIdentities.Git() ? nil : git
        }
        var found: [ToolIdentities.Git] = []
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

    /// The proposals as a config fragment: the `accounts` elements, one per line, grouped by
    /// tool with a comment line before each group (the comments are for reading; `--write`
    /// inserts the accounts themselves).
    public static func fragment(_ proposals: [Account]) -> String {
        var text = ""
        var group: String?
        for (index, account) in proposals.enumerated() {
            if account.group != group {
                group = account.group
                text += "// \(group ?? "")\n"
            }
            text += ConfigWriter.jsonLine(account) + (index == proposals.count - 1 ? "" : ",") + "\n"
        }
        return text
    }
}
