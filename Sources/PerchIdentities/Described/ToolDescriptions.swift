import CSystem
import Glibc
import PerchDomain
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
    /// - Parameter registries: folders of trusted registries' descriptions (`perch registry
    ///   trust`), read before `folder`, whose files win over theirs.
    public static func load(
        folder: String, home: String, builtIn: [String], registries: [String] = [], user: uid_t = getuid(), group: gid_t = getgid()
    )
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
        for file in registries.flatMap({ files(in: $0, loaded: &loaded, home: home) }) + files(in: folder, loaded: &loaded, home: home) {
            let shown = PerchPaths.tilde(file, home: home)
            let bytes: [UInt8]
            switch trustedBytes(file, home: home, user: user, group: group) {
            case .success(let read): bytes = read
            case .failure(let refusal):
                loaded.problems.append("tool description \(shown): \(refusal)")
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
        // An override is removed where its tool is given: never another tool's own variable.
        for adapter in loaded.adapters {
            for override in adapter.description.overrides {
                if let owner = owners[override.variable], owner != adapter.description.tool {
                    loaded.problems.append(
                        "tool description \(origin(adapter.description, home: home)): overrides \(override.variable), which \(owner) carries"
                    )
                }
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

    /// Why `file` may not be trusted, or nil (see ``trustedBytes(_:home:user:group:)``).
    public static func trustRefusal(_ file: String, home: String, user: uid_t = getuid(), group: gid_t = getgid()) -> String? {
        if case .failure(let refusal) = trustedBytes(file, home: home, user: user, group: group) { return refusal.description }
        return nil
    }

    /// The bytes of `file` (at most 1 MiB) when it may be trusted, else why not. Trusted: the
    /// file, and every folder above it up to `home` (up to `/` for a file outside it), belongs to
    /// `user` or root, has no write bit for group or others, and has no access control list
    /// (OpenSSH's `StrictModes`, whose `safe_path` refuses any group write). Links are resolved
    /// first (realpath(3)); the resolved file is opened without following a link and checked and
    /// read through that one descriptor, so nothing can be swapped between the check and the
    /// read. Bug (review): the check resolved the path and the read opened it again, so a link
    /// swapped in between by another user had their description read; a file writable by the
    /// user's own group, or by someone an ACL names, was trusted.
    public static func trustedBytes(_ file: String, home: String, user: uid_t = getuid(), group: gid_t = getgid())
        -> Result<[UInt8], ToolFailure>
    {
        func refused(_ why: String) -> Result<[UInt8], ToolFailure> { .failure(ToolFailure(why)) }
        guard let resolved = realpath(file, nil) else { return refused("cannot be read: \(String(cString: strerror(errno)))") }
        let real = String(cString: resolved)
        free(resolved)
        let realHome =
            realpath(home, nil).map { pointer in
                defer { free(pointer) }
                return String(cString: pointer)
            } ?? home
        let fd = open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return refused("cannot be read: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return refused("cannot be read: \(String(cString: strerror(errno)))") }
        guard info.st_mode & S_IFMT == S_IFREG else { return refused("is not a regular file") }
        if let why = unsafe(info, acl: perch_has_access_acl(fd, real) == 1, what: "the file", path: real, user: user) {
            return refused(why)
        }
        var path = real
        while path != realHome, path != "/" {
            path = FileSystem.directory(of: path)
            if path.isEmpty { path = "/" }
            var folder = stat()
            guard stat(path, &folder) == 0 else { return refused("\(path): \(String(cString: strerror(errno)))") }
            let what = "the folder \(PerchPaths.tilde(path, home: realHome))"
            if let why = unsafe(folder, acl: perch_has_access_acl(-1, path) == 1, what: what, path: path, user: user) {
                return refused(why)
            }
        }
        // The folders of the path as given, too, up to the home: a link in a folder others can
        // write could be made to point elsewhere. Bug (review).
        var given = file
        while given.hasPrefix(home + "/") {
            given = FileSystem.directory(of: given)
            var folder = stat()
            guard given != home, stat(given, &folder) == 0 else { break }
            let what = "the folder \(PerchPaths.tilde(given, home: home))"
            if let why = unsafe(folder, acl: perch_has_access_acl(-1, given) == 1, what: what, path: given, user: user) {
                return refused(why)
            }
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 { return refused("cannot be read: \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            bytes += chunk[0..<count]
            if bytes.count > 1 << 20 { return refused("is larger than 1 MiB") }
        }
        return .success(bytes)
    }

    /// Why a file or folder with `info` is not the user's alone, or nil.
    private static func unsafe(_ info: stat, acl: Bool, what: String, path: String, user: uid_t) -> String? {
        let mode = info.st_mode & 0o7777
        if info.st_uid != user, info.st_uid != 0 {
            return
                "\(what) belongs to another user (uid \(info.st_uid)); a description names programs Perch runs, so only your own are used"
        }
        if mode & S_IWOTH != 0 || mode & S_IWGRP != 0 {
            let who = mode & S_IWOTH != 0 ? "others" : "its group"
            return
                "\(what) can be written by \(who) (mode \(String(mode, radix: 8))); a description names programs Perch runs: run chmod go-w \(ConfigLoader.shellQuoted(path))"
        }
        if acl {
            return
                "\(what) has an access control list (getfacl \(ConfigLoader.shellQuoted(path)) shows who else may write it); remove it with setfacl -b"
        }
        return nil
    }
}
