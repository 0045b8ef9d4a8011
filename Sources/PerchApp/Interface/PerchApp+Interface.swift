import CSystem
import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchKit
import PerchKitLoop
import PerchKitTerminal
import PerchStore

/// What starts the full-screen interface.
extension PerchApp {
    /// Starts the full-screen interface with `options`: the config (or the cached current
    /// account), the terminal, then the event loop until it quits; the exit status.
    static func runInterface(_ options: InterfaceCommand) -> Int32 {
        let paths = PerchPaths(config: options.files.config, state: options.files.state)
        // The first frame shows the current account, the switch count and the tab bar. When the
        // cache `perch current` keeps matches both files as they are, the account comes from
        // there and the whole config is read on the worker after the first frame; otherwise the
        // config is read now, as it always was. The files are identified before they are read.
        let cache = CurrentAccountCache(statePath: paths.state)
        let configIdentity = CurrentAccountCache.FileIdentity.of(paths.config)
        let stateIdentity = CurrentAccountCache.FileIdentity.of(paths.state)
        let cached = cache.account(configPath: paths.config, statePath: paths.state)
        let config: LoadedConfig
        if let cached {
            config = LoadedConfig(accounts: [cached], path: paths.config)
        } else {
            do {
                config = try ConfigLoader.load(paths)
            } catch {
                for line in error.lines { printError("perch: " + line) }
                // Bug: a broken config stopped the interface with no word of how to mend it.
                switch error {
                case .invalid, .syntax, .empty:
                    printError("perch: fix it with `perch config edit` (it checks the copy before installing it), then start perch again")
                default: break
                }
                return ExitStatus.usage
            }
        }
        if let refusal = terminalRefusal() {
            printError("perch: \(refusal)")
            return ExitStatus.usage
        }
        // Saved settings, then the flags of this run over them.
        let settingsPath = SettingsFile.path(besideConfig: paths.config)
        let savedSettings = SettingsFile.read(settingsPath)
        var flags = Settings()
        flags.longPressMilliseconds = options.longPressMilliseconds
        flags.reduceMotion = options.reduceMotion
        flags.mouse = !options.noMouse
        flags.theme = options.theme ?? .standard
        flags.accessible = options.accessible
        var settings = SettingsState(file: savedSettings.settings, flags: flags, flagged: options.flaggedSettings)
        let accessible = settings.values.accessible
        if accessible, !settings.values.reduceMotion {
            // Nothing moves in the accessible mode: a change is said once, whole.
            flags.reduceMotion = true
            settings = SettingsState(file: savedSettings.settings, flags: flags, flagged: options.flaggedSettings.union([.reduceMotion]))
        }
        SignalPipe.install()
        defer { SignalPipe.uninstall() }
        let noColor = PerchPaths.environment("NO_COLOR").map { !$0.isEmpty } ?? false
        let backend: TerminalBackend
        if accessible {
            // One line a change on the line-mode backend: no alternate screen, no frame, no mouse.
            let lines = LineModeBackend(input: STDIN_FILENO, output: STDOUT_FILENO, colors: false)
            lines.showsCursor = true
            guard lines.size.width > 0, lines.enter() else {
                printError("perch: cannot set the terminal up for the accessible mode: \(String(cString: strerror(errno)))")
                return ExitStatus.usage
            }
            backend = lines
        } else {
            do {
                backend = try NcursesBackend(colors: !noColor)
            } catch {
                printError("perch: \(error)")
                return ExitStatus.usage
            }
        }
        let store = StateStore(path: paths.state)
        let identities = identitySwitcher(paths, config: config)
        // A switch left half done by a killed process is put right before the state is read
        // (never waiting for its programs: the first frame does not wait).
        var banner = identities.session(store: store, source: .tui).recoverInterrupted(waitingMilliseconds: 0).map {
            $0.prefix(1).uppercased() + $0.dropFirst()
        }
        var saved = SavedState()
        var stateWarning: String?
        do {
            // Before the accounts are known, the state is only read: its current account is
            // checked against the config when the config arrives.
            let loaded = try cached == nil ? store.load(accounts: config.accounts) : store.peek()
            stateWarning = loaded.warning
            saved = loaded.state
            banner = banner ?? loaded.warning
        } catch {
            banner = "Could not read the state file: \(error)"
        }
        if banner == nil { banner = savedSettings.warning }
        // `--key-hold kitty` turns the protocol on without asking; `auto` asks after the first
        // frame, and the answer is an event for `update` (``PerchModel/startupQueries``).
        if options.keyHold == .kitty { backend.pushKeyboardFlags(KeyHoldPreference.keyboardFlags) }
        var info = RunInfo(
            longPressMilliseconds: settings.values.longPressMilliseconds, configDescription: config.description, statePath: paths.state,
            settingsPath: settingsPath)
        info.keyHoldPreference = options.keyHold
        info.usesSampleAccounts = config.isSamples
        info.accessible = accessible
        if let kind = PerchPaths.environment(IdentityScope.scopeVariable), let id = PerchPaths.environment(ShellExports.accountVariable) {
            info.shellScope = RunInfo.ShellScope(account: id, kind: kind)
        }
        // The history is for Stats: one that cannot be read shows as none.
        let history = SwitchHistory(records: (try? store.history.read()) ?? [])
        let app = TabApp.perch(
            accounts: config.accounts, saved: saved, size: backend.size, info: info, reduceMotion: options.reduceMotion, banner: banner,
            history: history, settings: settings, loading: cached != nil)
        if !settings.values.mouse || accessible { backend.setMouse(false) }
        var gestures = GestureRecognizer.Configuration.perch
        gestures.longPressMilliseconds = settings.values.longPressMilliseconds
        // Measuring start-up needs no watch on the state folder.
        let watcher = options.exitAfterFirstFrame ? nil : StateWatcher(watching: paths.state)
        let loop = PerchRunner(
            app: app, backend: backend, store: store, gestures: gestures, watcher: watcher, configPath: paths.config,
            identities: identities,
            wallClock: { LocalTime.now(monotonic: MonotonicClock.now()) }, settingsPath: settingsPath,
            configPaths: paths,
            // A config made or changed elsewhere (perch set, perch add, an editor) is read again.
            // So is a registry update (`perch registry update` in another window), by its index.
            configWatcher: options.exitAfterFirstFrame || access(paths.config, F_OK) != 0
                ? nil : StateWatcher(watching: [paths.config, RegistryPaths(statePath: paths.state).index]))
        // Read from the files, the current account is kept for the next start (and prompt), off
        // this thread: the cache only takes files older than its racy window.
        if cached == nil, config.path != nil, stateWarning == nil, let account = app.perch?.currentAccount {
            loop.worker.keep(
                account, in: cache, configPath: paths.config, config: configIdentity, statePath: paths.state, state: stateIdentity)
        }
        let status = loop.run(exitAfterFirstFrame: options.exitAfterFirstFrame)
        if let failure = loop.failure { printError("perch: " + failure) }
        // A config found unusable after the first frame is reported as a start with it always was.
        if let lines = loop.model.unusableConfig {
            for line in lines { printError("perch: " + line) }
            return ExitStatus.usage
        }
        return status
    }

    /// Why the interface cannot start on these standard streams, or nil when both are terminals.
    /// Checked after the config (whose errors say more) and before any signal or terminal is touched.
    static func terminalRefusal() -> String? {
        let streams = [(STDIN_FILENO, "standard input"), (STDOUT_FILENO, "standard output")]
        guard let (_, name) = streams.first(where: { isatty($0.0) != 1 }) else { return nil }
        return "\(name) is not a terminal; the interface needs a terminal on standard input and output"
    }
}
