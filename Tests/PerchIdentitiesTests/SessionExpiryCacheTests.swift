import Foundation
import PerchDomain
import PerchInterface
import PerchStore
import Testing

@testable import PerchIdentities

/// `perch current --field kube.expires` ran kubectl and openssl at every prompt (114 ms): the
/// answer is kept while none of the files it came from changed.
struct SessionExpiryCacheTests {
    /// Far enough after every file's times that the racy window is over.
    static let later = CurrentAccountCache.realTimeNanoseconds() + 3_600_000_000_000

    func awsHome() throws -> ScratchHome {
        let home = try ScratchHome(fakes: [])
        try FileManager.default.createDirectory(atPath: home.home + "/.aws/cli/cache", withIntermediateDirectories: true)
        try "[profile admin]\nrole_arn = arn:aws:iam::123456789012:role/Admin\nsource_profile = base\n".write(
            toFile: home.home + "/.aws/config", atomically: true, encoding: .utf8)
        try role("a", "2026-12-03T11:00:00Z", home: home)
        return home
    }

    func role(_ name: String, _ end: String, home: ScratchHome, atomically: Bool = true) throws {
        try #"{"Credentials": {"Expiration": "\#(end)"}, "AssumedRoleUser": {"Arn": "arn:aws:sts::123456789012:assumed-role/Admin/s"}}"#
            .write(toFile: home.home + "/.aws/cli/cache/\(name).json", atomically: atomically, encoding: .utf8)
    }

    @Test("the end is kept, used while nothing changed, and read again when a file it came from changes, appears or is rewritten in place")
    func keptAndRenewed() throws {
        let home = try awsHome()
        let cache = SessionExpiryCache(statePath: home.home + "/.local/state/perch/state.json", tool: .aws)
        try FileManager.default.createDirectory(atPath: home.home + "/.local/state/perch", withIntermediateDirectories: true)
        let context = ToolContext(environment: home.environment)
        let account = Account.with("work", .make(aws: "admin"))
        #expect(cache.answer(account, in: context, now: Self.later) == "2026-12-03T11:00:00Z")
        #expect(FileManager.default.fileExists(atPath: cache.path))
        // Used while nothing changed: a cache entry saying something else is believed.
        let text = try String(contentsOfFile: cache.path, encoding: .utf8)
        try text.replacingOccurrences(of: "2026-12-03T11:00:00Z", with: "2099-01-01T00:00:00Z").write(
            toFile: cache.path, atomically: true, encoding: .utf8)
        #expect(cache.answer(account, in: context, now: Self.later) == "2099-01-01T00:00:00Z")
        // Another account's setting is not this entry's.
        #expect(cache.answer(Account.with("other", .make(aws: "base")), in: context, now: Self.later) == "")
        #expect(cache.answer(account, in: context, now: Self.later) == "2026-12-03T11:00:00Z")
        // A file rewritten in place (as the aws CLI does): read again.
        try role("a", "2026-12-03T15:00:00Z", home: home, atomically: false)
        #expect(cache.answer(account, in: context, now: Self.later) == "2026-12-03T15:00:00Z")
        // A new file: read again (the earliest).
        try role("b", "2026-12-03T12:00:00Z", home: home)
        #expect(cache.answer(account, in: context, now: Self.later) == "2026-12-03T15:00:00Z", "the role's latest credentials")
        try FileManager.default.removeItem(atPath: home.home + "/.aws/cli/cache/a.json")
        #expect(cache.answer(account, in: context, now: Self.later) == "2026-12-03T12:00:00Z")
    }

    @Test("nothing is kept from files changed within the racy window")
    func racy() throws {
        let home = try awsHome()
        try FileManager.default.createDirectory(atPath: home.home + "/.local/state/perch", withIntermediateDirectories: true)
        let cache = SessionExpiryCache(statePath: home.home + "/.local/state/perch/state.json", tool: .aws)
        let account = Account.with("work", .make(aws: "admin"))
        #expect(cache.answer(account, in: ToolContext(environment: home.environment)) == "2026-12-03T11:00:00Z")
        #expect(!FileManager.default.fileExists(atPath: cache.path))
    }
}
