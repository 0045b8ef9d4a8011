import Foundation

extension TmuxSession {
    /// A scratch HOME whose state file has `account` as the current one (the sample accounts'
    /// Catalog lists their entries only once one is chosen). The caller removes it.
    static func homeSignedIn(as account: String = "personal") throws -> URL {
        let home = try makeScratchHome()
        let folder = home.appendingPathComponent("state/perch")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let state = #"{"version": 2, "currentAccount": "\#(account)", "switchCount": 1, "switchesPerAccount": {"\#(account)": 1}}"#
        try state.write(to: folder.appendingPathComponent("state.json"), atomically: true, encoding: .utf8)
        return home
    }

    /// A session started in ``homeSignedIn(as:)``; its home is removed with the session's files by the caller's `defer`.
    static func startedSignedIn(width: Int = 80, height: Int = 24) throws -> (TmuxSession, URL) {
        let home = try homeSignedIn()
        return (try started(width: width, height: height, home: home), home)
    }
}
