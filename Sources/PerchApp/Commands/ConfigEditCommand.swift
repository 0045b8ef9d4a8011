import Glibc
import PerchDomain
import PerchInterface
import PerchStore

/// `perch config edit`: a copy of the config edited, installed only when valid.
struct ConfigEditCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "config edit", summary: "edit a copy of the config, install it only when valid")
    static let details: String =
        "Opens a copy of the config in $VISUAL, $EDITOR or vi (the starter config when\n"
        + "there is none). A valid copy replaces the config atomically, the old one kept as\n"
        + "<config>.bak. An invalid one is reported with line and column; on a terminal\n"
        + "Perch asks (e)dit again, (d)iscard, (k)eep anyway?; otherwise it is discarded\n"
        + "and the exit status is 2."
    var files = FileOptions()
    func run(_ tool: CommandLineTool) -> Int32 { tool.configEdit() }
}

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
        var copy: String
        // Bug: Ctrl-C at the "(e)dit again…" prompt left a hidden copy each time, and the next
        // edit did not offer it back. A copy newer than the config (an edit interrupted, or kept
        // by the interface's Edit config…) is resumed, so no edit is lost and none piles up.
        if let kept = Self.keptEditCopy(of: paths.config) {
            copy = kept
            console.note("Resuming the unfinished edit kept in \(kept) (delete that file to start again from the config).")
        } else {
            do {
                copy = try Self.makeEditCopy(of: paths.config, holding: startingText)
            } catch {
                console.error("cannot make a copy to edit: \(error)")
                return ExitStatus.unmet
            }
        }
        defer { unlink(copy) }
        let editor = ConfigEditPolicy.editor(visual: PerchPaths.environment("VISUAL"), editor: PerchPaths.environment("EDITOR"))
        let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1
        while true {
            let status = runEditor(editor, path: copy)
            var edited: [UInt8]?
            var readFailure: String?
            if status == 0 {
                do {
                    edited = try FileSystem.read(copy)
                } catch {
                    readFailure = "\(error)"
                }
            }
            let verdict = ConfigEditPolicy.verdict(
                editor: editor, editorFailure: status == 0 ? nil : "exited with status \(status)",
                original: original.map { ($0.bytes, $0.mode) }, edited: edited, readFailure: readFailure,
                // Bug: the problems named the config, though their lines and columns are the copy's.
                problems: edited.map { Self.problems(in: $0, path: copy) } ?? [])
            switch verdict {
            case .failed(let problem):
                console.error(problem)
                return ExitStatus.unmet
            case .unchanged:
                console.print("config \(shownPath(paths.config)): no changes.")
                return ExitStatus.ok
            case .valid(let mode, let backup):
                return install(edited ?? [], mode: mode, backup: backup, valid: true)
            case .invalid(let problems, let mode, let backup):
                for line in problems { console.error(line) }
                var choice = ConfigEditPolicy.retry(answer: interactive ? ask(ConfigEditPolicy.retryPrompt) : nil)
                while choice == .askAgain {
                    console.note(ConfigEditPolicy.retryHint)
                    choice = ConfigEditPolicy.retry(answer: ask(ConfigEditPolicy.retryPrompt))
                }
                switch choice {
                case .editAgain, .askAgain: continue
                case .keepAnyway: return install(edited ?? [], mode: mode, backup: backup, valid: false)
                case .discard(let message):
                    console.error(message)
                    return ExitStatus.usage
                }
            }
        }
    }

    /// Puts `bytes` in place of the config with `mode` (permission bits), `backup` (the previous
    /// config, if any) first written to `<config>.bak` with the same mode.
    private func install(_ bytes: [UInt8], mode: UInt32, backup: [UInt8]?, valid: Bool) -> Int32 {
        let backupPath = ConfigWriter.backupPath(of: paths.config)
        do {
            if let backup {
                try FileSystem.writeAtomically(backup, to: backupPath, mode: mode_t(mode))
                _ = chmod(FileSystem.resolvingSymbolicLink(backupPath), mode_t(mode))
            }
            try FileSystem.writeAtomically(bytes, to: paths.config, mode: mode_t(mode))
        } catch {
            console.error("cannot write the config: \(error); it is unchanged")
            return ExitStatus.unmet
        }
        // Bug: the first config written by an edit took over the samples' current account,
        // counts and history, which `perch init` sets aside: the samples' ids are the starter's.
        if backup == nil, !paths.configIsExplicit, !paths.stateIsExplicit { moveSamplesState() }
        let kept = backup == nil ? "" : "; the previous one is \(backupPath)"
        guard valid else {
            console.error("config \(shownPath(paths.config)): kept as written, not valid\(kept); perch commands exit 2 until it is fixed")
            return ExitStatus.usage
        }
        // Warnings (unknown keys) and permissions are the loader's to say, as for `config check`.
        guard let config = loadConfig(reportUnknownKeys: true) else { return ExitStatus.usage }
        for warning in config.warnings { console.error("warning: config \(shownPath(paths.config)): \(warning)") }
        let count = config.accounts.count
        console.print("config \(shownPath(paths.config)): valid, \(count) account\(count == 1 ? "" : "s")\(kept).")
        return ExitStatus.ok
    }

    /// The config's problems in `bytes`, each with its line and column (the loader places every
    /// problem); empty when it is valid.
    static func problems(in bytes: [UInt8], path: String) -> [String] {
        do {
            _ = try ConfigLoader.parse(bytes, path: path, reportUnknownKeys: false, overriding: ConfigLayering.registryIDs)
            return []
        } catch {
            return error.lines
        }
    }

    /// Writes `prompt` to stderr and reads one line from stdin: the line with its newline, ""
    /// at the end of input (so an empty line typed is not the end of input).
    private func ask(_ prompt: String) -> String {
        console.note(prompt, newline: false)
        var answer: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = read(STDIN_FILENO, &byte, 1)
            if n < 0, errno == EINTR { continue }
            if n <= 0 {
                // Bug: at the end of input what followed was written on the prompt's line.
                console.note("")
                break
            }
            answer.append(byte)
            if byte == 0x0A { break }
        }
        return String(decoding: answer, as: UTF8.self)
    }

    /// The newest copy an earlier `Edit config…` kept beside `path` because its edit was not
    /// valid (``makeEditCopy(of:holding:)``'s `.NAME.edit-XXXXXX.json`), when it is newer than
    /// the config (or there is no config): the next edit resumes it instead of starting again
    /// from the config. Nil when there is none.
    static func keptEditCopy(of path: String) -> String? {
        let folder = FileSystem.directory(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let config = FileSystem.identity(of: path)?.modified ?? Int64.min
        let (prefix, suffix) = editCopyAffixes(name)
        var newest: (path: String, modified: Int64)?
        for copy in FileSystem.names(in: folder) where copy.hasPrefix(prefix) && copy.hasSuffix(suffix) {
            guard copy.count == prefix.count + 6 + suffix.count, let modified = FileSystem.identity(of: folder + "/" + copy)?.modified
            else { continue }
            if modified >= config, modified > newest?.modified ?? Int64.min { newest = (folder + "/" + copy, modified) }
        }
        return newest?.path
    }

    /// What an edit copy's name holds around its six random characters (mkstemps(3)), beside the
    /// config named `name`: `.NAME.edit-` and `.json`.
    static func editCopyAffixes(_ name: String) -> (prefix: String, suffix: String) { (".\(name).edit-", ".json") }

    /// A new file beside `path` (`.NAME.edit-XXXXXX.json`, mode 0600) holding `bytes`; its path.
    /// - Throws: ``FileError``.
    static func makeEditCopy(of path: String, holding bytes: [UInt8]) throws(FileError) -> String {
        let folder = FileSystem.directory(of: path)
        try FileSystem.createDirectory(folder)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let (prefix, suffix) = editCopyAffixes(name)
        var template = Array("\(folder)/\(prefix)XXXXXX\(suffix)".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, Int32(suffix.utf8.count)) }
        guard fd >= 0 else { throw FileError(path: folder, code: errno, operation: "create a file in it") }
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
        let ended = TerminalCommand.edit(path, with: editor)
        if case .notStarted(let error) = ended { console.error("cannot start the editor: \(error)") }
        return ended.shellStatus
    }
}
