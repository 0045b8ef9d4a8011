import Glibc
import PerchDomain
import PerchStore

/// The ssh host aliases of the user's ssh config (`Host github.com-work` with `HostName
/// github.com`), so that a remote written with an alias (`git@github.com-work:acme/site.git`)
/// belongs to the account whose `"remotes"` name the real host, for git's own rules and for
/// Perch's.
///
/// The names come from the `Host` lines of `~/.ssh/config` (names only: no wildcard, no `!`);
/// what each means is asked of ssh itself (`ssh -G NAME`, its `hostname`), never read from the
/// file. Hosts named only in files the config `Include`s are not seen. The map is kept in a file
/// beside Perch's git rules, written with them (``GitDirectoryRules/write(_:in:)``), with the ssh
/// config's size and modification time, so that `perch status` can say when it is stale.
public enum SSHAliases {
    /// The file the map is kept in.
    public static func path(_ files: IdentityFiles) -> String { FileSystem.directory(of: files.gitDirectories) + "/ssh-aliases.tsv" }

    /// The ssh config file's size and modification time (seconds), as recorded; nil when absent.
    static func stamp(_ path: String) -> String? {
        guard let status = FileStatus.of(path) else { return nil }
        return "\(status.size) \(status.modifiedSeconds).\(status.modified % 1_000_000_000)"
    }

    /// The alias names of the `Host` lines of ssh config `text`: each word that holds no `*`,
    /// `?` or `!` (ssh_config(5) patterns), lowercased.
    static func names(inConfig text: String) -> [String] {
        var names: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingWhitespace
            let lowered = trimmed.lowercased()
            guard lowered.hasPrefix("host ") || lowered.hasPrefix("host\t") || lowered.hasPrefix("host=") else { continue }
            let words = trimmed.dropFirst(4).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "=" })
            for word in words {
                let name = String(word.filter { $0 != "\"" }).lowercased()
                guard !name.isEmpty, !name.contains(where: { "*?!".contains($0) }), !name.hasPrefix("-") else { continue }
                if !names.contains(name) { names.append(name) }
            }
        }
        return names
    }

    /// Each alias of the user's ssh config whose `hostname` (as `ssh -G` resolves it) is another
    /// host, lowercased: `["github.com-work": "github.com"]`. Empty when ssh cannot be asked.
    public static func resolve(in context: ToolContext) -> [String: String] {
        let config = context.files.userSSHConfig
        guard let data = try? FileSystem.read(config, limit: 1 << 20) else { return [:] }
        var aliases: [String: String] = [:]
        for name in names(inConfig: String(decoding: data, as: UTF8.self)).prefix(200) {
            // -F: the file the names came from (ssh would otherwise find ~/.ssh through the password
            // database, not HOME).
            let run = context.run("ssh", ["-F", config, "-G", "--", name], in: "/")
            guard let output = run.output else { continue }
            let hostname = output.split(separator: "\n").first { $0.hasPrefix("hostname ") }.map {
                String($0.dropFirst("hostname ".count)).trimmingWhitespace.lowercased()
            }
            if let hostname, !hostname.isEmpty, hostname != name { aliases[name] = hostname }
        }
        return aliases
    }

    /// Writes `aliases` with the ssh config's stamp.
    static func save(_ aliases: [String: String], files: IdentityFiles) throws(FileError) {
        var text = "# Written by Perch: the ssh host aliases of \(files.userSSHConfig), as ssh -G resolves them.\n"
        text += "stamp\t\(stamp(files.userSSHConfig) ?? "none")\n"
        for (alias, host) in aliases.sorted(by: { $0.key < $1.key }) { text += "\(alias)\t\(host)\n" }
        try FileSystem.writeAtomically(Array(text.utf8), to: path(files), mode: 0o600)
    }

    /// The saved map, and whether the ssh config changed since it was saved (nil: none saved).
    public static func load(_ files: IdentityFiles) -> (aliases: [String: String], stale: Bool)? {
        guard let data = try? FileSystem.read(path(files), limit: 1 << 20) else { return nil }
        var aliases: [String: String] = [:]
        var stale = true
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            if parts[0] == "stamp" {
                stale = parts[1] != (stamp(files.userSSHConfig) ?? "none")
            } else {
                aliases[parts[0]] = parts[1]
            }
        }
        return (aliases, stale)
    }
}
