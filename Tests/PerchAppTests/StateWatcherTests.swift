import Foundation
import PerchStore
import Testing

@testable import PerchApp

@Suite("StateWatcher: files in two folders")
struct StateWatcherTests {
    // Bug: an interface left open never saw `perch registry update` made in another window:
    // only the config file was watched, and a registry's accounts are in its index.
    @Test("a change to either file watched is told; another file of the same folders is not")
    func twoFolders() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("perch-watch-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let config = root + "/config/accounts.json"
        let index = RegistryPaths(statePath: root + "/state/state.json").index
        let watcher = try #require(StateWatcher(watching: [config, index]))
        #expect(!watcher.drain())
        try FileSystem.writeAtomically(Array("{}".utf8), to: root + "/state/state.json")
        #expect(!watcher.drain(), "the state file is not one of the files watched")
        try FileSystem.writeAtomically(Array("{}".utf8), to: index)
        #expect(watcher.drain(), "the index replaced by rename")
        #expect(!watcher.drain(), "told once")
        try FileSystem.writeAtomically(Array("{}".utf8), to: config)
        #expect(watcher.drain(), "the config")
    }
}
