import Glibc
import PerchCore
import PerchStore

/// The tools described as data that a run knows: the descriptions Perch ships
/// (``ShippedToolDescriptions``), replaced or joined by the user's own files in
/// `$XDG_CONFIG_HOME/perch/tools/NAME.json` (default `~/.config/perch/tools/`), in that order,
/// each file's tools by name. docs/tools.md describes the format.
///
/// A description names programs Perch runs, so it is trusted only as the user's own (as
/// OpenSSH's `StrictModes` trusts `~/.ssh`): a file is refused when it, or a folder above it up
/// to the home folder, can be written by another user (group-writable by a group that is not
/// the user's own, world-writable, or owned by someone else than the user or root). A refused
/// or faulty description is never used: its problems are reported (``Loaded/problems``), and
/// every command that reads the config stops with them (exit status 2), as with a bad config.
public enum ToolDescriptions {
    /// What loading found.
    public struct Loaded: Sendable {
        /// The tools, shipped first (in ``ShippedToolDescriptions/all`` order, a user's file
        /// taking a shipped one's place), then the user's own by name.
        public var adapters: [DescribedToolAdapter] = []
        /// One line per fault, each starting `tool description PATH:`.
        public var problems: [String] = []
    }

    /// The user's folder of descriptions: `$XDG_CONFIG_HOME/perch/tools` (when absolute), else
    /// `~/.config/perch/tools`.
    public static func folder(lookup: (String) -> String? = PerchPaths.environment) -> String {
        FileSystem.directory(of: PerchPaths(lookup: lookup).config) + "/tools"
    }

    /// Loads the shipped descriptions and the user's in `folder` (a missing folder holds none).
    /// - Parameter builtIn: the built-in tools' names, which a description may not take.
    /// - Parameter user: whose files are trusted (the real user id by default).
    public static func load(folder: String, home: String, builtIn: [String], user: uid_t = getuid(), group: gid_t = getgid())
        -> Loaded
    {
        var loaded = Loaded()
        for (name, text) in ShippedToolDescriptions.all {
            let (description, problems) = ToolDescription.parse(
                Array(text.utf8), origin: ShippedToolDescriptions.origin, builtIn: builtIn, checkPatterns: false)
            if let description {
                loaded.adapters.append(DescribedToolAdapter(description))
            } else {
                loaded.problems += problems.map { "tool description \(name) (shipped): \($0)" }
            }
        }
        for file in files(in: folder, loaded: &loaded, home: home) {
            let shown = PerchPaths.tilde(file, home: home)
            if let refusal = trustRefusal(file, home: home, user: user, group: group) {
                loaded.problems.append("tool description \(shown): \(refusal)")
                continue
            }
            let bytes: [UInt8]
            do {
                bytes = try FileSystem.read(file, limit: 1 << 20)
            } catch {
                loaded.problems.append("tool description \(shown): cannot be read: \(String(cString: strerror(error.code)))")
                continue
            }
            let (description, problems) = ToolDescription.parse(bytes, origin: file, builtIn: builtIn)
            guard let description else {
                loaded.problems += problems.map { "tool description \(shown): \($0)" }
                continue
            }
            let adapter = DescribedToolAdapter(description)
            if let index = loaded.adapters.firstIndex(where: { $0.description.tool == description.tool }) {
                loaded.adapters[index] = adapter
            } else {
                loaded.adapters.append(adapter)
            }
        }
        // Two tools may not carry one variable: which would win is not the user's to guess.
        var owners: [String: String] = [:]
        for adapter in loaded.adapters {
            for variable in adapter.description.variables {
                if let other = owners[variable] {
                    loaded.problems.append(
                        "tool description \(origin(adapter.description, home: home)): \(variable) is carried by \(other) too; one tool per variable"
                    )
                }
                owners[variable] = adapter.description.tool
            }
        }
        return loaded
    }

    /// Where `description` came from, for messages.
    public static func origin(_ description: ToolDescription, home: String) -> String {
        description.origin == ShippedToolDescriptions.origin
            ? "\(description.tool) (shipped)" : PerchPaths.tilde(description.origin, home: home)
    }

    /// The `*.json` files of `folder`, sorted by name (none when it does not exist); a folder
    /// that cannot be read is a problem.
    static func files(in folder: String, loaded: inout Loaded, home: String) -> [String] {
        guard let directory = opendir(folder) else {
            if errno != ENOENT, errno != ENOTDIR {
                loaded.problems.append("tool descriptions \(PerchPaths.tilde(folder, home: home)): \(String(cString: strerror(errno)))")
            }
            return []
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".json"), !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted().map { folder + "/" + $0 }
    }

    /// Why `file` may not be trusted, or nil: it, or a folder above it up to `home` (up to `/`
    /// for a file outside the home), is writable by another user or belongs to one (stat(2),
    /// after resolving links with realpath(3), as OpenSSH's `StrictModes` checks `~/.ssh`).
    public static func trustRefusal(_ file: String, home: String, user: uid_t = getuid(), group: gid_t = getgid()) -> String? {
        guard let resolved = realpath(file, nil) else { return "cannot be read: \(String(cString: strerror(errno)))" }
        let real = String(cString: resolved)
        free(resolved)
        var info = stat()
        guard stat(real, &info) == 0 else { return "cannot be read: \(String(cString: strerror(errno)))" }
        guard info.st_mode & S_IFMT == S_IFREG else { return "is not a regular file" }
        let realHome =
            realpath(home, nil).map { pointer in
                defer { free(pointer) }
                return String(cString: pointer)
            } ?? home
        var path = real
        while true {
            guard stat(path, &info) == 0 else { return "\(path): \(String(cString: strerror(errno)))" }
            let mode = info.st_mode & 0o7777
            let what = path == real ? "the file" : "the folder \(PerchPaths.tilde(path, home: realHome))"
            if info.st_uid != user, info.st_uid != 0 {
                return
                    "\(what) belongs to another user (uid \(info.st_uid)); a description names programs Perch runs, so only your own are used"
            }
            if mode & S_IWOTH != 0 || (mode & S_IWGRP != 0 && info.st_gid != group) {
                return
                    "\(what) can be written by others (mode \(String(mode, radix: 8))); a description names programs Perch runs: run chmod go-w \(ConfigLoader.shellQuoted(path))"
            }
            if path == realHome || path == "/" { return nil }
            path = FileSystem.directory(of: path)
            if path.isEmpty { path = "/" }
        }
    }
}
