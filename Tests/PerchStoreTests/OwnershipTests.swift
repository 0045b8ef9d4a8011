import Foundation
import Testing

@testable import PerchStore

/// Root in a user's home (opentap #637, issue 22 item 4): the checks run as root here, with a
/// scratch HOME given to another uid.
@Suite("Ownership of Perch's files")
struct OwnershipTests {
    static let otherUser: uid_t = 12345

    /// A scratch HOME owned by ``otherUser``, inside a temporary folder.
    private func withForeignHome(_ body: (String) throws -> Void) throws {
        try withTemporaryFolder { folder in
            let home = folder + "/home"
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            try #require(chown(home, Self.otherUser, Self.otherUser) == 0, "the tests run as root")
            try body(home)
        }
    }

    // opentap #637: `sudo -E perch switch work` left root-only folders in the user's home.
    @Test("root is refused in a HOME that belongs to someone else (opentap #637), and nothing is created")
    func refusesForeignHome() throws {
        try withForeignHome { home in
            let paths = PerchPaths(lookup: { $0 == "HOME" ? home : nil })
            let refusal = Ownership.refusal(paths: paths, home: home, effectiveUser: 0)
            let user = Ownership.userName(Self.otherUser)
            #expect(refusal == "HOME belongs to \(user); run perch as \(user), or use sudo without -E")
            let created = try FileManager.default.contentsOfDirectory(atPath: home)
            #expect(created.isEmpty)
            #expect(Ownership.refusal(paths: paths, home: home, effectiveUser: Self.otherUser) == nil, "the owner itself is fine")
        }
    }

    @Test("root in its own HOME, or with no HOME, is not refused")
    func rootsOwnHome() throws {
        try withTemporaryFolder { folder in
            let paths = PerchPaths(config: folder + "/c/accounts.json", state: folder + "/s/state.json", lookup: { _ in nil })
            #expect(Ownership.refusal(paths: paths, home: folder, effectiveUser: 0) == nil)
            #expect(Ownership.refusal(paths: paths, home: nil, effectiveUser: 0) == nil)
        }
    }

    @Test("root is refused when the state folder belongs to someone else, whatever HOME says")
    func refusesForeignStateFolder() throws {
        try withForeignHome { home in
            let paths = PerchPaths(
                config: "/nonexistent-perch/accounts.json", state: home + "/state/perch/state.json", lookup: { _ in nil })
            let refusal = try #require(Ownership.refusal(paths: paths, home: "/root", effectiveUser: 0))
            #expect(refusal.hasPrefix(home + " belongs to "), "\(refusal)")
        }
    }

    // opentap #637: a user locked out got only "Permission denied", with no hint about the owner.
    @Test("a lock-out names the owner and the chown of the highest folder with that owner (opentap #637)")
    func lockOutHint() throws {
        try withForeignHome { home in
            // What root left: ~/.local/state/perch, root's, inside the user's ~/.local.
            try FileManager.default.createDirectory(atPath: home + "/.local/state/perch", withIntermediateDirectories: true)
            #expect(chown(home + "/.local", Self.otherUser, Self.otherUser) == 0)
            let hint = Ownership.lockOutHint(for: home + "/.local/state/perch/state.json", user: Self.otherUser, home: home)
            #expect(hint == "owned by root; run: sudo chown -R \(Ownership.userName(Self.otherUser)) \(home)/.local/state")
            #expect(Ownership.lockOutHint(for: home + "/.local/x", user: Self.otherUser, home: home) == nil, "the user's own folder")
            #expect(Ownership.lockOutHint(for: "/etc/passwd", user: Self.otherUser, home: home) == "owned by root", "no chown outside HOME")
        }
    }
}
