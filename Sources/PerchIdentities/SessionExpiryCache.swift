import Glibc
import PerchDomain
import PerchStore

/// The answer of `perch current --field kube.expires` (and `aws.expires`, and a described tool's
/// `NAME.expires`), kept beside the state file (`<state>.kube.expires`, `<state>.aws.expires`)
/// so that a prompt asking it need not run kubectl and openssl, or read every AWS cache file,
/// each time.
///
/// An entry is keyed by the tool's setting (the context, the profile) and the identity
/// (``CurrentAccountCache/FileIdentity``, device, inode, size and both times in nanoseconds) of
/// every file the answer was read from: for kube the kubeconfig files (`$KUBECONFIG`) and a
/// client certificate file one names; for aws the config and credentials files, the
/// `sso/cache` and `cli/cache` folders and each JSON file in them (the aws CLI rewrites its
/// cache files in place, so their folder alone would not change). A file that did not exist is
/// kept as missing and must still be missing. As ``CurrentAccountCache`` does, an entry is only
/// made when every such file is older than ``CurrentAccountCache/racyWindowNanoseconds``.
public struct SessionExpiryCache: Sendable {
    /// The cache file.
    public let path: String
    let tool: IdentityTool

    static let version = 1

    public init(statePath: String, tool: IdentityTool) {
        path = statePath + "." + tool.rawValue + ".expires"
        self.tool = tool
    }

    /// The ISO 8601 end `perch current --field TOOL.expires` prints for `account` (the earliest;
    /// "" when nothing is recorded): from the cache when every file it came from is as it was,
    /// else read (``SessionExpiries/read(_:tool:in:)``) and kept.
    public func answer(_ account: Account, in context: ToolContext, now: Int64 = CurrentAccountCache.realTimeNanoseconds()) -> String {
        let key = Self.key(account, tool: tool)
        let base = Self.baseFiles(tool, in: context.environment)
        if let cached = cached(key: key, base: base) { return cached }
        var inputs = base
        let ends = SessionExpiries.read(account, tool: tool, in: context, inputs: &inputs).min { $0.ends < $1.ends }
        let text = ends?.endsText ?? ""
        store(text, key: key, files: inputs, now: now)
        return text
    }

    /// What identifies the tool's setting of `account`.
    static func key(_ account: Account, tool: IdentityTool) -> String {
        account.identities[tool].map { $0.summary + "\u{1F}" + $0.fields.map { $0.name + "=" + $0.value }.joined(separator: "\u{1F}") }
            ?? ""
    }

    /// The files every answer of `tool` depends on, known from the environment alone.
    static func baseFiles(_ tool: IdentityTool, in environment: IdentityEnvironment) -> [String] {
        if tool == .kube { return ToolReaders.kubeconfigFiles(environment) }
        // A described tool's: its expiry file alone, which reading it adds.
        guard tool == .aws else { return [] }
        let files = SessionExpiries.awsFiles(environment)
        var list = [files.config, files.credentials]
        for folder in [environment.home + "/.aws/sso/cache", environment.home + "/.aws/cli/cache"] {
            list.append(folder)
            list += jsonFiles(in: folder)
        }
        return list
    }

    /// The `.json` files of `folder`, sorted.
    static func jsonFiles(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".json") { names.append(folder + "/" + name) }
        }
        return names.sorted()
    }

    /// The cached answer for `key` when its files begin with `base` and each is as it was.
    func cached(key: String, base: [String]) -> String? {
        guard let bytes = try? FileSystem.read(path, limit: 1 << 20), let document = try? JSONReader.read(bytes),
            document.kind(document.root) == .object
        else { return nil }
        let root = document.root
        guard document.value(of: root, forKey: "version").flatMap(document.integer) == Self.version,
            document.value(of: root, forKey: "key").flatMap(document.string) == key,
            let answer = document.value(of: root, forKey: "answer").flatMap(document.string),
            let files = document.value(of: root, forKey: "files")
        else { return nil }
        guard let paths = KeptFiles.unchanged(files, in: document) else { return nil }
        guard paths.count >= base.count, Array(paths.prefix(base.count)) == base else { return nil }
        return answer
    }

    /// Keeps `answer` for `key` and `files`, unless one of them changed within the racy window.
    func store(_ answer: String, key: String, files: [String], now: Int64) {
        guard let rows = KeptFiles.json(files, now: now) else { return }
        let text =
            "{\"version\": \(Self.version), \"key\": \(ConfigWriter.json(key)), \"answer\": \(ConfigWriter.json(answer)),\n \"files\": "
            + rows + "}\n"
        try? FileSystem.writeAtomically(Array(text.utf8), to: path, mode: 0o600)
    }
}
