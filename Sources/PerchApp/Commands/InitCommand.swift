import Glibc
import PerchStore

/// `perch init`: a starter config, never over an existing one.
struct InitCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(name: "init", summary: "write a starter config (never over an existing one)")
    static let details: String =
        "Writes an example config to the config path (see perch config path), with every\n"
        + "field shown once. Exit status 1 when a config is already there."
    var files = FileOptions()
    func run(_ tool: CommandLineTool) -> Int32 { tool.initConfig() }
}

extension CommandLineTool {
    func initConfig() -> Int32 {
        // Only a missing file, or an empty regular one, may be written: anything else at the path
        // (a config too large or unreadable, a folder, a FIFO, a device) is left alone.
        var info = stat()
        let samplesInUse = !paths.configIsExplicit && stat(paths.config, &info) != 0 && errno == ENOENT
        if stat(paths.config, &info) == 0 {
            let blank =
                info.st_mode & S_IFMT == S_IFREG
                && (try? FileSystem.read(paths.config))?.allSatisfy { [0x20, 0x0A, 0x0D, 0x09].contains($0) } == true
            guard blank else {
                let what = info.st_mode & S_IFMT == S_IFREG ? "a config already exists" : "something that is not a config file is"
                console.error(
                    "\(what) at \(shownPath(paths.config)); perch init writes only where there is no file (edit one with `perch config edit`)"
                )
                return ExitStatus.unmet
            }
        } else if errno != ENOENT {
            console.error("cannot write the config: \(FileError(path: paths.config, code: errno, operation: "check"))")
            return ExitStatus.unmet
        }
        do {
            try FileSystem.writeAtomically(Array(StarterConfig.text.utf8), to: paths.config, mode: 0o600)
        } catch {
            console.error("cannot write the config: \(error)")
            return ExitStatus.unmet
        }
        if samplesInUse, !paths.stateIsExplicit { moveSamplesState() }
        console.print("Wrote a starter config to \(shownPath(paths.config)).")
        console.print("Edit it with `perch config edit`; check it with `perch config check`.")
        return ExitStatus.ok
    }
}
