import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchStore

/// One shell's marker: an empty file named by the shell's process id in
/// ``IdentityFiles/shells``, whose modification time is that of the newest of the state and
/// the config when the shell was last brought up to date. shell-init's prompt hook compares
/// them with `[[ FILE -nt MARKER ]]` (a stat(2) each, no process started): only when one is
/// newer does it run `perch shell-hook`.
struct ShellMarker {
    /// The marker file.
    let path: String
    let folder: String

    init(folder: String, pid: Int32) {
        self.folder = folder
        path = folder + "/" + String(pid)
    }

    /// Creates or updates the marker with the newest modification time of `files` (those that
    /// exist; the epoch when none does). A file changed within
    /// ``CurrentAccountCache/racyWindowNanoseconds`` of now gets a marker 1 ns older than it,
    /// so the next prompt looks again: file times come from a coarse clock, and a second write
    /// in the same tick would leave the same time (as Git does with its index).
    func touch(after files: [String]) {
        let newestModified = files.compactMap { FileStatus.of($0)?.modified }.max() ?? 0
        var newest = timespec(tv_sec: Int(newestModified / 1_000_000_000), tv_nsec: Int(newestModified % 1_000_000_000))
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let age = (Int64(now.tv_sec) - Int64(newest.tv_sec)) * 1_000_000_000 + Int64(now.tv_nsec) - Int64(newest.tv_nsec)
        if newest.tv_sec > 0, age < CurrentAccountCache.racyWindowNanoseconds {
            if newest.tv_nsec > 0 { newest.tv_nsec -= 1 } else { (newest.tv_sec, newest.tv_nsec) = (newest.tv_sec - 1, 999_999_999) }
        }
        if access(path, F_OK) != 0 {
            try? FileSystem.createDirectory(folder)
            pruneEnded()
            let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            if fd >= 0 { close(fd) }
        }
        var times = [newest, newest]
        utimensat(AT_FDCWD, path, &times, 0)
    }

    /// Removes the markers of shells that have ended (kill(2) with signal 0 says ESRCH).
    private func pruneEnded() {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = Int32(name), pid > 0 else { continue }
            if kill(pid, 0) != 0, errno == ESRCH { unlink(folder + "/" + name) }
        }
    }

    /// The bound folders as the set the hook looks `$PWD`'s folders up in.
    ///
    /// A set, so that the hook's lookup costs as many steps as `$PWD` is deep, whatever the
    /// number of folders: an associative array in bash (`declare -gA __perch_dirset=(['/w']=1)`)
    /// and zsh (`typeset -gA`), a variable per folder in fish, named by `string escape
    /// --style=var` (`set -g __perch_d_… 1`), the old ones erased first.
    // Bug (trust issue): the hook compared $PWD with every bound folder in a shell loop: with
    // 10,000 bound folders each prompt took 35 ms.
    static func folderList(_ folders: [String], shell: ShellKind) -> String {
        switch shell {
        case .bash: "declare -gA __perch_dirset=(" + folders.map { "[\(ShellExports.posixQuoted($0))]=1" }.joined(separator: " ") + ")\n"
        case .zsh:
            "typeset -gA __perch_dirset\n__perch_dirset=(" + folders.map { ShellExports.posixQuoted($0) + " 1" }.joined(separator: " ")
                + ")\n"
        case .fish:
            "for perch_name in (set --names | string match -- '__perch_d_*'); set -e $perch_name; end\n"
                + folders.map { "set -g __perch_d_(string escape --style=var -- \(ShellExports.fishQuoted($0))) 1\n" }.joined()
        }
    }

    /// Whether the hook looks for the repository it is in (some account names `"remotes"`):
    /// `__perch_remotes=1` (or empty) for bash and zsh, `set -g __perch_remotes 1` for fish.
    static func remotesFlag(_ on: Bool, shell: ShellKind) -> String {
        switch shell {
        case .bash, .zsh: "__perch_remotes=\(on ? "1" : "")\n"
        case .fish: "set -g __perch_remotes \(on ? "1" : "''")\n"
        }
    }

    /// Where the hook is, as the hook itself finds it before each prompt (see
    /// ``ShellExports/initScript(_:program:state:config:markers:)``), so that its next prompt
    /// compares with the place this shell-hook decided on: the deepest of `folders` that `pwd`
    /// is or is under, and with `repositories`, the nearest folder up from `pwd` holding a
    /// `.git` (both "" in a pinned or exec scope, where the hook looks for neither). Two lines:
    /// `__perch_dir='…'` and `__perch_repo='…'` (fish: `set -g …`).
    static func place(pwd: String, folders: [String], repositories: Bool, scope: ScopeKind?, shell: ShellKind) -> String {
        var folder = ""
        var repository = ""
        if scope != .pinned, scope != .exec {
            for candidate in folders where (pwd == candidate || pwd.hasPrefix(candidate + "/")) && candidate.count > folder.count {
                folder = candidate
            }
            if repositories {
                repository = pwd
                while !repository.isEmpty, access(repository + "/.git", F_OK) != 0 {
                    guard let slash = repository.lastIndex(of: "/") else { break }
                    repository = String(repository[..<slash])
                }
            }
        }
        switch shell {
        case .bash, .zsh: return "__perch_dir=\(ShellExports.posixQuoted(folder))\n__perch_repo=\(ShellExports.posixQuoted(repository))\n"
        case .fish:
            return "set -g __perch_dir \(ShellExports.fishQuoted(folder))\nset -g __perch_repo \(ShellExports.fishQuoted(repository))\n"
        }
    }

    /// The variables the hook watches (``ScopedEnvironment/held``) as a function that succeeds
    /// while each still has the value it had here, so that the hook asks `perch shell-hook` again
    /// when one changes (direnv gave back the value Perch had set): `__perch_held() { [[
    /// ${N+x}${N-} == x'v' ]]; }` in bash and zsh (`''` for unset), `function __perch_held; test
    /// "x$N" = 'xv'; end` (`not set -q N`) in fish; `return 0` when none is held. One line.
    static func held(_ variables: [String: String?], shell: ShellKind) -> String {
        let names = variables.keys.filter(EnvironmentEntry.isValidName).sorted()
        switch shell {
        case .bash, .zsh:
            let tests = names.map { name in
                "${\(name)+x}${\(name)-} == " + (variables[name]!.map { "x" + ShellExports.posixQuoted($0) } ?? "''")
            }
            return "__perch_held() { " + (tests.isEmpty ? "return 0" : "[[ " + tests.joined(separator: " && ") + " ]]") + "; }\n"
        case .fish:
            let tests = names.map { name in
                variables[name]!.map { "set -q \(name); and test \"x$\(name)\" = " + ShellExports.fishQuoted("x" + $0) }
                    ?? "not set -q \(name)"
            }
            return "function __perch_held; " + (tests.isEmpty ? "return 0" : tests.joined(separator: "; and ")) + "; end\n"
        }
    }

    /// The working directory (getcwd(3)), `/` when it cannot be had.
    static func workingDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
