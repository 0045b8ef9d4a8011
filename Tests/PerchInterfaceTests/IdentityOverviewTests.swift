import PerchInterfaceTesting
import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

private let work = Account(
    id: "work", name: "Work",
    identities: ToolIdentities([
        .fixture(.git, "<ada@work.example>"), .fixture(.kube, "prod"), .fixture(.gh, "ada on github.com"),
        .fixture(.aws, "AWS_PROFILE=admin", perShell: true),
    ]))
private let home = Account(id: "home", name: "Home", onSwitch: "true")

@Suite("Tool identities in Overview and the switch's effects")
struct IdentityOverviewTests {
    private func state(current: String? = "work") -> TabApp {
        TabApp.perch(accounts: [work, home], saved: SavedState(currentAccount: current), size: Size(width: 100, height: 30))
    }

    @Test("Overview lists each tool with ✓, ✗ or – from the last check, and the failure of the last apply")
    func marks() {
        var state = state()
        let report = IdentityReport(
            accountID: "work",
            results: [
                IdentityResult(tool: .git, status: .applied, detail: "ada@work.example"),
                IdentityResult(tool: .kube, status: .failed, detail: "exited with status 1"),
                IdentityResult(tool: .gh, status: .skipped, detail: "gh not found"),
                IdentityResult(tool: .aws, status: .applied, detail: ""),
            ])
        _ = state.update(.outcome(AnyOutcome(IdentitiesApplied(report, previous: nil, afterSwitch: false))))
        var lines = state.render().lines
        #expect(lines.contains { $0.contains("✓ git   applied: ada@work.example") })
        #expect(lines.contains { $0.contains("✗ kube  failed: exited with status 1") })
        #expect(lines.contains { $0.contains("– gh    skipped: gh not found") })
        _ = state.update(
            .outcome(
                AnyOutcome(
                    IdentitiesChecked(
                        accountID: "work",
                        [
                            IdentityCheck(tool: .git, expected: "<ada@work.example>", actual: "<ada@work.example>", matches: true),
                            IdentityCheck(tool: .kube, expected: "prod", actual: "dev", matches: false),
                            IdentityCheck(tool: .gh, expected: "ada on github.com", actual: nil, matches: nil, note: "gh not found"),
                        ]))))
        lines = state.render().lines
        #expect(lines.contains { $0.contains("✓ git   <ada@work.example>") })
        #expect(lines.contains { $0.contains("✗ kube  prod (now dev)  failed: exited with status 1") })
        #expect(lines.contains { $0.contains("– gh    ada on github.com  gh not found") })
        #expect(lines.contains { $0.contains("– aws   AWS_PROFILE=admin  per shell (perch env)") })
    }

    // Bug (expiry issue): Overview never showed AWS expiry, which status, verify and switch did.
    @Test(
        "Overview shows a per-shell tool's credentials' end when the check carries it: – while it holds, ✗ with what renews it once ended")
    func perShellExpiry() {
        var state = state()
        func checked(_ aws: IdentityCheck) -> [String] {
            _ = state.update(.outcome(AnyOutcome(IdentitiesChecked(accountID: "work", [aws]))))
            return state.render().lines
        }
        var lines = checked(
            IdentityCheck(
                tool: .aws, expected: "AWS_PROFILE=admin", actual: "AWS_PROFILE=admin", matches: nil,
                note: "SSO session ends in 3 h"))
        #expect(lines.contains { $0.contains("– aws   AWS_PROFILE=admin  SSO session ends in 3 h") }, "\(lines)")
        lines = checked(
            IdentityCheck(
                tool: .aws, expected: "AWS_PROFILE=admin", actual: "AWS_PROFILE=admin", matches: false,
                note: "SSO session ended 2 h ago; renew: aws sso login --profile admin"))
        #expect(
            lines.contains {
                $0.contains("✗ aws   AWS_PROFILE=admin  SSO session ended 2 h ago; renew: aws sso login --profile admin")
            }, "\(lines)")
    }

    /// The lines of the tool row that opens with `lead`: its first, then those under its text.
    private func row(_ lines: [String], _ lead: String) -> [String]? {
        guard let first = lines.firstIndex(where: { $0.contains(lead) }) else { return nil }
        let column = lines[first].distance(from: lines[first].startIndex, to: lines[first].range(of: lead)!.upperBound)
        var row = [String(lines[first].dropFirst(column))]
        for line in lines[(first + 1)...] {
            let text = line.dropFirst(column)
            guard line.prefix(column).allSatisfy({ $0 == " " }), text.first.map({ $0 != " " }) == true else { break }
            row.append(String(text))
        }
        return row.map { String($0.reversed().drop { $0 == " " }.reversed()) }
    }

    // Bug (everyday issue): the row read `client-dev (now client-dev)` when the name was right
    // and the check failed for another reason (an ended certificate, a dead agent), with that
    // reason cut mid-word at the screen's edge (100 columns).
    @Test("a tool whose name is right but which does not work says why, wrapped under its text, never (now X) with X expected")
    func reasonWraps() throws {
        var state = state()
        func checked(_ kube: IdentityCheck) -> [String] {
            _ = state.update(.outcome(AnyOutcome(IdentitiesChecked(accountID: "work", [kube]))))
            return state.render().lines
        }
        let reason =
            "client certificate ended 2 h ago (2026-01-01 10:00 UTC); renew: kubectl oidc-login get-token"
            + " --oidc-issuer-url=https://login.example --oidc-client-id=perch"
        var lines = checked(IdentityCheck(tool: .kube, expected: "client-dev", actual: "client-dev", matches: false, note: reason))
        #expect(!lines.contains { $0.contains("(now client-dev)") }, "\(lines)")
        let wrapped = try #require(row(lines, "✗ kube  "), "\(lines)")
        #expect(wrapped.count == 2, "\(wrapped)")
        #expect(wrapped.joined(separator: " ") == "client-dev " + reason, "every word, none cut: \(wrapped)")
        #expect(lines.allSatisfy { DisplayWidth.columns(of: $0) <= 100 })
        #expect(!lines.contains { $0.contains("shortened") })
        // With no reason given, the row still says what is wrong.
        lines = checked(IdentityCheck(tool: .kube, expected: "client-dev", actual: "client-dev", matches: false))
        #expect(lines.contains { $0.contains("✗ kube  client-dev, but it does not work here") }, "\(lines)")
        // A reason longer than four rows ends in … and says where the whole of it is.
        let long = Array(repeating: "the agent at ~/.ssh/agent/client-dev.sock does not answer;", count: 8).joined(separator: " ")
        lines = checked(IdentityCheck(tool: .kube, expected: "client-dev", actual: "client-dev", matches: false, note: long))
        let cut = try #require(row(lines, "✗ kube  "), "\(lines)")
        #expect(cut.count == OverviewPane.wrappedRows && cut.last?.hasSuffix("…") == true, "\(cut)")
        #expect(lines.contains { $0.contains("(shortened: perch status shows every reason whole)") }, "\(lines)")
    }

    @Test("r in Overview applies the current account's tools again, without its hook, and shows them as applying")
    func reapply() {
        var state = state()
        let effects = state.update(.key(.char("r")))
        #expect(effects == [.perform(ApplyIdentities(accountID: "work", previous: nil, afterSwitch: false))])
        #expect(state.render().lines.contains { $0.contains("Tools: applying…") })
        let next = state.update(
            .outcome(AnyOutcome(IdentitiesApplied(IdentityReport(accountID: "work", results: []), previous: nil, afterSwitch: false))))
        #expect(next == [.perform(CheckIdentities(accountID: "work"))], "checked after, and no hook")
        #expect(!state.render().lines.contains { $0.contains("applying") })
    }

    @Test("r does nothing for an account without identities, or with none current")
    func reapplyNothing() {
        var withoutTools = state(current: "home")
        #expect(withoutTools.update(.key(.char("r"))) == [])
        var none = state(current: nil)
        #expect(none.update(.key(.char("r"))) == [])
    }

    @Test("a failed tool after a switch becomes the banner; the hook follows only a switch")
    func failureBanner() {
        var state = state(current: "home")
        let report = IdentityReport(
            accountID: "work", results: [IdentityResult(tool: .kube, status: .failed, detail: "timed out after 10 s and was killed")])
        _ = state.update(.outcome(AnyOutcome(SwitchProgress.saved(.inMemory("work", from: state.saved)))))
        let effects = state.update(.outcome(AnyOutcome(IdentitiesApplied(report, previous: "home", afterSwitch: true))))
        #expect(state.bannerText == "Work: kube timed out after 10 s and was killed")
        #expect(effects == [.perform(CheckIdentities(accountID: "work"))], "work has no onSwitch hook")
        var back = state
        _ = back.update(.outcome(AnyOutcome(SwitchProgress.saved(.inMemory("home", from: back.saved)))))
        #expect(
            back.update(
                .outcome(AnyOutcome(IdentitiesApplied(IdentityReport(accountID: "home", results: []), previous: "work", afterSwitch: true)))
            )
                == [
                    .perform(RunHook(accountID: "home", previous: "work"))
                ])
    }

    @Test("a check for an account no longer current is dropped")
    func staleCheck() {
        var state = state(current: "home")
        _ = state.update(
            .outcome(
                AnyOutcome(
                    IdentitiesChecked(accountID: "work", [IdentityCheck(tool: .kube, expected: "prod", actual: "dev", matches: false)]))))
        #expect(state.identities == nil)
    }

    @Test("the pure list of an account's identities, in the order applied, in status's words")
    func entries() {
        #expect(work.identities.entries.map(\.tool) == [.git, .kube, .gh, .aws])
        #expect(work.identities.entries.map(\.expected) == ["<ada@work.example>", "prod", "ada on github.com", "AWS_PROFILE=admin"])
    }
}

/// `v` in Overview: each tool asked who it will be, as `perch verify` asks, and the answers shown.
@Suite("Verify from Overview")
struct VerifyOverviewTests {
    private func state(checkWithServers: Bool = false) -> TabApp {
        var file = SavedSettings()
        file.checkWithServers = checkWithServers
        return TabApp.perch(
            accounts: [work, home], saved: SavedState(currentAccount: "work"), size: Size(width: 100, height: 30),
            settings: SettingsState(file: file))
    }

    @Test("v asks the worker for the offline checks, shows that it is asking, and a second v meanwhile asks nothing more")
    func asks() {
        var state = state()
        #expect(state.update(.key(.char("v"))) == [.perform(VerifyIdentities(accountID: "work", online: false))])
        #expect(state.render().lines.contains { $0.contains("Asking each tool who it will be…") })
        #expect(state.update(.key(.char("v"))) == [])
    }

    @Test("with Check with servers on, v asks the servers too")
    func online() {
        var state = state(checkWithServers: true)
        #expect(state.update(.key(.char("v"))) == [.perform(VerifyIdentities(accountID: "work", online: true))])
        #expect(state.render().lines.contains { $0.contains("Asking each tool and server who it will be…") })
    }

    @Test("the answers are shown one per tool: ✓ with what it says, ✗ with what it says and the fix, – with why")
    func answers() {
        var state = state()
        _ = state.update(.key(.char("v")))
        _ = state.update(
            .outcome(
                AnyOutcome(
                    IdentitiesVerified(
                        accountID: "work",
                        [
                            ToolAnswer(
                                tool: "git", kind: .git, expected: "<ada@work.example>", answer: "Ada <ada@work.example>", verdict: .agrees,
                                asked: "git var"),
                            ToolAnswer(
                                tool: "kube", kind: .kube, expected: "prod", answer: "dev", verdict: .disagrees, reason: "kubectl uses dev",
                                fix: "perch switch work", asked: "kubectl config view --minify"),
                            .unknown("gh", kind: .gh, expected: "ada", reason: "gh not found", asked: "gh config get user"),
                        ]))))
        let lines = state.render().lines
        #expect(lines.contains { $0.contains("Verified: 1 disagree (v asks again)") })
        #expect(lines.contains { $0.contains("✓ git   Ada <ada@work.example>") })
        #expect(lines.contains { $0.contains("✗ kube  says dev, expected prod; fix: perch switch work") })
        #expect(lines.contains { $0.contains("– gh    gh not found") })
        #expect(!lines.contains { $0.contains("Asking each tool") })
    }

    @Test("answers for an account that is no longer current are dropped")
    func stale() {
        var state = state()
        _ = state.update(.key(.char("v")))
        _ = state.update(.outcome(AnyOutcome(IdentitiesVerified(accountID: "home", []))))
        #expect(state.render().lines.contains { $0.contains("Asking each tool who it will be…") })
    }

    @Test("Check with servers is a Settings row, off by default, toggled and kept in the settings file")
    func setting() {
        var state = state()
        _ = state.update(.key(.char("4")))
        #expect(state.render().lines.contains { $0.contains("Check with servers") && $0.contains("off") })
        var settings = SettingsState()
        settings.change(.checkWithServers, step: 1)
        #expect(settings.values.checkWithServers)
        #expect(settings.file.checkWithServers == true)
        #expect(settings.source(.checkWithServers) == .saved)
    }
}
