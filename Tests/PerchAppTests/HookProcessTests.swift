import Foundation
import Glibc
import PerchDomain
import PerchInterface
import PerchKitLoop
import PerchTestSupport
import Testing

@testable import PerchApp

/// Runs `command` as an interface hook and waits for its end as the effect worker does.
private func runCaptured(_ command: String, account: Account = Account(id: "work", name: "Work", handle: "@w"), timeout: Int64 = 5_000)
    throws -> HookResult
{
    try HookProcess.start(command, account: account, previous: "oss", now: MonotonicClock.now(), timeout: timeout).get().waitForEnd()
}

@Suite("Hooks")
struct HookProcessTests {
    @Test("an interface hook gets the PERCH_ variables and stdin at end of file")
    func environment() throws {
        let result = try runCaptured(
            #"read line; test -z "$line" || exit 9; echo "$PERCH_ACCOUNT_ID|$PERCH_ACCOUNT_NAME|$PERCH_ACCOUNT_HANDLE|$PERCH_PREVIOUS_ID" >&2; exit 1"#
        )
        #expect(result == .failed(status: 1, lastLine: "work|Work|@w|oss"))
    }

    @Test("success, failure with the last stderr line, and a signal are told apart")
    func results() throws {
        #expect(try runCaptured("echo lots of output; echo warning >&2") == .succeeded)
        #expect(
            try runCaptured("echo first >&2; echo; echo '  last line  ' >&2; echo >&2; exit 4")
                == .failed(status: 4, lastLine: "  last line  "))
        #expect(try runCaptured("kill -TERM $$") == .signalled(SIGTERM, lastLine: nil))
        #expect(HookResult.failed(status: 4, lastLine: "no").failure == "exited with status 4: no")
    }

    @Test("a hook past its timeout is killed and reported as timed out")
    func timeout() throws {
        let start = MonotonicClock.now()
        let result = try runCaptured("echo started >&2; sleep 30", timeout: 300)
        let elapsed = MonotonicClock.now() - start
        #expect(result == .timedOut(milliseconds: 300, lastLine: "started"))
        #expect(elapsed >= 300 && elapsed < 5_000, "\(elapsed) ms")
        #expect(result.failure == "timed out after 300 ms and was killed: started")
        #expect(HookResult.timedOut(milliseconds: 10_000, lastLine: nil).failure == "timed out after 10 s and was killed")
    }

    @Test("an interface hook runs in a session of its own, with no controlling terminal")
    func ownSession() throws {
        // Field 6 of /proc/PID/stat is the session id; a session leader's equals its pid.
        let result = try runCaptured(#"set -- $(cat /proc/$$/stat); echo "$1 $6" >&2; exit 1"#)
        guard case .failed(_, let line?) = result else {
            Issue.record("unexpected \(result)")
            return
        }
        let fields = line.split(separator: " ")
        #expect(fields.count == 2 && fields[0] == fields[1], "pid and session id: \(line)")
    }

    @Test("a flood of output cannot block the hook: the pipes are drained, and only the end of stderr is kept")
    func floodOfOutput() throws {
        let result = try runCaptured("i=0; while [ $i -lt 20000 ]; do echo line $i; echo err $i >&2; i=$((i+1)); done; exit 2")
        #expect(result == .failed(status: 2, lastLine: "err 19999"))
    }

    // Bug: the event loop drained a hook's pipe after reaping had closed it, in the same turn, so
    // the descriptor was closed twice (and the second close could hit a file opened meanwhile).
    // The pipes are now the one drain's (PipeDrain), which closes each once.
    @Test("a hook's pipes are closed once: asked again for its end, it closes nothing")
    func pipesClosedOnce() throws {
        let hook = try HookProcess.start(
            "echo out; echo err >&2", account: Account(id: "w", name: "W"), previous: nil, now: MonotonicClock.now()
        )
        .get()
        #expect(hook.waitForEnd() == .succeeded)
        // New pipes take the lowest free numbers: usually those the hook just closed (another
        // test's thread may take one first; the files opened here must survive either way).
        var reused: [Int32] = [0, 0, 0, 0]
        #expect(pipe(&reused) == 0)
        #expect(pipe(&reused[2]) == 0)
        defer { for fd in reused { close(fd) } }
        #expect(hook.waitForEnd() == .succeeded, "asked again, it closes nothing")
        for fd in reused { #expect(fcntl(fd, F_GETFD) != -1, "descriptor \(fd) was closed by the hook") }
    }

    @Test("a command-line hook past its timeout (a parameter: 300 ms here, 10 s by default) is killed with its children")
    func commandLineTimeout() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("perch-hook-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("child.pid").path
        setenv("PERCH_TEST_OUT", out, 1)
        defer { unsetenv("PERCH_TEST_OUT") }
        let start = MonotonicClock.now()
        let result = HookProcess.run(
            #"sleep 60 & echo $! > "$PERCH_TEST_OUT"; wait"#, account: Account(id: "a", name: "A"), previous: nil, timeout: 300)
        #expect(result == .timedOut(milliseconds: 300, lastLine: nil))
        #expect(MonotonicClock.now() - start < 5_000)
        let child = try #require(pid_t(try String(contentsOfFile: out, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(waitUntil { kill(child, 0) != 0 }, "the hook's background child \(child) was killed too")
    }
}
