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
@testable import PerchKitLoop
@testable import PerchKitTerminal

/// The loop with its effect worker: slow work off the UI thread, outcomes back as events.
extension LoopSuites {
    @Suite("Effects and their outcomes through the loop", .serialized)
    struct EffectOutcomeLoopTests {
        /// A scratch folder, removed by the caller.
        func scratch() -> String {
            LoopSuites.scratchFolder("effects")
        }

        /// A loop at 80×24 reading from a pipe; returns it, its backend and the pipe's write end.
        func makeLoop(
            accounts: [Account] = Account.samples, store: StateStore?, watcher: StateWatcher? = nil, hookTimeout: Int64 = 10_000,
            lockTimeout: Int = 10_000, poller: Poller = SystemPoller()
        ) -> (PerchRunner, RecordingBackend, Int32) {
            var ends: [Int32] = [0, 0]
            _ = pipe(&ends)
            let backend = RecordingBackend(size: Size(width: 80, height: 24), inputDescriptor: ends[0])
            let loop = PerchRunner(
                app: TabApp.perch(accounts: accounts, size: backend.size), backend: backend, store: store, gestures: .init(),
                watcher: watcher, hookTimeoutMilliseconds: hookTimeout, lockTimeoutMilliseconds: lockTimeout, poller: poller)
            return (loop, backend, ends[1])
        }

        /// Runs `loop` on a thread; returns a function that waits for its exit status.
        func start(_ loop: PerchRunner) -> () -> Int32? {
            let status = Mutex<Int32?>(nil)
            let done = DispatchSemaphore(value: 0)
            // The loop runs on its own thread while the test types and reads the recorded frames
            // (RecordingBackend's frames are behind a lock); the test touches nothing else of it.
            nonisolated(unsafe) let loop = loop
            Thread {
                let result = loop.run()
                status.withLock { $0 = result }
                done.signal()
            }.start()
            return {
                guard done.wait(timeout: .now() + 10) == .success else { return nil }
                return status.withLock { $0 }
            }
        }

        /// A store in a scratch folder whose lock this process holds (as another process would),
        /// the lock's descriptor (closing it releases the lock), and the folder to remove.
        func storeWithHeldLock() -> (store: StateStore, lock: Int32, folder: String) {
            let folder = scratch()
            let store = StateStore(path: folder + "/state.json")
            let lock = open(store.lockPath, O_RDWR | O_CREAT, 0o600)
            #expect(flock(lock, LOCK_EX) == 0)
            return (store, lock, folder)
        }

        func type(_ text: String, into fd: Int32) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }

        // Bug: with another process holding state.json.lock, the whole interface froze for up to 2 s.
        @Test(
            "a held state lock freezes nothing: keys are answered while the switch waits, shown as pending; it lands once the lock is free")
        func heldLockDoesNotFreeze() throws {
            let (store, lock, folder) = storeWithHeldLock()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let (loop, backend, input) = makeLoop(store: store)
            let finished = start(loop)
            type("a\u{1B}[B\r", into: input)
            #expect(
                waitUntil { backend.frames.last?.text.contains("waiting for another process to release the state file's lock") == true })
            #expect(backend.frames.last?.text.contains("Switching to Personal…") == true)
            // The interface answers while the store waits.
            type("4", into: input)
            #expect(waitUntil(timeout: 1) { backend.frames.last?.text.contains("Long-press duration") == true }, "Settings answered")
            type("1", into: input)
            #expect(waitUntil(timeout: 1) { backend.frames.last?.text.contains("Switching to Personal…") == true })
            flock(lock, LOCK_UN)
            close(lock)
            #expect(waitUntil { backend.frames.last?.text.contains("● Personal") == true }, "the outcome arrived as an event")
            #expect(try store.load().state.currentAccount == "personal")
            type("q", into: input)
            #expect(finished() == 0)
            close(input)
        }

        // Bug: a state lock held by another process froze the interface, deaf to q and SIGTERM.
        @Test("a lock that stays held gives up after the bounded wait: the switch fails with the reason, and the interface goes on")
        func heldLockIsBounded() throws {
            let (store, lock, folder) = storeWithHeldLock()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            defer { close(lock) }
            let (loop, backend, input) = makeLoop(store: store, lockTimeout: 300)
            let finished = start(loop)
            type("a\u{1B}[B\r", into: input)
            #expect(waitUntil { backend.frames.last?.text.contains("Could not switch to Personal") == true })
            #expect(backend.frames.last?.text.contains("locked by another process (waited 300 ms)") == true, "the banner's wrapped reason")
            #expect(backend.frames.last?.text.contains("Switching") == false)
            type("2", into: input)
            #expect(waitUntil { backend.frames.last?.text.contains("Catalog ·") == true })
            type("q", into: input)
            #expect(finished() == 0)
            close(input)
        }

        @Test(
            "quitting while a switch waits for another process's lock exits at once; that switch is not saved (it was never shown as done)")
        func quitWhileWaitingForLock() throws {
            let (store, lock, folder) = storeWithHeldLock()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            defer { close(lock) }
            let (loop, backend, input) = makeLoop(store: store)
            let finished = start(loop)
            type("a\u{1B}[B\r", into: input)
            #expect(waitUntil { backend.frames.last?.text.contains("waiting for another process") == true })
            let quit = Date()
            type("q", into: input)
            #expect(finished() == 0)
            #expect(Date().timeIntervalSince(quit) < 2, "not held up by the lock")
            #expect(access(store.path, F_OK) != 0, "nothing was written")
            close(input)
        }

        // Bug: with a state path whose save fails, Overview showed the switch and counted it.
        @Test("a save that fails (the state path is a folder) leaves the screen as it was, with the reason in the banner")
        func failedSave() throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try FileManager.default.createDirectory(atPath: folder + "/state.json", withIntermediateDirectories: true)
            let (loop, backend, input) = makeLoop(store: StateStore(path: folder + "/state.json"))
            let finished = start(loop)
            type("a\u{1B}[B\r", into: input)
            #expect(waitUntil { backend.frames.last?.text.contains("Could not switch to Personal") == true })
            let text = backend.frames.last?.text ?? ""
            #expect(text.contains("No account chosen yet."))
            #expect(text.contains("Switches so far: 0"))
            #expect(!backend.frames.contains { $0.text.contains("● Personal") }, "no frame ever showed the switch")
            type("q", into: input)
            #expect(finished() == 0)
            close(input)
        }

        @Test("Perch's own save does not make it read the state file again; a save by another process does")
        func ownWritesAreNotReread() throws {
            let folder = scratch()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let store = StateStore(path: folder + "/state.json")
            let watcher = try #require(StateWatcher(watching: store.path))
            let (loop, backend, input) = makeLoop(store: store, watcher: watcher)
            let finished = start(loop)
            type("a\u{1B}[B\r", into: input)
            #expect(waitUntil { backend.frames.last?.text.contains("● Personal") == true })
            #expect(waitUntil { loop.worker.reloads.withLock { $0.skipped } >= 1 }, "the watch fired for the own save")
            #expect(loop.worker.reloads.withLock { $0.read } == 0)
            _ = try StateStore(path: store.path).recordSwitch(to: "oss", source: .cli)
            #expect(waitUntil { backend.frames.last?.text.contains("Now on Open Source: switched outside this window.") == true })
            #expect(loop.worker.reloads.withLock { $0.read } >= 1)
            type("q", into: input)
            #expect(finished() == 0)
            close(input)
        }

        @Test("a hook's outcome comes back as an event: one over its (short) timeout is killed and named in the banner")
        func hookTimeoutThroughLoop() throws {
            let accounts = [Account(id: "a", name: "Alpha"), Account(id: "b", name: "Beta", onSwitch: "sleep 5")]
            let (loop, backend, input) = makeLoop(accounts: accounts, store: nil, hookTimeout: 200)
            let finished = start(loop)
            type("a\u{1B}[B\r", into: input)
            #expect(
                waitUntil { backend.frames.last?.text.contains("onSwitch hook for Beta timed out after 200 ms and was killed") == true })
            type("q", into: input)
            #expect(finished() == 0)
            close(input)
        }

        // Bug: a poll(2) error ended the loop with status 0, as if the person had quit.
        @Test("a failed poll ends the loop with status 1 and a reason, and the terminal is restored")
        func pollFailure() {
            let poller = VirtualPoller()
            poller.failure = EBADF
            let (loop, backend, input) = makeLoop(store: nil, poller: poller)
            defer { close(input) }
            #expect(loop.run() == PerchRunner.pollFailedStatus)
            #expect(loop.failure?.contains("cannot wait for input") == true)
            #expect(backend.calls.last == "shutdown")
        }

        @Test("on a virtual clock: a lone Esc closes the sheet after its 25 ms timeout and q 200 ms later quits; no real time passes")
        func virtualClock() {
            let poller = VirtualPoller(start: 1_000)
            let (loop, backend, input) = makeLoop(store: nil, poller: poller)
            defer { close(input) }
            type("a\u{1B}", into: input)
            poller.at(1_200) { self.type("q", into: input) }
            let started = Date()
            #expect(loop.run() == 0)
            #expect(backend.frames.contains { $0.text.contains("Switch account") }, "the sheet was up")
            #expect(loop.app.presented.isEmpty, "the Esc, alone, closed it")
            #expect(poller.timeouts.contains(25), "the loop waited for the Esc timeout: \(poller.timeouts)")
            // q at 1200 quits; the background colour's query (OSC 11), asked after the first frame
            // at 1000 and never answered here, is waited for until its 500 ms deadline.
            #expect(poller.now() == 1_500)
            #expect(Date().timeIntervalSince(started) < 2)
        }
    }
}

/// The signal self-pipe's own faults.
extension LoopSuites {
    @Suite("Signal pipe", .serialized)
    struct SignalPipeTests {
        // Bug: uninstall left both ends of the pipe open.
        @Test("uninstall closes both ends of the pipe")
        func uninstallCloses() {
            SignalPipe.install()
            let ends = [SignalPipe.readEnd, SignalPipe.writeEnd]
            #expect(ends.allSatisfy { fcntl($0, F_GETFD) != -1 })
            SignalPipe.uninstall()
            #expect(ends.allSatisfy { fcntl($0, F_GETFD) == -1 }, "still open: \(ends)")
            #expect(SignalPipe.readEnd == -1 && SignalPipe.writeEnd == -1)
        }

        // Bug: the handler did not save errno, so a write(2) to a full pipe left EAGAIN for the code it interrupted.
        @Test("the handler leaves errno as it found it, even when its write to a full pipe fails")
        func handlerKeepsErrno() {
            SignalPipe.install()
            defer { SignalPipe.uninstall() }
            // Fill the pipe so that the handler's write fails with EAGAIN (with SIGWINCH bytes: a
            // loop of another suite polling the pipe meanwhile only lays out again).
            var byte = UInt8(SIGWINCH)
            while write(SignalPipe.writeEnd, &byte, 1) == 1 {}
            errno = ENOTTY
            raise(SIGWINCH)
            #expect(errno == ENOTTY)
        }
    }
}

/// ncurses is told the same capped size as the frames.
@Suite("Window size")
struct WindowSizeTests {
    // Bug: resizeterm was given the uncapped window size (up to 65535 × 65535).
    @Test("resizeterm's size is capped at the largest frame", arguments: [(Int32(65535), Int32(65535)), (24, 80), (600, 2000)])
    func capped(rows: Int32, columns: Int32) {
        let size = NcursesBackend.cappedWindowSize(rows: rows, columns: columns)
        #expect(size.rows == min(rows, Int32(Layout.maximumSize.height)))
        #expect(size.columns == min(columns, Int32(Layout.maximumSize.width)))
    }
}

/// The pointer goes to what was drawn.
extension LoopSuites {
    @Suite("Hit-testing the frame drawn", .serialized)
    struct DrawnFrameHitTests {
        // Bug: a click on a sheet still sliding away went to the Catalog row drawn underneath it.
        @Test("a click on a sheet that is sliding away is swallowed: the Catalog underneath does not move")
        func slidingSheetOwnsItsCells() {
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            defer {
                close(ends[0])
                close(ends[1])
            }
            let input = ends[1]
            let poller = VirtualPoller(start: 1_000)
            let backend = RecordingBackend(size: Size(width: 80, height: 24), inputDescriptor: ends[0])
            let loop = PerchRunner(
                app: TabApp.perch(accounts: Account.samples, size: backend.size, reduceMotion: false), backend: backend, store: nil,
                gestures: .init(), poller: poller)
            func send(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { write(input, $0.baseAddress, $0.count) } }
            send("2a")
            poller.at(1_500) { send("\u{1B}") }
            // 20 ms after the Esc took effect (25 ms later): the sheet, sliding down, still covers row 21.
            poller.at(1_545) { send("\u{1B}[<0;11;22M\u{1B}[<0;11;22m") }
            poller.at(1_900) { send("q") }
            #expect(loop.run() == 0)
            let clickFrame = backend.frames.last { $0.text.contains("━━━━━━") }
            #expect(clickFrame.map { !$0.lines[21].contains("Catalog") } == true)
            #expect(loop.app.selectedTab == .catalog)
            #expect(loop.app.catalog.cursor == 0, "the click did not reach the Catalog row under the sheet")
            #expect(loop.app.presented.isEmpty)
        }
    }
}
