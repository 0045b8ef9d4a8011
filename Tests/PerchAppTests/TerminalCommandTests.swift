import Foundation
import Glibc
import PerchIdentities
import Testing

@testable import PerchApp

/// The one interactive-child sequence (the editor, the Catalog's open command) and the one
/// child waiter and pipe drain under every child whose output Perch reads.
@Suite("A child on Perch's terminal, waited for; a captured child's pipes drained", .serialized)
struct TerminalCommandTests {
    @Test(
        "how a child ended reads as a shell says it",
        arguments: [
            ("exit 0", TerminalCommand.Ended.ended(.exited(0)), Int32(0), nil),
            ("exit 3", .ended(.exited(3)), 3, "exited with status 3"),
            ("kill -9 $$", .ended(.signalled(SIGKILL)), 128 + SIGKILL, "was ended by signal 9"),
        ] as [(String, TerminalCommand.Ended, Int32, String?)])
    func endings(_ script: String, _ ended: TerminalCommand.Ended, _ status: Int32, _ failure: String?) {
        let run = TerminalCommand.run(script, variables: [])
        #expect(run == ended)
        #expect(run.shellStatus == status)
        #expect(run.failure == failure)
    }

    @Test("the editor gets the path as one argument, whatever it holds, and the variables reach a command")
    func editorArgument() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("perch-editor-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/a b'c $HOME.json"
        // The editor setting is shell text: an option after the program is kept.
        #expect(TerminalCommand.edit(path, with: "printf '%s' edited -- >") == .ended(.exited(0)))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "edited--")
        let out = folder + "/out"
        #expect(
            TerminalCommand.run(#"printf '%s' "$PERCH_X" > "$1""#, arguments: [out], variables: [("PERCH_X", "y z")]) == .ended(.exited(0)))
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "y z")
    }

    @Test("SIGINT is ignored while the child runs and given back after")
    func interruptIgnored() {
        let before = signal(SIGINT, SIG_DFL)
        defer { signal(SIGINT, before) }
        // The child (in Perch's process group) sends SIGINT to its parent: Perch must live on.
        #expect(TerminalCommand.run("kill -INT $PPID; exit 0", variables: []) == .ended(.exited(0)))
        let now = signal(SIGINT, SIG_DFL)
        #expect(now == nil, "SIG_DFL again after the child ended")
    }

    @Test(
        "a wait status decodes as waitpid's macros do",
        arguments: [(0, ChildEnd.exited(0)), (3 << 8, .exited(3)), (9, .signalled(9)), (15 | 0x80, .signalled(15))] as [(Int32, ChildEnd)])
    func waitStatus(_ status: Int32, _ end: ChildEnd) {
        #expect(ChildEnd(waitStatus: status) == end)
    }

    @Test("looking at a child that still runs says nothing; waiting for it twice is an error")
    func waitNonBlocking() throws {
        let spawned = try ProcessSpawn.spawn("/bin/sh", ["sh", "-c", "exec sleep 30"], environment: [], attachment: .captured)
        defer { for fd in [spawned.stdout, spawned.stderr] { close(fd) } }
        #expect(try ChildEnd.wait(for: spawned.pid, blocking: false) == nil)
        kill(spawned.pid, SIGTERM)
        #expect(try ChildEnd.wait(for: spawned.pid) == .signalled(SIGTERM))
        #expect(throws: SpawnError(code: ECHILD)) { try ChildEnd.wait(for: spawned.pid) }
    }

    @Test("a captured child's stdout is kept up to its limit and the end of its stderr, past the pipes' 64 KiB")
    func drainLimits() throws {
        let spawned = try ProcessSpawn.spawn(
            "/bin/sh", ["sh", "-c", "head -c 200000 /dev/zero; i=0; while [ $i -lt 3000 ]; do echo err $i >&2; i=$((i+1)); done"],
            environment: ["PATH=/usr/bin:/bin"], attachment: .captured)
        let collected = ProcessSpawn.collect(spawned, timeout: 10_000, stdoutLimit: 100_000, stderrTail: 16)
        #expect(collected.ending == .exited(0))
        #expect(collected.stdout.count == 100_000)
        #expect(String(decoding: collected.stderr, as: UTF8.self) == "r 2998\nerr 2999\n")
    }

    @Test("the drain leaves alone a descriptor it no longer holds")
    func drainOwnOnly() throws {
        let spawned = try ProcessSpawn.spawn("/bin/sh", ["sh", "-c", "echo out"], environment: [], attachment: .captured)
        var pipes = PipeDrain(spawned, stdoutLimit: 100, stderrTail: 100)
        #expect(ProcessSpawn.collect(spawned.pid, draining: &pipes, timeout: 5_000) == .exited(0))
        #expect(pipes.open.isEmpty && pipes.stdout == Array("out\n".utf8))
        var other: [Int32] = [0, 0]
        #expect(pipe(&other) == 0)
        defer { for fd in other { close(fd) } }
        // A byte waits on it, and a read would not block: a drain of it would take the byte.
        _ = fcntl(other[0], F_SETFL, fcntl(other[0], F_GETFL) | O_NONBLOCK)
        var byte: UInt8 = 7
        #expect(write(other[1], &byte, 1) == 1)
        pipes.drain(other[0])
        pipes.drain(spawned.stdout)
        #expect(fcntl(other[0], F_GETFD) != -1 && fcntl(other[1], F_GETFD) != -1)
        byte = 0
        #expect(read(other[0], &byte, 1) == 1 && byte == 7, "the byte is still there")
    }
}
