import Foundation
import PerchDomain
import PerchInterface
import PerchInterfaceTesting
import PerchKit
import PerchStore
import PerchTestSupport
import Synchronization
import Testing

@testable import PerchApp
@testable import PerchKitTerminal

extension LoopSuites {
    /// Settings kept across a restart, and `Edit config…` with a scripted editor, through the loop.
    @Suite("Settings and Edit config through the loop", .serialized)
    struct SettingsLoopTests {
        func scratch() -> String {
            LoopSuites.scratchFolder("settings")
        }

        /// Runs a loop over `state` on a thread; returns the backend, a way to type, and a way to wait for the end.
        func run(_ state: TabApp, configPath: String?, settingsPath: String?, configPaths: PerchPaths? = nil) -> (
            RecordingBackend, (String) -> Void, () -> Bool
        ) {
            var ends: [Int32] = [0, 0]
            _ = pipe(&ends)
            let backend = RecordingBackend(size: Size(width: 80, height: 24), inputDescriptor: ends[0])
            let loop = PerchRunner(
                app: state, backend: backend, store: nil, gestures: .init(), configPath: configPath, settingsPath: settingsPath,
                configPaths: configPaths)
            nonisolated(unsafe) let running = loop
            let done = DispatchSemaphore(value: 0)
            Thread {
                _ = running.run()
                done.signal()
            }.start()
            let write = ends[1]
            return (
                backend, { text in _ = Array(text.utf8).withUnsafeBytes { Glibc.write(write, $0.baseAddress, $0.count) } },
                {
                    let ended = done.wait(timeout: .now() + 10) == .success
                    close(ends[0])
                    close(ends[1])
                    return ended
                }
            )
        }

        @Test(
            "every setting changed in Settings is written, and read back after a restart with its source; a flag overrides it for one run")
        func roundTrip() throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/settings.json"
            let (backend, type, end) = run(
                TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24), settings: SettingsState()), configPath: nil,
                settingsPath: path)
            // Settings; rows 2… are Reduce motion, Sheet style, Long-press, Mouse, Colour theme, Check with servers, Accessible mode.
            type("4jj\r")  // reduce motion on
            type("j\r")  // sheet style inset
            type("j\u{1B}[C\u{1B}[C\u{1B}[C")  // long-press 500 → 800 ms
            type("j\r")  // mouse off
            type("j\u{1B}[D")  // theme: default ← monochrome
            type("j\r")  // check with servers on
            type("j\r")  // accessible mode on (from the next start)
            #expect(waitUntil { backend.frames.last?.text.contains("on (from the next start)") == true })
            #expect(backend.frames.last?.text.contains("on (v asks them)") == true)
            #expect(backend.frames.last?.text.contains("monochrome") == true)
            #expect(backend.calls.contains("setMouse off"), "mouse reporting turned off at once")
            type("q")
            #expect(end())
            let read = SettingsFile.read(path)
            #expect(read.warning == nil)
            let restarted = SettingsState(file: read.settings)
            var expected = Settings()
            expected.reduceMotion = true
            expected.sheetStyle = .inset
            expected.longPressMilliseconds = 800
            expected.mouse = false
            expected.theme = .monochrome
            expected.checkWithServers = true
            expected.accessible = true
            #expect(restarted.values == expected)
            #expect(SettingKey.allCases.allSatisfy { restarted.source($0) == .saved })
            var flags = Settings()
            flags.longPressMilliseconds = 300
            let flagged = SettingsState(file: read.settings, flags: flags, flagged: [.longPress])
            #expect(flagged.values.longPressMilliseconds == 300 && flagged.source(.longPress) == .flag)
            #expect(flagged.values.theme == .monochrome && flagged.source(.theme) == .saved)
            let state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24), settings: flagged)
            #expect(state.perchModel.reducesMotion && state.context.reduceMotion && state.sheetStyle == .inset)
        }

        @Test("the long-press duration is clamped to 50–10000 ms, the range of --long-press-ms")
        func longPressRange() {
            var settings = SettingsState()
            for _ in 0..<200 { settings.change(.longPress, step: 1) }
            #expect(settings.values.longPressMilliseconds == 10_000)
            for _ in 0..<200 { settings.change(.longPress, step: -1) }
            #expect(settings.values.longPressMilliseconds == 50)
            #expect(SharedOption.longPressRange == Settings.longPressRange)
            // Off the 100 ms grid, a step lands on it: 50 → 100, 730 → 700 or 800.
            settings.change(.longPress, step: 1)
            #expect(settings.values.longPressMilliseconds == 100)
            var file = SavedSettings()
            file.longPressMilliseconds = 730
            var odd = SettingsState(file: file)
            odd.change(.longPress, step: -1)
            #expect(odd.values.longPressMilliseconds == 700)
            odd = SettingsState(file: file)
            odd.change(.longPress, step: 1)
            #expect(odd.values.longPressMilliseconds == 800)
        }

        /// Issue 48: the flag took 50–10000 ms and the file 200–2000, so 100 ms, which the flag
        /// took, was dropped from the file with a warning.
        @Test("a settings file's long-press of 100 ms, which --long-press-ms takes, is read, not dropped")
        func fileTakesWhatTheFlagTakes() throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/settings.json"
            try #"{"longPressMilliseconds": 100}"#.write(toFile: path, atomically: true, encoding: .utf8)
            let read = SettingsFile.read(path)
            #expect(read.warning == nil, "\(read.warning ?? "")")
            #expect(SettingsState(file: read.settings).values.longPressMilliseconds == 100)
        }

        /// Issue 48: each setting's member, values and title were written in 46 switch arms.
        @Test("every setting is one record, in SettingKey's order, with a member of its own that the file writes and reads back")
        func oneRecordEach() throws {
            #expect(SettingDefinition.all.map(\.key) == SettingKey.allCases)
            #expect(Set(SettingDefinition.all.map(\.member)).count == SettingKey.allCases.count)
            var settings = SettingsState()
            for key in SettingKey.allCases { settings.change(key, step: 1) }
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/settings.json"
            try SettingsFile.write(settings.file, to: path)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            for definition in SettingDefinition.all {
                #expect(text.contains("\"\(definition.member)\""), "\(definition.member) is written")
                #expect(!definition.title.isEmpty)
            }
            let back = SettingsState(file: SettingsFile.read(path).settings)
            #expect(back.values == settings.values, "each value read back as written")
            #expect(SettingKey.allCases.allSatisfy { back.source($0) == .saved })
        }

        @Test("a settings file that is not JSON is left alone and read as defaults, with a warning")
        func badFile() throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/settings.json"
            try "not json".write(toFile: path, atomically: true, encoding: .utf8)
            let read = SettingsFile.read(path)
            #expect(read.settings == SavedSettings())
            #expect(read.warning?.hasPrefix("Settings file \(path): line 1, column 2: ") == true, "\(read.warning ?? "")")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "not json")
        }

        // Bug: a settings file cut short (a full disk, an editor killed) was reported as "not a
        // JSON object", which it was, with no place to look at.
        @Test("a settings file cut short names the line and column where it breaks; one that is JSON but no object says so")
        func truncatedFile() throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/settings.json"
            try "{\n  \"mouse\": false,\n  \"theme\": \"mono".write(toFile: path, atomically: true, encoding: .utf8)
            let read = SettingsFile.read(path)
            #expect(read.settings == SavedSettings())
            #expect(read.warning?.hasPrefix("Settings file \(path): line 3, column ") == true, "\(read.warning ?? "")")
            #expect(read.warning?.contains("not a JSON object") == false)
            try "[1, 2]".write(toFile: path, atomically: true, encoding: .utf8)
            #expect(
                SettingsFile.read(path).warning
                    == "Settings file \(path) is not a JSON object; using the defaults (a change in Settings replaces it).")
        }

        /// Runs Edit config… with `EDITOR` set to `script` over a valid config; returns the frames' last text and the accounts after.
        func editConfig(_ script: String) throws -> (String, [Account], config: String, backup: String?) {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let config = folder + "/accounts.json"
            try #"{"accounts": [{"id": "work", "name": "Work"}]}"#.write(toFile: config, atomically: true, encoding: .utf8)
            setenv("EDITOR", script, 1)
            unsetenv("VISUAL")
            defer { unsetenv("EDITOR") }
            let (backend, type, end) = run(
                TabApp.perch(accounts: [Account(id: "work", name: "Work")], size: Size(width: 80, height: 24)), configPath: config,
                settingsPath: nil)
            type("4")
            for _ in 0..<9 { type("j") }  // to Edit config…
            type("\r")
            _ = waitUntil {
                backend.frames.last?.text.contains("Config reloaded") == true || backend.frames.last?.text.contains("not reloaded") == true
            }
            let text = backend.frames.last?.text ?? ""
            type("a")
            _ = waitUntil { backend.frames.last?.text.contains("Enter switch") == true }
            let sheet = backend.frames.last?.text ?? ""
            type("\u{03}")  // Ctrl-C quits from the sheet
            #expect(end())
            let suspend = backend.calls.firstIndex(of: "suspend")
            #expect(suspend.map { backend.calls.dropFirst($0 + 1).first == "resume" } == true, "the interface was suspended, then resumed")
            let accounts = ["Work", "Home"].filter { sheet.contains($0) }.map { Account(id: $0.lowercased(), name: $0) }
            return (
                text, accounts, try String(contentsOfFile: config, encoding: .utf8),
                try? String(contentsOfFile: config + ".bak", encoding: .utf8)
            )
        }

        @Test("Edit config… with an editor that writes a valid config: the accounts are reloaded")
        func editorValid() throws {
            let script =
                #"sh -c 'printf "%s" "{\"accounts\": [{\"id\": \"work\", \"name\": \"Work\"}, {\"id\": \"home\", \"name\": \"Home\"}]}" > "$1"' sh"#
            let (text, accounts, config, backup) = try editConfig(script)
            #expect(text.contains("Config reloaded: 2 accounts."), "\(text)")
            #expect(accounts.map(\.id) == ["work", "home"])
            #expect(config.contains("home"), "the edited copy replaced the config")
            #expect(backup == #"{"accounts": [{"id": "work", "name": "Work"}]}"#, "the previous config is kept as .bak")
        }

        @Test("Edit config… with an editor that leaves the config invalid: the error is shown and the previous accounts stay")
        func editorInvalid() throws {
            let script = #"sh -c 'printf "{\"accounts\": [" > "$1"' sh"#
            let (text, accounts, config, backup) = try editConfig(script)
            #expect(text.contains("not reloaded (the previous accounts stay)"), "\(text)")
            #expect(text.contains("your edit is kept in"), "\(text)")
            #expect(accounts.map(\.id) == ["work"])
            #expect(config == #"{"accounts": [{"id": "work", "name": "Work"}]}"#, "the config is untouched")
            #expect(backup == nil)
        }

        // Bug: Edit config… over the sample accounts left their state (current account, counts,
        // history) to the new config's accounts of the same ids; perch init sets it aside.
        @Test("Edit config… that writes the first config sets the samples' state aside, as perch init does")
        func editorSetsSamplesAside() throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let environment = ["HOME": folder, "XDG_CONFIG_HOME": folder + "/config", "XDG_STATE_HOME": folder + "/state"]
            let paths = PerchPaths(lookup: { environment[$0] })
            #expect(!paths.configIsExplicit && !paths.stateIsExplicit)
            _ = try StateStore(path: paths.state).recordSwitch(to: "work", source: .cli)
            setenv("EDITOR", "true", 1)  // the starter config, installed as it is
            unsetenv("VISUAL")
            defer { unsetenv("EDITOR") }
            let (backend, type, end) = run(
                TabApp.perch(accounts: Account.samples, saved: SavedState(currentAccount: "work"), size: Size(width: 80, height: 24)),
                configPath: paths.config, settingsPath: nil, configPaths: paths)
            type("4")
            for _ in 0..<9 { type("j") }  // to Edit config…
            type("\r")
            #expect(waitUntil { backend.frames.last?.text.contains("Config reloaded") == true }, "\(backend.frames.last?.text ?? "")")
            #expect(!FileManager.default.fileExists(atPath: paths.state), "the samples' state is set aside")
            #expect(FileManager.default.fileExists(atPath: paths.samplesState))
            type("1")
            #expect(waitUntil { backend.frames.last?.text.contains("No account") == true }, "\(backend.frames.last?.text ?? "")")
            type("\u{03}")
            #expect(end())
        }

        // Bug: an invalid edit's problems named accounts.json, though their lines are the
        // copy's; and each Edit config… after one started again from the config, leaving
        // another copy behind.
        @Test("Edit config… after an invalid edit resumes the kept copy, which its problems name; once valid, no copy is left")
        func editorResumesKeptCopy() throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let config = folder + "/accounts.json"
            try #"{"accounts": [{"id": "work", "name": "Work"}]}"#.write(toFile: config, atomically: true, encoding: .utf8)
            // Given a fresh copy of the config it breaks it; given its own broken edit back, it finishes it.
            let script = folder + "/editor.sh"
            writeExecutable(
                """
                #!/bin/sh
                if grep -q BROKEN "$1"; then
                  printf '%s' '{"accounts": [{"id": "work", "name": "Work"}, {"id": "home", "name": "Home"}]}' > "$1"
                else
                  printf '%s\n%s' '{"accounts": [' 'BROKEN' > "$1"
                fi
                """, to: script)
            setenv("EDITOR", script, 1)
            unsetenv("VISUAL")
            defer { unsetenv("EDITOR") }
            let copies = {
                (try? FileManager.default.contentsOfDirectory(atPath: folder))?.filter { $0.hasPrefix(".accounts.json.edit-") } ?? []
            }
            let (backend, type, end) = run(
                TabApp.perch(accounts: [Account(id: "work", name: "Work")], size: Size(width: 200, height: 24)), configPath: config,
                settingsPath: nil)
            type("4")
            for _ in 0..<9 { type("j") }  // to Edit config…
            type("\r")
            #expect(waitUntil { backend.frames.last?.text.contains("not reloaded") == true })
            let refused = backend.frames.last?.text ?? ""
            #expect(copies().count == 1, "\(copies())")
            // Both the copy kept and the problem's file are the copy, each path whole over the
            // banner's lines (broken after a /).
            let copyPath = folder + "/" + (copies().first ?? "?")
            let joined = refused.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined()
            #expect(joined.components(separatedBy: copyPath).count == 3, "\(refused)")
            #expect(refused.contains("line 2, column 1: expected a value"), "the problem is placed in the copy: \(refused)")
            type("\u{1B}")  // the banner stays until Esc (waited for: Esc and Enter together are Alt-Enter)
            #expect(waitUntil { backend.frames.last?.text.contains("not reloaded") == false })
            type("\r")
            #expect(
                waitUntil { backend.frames.last?.text.contains("Config reloaded: 2 accounts.") == true },
                "\(backend.frames.last?.text ?? "")")
            #expect(copies().isEmpty, "the resumed copy went once it was installed: \(copies())")
            #expect(try String(contentsOfFile: config, encoding: .utf8).contains("home"))
            type("\u{03}")
            #expect(end())
        }
    }
}
