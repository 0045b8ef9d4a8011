import FoundationEssentials
import Glibc
import PerchDomain
import PerchStore

/// The secret values a scope removed from a process (your own `AWS_SECRET_ACCESS_KEY`,
/// `GH_TOKEN`, …) and gives back when it ends, kept where no child can read them: a file of
/// mode 0600 in a folder of mode 0700, `$XDG_RUNTIME_DIR/perch/secrets` (cleared at logout)
/// when that is a folder of the user's own, else `secrets` beside the state file. The scope's
/// `PERCH_SCOPE_SAVED` names such a variable with ``marker`` instead of its value, and
/// `PERCH_SCOPE_SECRETS` names the file (docs/security.md, "Secrets").
///
/// A file's name is a keyed hash of what it holds (FNV-1a, 64 bits, of a random key kept in the
/// folder and the values), so that a scope made again with the same secrets (the prompt hook
/// does it at each change) writes the same file, and the name tells nothing of the values.
public enum ScopeSecrets {
    /// What `PERCH_SCOPE_SAVED` holds for a secret kept in the file: a NUL, which no
    /// environment value can hold, then a word.
    public static let marker = "\u{0}secret"

    /// The folder the files are kept in for `environment` (made on first use, mode 0700).
    public static func folder(_ environment: IdentityEnvironment) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            var info = stat()
            if stat(runtime, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid(), info.st_mode & 0o077 == 0 {
                return runtime + "/perch/secrets"
            }
        }
        return FileSystem.directory(of: environment.statePath) + "/secrets"
    }

    /// Writes `values` (variable names and values) to a file of mode 0600 in ``folder(_:)``;
    /// returns its path, or nil when it cannot be written.
    public static func store(_ values: [String: String], in environment: IdentityEnvironment) -> String? {
        let folder = folder(environment)
        guard makePrivateFolder(folder), let key = key(in: folder) else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(values) else { return nil }
        let bytes = Array(data)
        let path = folder + "/" + hexadecimal(fnv1a(key + bytes))
        if (try? FileSystem.read(path)) == bytes { return path }
        do {
            try FileSystem.writeAtomically(bytes, to: path, mode: 0o600)
        } catch {
            return nil
        }
        return path
    }

    /// The values kept in the file at `path`; empty when there is none, or when it is not a
    /// regular file of the user's own with mode 0600 in a `perch/secrets` or `secrets` folder.
    public static func load(_ path: String?) -> [String: String] {
        guard let path, path.hasPrefix("/"), FileSystem.directory(of: path).hasSuffix("/secrets"),
            let contents = try? FileSystem.readContents(path, limit: 1 << 20), contents.owner == geteuid(), contents.mode & 0o077 == 0,
            let values = try? JSONDecoder().decode([String: String].self, from: Data(contents.bytes))
        else { return [:] }
        return values
    }

    /// Makes `folder` (and its parents) and sets its mode to 0700; whether it is then a folder
    /// of the user's own that no one else can enter.
    static func makePrivateFolder(_ folder: String) -> Bool {
        do {
            try FileSystem.createDirectory(folder)
        } catch {
            return false
        }
        var info = stat()
        guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid() else { return false }
        return info.st_mode & 0o077 == 0 || chmod(folder, 0o700) == 0
    }

    /// The folder's random key (32 bytes from the system's generator, in the file `key`, mode 0600),
    /// made when it is missing.
    static func key(in folder: String) -> [UInt8]? {
        let path = folder + "/key"
        if let contents = try? FileSystem.readContents(path), contents.bytes.count == 32, contents.owner == geteuid() {
            return contents.bytes
        }
        // The standard library's system generator: getrandom(2) on Linux.
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return (try? FileSystem.writeAtomically(bytes, to: path, mode: 0o600)) != nil ? bytes : nil
    }

    /// FNV-1a, 64 bits (Fowler, Noll and Vo): a hash of `bytes`.
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    static func hexadecimal(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
