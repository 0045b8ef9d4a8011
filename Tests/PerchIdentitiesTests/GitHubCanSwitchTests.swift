import Foundation
import PerchDomain
import PerchInterface
import Testing

@testable import PerchIdentities

/// Whether the gh on `PATH` can switch users (`gh auth switch`, gh 2.40 and later), as the
/// adapter's check and `perch doctor` ask it: fake gh programs in a scratch `PATH` answering as
/// Debian's gh 2.23 and a newer gh do, and the real gh when one is installed.
@Suite("gh too old for several accounts")
struct GitHubCanSwitchTests {
    /// Debian's gh 2.23: `gh --version` as it prints it, and no `auth switch` (its own error text).
    static let oldGh = #"""
        echo "$*" >> "$HOME/calls/gh.log"
        if [ "$1" = "--version" ]; then
          echo "gh version 2.23.0 (2023-02-27 Debian 2.23.0+dfsg1-1)"
          echo "https://github.com/cli/cli/releases/tag/v2.23.0"
          exit 0
        fi
        if [ "$1 $2" = "auth switch" ]; then
          printf 'unknown command "switch" for "gh auth"\n\nUsage:  gh auth <command> [flags]\n' >&2
          exit 1
        fi
        """#

    /// A gh with `gh auth switch`.
    static let newGh = #"""
        echo "$*" >> "$HOME/calls/gh.log"
        if [ "$1" = "--version" ]; then
          echo "gh version 2.45.0 (2024-03-04)"
          exit 0
        fi
        if [ "$1 $2 $3" = "auth switch --help" ]; then
          echo "Switch the active account for a GitHub host"
          exit 0
        fi
        """#

    // Bug (everyday issue): with Debian's gh 2.23, only status hinted that gh cannot switch
    // between accounts; doctor said nothing.
    @Test("doctor's gh line: an old gh says it has no gh auth switch, with the fix; a new one says it has; asked of the gh on PATH")
    func doctorLine() throws {
        let scratch = try ScratchHome(fakes: [])
        try scratch.install("gh", Self.oldGh)
        let context = ToolContext(environment: scratch.environment)
        #expect(GitHubAdapter.canSwitch(in: context) == false)
        #expect(GitHubAdapter.version(in: context) == "2.23.0")
        let old = try #require(GitHubAdapter.doctorLine(accounts: ["work", "home"], in: context))
        #expect(old.hasPrefix("gh 2.23.0 at \(scratch.bin)/gh (accounts work, home name gh): this gh has no gh auth switch"), "\(old)")
        #expect(old.contains("upgrade gh, or leave gh out of the account"), "\(old)")
        #expect(scratch.calls("gh").contains("auth switch --help"), "asked gh itself")

        try scratch.install("gh", Self.newGh)
        let new = try #require(GitHubAdapter.doctorLine(accounts: ["work"], in: context))
        #expect(GitHubAdapter.canSwitch(in: context) == true)
        #expect(
            new
                == "gh 2.45.0 at \(scratch.bin)/gh (account work names gh): has gh auth switch (gh 2.40 or later), so a switch can change the user"
        )
        #expect(GitHubAdapter.doctorLine(accounts: [], in: context) == nil, "no account names gh: no line")

        unlink(scratch.bin + "/gh")
        let missing = try #require(GitHubAdapter.doctorLine(accounts: ["work"], in: ToolContext(environment: noSystemPath(scratch))))
        #expect(missing.hasPrefix("not installed (not on this PATH)"), "\(missing)")
    }

    // Bug (everyday issue): gh 2.23 prints `unknown command "switch"` first and its usage after,
    // and the switch kept only the last line (`exited with status 1:   token`), never saying why.
    @Test("a switch with a gh that has no gh auth switch fails with why and what to do, not gh's last line of usage")
    func applyTooOld() throws {
        let scratch = try ScratchHome(fakes: [])
        let usage =
            #"printf 'unknown command "switch" for "gh auth"\n\nUsage:  gh auth <command> [flags]\n\nAvailable commands:\n  login\n  token\n' >&2"#
        try scratch.install("gh", usage + "\nexit 1\n")
        let step = GitHubAdapter().apply(ToolState(["user@github.com": "ada-work"]), in: ToolContext(environment: scratch.environment))
        #expect(step == .failed(GitHubAdapter.tooOld), "\(step)")
    }

    @Test("a version line that is not gh's plain number is not repeated")
    func version() throws {
        let scratch = try ScratchHome(fakes: [])
        let context = ToolContext(environment: scratch.environment)
        for line in ["gh version 2.23.0\u{1B}[31m (x)", "gh version ../../x", "hub version 2.14.2", "gh version"] {
            try scratch.install("gh", "printf '%s\\n' '\(line)'")
            #expect(GitHubAdapter.version(in: context) == nil, "\(line)")
        }
    }

    @Test("the check of a gh whose user differs says an old gh cannot switch, with the fix")
    func statusHint() throws {
        let scratch = try ScratchHome(fakes: [])
        try scratch.install("gh", Self.oldGh)
        try scratch.write("github.com:\n    user: ada-home\n    oauth_token: x\n", to: "gh/hosts.yml")
        let check = GitHubAdapter().check(GitHubAdapter.setting(.init(user: "ada-work")), in: ToolContext(environment: scratch.environment))
        #expect(check.matches == false)
        #expect(check.note?.contains("this gh has no gh auth switch") == true, "\(check)")
        #expect(check.fix == "upgrade gh to 2.40 or later")
    }

    @Test("the real gh, when installed, answers as its version says", .enabled(if: ScratchHome.installed("gh")))
    func realGh() throws {
        let scratch = try ScratchHome(fakes: [])
        let context = ToolContext(environment: scratch.environment)
        let version = try #require(GitHubAdapter.version(in: context), "gh --version gives a number")
        let parts = version.split(separator: ".").compactMap { Int($0) }
        let expected = parts.count >= 2 && (parts[0], parts[1]) >= (2, 40)
        #expect(GitHubAdapter.canSwitch(in: context) == expected, "gh \(version)")
        let line = try #require(GitHubAdapter.doctorLine(accounts: ["work"], in: context))
        #expect(line.contains(expected ? "has gh auth switch" : "this gh has no gh auth switch"), "\(line)")
    }

    /// The scratch environment with only its own `bin` on PATH.
    private func noSystemPath(_ scratch: ScratchHome) -> IdentityEnvironment {
        var environment = scratch.environment
        environment.variables["PATH"] = scratch.bin
        return environment
    }
}
