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
    /// Catalog sources, previews and opens through the effect worker and the loop, with scripted
    /// commands.
    @Suite("Catalog sources, previews and opens", .serialized)
    struct CatalogSourceTests {
        static let account = Account(id: "gh", name: "GitHub", handle: "@ada")

        /// Waits (at most `seconds`) for the worker's first outcome.
        func outcome(of worker: EffectWorker, within seconds: Double = 10) -> AppEvent? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                var entry = pollfd(fd: worker.wakeDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, 50)
                if let first = worker.drainEvents().first { return first }
            }
            return nil
        }

        func load(_ script: String, timeout: Int64 = 10_000) -> AppEvent? {
            let worker = EffectWorker(store: nil, configPath: nil, catalogTimeoutMilliseconds: timeout)
            worker.perform(.perform(LoadCatalog(accountID: "gh", command: script)), accounts: [Self.account])
            return outcome(of: worker)
        }

        func parsed(_ event: AppEvent?) -> ([CatalogItem], Int)? {
            guard case .loaded("gh", let items, let skipped)? = event?.taken(CatalogLoaded.self)?.value else { return nil }
            return (items, skipped)
        }

        @Test("a source that prints lines: one item per line, blank lines skipped")
        func lines() throws {
            let (items, skipped) = try #require(parsed(load(#"printf 'alpha\n\n  beta two\r\n'"#)))
            #expect(items.map(\.title) == ["alpha", "  beta two"])
            #expect(items.map(\.id) == ["alpha", "  beta two"])
            #expect(skipped == 0)
        }

        @Test("a source that prints JSON Lines: id, title and subtitle; a missing title is the id")
        func jsonLines() throws {
            let script = #"printf '{"id":"1","title":"One","subtitle":"first"}\n{"id":"2"}\n{"title":"Three"}\n'"#
            let (items, skipped) = try #require(parsed(load(script)))
            #expect(
                items == [
                    CatalogItem(id: "1", title: "One", detail: "first", kind: ""), CatalogItem(id: "2", title: "2", detail: "", kind: ""),
                    CatalogItem(id: "Three", title: "Three", detail: "", kind: ""),
                ])
            #expect(skipped == 0)
        }

        @Test("a source that prints nothing lists nothing, and the pane says so")
        func nothing() throws {
            let (items, skipped) = try #require(parsed(load("true")))
            #expect(items.isEmpty && skipped == 0)
            var state = TabApp.perch(
                accounts: [Self.account.withCommand("true")], saved: SavedState(currentAccount: "gh"), size: Size(width: 80, height: 24))
            _ = state.update(.key(.char("2")))
            _ = state.update(.outcome(AnyOutcome(CatalogLoaded.loaded(accountID: "gh", items: [], skipped: 0)), for: .pane(.catalog)))
            #expect(state.render().text.contains("printed nothing"))
        }

        @Test("garbage JSON Lines: readable lines are kept, the others counted and shown as unreadable")
        func garbage() throws {
            let (items, skipped) = try #require(parsed(load(#"printf '{"id":"1"}\nnot json\n{broken\n[1,2]\n\377\376\n'"#)))
            #expect(items.map(\.id) == ["1"])
            #expect(skipped == 4)
            var state = TabApp.perch(
                accounts: [Self.account.withCommand("x")], saved: SavedState(currentAccount: "gh"), size: Size(width: 80, height: 24))
            _ = state.update(.key(.char("2")))
            _ = state.update(
                .outcome(AnyOutcome(CatalogLoaded.loaded(accountID: "gh", items: items, skipped: skipped)), for: .pane(.catalog)))
            #expect(state.render().lines[0].contains("4 unreadable"))
        }

        @Test("escape sequences in a source's lines never reach the screen: controls are drawn as �")
        func escapes() throws {
            let (items, _) = try #require(parsed(load(#"printf '\033]0;owned\007title\n\033[2Jclear\n\302\233c1\n'"#)))
            #expect(items.count == 3)
            var state = TabApp.perch(
                accounts: [Self.account.withCommand("x")], saved: SavedState(currentAccount: "gh"), size: Size(width: 80, height: 24))
            _ = state.update(.key(.char("2")))
            _ = state.update(.outcome(AnyOutcome(CatalogLoaded.loaded(accountID: "gh", items: items, skipped: 0)), for: .pane(.catalog)))
            let text = state.render().text
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x80..<0xA0).contains($0.value) })
            #expect(text.contains("�]0;owned�title"))
        }

        @Test("100,000 lines from a source: all listed, and a frame draws only the rows on screen")
        func hundredThousand() throws {
            let (items, _) = try #require(parsed(load("seq 100000")))
            #expect(items.count == 100_000)
            var state = TabApp.perch(
                accounts: [Self.account.withCommand("seq")], saved: SavedState(currentAccount: "gh"), size: Size(width: 80, height: 24))
            _ = state.update(.key(.char("2")))
            _ = state.update(.outcome(AnyOutcome(CatalogLoaded.loaded(accountID: "gh", items: items, skipped: 0)), for: .pane(.catalog)))
            _ = state.update(.key(KeyEvent(.end)))
            let lines = state.render().lines
            #expect(lines[0].hasSuffix("100000/100000 "))
            #expect(lines[21].contains("100000"))
        }

        @Test("a failing source: its status and the end of its stderr")
        func failing() throws {
            let event = load("echo 'first line' >&2; echo 'error: not logged in' >&2; exit 4")
            guard case .failed("gh", let reason)? = event?.taken(CatalogLoaded.self)?.value else {
                Issue.record("expected a failure, got \(String(describing: event))")
                return
            }
            #expect(reason.hasPrefix("exited with status 4"))
            #expect(reason.contains("error: not logged in") && reason.contains("first line"))
        }

        @Test("a source that hangs past its timeout is killed, with the children it started")
        func hanging() throws {
            let started = Date()
            let event = load("sleep 30 & sleep 30", timeout: 300)
            guard case .failed("gh", let reason)? = event?.taken(CatalogLoaded.self)?.value else {
                Issue.record("expected a timeout, got \(String(describing: event))")
                return
            }
            #expect(reason.hasPrefix("timed out after 300 ms"))
            #expect(Date().timeIntervalSince(started) < 5)
        }

        @Test("a source started just as Perch quits, listed after the kill, is killed at once (bug: it ran to its timeout)")
        func startedAsPerchQuits() {
            let running = CapturedCommand.Running()
            running.killAll()
            let started = Date()
            let output = CapturedCommand.run("sleep 30", variables: [], timeout: 10_000, running: running)
            #expect(output.failure?.contains("signal 9") == true, "\(String(describing: output.failure))")
            #expect(Date().timeIntervalSince(started) < 5)
        }

        @Test("a source still running when Perch quits is killed, with what it started")
        func killedOnQuit() throws {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("perch-source-\(UUID().uuidString)").path
            defer { unlink(file) }
            let worker = EffectWorker(store: nil, configPath: nil)
            worker.perform(
                .perform(LoadCatalog(accountID: "gh", command: "sleep 30 & echo $! > '\(file)'; wait")), accounts: [Self.account])
            var child: pid_t?
            _ = waitUntil {
                child = (try? String(contentsOfFile: file, encoding: .utf8)).flatMap {
                    Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
                }
                return child != nil
            }
            let pid = try #require(child)
            worker.finishStoreWork()
            #expect(waitUntil { kill(pid, 0) != 0 }, "the source's child ended with Perch")
            guard case .failed("gh", let reason)? = outcome(of: worker)?.taken(CatalogLoaded.self)?.value else {
                Issue.record("expected the killed source to be reported")
                return
            }
            #expect(reason.contains("signal 9"))
        }

        @Test("a preview gets the item in environment variables, never in the shell text; its outcome goes to the pane that asked")
        func previewEnvironment() throws {
            let worker = EffectWorker(store: nil, configPath: nil)
            let item = CatalogItem(id: "x'; touch /tmp/perch-pwned-$$; '", title: "$(echo nope) `id`", detail: "", kind: "")
            worker.perform(
                .asked(
                    by: .pane(.catalog),
                    .perform(
                        PreviewCatalogItem(
                            accountID: "gh", command: #"printf '%s|%s|%s' "$PERCH_ITEM_ID" "$PERCH_ITEM_TITLE" "$PERCH_ACCOUNT_NAME""#,
                            item: item))),
                accounts: [Self.account])
            let event = outcome(of: worker)
            #expect(
                event
                    == .outcome(
                        AnyOutcome(CatalogPreviewed(accountID: "gh", itemID: item.id, .text(item.id + "|" + item.title + "|GitHub"))),
                        for: .pane(.catalog)))
        }

        @Test("a failing preview says why in the card")
        func previewFailure() throws {
            let worker = EffectWorker(store: nil, configPath: nil)
            let item = CatalogItem(id: "a", title: "a", detail: "", kind: "")
            worker.perform(
                .perform(PreviewCatalogItem(accountID: "gh", command: "echo boom >&2; exit 2", item: item)), accounts: [Self.account])
            guard let previewed = outcome(of: worker)?.taken(CatalogPreviewed.self)?.value,
                previewed.accountID == "gh", previewed.itemID == "a", case .failed(let reason) = previewed.preview
            else {
                Issue.record("expected a failed preview")
                return
            }
            #expect(reason.contains("exited with status 2") && reason.contains("boom"))
        }

        @Test("open round trip: the interface is suspended, the command runs with the item, the terminal is taken back")
        func openRoundTrip() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("perch-open-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let account = Account(
                id: "gh", name: "GitHub",
                catalog: CatalogCommands(command: "printf 'one\\ntwo\\n'", open: #"printf '%s' "$PERCH_ITEM_ID" > "$OUT"; exit 3"#))
            setenv("OUT", folder + "/opened", 1)
            defer { unsetenv("OUT") }
            var ends: [Int32] = [0, 0]
            _ = pipe(&ends)
            let backend = RecordingBackend(size: Size(width: 80, height: 24), inputDescriptor: ends[0])
            let loop = PerchRunner(
                app: TabApp.perch(accounts: [account], saved: SavedState(currentAccount: "gh"), size: backend.size), backend: backend,
                store: nil,
                gestures: .init())
            nonisolated(unsafe) let running = loop
            let done = DispatchSemaphore(value: 0)
            Thread {
                _ = running.run()
                done.signal()
            }.start()
            func type(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } }
            type("2")
            // Wait for the list, then open the second item from its menu.
            #expect(waitUntil { backend.frames.last?.text.contains("two") == true })
            type("jm")
            #expect(waitUntil { backend.frames.last?.text.contains("Copy id") == true })
            type("\r")
            #expect(waitUntil { backend.frames.last?.text.contains("catalog.open for GitHub exited with status 3") == true })
            type("q")
            #expect(done.wait(timeout: .now() + 10) == .success)
            #expect(try String(contentsOfFile: folder + "/opened", encoding: .utf8) == "two")
            let suspend = backend.calls.firstIndex(of: "suspend")
            #expect(suspend.map { backend.calls.dropFirst($0 + 1).first == "resume" } == true, "the interface was suspended, then resumed")
            #expect(backend.frames.last?.text.contains("exited with status 3") == true)
            close(ends[0])
            close(ends[1])
        }
    }
}

extension Account {
    /// This account listing what `command` prints.
    func withCommand(_ command: String) -> Account {
        var copy = self
        copy.catalog = CatalogCommands(command: command)
        return copy
    }
}
