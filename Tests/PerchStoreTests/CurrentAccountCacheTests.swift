import Glibc
import PerchDomain
import PerchInterface
import PerchTestSupport
import Testing

@testable import PerchStore

/// Writes `text` over the file at `path` in place (same inode), as an editor that does not
/// replace files would.
private func overwriteInPlace(_ path: String, _ text: String) {
    let fd = open(path, O_WRONLY | O_TRUNC)
    precondition(fd >= 0)
    _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
}

/// Waits (with a deadline) until the clock of file times has moved past `identity`'s times, so
/// that a write now gets times of its own.
private func waitForNewFileTimes(after identity: CurrentAccountCache.FileIdentity, scratch: String) throws {
    let probe = scratch + "/probe"
    let moved = waitUntil(timeout: 2) {
        (try? FileSystem.writeAtomically([1], to: probe)) != nil
            && (CurrentAccountCache.FileIdentity.of(probe).map { $0.changed > identity.changed } ?? false)
    }
    if !moved { Issue.record("the file clock did not move in 2 s") }
}

private let work = Account(id: "work", name: "Work", handle: "@ada", group: "Jobs", color: .blue, onSwitch: "echo \"hi\"")

@Suite("CurrentAccountCache")
struct CurrentAccountCacheTests {
    /// A config and a state file in `folder`, and a cache entry for `work` made from them as if
    /// the files had been written 10 s ago.
    private func setUp(_ folder: String) throws -> (config: String, state: String, cache: CurrentAccountCache) {
        let config = folder + "/accounts.json"
        let state = folder + "/state.json"
        try FileSystem.writeAtomically(Array(#"{"accounts": [{"id": "work", "name": "Work"}]}"#.utf8), to: config)
        try FileSystem.writeAtomically(Array(#"{"version": 2, "currentAccount": "work"}"#.utf8), to: state)
        let cache = CurrentAccountCache(statePath: state)
        cache.store(
            work, configPath: config, config: .of(config), statePath: state, state: .of(state),
            now: CurrentAccountCache.realTimeNanoseconds() + 10_000_000_000)
        return (config, state, cache)
    }

    @Test("an entry is read back while neither file changed, with every field")
    func hit() throws {
        try withTemporaryFolder { folder in
            let (config, state, cache) = try setUp(folder)
            #expect(cache.account(configPath: config, statePath: state) == work)
            // Another config or state path is another key.
            #expect(cache.account(configPath: folder + "/other.json", statePath: state) == nil)
        }
    }

    // The stale-data guarantee: each way a config can change makes the entry miss.
    @Test(
        "a changed config or state never shows the cached account",
        arguments: ["replaced", "grown", "same size in place", "same size in place, times put back", "state switched", "removed"])
    func changedFiles(_ change: String) throws {
        try withTemporaryFolder { folder in
            let (config, state, cache) = try setUp(folder)
            let before = try #require(CurrentAccountCache.FileIdentity.of(config))
            try waitForNewFileTimes(after: before, scratch: folder)
            switch change {
            case "replaced":
                try FileSystem.writeAtomically(Array(#"{"accounts": [{"id": "work", "name": "Home"}]}"#.utf8), to: config)
            case "grown":
                overwriteInPlace(config, #"{"accounts": [{"id": "work", "name": "Work!"}]}"#)
            case "same size in place":
                overwriteInPlace(config, #"{"accounts": [{"id": "work", "name": "Home"}]}"#)
            case "same size in place, times put back":
                overwriteInPlace(config, #"{"accounts": [{"id": "work", "name": "Home"}]}"#)
                let times = [
                    timespec(tv_sec: Int(before.modified / 1_000_000_000), tv_nsec: Int(before.modified % 1_000_000_000)),
                    timespec(tv_sec: Int(before.modified / 1_000_000_000), tv_nsec: Int(before.modified % 1_000_000_000)),
                ]
                #expect(utimensat(AT_FDCWD, config, times, 0) == 0)
                #expect(CurrentAccountCache.FileIdentity.of(config)?.modified == before.modified)
            case "state switched":
                try FileSystem.writeAtomically(Array(#"{"version": 2, "currentAccount": "home"}"#.utf8), to: state)
            default:
                unlink(config)
            }
            #expect(cache.account(configPath: config, statePath: state) == nil)
        }
    }

    @Test("no entry is made from files written within the last 2 s (their times could repeat)")
    func racyFiles() throws {
        try withTemporaryFolder { folder in
            let config = folder + "/accounts.json"
            let state = folder + "/state.json"
            try FileSystem.writeAtomically(Array("{}".utf8), to: config)
            try FileSystem.writeAtomically(Array("{}".utf8), to: state)
            let cache = CurrentAccountCache(statePath: state)
            cache.store(work, configPath: config, config: .of(config), statePath: state, state: .of(state))
            #expect(cache.account(configPath: config, statePath: state) == nil)
            #expect(access(cache.path, F_OK) != 0)
        }
    }

    @Test("a damaged cache file is a miss, not an error", arguments: ["", "{", #"{"version": 1}"#, "[1, 2]"])
    func damaged(_ text: String) throws {
        try withTemporaryFolder { folder in
            let (config, state, cache) = try setUp(folder)
            try FileSystem.writeAtomically(Array(text.utf8), to: cache.path)
            #expect(cache.account(configPath: config, statePath: state) == nil)
        }
    }
}
