import Glibc
import PerchDomain
import PerchIdentities
import PerchStore

/// `perch config check`: every problem of the config.
struct ConfigCheckCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(name: "config check", summary: "validate the config and report every problem")
    var files = FileOptions()
    func run(_ tool: CommandLineTool) -> Int32 { tool.configCheck() }
}

extension CommandLineTool {
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
