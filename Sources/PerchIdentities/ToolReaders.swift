import Glibc
import PerchStore

/// Reading what each tool reports now, from its own files where their format is documented (a
/// program is started only where no file says it), and the text formats Perch writes.
public enum ToolReaders {
    // MARK: kube

    /// The kubeconfig files kubectl reads: `$KUBECONFIG` (a `:`-separated list), else `~/.kube/config`.
    public static func kubeconfigFiles(_ environment: IdentityEnvironment) -> [String] {
        if let list = environment["KUBECONFIG"] {
            return list.split(separator: ":").map { environment.expandingTilde(String($0)) }
        }
        return [environment.home + "/.kube/config"]
    }

    /// The current context as kubectl sees it: the first kubeconfig file (in `$KUBECONFIG`
    /// order) with a non-empty top-level `current-context`; nil when none sets one.
    public static func kubeCurrentContext(_ environment: IdentityEnvironment) -> String? {
        for file in kubeconfigFiles(environment) {
            guard let text = read(file) else { continue }
            for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("current-context:") {
                let value = unquoted(line.dropFirst("current-context:".count))
                if !value.isEmpty { return value }
            }
        }
        return nil
    }

    /// The context names of the kubeconfig files (`contexts:` entries' `name`), in file order.
    public static func kubeContexts(_ environment: IdentityEnvironment) -> [String] {
        var names: [String] = []
        for file in kubeconfigFiles(environment) {
            guard let text = read(file) else { continue }
            var inContexts = false
            var itemIndent: Int?
            for line in text.split(whereSeparator: \.isNewline) {
                let indent = line.prefix { $0 == " " }.count
                let body = line.dropFirst(indent)
                if indent == 0, !body.hasPrefix("-") {
                    inContexts = body.hasPrefix("contexts:")
                    itemIndent = nil
                    continue
                }
                guard inContexts else { continue }
                // `- context: …` items: the item's own keys sit at the dash's column + 2.
                var key = body
                var keyIndent = indent
                if body.hasPrefix("- ") {
                    key = body.dropFirst(2)
                    keyIndent = indent + 2
                    itemIndent = keyIndent
                }
                if keyIndent == itemIndent, key.hasPrefix("name:") {
                    let name = unquoted(key.dropFirst(5))
                    if !name.isEmpty, !names.contains(name) { names.append(name) }
                }
            }
        }
        return names
    }

    // MARK: gcloud

    /// gcloud's config folder: `$CLOUDSDK_CONFIG`, else `~/.config/gcloud`.
    public static func gcloudFolder(_ environment: IdentityEnvironment) -> String {
        environment["CLOUDSDK_CONFIG"].map(environment.expandingTilde) ?? environment.home + "/.config/gcloud"
    }

    /// gcloud's active configuration: `$CLOUDSDK_ACTIVE_CONFIG_NAME`, else the name in the
    /// folder's `active_config` file, else `default` (as gcloud itself decides).
    public static func gcloudActiveConfiguration(_ environment: IdentityEnvironment) -> String {
        if let name = environment["CLOUDSDK_ACTIVE_CONFIG_NAME"] { return name }
        let name = read(gcloudFolder(environment) + "/active_config")?.trimmingWhitespace ?? ""
        return name.isEmpty ? "default" : name
    }

    /// The gcloud configurations: the `configurations/config_NAME` files of the folder.
    public static func gcloudConfigurations(_ environment: IdentityEnvironment) -> [String] {
        FileSystem.names(in: gcloudFolder(environment) + "/configurations").compactMap { name in
            name.hasPrefix("config_") ? String(name.dropFirst(7)) : nil
        }.sorted()
    }

    // MARK: gh

    /// gh's hosts file: `$GH_CONFIG_DIR/hosts.yml`, else `$XDG_CONFIG_HOME/gh/hosts.yml`, else
    /// `~/.config/gh/hosts.yml`.
    public static func ghHostsFile(_ environment: IdentityEnvironment) -> String {
        (environment["GH_CONFIG_DIR"].map(environment.expandingTilde) ?? environment.configHome + "/gh") + "/hosts.yml"
    }

    /// Each host of gh's hosts file with its active `user` and every user it knows (`users:`).
    public static func ghHosts(_ environment: IdentityEnvironment) -> [(host: String, active: String?, users: [String])] {
        guard let text = read(ghHostsFile(environment)) else { return [] }
        var hosts: [(host: String, active: String?, users: [String])] = []
        var childIndent: Int?
        var inUsers = false
        var usersIndent: Int?
        for line in text.split(whereSeparator: \.isNewline) {
            let indent = line.prefix { $0 == " " }.count
            let body = line.dropFirst(indent)
            if body.hasPrefix("#") || body.isEmpty { continue }
            if indent == 0 {
                if body.hasSuffix(":") { hosts.append((unquoted(body.dropLast()), nil, [])) }
                childIndent = nil
                inUsers = false
                continue
            }
            guard !hosts.isEmpty else { continue }
            if childIndent == nil { childIndent = indent }
            if indent == childIndent {
                inUsers = body.hasPrefix("users:")
                usersIndent = nil
                if body.hasPrefix("user:") { hosts[hosts.count - 1].active = unquoted(body.dropFirst(5)) }
            } else if inUsers, indent > childIndent! {
                if usersIndent == nil { usersIndent = indent }
                if indent == usersIndent, let colon = body.firstIndex(of: ":") {
                    hosts[hosts.count - 1].users.append(unquoted(body[..<colon]))
                }
            }
        }
        return hosts
    }

    /// The active gh user on `host`, from the hosts file.
    public static func ghActiveUser(_ environment: IdentityEnvironment, host: String) -> String? {
        ghHosts(environment).first { $0.host == host }?.active
    }

    // MARK: aws

    /// The AWS shared config file: `$AWS_CONFIG_FILE`, else `~/.aws/config`.
    public static func awsConfigFile(_ environment: IdentityEnvironment) -> String {
        environment["AWS_CONFIG_FILE"].map(environment.expandingTilde) ?? environment.home + "/.aws/config"
    }

    /// The profiles of the AWS shared config file: `[default]` and `[profile NAME]` sections.
    public static func awsProfiles(_ environment: IdentityEnvironment) -> [String] {
        guard let text = read(awsConfigFile(environment)) else { return [] }
        var profiles: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingWhitespace
            guard trimmed.hasPrefix("["), trimmed.hasSuffix("]") else { continue }
            let inner = trimmed.dropFirst().dropLast().trimmingWhitespace
            if inner == "default" {
                profiles.append("default")
            } else if inner.hasPrefix("profile ") {
                profiles.append(inner.dropFirst(8).trimmingWhitespace)
            }
        }
        return profiles
    }

    /// The AWS credentials file: `$AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`.
    public static func awsCredentialsFile(_ environment: IdentityEnvironment) -> String {
        environment["AWS_SHARED_CREDENTIALS_FILE"].map(environment.expandingTilde) ?? environment.home + "/.aws/credentials"
    }

    /// The profiles of the AWS credentials file: its `[NAME]` sections.
    public static func awsCredentialProfiles(_ environment: IdentityEnvironment) -> [String] {
        guard let text = read(awsCredentialsFile(environment)) else { return [] }
        return text.split(whereSeparator: \.isNewline).compactMap { line in
            let trimmed = line.trimmingWhitespace
            guard trimmed.hasPrefix("["), trimmed.hasSuffix("]") else { return nil }
            return trimmed.dropFirst().dropLast().trimmingWhitespace
        }
    }

    // MARK: ssh

    /// The `identityfile` values of `ssh -G` output, in order.
    public static func sshIdentityFiles(fromSSHG output: String) -> [String] {
        output.split(whereSeparator: \.isNewline).compactMap { line in
            line.hasPrefix("identityfile ") ? String(line.dropFirst("identityfile ".count)) : nil
        }
    }

    // MARK: ssh

    /// The `Host` blocks of an ssh_config text (ssh_config(5)): each block's patterns and the
    /// `IdentityFile` values in it, in order. Keywords are case-insensitive and take `=` or
    /// white space; a `Match` block ends a `Host` block and is skipped; `Include` is not followed.
    public static func sshHostBlocks(_ text: String) -> [(patterns: [String], identityFiles: [String])] {
        var blocks: [(patterns: [String], identityFiles: [String])] = []
        var inHost = false
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingWhitespace
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let keyword = String(line.prefix { $0 != " " && $0 != "\t" && $0 != "=" }).lowercased()
            var rest = line.dropFirst(keyword.count).trimmingWhitespace
            if rest.hasPrefix("=") { rest = String(rest.dropFirst()).trimmingWhitespace }
            let words = rest.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { unquoted($0) }
            switch keyword {
            case "host":
                blocks.append((words, []))
                inHost = true
            case "match": inHost = false
            case "identityfile" where inHost && !words.isEmpty:
                blocks[blocks.count - 1].identityFiles.append(unquoted(Substring(rest)))
            default: break
            }
        }
        return blocks
    }

    /// The ssh keys of `~/.ssh`: each `NAME.pub` with its private key `NAME` beside it, sorted
    /// by name, with the public key's comment (its third field: often an email), or "".
    public static func sshKeys(_ environment: IdentityEnvironment) -> [(path: String, comment: String)] {
        let folder = environment.home + "/.ssh"
        return FileSystem.names(in: folder).filter { $0.hasSuffix(".pub") }.sorted().compactMap { name in
            let key = folder + "/" + name.dropLast(4)
            guard access(key, F_OK) == 0 else { return nil }
            let fields =
                (read(folder + "/" + name) ?? "").split(whereSeparator: \.isNewline).first?
                .split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true) ?? []
            return (key, fields.count == 3 ? fields[2].trimmingWhitespace : "")
        }
    }

    // MARK: Text

    /// The file's text, or nil when it cannot be read.
    static func read(_ path: String) -> String? {
        (try? FileSystem.read(path)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// A YAML scalar as written after a key: trimmed, its quotes and a trailing comment removed.
    static func unquoted(_ text: Substring) -> String {
        var value = text.trimmingWhitespace
        if value.count >= 2, let first = value.first, first == "\"" || first == "'",
            let close = value.dropFirst().firstIndex(of: first)
        {
            // A quoted value, then perhaps a comment (`current-context: "dev"  # mine`).
            value = String(value[value.index(after: value.startIndex)..<close])
        } else if let hash = value.indices.first(where: {
            value[$0] == "#" && $0 > value.startIndex && value[value.index(before: $0)] == " "
        }) {
            value = String(value[..<hash]).trimmingWhitespace
        }
        return value
    }
}
