import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
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

/// `perch config path`: where the config is.
struct ConfigPathCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "config path", summary: "print the path of the config file", recoversInterruptedSwitch: false)
    var files = FileOptions()
    func run(_ tool: CommandLineTool) -> Int32 {
        tool.console.print(tool.paths.config)
        return ExitStatus.ok
    }
}

/// `perch config check`: every problem of the config.
struct ConfigCheckCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(name: "config check", summary: "validate the config and report every problem")
    var files = FileOptions()
    func run(_ tool: CommandLineTool) -> Int32 { tool.configCheck() }
}

extension CommandLineTool {
    /// Sets the samples' state aside (``PerchPaths/setAsideSamplesState()``), saying what could
    /// not be moved.
    func moveSamplesState() {
        for problem in paths.setAsideSamplesState() { console.error("could not keep the samples' state apart: \(problem)") }
    }

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

    /// Each of the user's own `includeIf "gitdir:…"` rules (asked of git, Perch's own files left
    /// out) whose folder lies inside, or holds, a folder an account is bound to, in words.
    static func ruleOverlaps(_ accounts: [Account], context: ToolContext) -> [String] {
        let bound = accounts.enumerated().flatMap { index, account in
            account.identities.directories.enumerated().map { (index, $0.offset, $0.element) }
        }
        guard !bound.isEmpty else { return [] }
        let run = context.run(
            "git", ["config", "--global", "--includes", "--show-origin", "--name-only", "--get-regexp", #"^includeif\.gitdir"#], in: "/")
        let files = context.files
        let perchs = [files.gitInclude, files.gitDirectories, files.gitGuard]
        let environment = context.environment
        /// A path's literal part: up to its first wildcard, without a trailing `/`.
        func literal(_ path: String) -> String {
            var text = String(environment.expandingTilde(path).prefix { !"*?[".contains($0) })
            while text.count > 1, text.hasSuffix("/") { text.removeLast() }
            return text
        }
        var warnings: [String] = []
        for line in (run.output ?? "").split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2, parts[0].hasPrefix("file:") else { continue }
            let origin = String(parts[0].dropFirst(5))
            if perchs.contains(origin) || origin.hasPrefix(files.gitAccounts + "/") { continue }
            var name = Substring(parts[1])
            guard name.hasPrefix("includeif."), name.hasSuffix(".path") else { continue }
            name = name.dropFirst("includeif.".count).dropLast(".path".count)
            guard let colon = name.firstIndex(of: ":"), ["gitdir", "gitdir/i"].contains(name[..<colon]) else { continue }
            let rule = literal(String(name[name.index(after: colon)...]))
            guard rule.hasPrefix("/") else { continue }
            for (index, position, folder) in bound {
                let own = literal(folder)
                guard own == rule || own.hasPrefix(rule + "/") || rule.hasPrefix(own + "/") else { continue }
                warnings.append(
                    "accounts[\(index)].directories[\(position)] \"\(folder)\" overlaps your own git rule includeIf \"\(name)\" (\(PerchPaths.tilde(origin, home: environment.home))): inside, your rule decides git's identity, not the account's; perch guard install --strict refuses the commits it makes as someone else"
                )
            }
        }
        return warnings
    }

    func configCheck() -> Int32 {
        if !paths.configIsExplicit, access(paths.config, F_OK) != 0 {
            console.error("no config at \(shownPath(paths.config)) (Perch is using its sample accounts); write one with `perch init`")
            return ExitStatus.usage
        }
        guard let config = loadConfig(reportUnknownKeys: true) else { return ExitStatus.usage }
        for warning in config.warnings { console.error("warning: config \(shownPath(paths.config)): \(warning)") }
        let environment = IdentityEnvironment.current()
        for (index, account) in config.accounts.enumerated() {
            guard let ssh = account.identities[.ssh]?.value(as: SSHAdapter.Setting.self),
                access(environment.expandingTilde(ssh.identityFile), F_OK) != 0
            else { continue }
            console.error(
                "warning: config \(shownPath(paths.config)): accounts[\(index)].ssh.identityFile: \"\(shown(ssh.identityFile))\" does not exist (ssh cannot use it)"
            )
        }
        // Bug: an AWS profile that does not exist passed the check (and the switch) silently.
        let context = switcher(config).context
        for (index, account) in config.accounts.enumerated() {
            guard let setting = account.identities[.aws], let why = ToolAdapters.adapter(for: .aws)?.unusable(setting, in: context) else {
                continue
            }
            console.error("warning: config \(shownPath(paths.config)): accounts[\(index)].aws: \(shown(why))")
        }
        // The user's own includeIf rules that overlap a bound folder: inside, theirs decides
        // git's identity, not the account's (the guard lets it be unless strict).
        for warning in Self.ruleOverlaps(config.accounts, context: context) {
            console.error("warning: config \(shownPath(paths.config)): " + shown(warning))
        }
        let count = config.accounts.count
        let hooks = config.accounts.filter { $0.onSwitch != nil }.count
        let hookText = hooks == 0 ? "" : ", \(hooks) with an onSwitch hook"
        let tools = config.accounts.filter { !$0.identities.isEmpty }.count
        let toolText = tools == 0 ? "" : ", \(tools) with tool identities"
        console.print("config \(shownPath(paths.config)): valid, \(count) account\(count == 1 ? "" : "s")\(hookText)\(toolText).")
        return ExitStatus.ok
    }
}
