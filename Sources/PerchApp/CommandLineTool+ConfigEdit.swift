import Glibc
import PerchCore
import PerchStore

extension CommandLineTool {
    /// `perch config edit`, as `visudo` and `crontab -e` do it: the editor gets a copy, and the
    /// config is replaced (atomically, the old one kept as `<config>.bak`) only by a valid copy.
    /// An invalid copy is reported with line and column; on a terminal Perch asks
    /// `(e)dit again, (d)iscard, (k)eep anyway?`, otherwise it discards the copy and exits 2.
    func configEdit() -> Int32 {
        let original: FileContents?
        do {
            original = try FileSystem.readContents(paths.config)
        } catch {
            guard error.isNotFound else {
                console.error("cannot read the config: \(error)")
                return ExitStatus.unmet
            }
            original = nil
        }
        let startingText = original?.bytes ?? Array(StarterConfig.text.utf8)
        let copy: String
        do {
            copy = try Self.makeEditCopy(of: paths.config, holding: startingText)
        } catch {
            console.error("cannot make a copy to edit: \(error)")
            return ExitStatus.unmet
        }
        defer { unlink(copy) }
        let editor =
            [PerchPaths.environment("VISUAL"), PerchPaths.environment("EDITOR")].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1
        while true {
            let status = runEditor(editor, path: copy)
            if status != 0 {
                console.error("the editor (\(editor)) exited with status \(status); the config is unchanged")
                return ExitStatus.unmet
            }
            let edited: [UInt8]
            do {
                edited = try FileSystem.read(copy)
            } catch {
                console.error("cannot read the edited copy: \(error)")
                return ExitStatus.unmet
            }
            if let original, edited == original.bytes {
                console.print("config \(paths.config): no changes.")
                return ExitStatus.ok
            }
            let problems = Self.problems(in: edited, path: paths.config)
            if problems.isEmpty {
                return install(edited, original: original, valid: true)
            }
            for line in problems { console.error(line) }
            guard interactive else {
                console.error("the edit is discarded; the config is unchanged (edit it on a terminal to fix it)")
                return ExitStatus.usage
            }
            switch ask("(e)dit again, (d)iscard, (k)eep anyway? ") {
            case "e": continue
            case "k": return install(edited, original: original, valid: false)
            default:
                console.error("the edit is discarded; the config is unchanged")
                return ExitStatus.usage
            }
        }
    }

    /// Puts `bytes` in place of the config, the old one (if any) kept as `<config>.bak` with its mode.
    private func install(_ bytes: [UInt8], original: FileContents?, valid: Bool) -> Int32 {
        let mode = mode_t(original?.mode ?? 0o600)
        let backup = ConfigWriter.backupPath(of: paths.config)
        do {
            if let original {
                try FileSystem.writeAtomically(original.bytes, to: backup, mode: mode)
                _ = chmod(FileSystem.resolvingSymbolicLink(backup), mode)
            }
            try FileSystem.writeAtomically(bytes, to: paths.config, mode: mode)
        } catch {
            console.error("cannot write the config: \(error); it is unchanged")
            return ExitStatus.unmet
        }
        let kept = original == nil ? "" : "; the previous one is \(backup)"
        guard valid else {
            console.error("config \(paths.config): kept as written, not valid\(kept); perch commands exit 2 until it is fixed")
            return ExitStatus.usage
        }
        // Warnings (unknown keys) and permissions are the loader's to say, as for `config check`.
        guard let config = loadConfig(reportUnknownKeys: true) else { return ExitStatus.usage }
        for warning in config.warnings { console.error("warning: config \(paths.config): \(warning)") }
        let count = config.accounts.count
        console.print("config \(paths.config): valid, \(count) account\(count == 1 ? "" : "s")\(kept).")
        return ExitStatus.ok
    }

    /// The config's problems in `bytes`, each with its line and column (the loader places every
    /// problem); empty when it is valid.
    static func problems(in bytes: [UInt8], path: String) -> [String] {
        do {
            _ = try ConfigLoader.parse(bytes, path: path, reportUnknownKeys: false)
            return []
        } catch {
            return error.lines
        }
    }

    /// Writes `prompt` to stderr and reads one answer from stdin: its first letter, lowercased,
    /// or "" at the end of input.
    private func ask(_ prompt: String) -> String {
        console.note(prompt, newline: false)
        var answer: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = read(STDIN_FILENO, &byte, 1)
            if n < 0, errno == EINTR { continue }
            if n <= 0 || byte == 0x0A { break }
            answer.append(byte)
        }
        let text = String(decoding: answer, as: UTF8.self).trimmingSpaces.lowercased()
        return text.first.map(String.init) ?? ""
    }

    /// A new file beside `path` (`.NAME.edit-XXXXXX.json`, mode 0600) holding `bytes`; its path.
    /// - Throws: ``FileError``.
    static func makeEditCopy(of path: String, holding bytes: [UInt8]) throws(FileError) -> String {
        let folder = FileSystem.directory(of: path)
        try FileSystem.createDirectory(folder)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var template = Array("\(folder)/.\(name).edit-XXXXXX.json".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 5) }
        guard fd >= 0 else { throw FileError(path: folder, code: errno, operation: "create a file in") }
        defer { close(fd) }
        let copy = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                let code = errno
                unlink(copy)
                throw FileError(path: copy, code: code, operation: "write")
            }
            offset += n
        }
        return copy
    }

    /// Runs `editor "$path"` on Perch's terminal and waits; returns its exit status (127 when
    /// it cannot be found, 128 + N when ended by signal N).
    func runEditor(_ editor: String, path: String) -> Int32 {
        let spawned: ShellSpawn.Spawned
        do {
            // As git does: the editor setting is shell text (it may hold options), the path an argument.
            spawned = try ShellSpawn.spawn(
                editor + " \"$1\"", arguments: [path], environment: ShellSpawn.environment(adding: []), mode: .interactive)
        } catch {
            console.error("cannot start the editor: \(error)")
            return 127
        }
        // Ctrl-C in the editor is the editor's business, as with git.
        let previousInterrupt = signal(SIGINT, SIG_IGN)
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, previousInterrupt)
            signal(SIGQUIT, previousQuit)
        }
        var status: Int32 = 0
        while waitpid(spawned.pid, &status, 0) < 0 {
            if errno != EINTR { return 127 }
        }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
