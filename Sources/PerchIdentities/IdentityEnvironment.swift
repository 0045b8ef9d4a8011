import Glibc
import PerchStore

/// The environment identities are read and applied in: the variables that say where each tool
/// keeps its files (`HOME`, `XDG_CONFIG_HOME`, `KUBECONFIG`, `CLOUDSDK_CONFIG`, `GH_CONFIG_DIR`,
/// `AWS_CONFIG_FILE`, `PATH`), passed whole to every program started. Tests give a scratch one,
/// so nothing reads or changes the real home.
public struct IdentityEnvironment: Sendable {
    /// The variables, by name.
    public var variables: [String: String]
    /// Where Perch's state file is; the results of the last switch are kept beside it.
    public var statePath: String
    /// Whether Perch's own git and ssh files are kept beside the state file (a run with another
    /// `--config` or `--state`), not under `$XDG_CONFIG_HOME/perch` (see ``IdentityFiles``).
    public var ownFilesBesideState: Bool

    /// - Parameter statePath: the state file; nil for the default one (its own files are then
    ///   the default ones, unless `ownFilesBesideState` says otherwise).
    public init(variables: [String: String], statePath: String? = nil, ownFilesBesideState: Bool? = nil) {
        self.variables = variables
        let defaultState = PerchPaths(lookup: { variables[$0] }).state
        self.statePath = statePath ?? defaultState
        self.ownFilesBesideState = ownFilesBesideState ?? (statePath != nil && statePath != defaultState)
    }

    /// The process's own environment.
    public static func current(statePath: String? = nil, ownFilesBesideState: Bool? = nil) -> IdentityEnvironment {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return IdentityEnvironment(variables: variables, statePath: statePath, ownFilesBesideState: ownFilesBesideState)
    }

    public subscript(_ name: String) -> String? {
        variables[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `$HOME` without a trailing slash (the password entry's home when unset).
    public var home: String {
        var home = self["HOME"] ?? (getpwuid(getuid())?.pointee.pw_dir).map { String(cString: $0) } ?? "/"
        while home.count > 1, home.hasSuffix("/") { home.removeLast() }
        return home
    }

    /// `$XDG_CONFIG_HOME` when it is an absolute path, else `~/.config`.
    public var configHome: String {
        if let value = self["XDG_CONFIG_HOME"], value.hasPrefix("/") { return value }
        return home + "/.config"
    }

    /// `~/…` and `~` with ``home`` put in; other paths as they are.
    public func expandingTilde(_ path: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst() }
        return path
    }

    /// The full path of `program` on `PATH`, or nil when it is not installed (not found, or not
    /// executable).
    public func which(_ program: String) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        for folder in (self["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + program
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The variables as `NAME=value`, for a child process.
    var entries: [String] { variables.map { "\($0.key)=\($0.value)" } }
}
