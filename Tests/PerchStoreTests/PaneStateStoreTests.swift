import Foundation
import PerchDomain
import PerchInterface
import Testing

@testable import PerchStore

/// Per-account pane state in the state file.
@Suite("State file: per-account pane state")
struct PaneStateStoreTests {
    @Test("saved panes are read back; a switch keeps them; saving them changes nothing else")
    func roundTrip() throws {
        try withTemporaryFolder { folder in
            let store = StateStore(path: folder + "/state.json")
            _ = try store.recordSwitch(to: "work", source: .cli)
            let panes = ["work": AccountPanes(catalog: CatalogMemory(cursor: 41, scroll: 30, pinned: ["a", "b"]), statsScroll: 7)]
            try store.savePanes(panes)
            var loaded = try store.load().state
            #expect(loaded.panes == panes)
            #expect(loaded.currentAccount == "work" && loaded.switchCount == 1)
            #expect(try store.history.read().count == 1, "no history line for pane state")
            _ = try store.recordSwitch(to: "oss", source: .cli)
            loaded = try store.load().state
            #expect(loaded.panes == panes, "a switch keeps the panes")
            #expect(loaded.currentAccount == "oss")
        }
    }

    @Test("a malformed panes object is ignored, never the whole file")
    func malformed() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/state.json"
            try #"{"version": 2, "currentAccount": "work", "switchCount": 2, "panes": {"work": {"catalog": "nope"}}}"#.write(
                toFile: path, atomically: true, encoding: .utf8)
            let loaded = try StateStore(path: path).load().state
            #expect(loaded.currentAccount == "work" && loaded.switchCount == 2)
            #expect(loaded.panes == nil)
        }
    }
}
