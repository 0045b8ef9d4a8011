import Foundation
import PerchDomain
import PerchInterface
import Testing

@testable import PerchIdentities

/// When credentials end, read locally: the words, the marks, and AWS's files.
@Suite("Session ends")
struct SessionExpiryTests {
    static let spans: [(Int64, String)] = [(45, "45 s"), (125, "2 min"), (10_805, "3 h"), (172_807, "2 d")]

    @Test("a span is said in its largest whole unit", arguments: spans)
    func span(seconds: Int64, text: String) {
        #expect(SessionExpiry.span(seconds) == text)
    }

    // Bug: "temporary credentials ends in 5 d".
    @Test("credentials end, a session ends")
    func agreement() {
        let now: Int64 = 1_800_000_000
        #expect(
            SessionExpiry(tool: .aws, what: "temporary credentials", ends: now + 300, renew: nil).phrase(at: now)
                == "temporary credentials end in 5 min")
        #expect(SessionExpiry(tool: .aws, what: "SSO session", ends: now + 300, renew: nil).phrase(at: now) == "SSO session ends in 5 min")
    }

    @Test("a check is marked by its tool's end: plain when far, ⚠ under an hour, ✗ with what renews it once ended")
    func annotated() {
        let now: Int64 = 1_800_000_000
        let check = IdentityCheck(tool: .aws, expected: "work", actual: "work", matches: true)
        func end(_ offset: Int64) -> SessionExpiry {
            SessionExpiry(tool: .aws, what: "SSO session", ends: now + offset, renew: "aws sso login --profile work")
        }
        let far = SessionExpiries.annotated(check, [end(5 * 86_400)], now: now)
        #expect(far.matches == true && far.note == "SSO session ends in 5 d")
        let soon = SessionExpiries.annotated(check, [end(1800)], now: now)
        #expect(soon.matches == true && soon.note == "⚠ SSO session ends in 30 min")
        let ended = SessionExpiries.annotated(check, [end(-7200)], now: now)
        #expect(ended.matches == false && ended.note == "SSO session ended 2 h ago; renew: aws sso login --profile work")
        // Another tool's end leaves the check alone.
        #expect(
            SessionExpiries.annotated(IdentityCheck(tool: .kube, expected: "p", actual: "p", matches: true), [end(-1)], now: now).note
                == nil)
    }

    @Test("an AWS profile's SSO session is found by its sso-session's start URL, and temporary credentials by their recorded end")
    func aws() throws {
        let home = try ScratchHome(fakes: [])
        try FileManager.default.createDirectory(atPath: home.home + "/.aws/sso/cache", withIntermediateDirectories: true)
        try """
        # a comment
        [profile work]
        sso_session = corp
        [sso-session corp]
        sso_start_url = https://corp.awsapps.com/start
        [profile legacy]
        sso_start_url = https://old.awsapps.com/start
        """.write(toFile: home.home + "/.aws/config", atomically: true, encoding: .utf8)
        for (name, url, end) in [
            ("a", "https://corp.awsapps.com/start", "2026-12-03T10:00:00Z"),
            ("b", "https://corp.awsapps.com/start", "2026-12-03T12:00:00Z"),
            ("c", "https://old.awsapps.com/start", "2026-12-04T00:00:00.000Z"),
        ] {
            try #"{"startUrl": "\#(url)", "accessToken": "x", "expiresAt": "\#(end)"}"#.write(
                toFile: home.home + "/.aws/sso/cache/\(name).json", atomically: true, encoding: .utf8)
        }
        try "not json".write(toFile: home.home + "/.aws/sso/cache/broken.json", atomically: true, encoding: .utf8)
        try "[temp]\naws_access_key_id = ASIAEXAMPLE\naws_session_token = t\naws_expiration = 2026-12-03T13:00:00Z\n".write(
            toFile: home.home + "/.aws/credentials", atomically: true, encoding: .utf8)
        let context = ToolContext(environment: home.environment)
        let work = SessionExpiries.aws("work", in: context)
        #expect(work.map(\.ends) == [SessionExpiries.iso8601("2026-12-03T12:00:00Z")!], "the latest token of the session")
        #expect(work.first?.renew == "aws sso login --profile work")
        #expect(SessionExpiries.aws("legacy", in: context).first?.ends == SessionExpiries.iso8601("2026-12-04T00:00:00Z"))
        #expect(SessionExpiries.aws("temp", in: context).map(\.what) == ["temporary credentials"])
        #expect(SessionExpiries.aws("none", in: context).isEmpty, "nothing recorded, nothing shown")
    }

    // Bug (expiry issue): assumed-role credentials showed no end.
    @Test("an assumed role's end is read from the aws CLI's cli/cache, for that role alone, the latest; no key is decoded")
    func assumedRole() throws {
        let home = try ScratchHome(fakes: [])
        try FileManager.default.createDirectory(atPath: home.home + "/.aws/cli/cache", withIntermediateDirectories: true)
        try """
        [profile admin]
        role_arn = arn:aws:iam::123456789012:role/ops/Admin
        source_profile = base
        [profile reader]
        role_arn = arn:aws:iam::123456789012:role/Reader
        source_profile = base
        [profile base]
        region = eu-west-1
        """.write(toFile: home.home + "/.aws/config", atomically: true, encoding: .utf8)
        for (name, arn, end) in [
            ("a", "arn:aws:sts::123456789012:assumed-role/Admin/botocore-session-1", "2026-12-03T10:00:00Z"),
            ("b", "arn:aws:sts::123456789012:assumed-role/Admin/botocore-session-2", "2026-12-03T11:00:00Z"),
            ("c", "arn:aws:sts::999999999999:assumed-role/Reader/botocore-session-3", "2026-12-05T11:00:00Z"),
        ] {
            try
                #"{"Credentials": {"AccessKeyId": "ASIAEXAMPLE", "SecretAccessKey": "s", "SessionToken": "t", "Expiration": "\#(end)"}, "AssumedRoleUser": {"Arn": "\#(arn)"}}"#
                .write(toFile: home.home + "/.aws/cli/cache/\(name).json", atomically: true, encoding: .utf8)
        }
        let context = ToolContext(environment: home.environment)
        let admin = SessionExpiries.aws("admin", in: context)
        #expect(admin.map(\.ends) == [SessionExpiries.iso8601("2026-12-03T11:00:00Z")!], "the latest of the role's")
        #expect(admin.first?.what == "assumed-role credentials")
        #expect(SessionExpiries.aws("reader", in: context).isEmpty, "another AWS account's role of the same name is not this one")
        #expect(SessionExpiries.aws("base", in: context).isEmpty)
    }

    // Bug (expiry issue): Overview never showed AWS expiry, which status, verify and switch did.
    @Test("a per-shell tool's check for Overview carries its credentials' end: – when far, ✗ with what renews it once ended")
    func perShellCheck() throws {
        let home = try ScratchHome(fakes: [])
        try FileManager.default.createDirectory(atPath: home.home + "/.aws", withIntermediateDirectories: true)
        try "[temp]\naws_access_key_id = ASIAEXAMPLE\naws_session_token = t\naws_expiration = 2026-12-03T13:00:00Z\n".write(
            toFile: home.home + "/.aws/credentials", atomically: true, encoding: .utf8)
        let switcher = home.switcher()
        let end = SessionExpiries.iso8601("2026-12-03T13:00:00Z")!
        let account = Account.with("work", .make(aws: "temp"))
        let far = try #require(switcher.perShellCheck(.aws, of: account, now: end - 86_400 * 2))
        #expect(far.matches == nil && far.mark == "–")
        #expect(far.note == "temporary credentials end in 2 d")
        let ended = try #require(switcher.perShellCheck(.aws, of: account, now: end + 7200))
        #expect(ended.matches == false)
        #expect(ended.note?.hasPrefix("temporary credentials ended 2 h ago; renew: ") == true, "\(ended.note ?? "")")
        #expect(switcher.perShellCheck(.aws, of: Account.with("home", .make(aws: "none")), now: end) == nil, "nothing recorded")
    }
}
