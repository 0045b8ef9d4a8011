import PerchCore
import PerchStore

/// `perch import`: accounts proposed from the identities the tools already hold (kube contexts,
/// gcloud configurations, AWS profiles, gh hosts and users, git identities of the global config
/// and its `includeIf` files), grouped by tool, with ids derived from the names and made unique.
public enum IdentityImport {
    /// The proposed accounts, one per identity a tool holds, tool by tool in the order of
    /// ``ToolAdapters/registry`` (each adapter's ``ToolAdapter/importCandidates(in:)``);
    /// identities already named by an account of `existing` are left out, and no id repeats one
    /// of `existing`.
    public static func propose(_ environment: IdentityEnvironment, existing: [Account]) -> [Account] {
        var taken = Set(existing.map(\.id))
        var proposals: [Account] = []
        let context = ToolContext(environment: environment)
        let known = Set(existing.flatMap(\.identities.settings))
        for adapter in ToolAdapters.registry {
            for candidate in adapter.importCandidates(in: context) where !known.contains(candidate.setting) {
                let id = uniqueID(candidate.idBase, taken: &taken)
                proposals.append(
                    Account(
                        id: id, name: candidate.name, handle: candidate.handle, group: candidate.group,
                        identities: ToolIdentities([candidate.setting])))
            }
        }
        return proposals
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
