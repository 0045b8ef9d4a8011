import Foundation
import PerchDomain
import PerchIdentities
import PerchInterface
import Testing

@testable import PerchStore

private func account(_ fields: String) -> [UInt8] {
    Array(#"{"version": 1, "accounts": [{"id": "a", "name": "A", \#(fields)}]}"#.utf8)
}

private func problems(_ fields: String) -> [String] {
    do {
        _ = try ConfigLoader.parse(account(fields), path: "c.json")
        return []
    } catch {
        // Each message starts with the line and column of its tool's value; the rest is compared.
        if case .invalid(_, let problems) = error { return problems.map { String($0.split(separator: ": ", maxSplits: 1).last ?? "") } }
        return ["\(error)"]
    }
}

@Suite("Tool identities in the config")
struct IdentityConfigTests {
    init() { ToolAdapters.installShipped() }

    @Test("every tool is read, in every form it may be written")
    func everyTool() throws {
        let parsed = try ConfigLoader.parse(
            account(
                #""git": {"name": "Ada", "email": "ada@work.example", "signingKey": "ABC"}, "ssh": {"host": ["github.com", "*.corp"], "identityFile": "~/.ssh/id_work"}, "kube": {"context": "prod", "namespace": "web"}, "gcloud": "work", "aws": {"profile": "work-admin"}, "gh": {"user": "ada", "host": "ghe.corp"}, "env": {"TEAM": "web", "A_1": "x"}"#
            ), path: "c.json")
        let identities = parsed.accounts[0].identities
        #expect(identities.git == .init(name: "Ada", email: "ada@work.example", signingKey: "ABC"))
        #expect(identities.ssh == .init(hosts: ["github.com", "*.corp"], identityFile: "~/.ssh/id_work"))
        #expect(identities.kube == .init(context: "prod", namespace: "web"))
        #expect(identities.gcloud == "work")
        #expect(identities.aws == "work-admin")
        #expect(identities.gh == .init(user: "ada", host: "ghe.corp"))
        #expect(identities.env == [.init(name: "A_1", value: "x"), .init(name: "TEAM", value: "web")])
        #expect(identities.tools == [.git, .ssh, .kube, .gcloud, .gh, .aws, .env], "the registry's order a switch applies them in")
        let objectForm = try ConfigLoader.parse(
            account(#""gcloud": {"configuration": "work"}, "ssh": {"host": "h", "identityFile": "f"}"#), path: "c")
        #expect(objectForm.accounts[0].identities.gcloud == "work")
        #expect(objectForm.accounts[0].identities.ssh?.hosts == ["h"])
    }

    @Test("an account without identities has none, and null is the same as absent")
    func none() throws {
        #expect(try ConfigLoader.parse(account(#""kube": null"#), path: "c").accounts[0].identities.isEmpty)
    }

    @Test(
        "each identity rule refuses with its JSON path",
        arguments: [
            (#""kube": {"namespace": "web"}"#, ["accounts[0].kube.context: missing (required)"]),
            (#""kube": "prod""#, [#"accounts[0].kube: expected an object like {"context": "prod", "namespace": "web"}, found a string"#]),
            (#""git": {}"#, ["accounts[0].git: name at least one of name, email, signingKey"]),
            (#""git": {"email": "ada"}"#, [#"accounts[0].git.email: "ada" has no @"#]),
            (#""git": {"name": 3}"#, ["accounts[0].git.name: expected a string, found a number"]),
            (#""ssh": {"host": [], "identityFile": "f"}"#, ["accounts[0].ssh.host: the list is empty; name at least one host"]),
            (
                #""ssh": {"host": "a b", "identityFile": "f"}"#,
                ["accounts[0].ssh.host: must be one host pattern (letters, digits and . - _ * ? ! [ ] : @ %), not a space"]
            ),
            // A comma would split the pattern in the Match line Perch writes (ssh_config(5), PATTERNS).
            (
                #""ssh": {"host": ["x", "a,b"], "identityFile": "f"}"#,
                ["accounts[0].ssh.host[1]: must be one host pattern (letters, digits and . - _ * ? ! [ ] : @ %), not ','"]
            ),
            // Bug (trust issue): ssh read `Match originalhost github.com=exec=CMD …` as `Match … exec CMD` and ran it.
            (
                #""ssh": {"host": "github.com=exec=touch", "identityFile": "f"}"#,
                ["accounts[0].ssh.host: must be one host pattern (letters, digits and . - _ * ? ! [ ] : @ %), not '='"]
            ),
            // Bug (trust issue): a quote in ssh.host, identityFile or agent made ssh refuse its whole config.
            (
                #""ssh": {"host": "a\"b", "identityFile": "~/.ssh/id\"x", "agent": "~/a'b"}"#,
                [
                    #"accounts[0].ssh.host: must be one host pattern (letters, digits and . - _ * ? ! [ ] : @ %), not '"'"#,
                    "accounts[0].ssh.identityFile: must be a plain path, without a quote",
                    "accounts[0].ssh.agent: must be a plain path, without a quote",
                ]
            ),
            (
                #""ssh": {"host": "h", "identityFile": "~/.ssh/id_%h"}"#,
                ["accounts[0].ssh.identityFile: must be a plain path, without a % (ssh expands its tokens)"]
            ),
            (#""kube": {"context": "a\"b"}"#, [#"accounts[0].kube.context: must not hold '"'"#]),
            (#""kube": {"context": "prod", "namespace": " web"}"#, ["accounts[0].kube.namespace: must not start or end with a space"]),
            (#""gh": {"user": "ada\u001b[31m"}"#, ["accounts[0].gh.user: must not hold the control character U+001B"]),
            (
                #""git": {"email": "a@b\nc"}"#,
                ["accounts[0].git: the email must not hold a control character (a line break, a tab, an escape)"]
            ),
            // Bug (trust issue): env could set Perch's own PERCH_SCOPE* variables.
            (
                #""env": {"PERCH_SCOPE_SAVED": "{}"}"#,
                ["accounts[0].env.PERCH_SCOPE_SAVED: PERCH_ variables are Perch's own and cannot be set from the config"]
            ),
            (#""ssh": {"host": "h"}"#, ["accounts[0].ssh.identityFile: missing (required)"]),
            (
                #""gcloud": "Work_1""#,
                [
                    #"accounts[0].gcloud.configuration: "Work_1" is not a gcloud configuration name (a–z, 0–9 and '-', starting with a letter)"#
                ]
            ),
            (#""aws": {"profile": ""}"#, ["accounts[0].aws.profile: must not be empty"]),
            (#""gh": {"host": "github.com"}"#, ["accounts[0].gh.user: missing (required)"]),
            (
                #""env": {"1X": "v"}"#,
                [#"accounts[0].env.1X: "1X" is not a variable name (A–Z, a–z, 0–9 and '_', not starting with a digit)"#]
            ),
            (#""env": {"AWS_PROFILE": "v"}"#, [#"accounts[0].env.AWS_PROFILE: Perch sets AWS_PROFILE itself (use "aws": …)"#]),
            (#""env": {"X": 1}"#, ["accounts[0].env.X: expected a string, found a number"]),
            (#""env": ["X"]"#, [#"accounts[0].env: expected an object of names and values, like {"TEAM": "web"}"#]),
        ])
    func refusals(fields: String, expected: [String]) {
        #expect(problems(fields) == expected)
    }

    @Test("a value that looks like a token is a warning, not an error; unknown keys inside a tool are warnings")
    func warnings() throws {
        let parsed = try ConfigLoader.parse(
            account(
                #""env": {"GH": "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "NOTE": "a plain value"}, "kube": {"context": "c", "namespce": "x"}"#
            ),
            path: "c")
        #expect(
            parsed.warnings.contains { $0.hasPrefix("line 1, column ") && $0.contains(": accounts[0].env.GH: looks like a secret") },
            "\(parsed.warnings)")
        #expect(!parsed.warnings.contains { $0.contains("NOTE") })
        #expect(parsed.warnings.contains { $0.hasSuffix(#"accounts[0].kube.namespce: unknown key, ignored (did you mean "namespace"?)"#) })
        #expect(parsed.accounts[0].identities.kube == .init(context: "c"))
    }

    @Test("the config writer writes identities that load back the same, several accounts in one write")
    func writerRoundTrip() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/accounts.json"
            try Data(#"{"accounts": [{"id": "a", "name": "A"}]}"#.utf8).write(to: URL(fileURLWithPath: path))
            let imported = [
                Account(
                    id: "kube-prod", name: "prod", group: "Kubernetes",
                    identities: ToolIdentities.make(
                        git: .init(name: "A \"q\"", email: "a@b"), ssh: .init(hosts: ["h1", "h2"], identityFile: "~/k"),
                        kube: .init(context: "prod", namespace: "ns"), gcloud: "g", gh: .init(user: "u"), aws: "p",
                        env: [.init(name: "T", value: "v\\'")])),
                Account(id: "aws-dev", name: "dev", identities: ToolIdentities.make(aws: "dev")),
            ]
            let outcome = try ConfigWriter.append(contentsOf: imported, to: path, samples: [])
            #expect(outcome.accounts.count == 3)
            let loaded = try ConfigLoader.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))), path: path)
            #expect(Array(loaded.accounts.suffix(2)) == imported)
            let backup = try String(contentsOfFile: path + ".bak", encoding: .utf8)
            #expect(backup == #"{"accounts": [{"id": "a", "name": "A"}]}"#, "the .bak is the file before the whole import")
        }
    }

    @Test("the sample accounts name only a harmless variable, no tool")
    func samples() {
        for account in Account.samples {
            #expect(account.identities.tools == [.env])
            #expect(account.identities.env.map(\.name) == ["SAMPLE_ROLE"])
        }
    }
}
