import Foundation
import PerchDomain
import PerchInterface
import Testing

@testable import PerchStore

private func contents(of folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
}

private func read(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
}

@Suite("StateStore")
struct StateStoreTests {
    // Bug: a state that could not be encoded was skipped silently, and the switch reported as saved.
    @Test("a state that cannot be encoded is an error: the switch is not reported, the file is untouched")
    func encodingFailure() throws {
        struct Refused: Error {}
        try withTemporaryFolder { folder in
            let path = folder + "/state.json"
            _ = try StateStore(path: path).recordSwitch(to: "work", source: .cli)
            let before = try read(path)
            let store = StateStore(path: path, encode: { _ in throw Refused() })
            #expect(throws: StateError.self) { try store.recordSwitch(to: "oss", source: .tui) }
            #expect(try read(path) == before)
            #expect(try StateStore(path: path).load().state.currentAccount == "work")
        }
    }

    // Bug: a config passed as --state was taken for a state file (it has a version) and replaced, accounts and all.
    @Test("a config given as the state file is neither read as state nor changed by a switch")
    func configIsNotState() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/accounts.json"
            let config = #"{"version": 1, "accounts": [{"id": "work", "name": "Work"}]}"# + "\n"
            try config.write(toFile: path, atomically: true, encoding: .utf8)
            let store = StateStore(path: path)
            #expect(throws: StateError.notState(path: path)) { try store.recordSwitch(to: "work", source: .cli) }
            #expect(throws: StateError.notState(path: path)) { try store.load() }
            #expect(throws: StateError.notState(path: path)) { try store.peek() }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == config)
            #expect(
                try contents(of: folder).filter { $0 != "accounts.json.lock" } == ["accounts.json"],
                "nothing set aside or written beside it")
        }
    }

    // Bug: a switch that waited for another process's lock was dated in the history when it was asked for, not when saved.
    @Test("a switch that waits for the lock is dated when it is saved")
    func historyTimeIsSaveTime() throws {
        try withTemporaryFolder { folder in
            let store = StateStore(path: folder + "/state.json")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let lock = open(store.lockPath, O_RDWR | O_CREAT, 0o600)
            defer { close(lock) }
            #expect(flock(lock, LOCK_EX) == 0)
            let asked = Date()
            // The other holder lets go after 1.2 s of waiting.
            _ = try store.recordSwitch(to: "work", source: .cli) { waited in
                if waited >= 1_200 { flock(lock, LOCK_UN) }
                return true
            }
            let line = try #require(String(contentsOfFile: store.history.path, encoding: .utf8).split(separator: "\n").last)
            let time = try #require(line.split(separator: "\"").drop { $0 != "time" }.dropFirst(2).first)
            let saved = try #require(try? Date(String(time), strategy: .iso8601))
            #expect(saved.timeIntervalSince1970 >= asked.timeIntervalSince1970.rounded(.down) + 1, "\(line)")
        }
    }

    @Test("a missing file loads the default state without a warning")
    func missingFile() throws {
        try withTemporaryFolder { folder in
            let loaded = try StateStore(path: folder + "/state.json").load()
            #expect(loaded.state == SavedState())
            #expect(loaded.warning == nil)
            #expect(try contents(of: folder).isEmpty, "loading must not create files")
        }
    }

    @Test("recording two switches round-trips through the file")
    func roundTrip() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/perch/state.json"  // the folder does not exist yet
            let store = StateStore(path: path)
            let first = try store.recordSwitch(to: "work", source: .tui).state
            #expect(first.switchCount == 1)
            let second = try store.recordSwitch(to: "oss", source: .tui).state
            #expect(second.switchCount == 2)
            #expect(second.switchesPerAccount == ["work": 1, "oss": 1])
            #expect(second.currentAccount == "oss")

            // The file is valid JSON holding the same state.
            let data = try read(path)
            let decoded = try JSONDecoder().decode(SavedState.self, from: data)
            #expect(decoded == second)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object["switchCount"] as? Int == 2)
            #expect(object["currentAccount"] as? String == "oss")
            #expect(object["version"] as? Int == SavedState.currentVersion)

            // A fresh store (another process) sees it.
            let loaded = try StateStore(path: path).load()
            #expect(loaded.state == second)
            #expect(loaded.warning == nil)
        }
    }

    @Test("switches to different accounts are counted per account")
    func perAccount() throws {
        try withTemporaryFolder { folder in
            let store = StateStore(path: folder + "/state.json")
            _ = try store.recordSwitch(to: "work", source: .tui).state
            _ = try store.recordSwitch(to: "oss", source: .tui).state
            let last = try store.recordSwitch(to: "work", source: .tui).state
            #expect(last.currentAccount == "work")
            #expect(last.switchCount == 3)
            #expect(last.switchesPerAccount == ["work": 2, "oss": 1])
            #expect(try store.history.read().map(\.account) == ["work", "oss", "work"])
            #expect(try store.history.read().map(\.previous) == [nil, "work", "oss"])
            #expect(try store.load().state == last)
        }
    }

    @Test("a record reads what another writer saved in between")
    func readModifyWrite() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/state.json"
            _ = try StateStore(path: path).recordSwitch(to: "a", source: .tui).state
            try StateStore(path: path).save(SavedState(currentAccount: "b", switchCount: 10, switchesPerAccount: ["b": 10]))
            let next = try StateStore(path: path).recordSwitch(to: "a", source: .tui).state
            #expect(next.switchCount == 11)
            #expect(next.switchesPerAccount == ["b": 10, "a": 1])
        }
    }

    @Test(
        "a corrupt file is kept as state.json.corrupt-* and load returns defaults with a warning",
        arguments: ["not json at all", "{\"version\": 1, \"switchCount\": \"many\"}", "{"])
    func corruptFile(_ garbage: String) throws {
        try withTemporaryFolder { folder in
            let path = folder + "/state.json"
            try Data(garbage.utf8).write(to: URL(fileURLWithPath: path))
            let loaded = try StateStore(path: path).load()
            #expect(loaded.state == SavedState())
            let warning = try #require(loaded.warning)
            let names = try contents(of: folder)
            let copies = names.filter { $0.hasPrefix("state.json.corrupt-") }
            #expect(copies.count == 1, "\(names)")
            let copy = try #require(copies.first)
            #expect(try read(folder + "/" + copy) == Data(garbage.utf8), "the copy holds the original bytes")
            #expect(warning.contains(copy), "warning names the copy: \(warning)")
            #expect(!names.contains { $0.contains(".tmp-") }, "\(names)")
        }
    }

    @Test("a switch after a corrupt file starts afresh and writes a valid file")
    func switchAfterCorrupt() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/state.json"
            try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
            let next = try StateStore(path: path).recordSwitch(to: "work", source: .tui).state
            #expect(next.currentAccount == "work")
            #expect(next.switchCount == 1)
            #expect(try StateStore(path: path).history.read().count == 1)
            #expect(try JSONDecoder().decode(SavedState.self, from: read(path)) == next)
        }
    }

    @Test("a switch to the account that is current in the file writes and counts nothing; a stale one is recorded")
    func switchToCurrent() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/state.json"
            let store = StateStore(path: path)
            _ = try store.recordSwitch(to: "work", source: .tui).state
            let before = try read(path)
            #expect(try store.recordSwitch(to: "work", source: .tui).state.switchCount == 1)
            #expect(try read(path) == before)
            // Another instance switched meanwhile; a pick of "work" from a stale view is recorded.
            _ = try store.recordSwitch(to: "oss", source: .tui).state
            let after = try store.recordSwitch(to: "work", source: .tui).state
            #expect(after.currentAccount == "work")
            #expect(after.switchCount == 3)
        }
    }

    // Bug: a state file that existed but could not be read was replaced by a fresh one, losing its counts.
    @Test("a state path that cannot be read is never overwritten by a switch")
    func unreadableIsNotOverwritten() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/state.json"
            #expect(mkfifo(path, 0o600) == 0)
            let store = StateStore(path: path)
            #expect(throws: StateError.self) { try store.load() }
            #expect(throws: StateError.self) { try store.recordSwitch(to: "work", source: .tui).state }
            var info = stat()
            #expect(lstat(path, &info) == 0)
            #expect(info.st_mode & S_IFMT == S_IFIFO, "the unreadable file is still there, untouched")
        }
    }

    // Bug: a corrupt file was copied aside at start-up and again at the first switch.
    @Test("a corrupt file is set aside once, however many loads and switches follow")
    func corruptSetAsideOnce() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/state.json"
            try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
            let store = StateStore(path: path)
            _ = try store.load()
            _ = try store.recordSwitch(to: "work", source: .tui).state
            _ = try store.load()
            _ = try store.recordSwitch(to: "oss", source: .tui).state
            let copies = try contents(of: folder).filter { $0.hasPrefix("state.json.corrupt-") }
            #expect(copies.count == 1, "\(copies)")
            #expect(try store.load().state.switchCount == 2)
        }
    }

    @Test("a file from a newer format version is read but never rewritten")
    func newerVersionIsNotRewritten() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/state.json"
            let newer = #"{"version": 99, "currentAccount": "work", "switchCount": 5, "switchesPerAccount": {"work": 5}, "more": true}"#
            try Data(newer.utf8).write(to: URL(fileURLWithPath: path))
            let store = StateStore(path: path)
            let loaded = try store.load()
            #expect(loaded.state.switchCount == 5)
            #expect(loaded.warning?.contains("newer") == true)
            #expect(throws: StateError.newerVersion(path: path, version: 99)) { try store.recordSwitch(to: "oss", source: .tui).state }
            #expect(try read(path) == Data(newer.utf8))
        }
    }

    // Bug: a count at Int.max in the state file made the next switch trap (exit 132).
    @Test("counts saturate instead of overflowing, and negative counts read as 0")
    func countsStayInRange() throws {
        let huge = SavedState(currentAccount: "work", switchCount: Int.max, switchesPerAccount: ["work": Int.max])
        let next = huge.recordingSwitch(to: "work")
        #expect(next.switchCount == Int.max)
        #expect(next.switchesPerAccount["work"] == Int.max)
        try withTemporaryFolder { folder in
            let path = folder + "/state.json"
            let negative = #"{"version": 1, "currentAccount": "work", "switchCount": -3, "switchesPerAccount": {"work": -5}}"#
            try Data(negative.utf8).write(to: URL(fileURLWithPath: path))
            let state = try StateStore(path: path).load().state
            #expect(state.switchCount == 0)
            #expect(state.switchesPerAccount["work"] == 0)
            // Bug: a count past Int.max made the whole file "could not be parsed" and set it aside.
            let tooBig =
                #"{"version": 1, "currentAccount": "work", "switchCount": 9223372036854775808, "switchesPerAccount": {"work": 1e30}}"#
            try Data(tooBig.utf8).write(to: URL(fileURLWithPath: path))
            let loaded = try StateStore(path: path).load()
            #expect(loaded.warning == nil)
            #expect(loaded.state.switchCount == Int.max)
            #expect(loaded.state.switchesPerAccount["work"] == Int.max)
        }
    }

    // Bug: saving replaced a symbolic link at the state path with a regular file.
    @Test("a symbolic link at the state path is kept and its target updated")
    func symbolicLinkKept() throws {
        try withTemporaryFolder { folder in
            let target = folder + "/real.json"
            let link = folder + "/state.json"
            #expect(symlink(target, link) == 0)
            _ = try StateStore(path: link).recordSwitch(to: "work", source: .tui).state
            var info = stat()
            #expect(lstat(link, &info) == 0)
            #expect(info.st_mode & S_IFMT == S_IFLNK)
            #expect(try JSONDecoder().decode(SavedState.self, from: read(target)).currentAccount == "work")
        }
    }

    @Test("writeAtomically leaves no temporary files behind and replaces the content")
    func writeAtomicallyNoLeftovers() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/state.json"
            for i in 0..<5 {
                try FileSystem.writeAtomically(Array("content \(i)".utf8), to: path)
            }
            #expect(try contents(of: folder) == ["state.json"])
            #expect(try read(path) == Data("content 4".utf8))
        }
    }

    @Test("writeAtomically creates the file with mode 0600 and missing folders")
    func writeAtomicallyMode() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/a/b/state.json"
            try FileSystem.writeAtomically(Array("x".utf8), to: path)
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let permissions = try #require(attributes[.posixPermissions] as? NSNumber)
            #expect(permissions.intValue & 0o777 == 0o600)
            #expect(try read(path) == Data("x".utf8))
        }
    }

    @Test("a failed writeAtomically leaves no temporary file and the target untouched")
    func writeAtomicallyFailure() throws {
        try withTemporaryFolder { folder in
            // The target is a non-empty folder: rename(2) over it fails.
            let target = folder + "/state.json"
            try FileManager.default.createDirectory(atPath: target + "/inside", withIntermediateDirectories: true)
            #expect(throws: FileError.self) {
                try FileSystem.writeAtomically(Array("x".utf8), to: target)
            }
            #expect(try contents(of: folder) == ["state.json"])
            #expect(try contents(of: target) == ["inside"])
        }
    }

    @Test("state written by save is pretty JSON ending in a newline")
    func saveFormat() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/state.json"
            try StateStore(path: path).save(SavedState(currentAccount: "x", switchCount: 1, switchesPerAccount: ["x": 1]))
            let data = try read(path)
            #expect(data.last == 0x0A)
            #expect(try StateStore(path: path).load().state.currentAccount == "x")
        }
    }

    @Test("the lock file sits beside the state file")
    func lockPath() {
        #expect(StateStore(path: "/s/state.json").lockPath == "/s/state.json.lock")
    }
}

@Suite("State history")
struct StateHistoryTests {
    @Test("each switch appends who, from whom, when and where to state.history.jsonl, one line each")
    func appendsLines() throws {
        try withTemporaryFolder { folder in
            let store = StateStore(path: folder + "/state.json")
            #expect(store.history.path == folder + "/state.history.jsonl")
            _ = try store.recordSwitch(to: "work", source: .tui, time: "2026-11-30T08:00:00Z")
            _ = try store.recordSwitch(to: "oss", source: .cli, time: "2026-11-30T08:01:00Z")
            _ = try store.recordSwitch(to: "oss", source: .cli, time: "2026-11-30T08:02:00Z")  // already current: nothing
            let text = try String(contentsOfFile: store.history.path, encoding: .utf8)
            #expect(
                text == """
                    {"account":"work","previous":null,"source":"tui","time":"2026-11-30T08:00:00Z"}
                    {"account":"oss","previous":"work","source":"cli","time":"2026-11-30T08:01:00Z"}

                    """)
            #expect(
                try store.history.read() == [
                    SwitchRecord(account: "work", previous: nil, time: "2026-11-30T08:00:00Z", source: .tui),
                    SwitchRecord(account: "oss", previous: "work", time: "2026-11-30T08:01:00Z", source: .cli),
                ])
            #expect(try store.history.read(limit: 1).map(\.account) == ["oss"], "a limit keeps the newest")
        }
    }

    @Test("the history keeps the newest 10,000 entries; the file is compacted once it holds 1,000 more")
    func historyCapped() throws {
        try withTemporaryFolder { folder in
            let store = StateStore(path: folder + "/state.json")
            let log = store.history
            let line = { (index: Int) in #"{"account":"a\#(index)","previous":null,"source":"cli","time":"t"}"# }
            let total = SavedState.historyLimit + HistoryLog.slack
            try Data(((0..<total).map(line).joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: log.path))
            #expect(try log.read().count == SavedState.historyLimit, "readers see only the newest 10,000")
            #expect(try log.read().first?.account == "a\(HistoryLog.slack)")
            _ = try store.recordSwitch(to: "last", source: .cli)
            let lines = try String(contentsOfFile: log.path, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == SavedState.historyLimit, "compacted")
            #expect(lines.last?.contains("\"last\"") == true)
            #expect(try log.read().first?.account == "a\(HistoryLog.slack + 1)")
        }
    }

    // Bug (design): with the history inside state.json, a switch re-encoded every entry and took 240 ms at 10,000.
    @Test("a switch with 10,000 entries in the history appends one line and leaves the rest byte for byte")
    func appendDoesNotRewrite() throws {
        try withTemporaryFolder { folder in
            let store = StateStore(path: folder + "/state.json")
            let old = (0..<SavedState.historyLimit).map { #"{"account":"a\#($0)","previous":null,"source":"cli","time":"t"}"# + "\n" }
                .joined()
            try Data(old.utf8).write(to: URL(fileURLWithPath: store.history.path))
            _ = try store.recordSwitch(to: "b", source: .tui)
            let text = try String(contentsOfFile: store.history.path, encoding: .utf8)
            #expect(text.hasPrefix(old))
            #expect(text.dropFirst(old.count).split(separator: "\n").count == 1)
        }
    }

    @Test("a torn last line (a writer killed mid-write) is ignored by readers and cut by the next writer")
    func tornLastLine() throws {
        try withTemporaryFolder { folder in
            let store = StateStore(path: folder + "/state.json")
            _ = try store.recordSwitch(to: "work", source: .tui)
            let handle = try #require(FileHandle(forWritingAtPath: store.history.path))
            handle.seekToEndOfFile()
            handle.write(Data(#"{"account":"oss","prev"#.utf8))
            handle.closeFile()
            #expect(try store.history.read().map(\.account) == ["work"])
            _ = try store.recordSwitch(to: "side", source: .cli)
            #expect(try store.history.read().map(\.account) == ["work", "side"])
            #expect(try String(contentsOfFile: store.history.path, encoding: .utf8).split(separator: "\n").count == 2)
        }
    }

    @Test("a line that cannot be parsed is skipped by readers and kept in a copy when the log is compacted")
    func badLines() throws {
        try withTemporaryFolder { folder in
            let log = StateStore(path: folder + "/state.json").history
            let good = #"{"account":"a","previous":null,"source":"cli","time":"t"}"#
            let lines = [good, "garbage", good] + Array(repeating: good, count: SavedState.historyLimit + HistoryLog.slack)
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: log.path))
            #expect(try log.read(limit: 5).count == 5)
            _ = try StateStore(path: folder + "/state.json").recordSwitch(to: "b", source: .cli)
            let copies = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("state.history.jsonl.corrupt-") }
            #expect(copies.count == 1, "\(copies)")
            #expect(try log.read().count == SavedState.historyLimit)
        }
    }

    @Test("a version 1 state file (before the history log) is read and written back as version 2")
    func versionOneMigrates() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/state.json"
            let v1 = #"{"version": 1, "currentAccount": "work", "switchCount": 4, "switchesPerAccount": {"work": 4}}"#
            try Data(v1.utf8).write(to: URL(fileURLWithPath: path))
            let store = StateStore(path: path)
            let loaded = try store.load()
            #expect(loaded.warning == nil)
            #expect(loaded.state.switchCount == 4)
            let outcome = try store.recordSwitch(to: "oss", source: .cli, time: "2026-11-30T08:00:00Z")
            #expect(outcome.changed)
            #expect(outcome.previous == "work")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
            #expect(object["version"] as? Int == 2)
            #expect(object["switchCount"] as? Int == 5)
            #expect(
                try store.history.read() == [SwitchRecord(account: "oss", previous: "work", time: "2026-11-30T08:00:00Z", source: .cli)])
        }
    }

    @Test("the time is ISO 8601 in UTC with whole seconds")
    func timeFormat() throws {
        try withTemporaryFolder { folder in
            let store = StateStore(path: folder + "/state.json")
            _ = try store.recordSwitch(to: "work", source: .tui)
            let record = try #require(try store.history.read().first)
            let time = Array(record.time)
            #expect(time.count == 20 && time[10] == "T" && time[19] == "Z", Comment(rawValue: record.time))
        }
    }

    @Test("a state naming an account no longer in the config is kept as a copy, and the current account cleared, once")
    func unknownAccount() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/state.json"
            let store = StateStore(path: path)
            _ = try store.recordSwitch(to: "gone", source: .cli)
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            let loaded = try store.load(accountIDs: ["work", "oss"])
            #expect(loaded.state.currentAccount == nil)
            #expect(loaded.state.switchCount == 1, "counts are kept")
            #expect(try store.history.read().count == 1, "history is kept")
            let warning = try #require(loaded.warning)
            #expect(warning.contains("\"gone\""), Comment(rawValue: warning))
            let copies = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("state.json.corrupt-") }
            #expect(copies.count == 1)
            #expect(warning.contains(try #require(copies.first)))
            #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + copies[0])) == original, "the copy is the file as it was")
            let again = try store.load(accountIDs: ["work", "oss"])
            #expect(again.warning == nil, "said once")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("state.json.corrupt-") }.count == 1)
        }
    }

    @Test("looking an account up in the accounts gives the same verdict as the set of their ids")
    func accountsOverload() throws {
        try withTemporaryFolder { folder in
            let store = StateStore(path: folder + "/state.json")
            _ = try store.recordSwitch(to: "oss", source: .cli)
            let known = [Account(id: "work", name: "Work"), Account(id: "oss", name: "OSS")]
            #expect(try store.peek(accounts: known).state.currentAccount == "oss")
            #expect(try store.peek(accounts: known).warning == nil)
            let unknown = try store.peek(accounts: [Account(id: "work", name: "Work")])
            #expect(unknown.state.currentAccount == nil)
            #expect(unknown.warning == (try store.peek(accountIDs: ["work"])).warning)
            let repaired = try store.load(accounts: [Account(id: "work", name: "Work")])
            #expect(repaired.state.currentAccount == nil)
            #expect(try store.peek().state.currentAccount == nil, "load repairs the file as load(accountIDs:) does")
        }
    }

    // Bug: `perch list --state FILE` renamed any file it could not parse, even a config given by mistake.
    @Test("peek changes nothing on disk: a corrupt file stays, an unknown account stays current in the file")
    func peekIsReadOnly() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/state.json"
            try Data("not state".utf8).write(to: URL(fileURLWithPath: path))
            let store = StateStore(path: path)
            let corrupt = try store.peek()
            #expect(corrupt.state == SavedState())
            #expect(corrupt.warning?.contains("left as it is") == true)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["state.json"])
            try FileManager.default.removeItem(atPath: path)

            _ = try store.recordSwitch(to: "new", source: .cli)
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let unknown = try store.peek(accountIDs: ["old"])
            #expect(unknown.state.currentAccount == nil)
            #expect(unknown.warning?.contains("\"new\"") == true)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
            #expect(try store.peek().state.currentAccount == "new")
        }
    }

    // Bug: a history log over 64 MiB was never compacted again, and every switch warned falsely that its entry was not written.
    @Test("a history log far over its size is read from its end and compacted")
    func hugeLog() throws {
        try withTemporaryFolder { folder in
            let store = StateStore(path: folder + "/state.json")
            let line = #"{"account":"a","previous":null,"source":"cli","time":"2026-11-30T08:00:00Z"}"# + "\n"
            let count = HistoryLog.tailBytes / line.utf8.count + 2 * SavedState.historyLimit
            try Data(String(repeating: line, count: count).utf8).write(to: URL(fileURLWithPath: store.history.path))
            #expect(try store.history.read().count == SavedState.historyLimit)
            let outcome = try store.recordSwitch(to: "b", source: .cli)
            #expect(outcome.warning == nil)
            #expect(try store.history.read().last?.account == "b")
            let size = try FileManager.default.attributesOfItem(atPath: store.history.path)[.size] as? Int ?? 0
            #expect(size == SavedState.historyLimit * line.utf8.count, "compacted to the newest 10,000 lines")
        }
    }
}
