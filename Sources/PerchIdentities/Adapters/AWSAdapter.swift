import PerchDomain
import PerchStore

extension IdentityTool {
    public static let aws = IdentityTool("aws")
}

/// `aws`: the profile, exported per shell as `AWS_PROFILE` (nothing global changes).
public struct AWSAdapter: PerShellToolAdapter {
    public init() {}
    public var tool: IdentityTool { .aws }
    /// Its member in the starter config, commented out.
    public var configExample: ToolConfigExample? { ToolConfigExample("\"aws\": \"work-admin\"") }
    /// Its proof asks the server whom the key or token belongs to: `expect` may name it.
    public var acceptsExpectation: Bool { true }
    public var title: String { "AWS CLI" }
    public var fieldPaths: [String] { ["aws.profile"] }
    /// The AWS CLI's "Environment variables to configure the AWS CLI": static keys beat any
    /// profile; the aws CLI v1 (botocore) reads `AWS_DEFAULT_PROFILE` before `AWS_PROFILE`.
    public var exportedNames: [String] { ["AWS_PROFILE"] }
    public var overrides: [ToolOverride] {
        [
            ToolOverride("AWS_DEFAULT_PROFILE", "botocore #1725: the aws CLI v1 reads it before AWS_PROFILE"),
            ToolOverride("AWS_ACCESS_KEY_ID", "aws cli environment variables: static keys beat the profile"),
            ToolOverride("AWS_SECRET_ACCESS_KEY", "aws cli environment variables: static keys beat the profile"),
            ToolOverride("AWS_SESSION_TOKEN", "aws cli environment variables: static keys beat the profile"),
        ]
    }

    public static func setting(_ profile: String) -> ToolSetting {
        ToolSetting(
            tool: .aws, isPerShell: true, summary: "AWS_PROFILE=\(profile)", fields: [ToolField("profile", profile)],
            exports: [EnvironmentEntry(name: "AWS_PROFILE", value: profile)], value: profile)
    }

    public func read(_ reader: inout ToolMemberReader) -> ToolSetting? {
        guard let profile = reader.plainOrObjectString(key: "profile", example: #"{"profile": "work"}"#) else { return nil }
        if profile.contains(where: { $0 == "[" || $0 == "]" || $0 == "#" || $0 == ";" }) || ToolGrammar.plainNameProblem(profile) != nil {
            reader.problems.append("\(reader.place).profile: \"\(profile)\" is not a profile name")
        }
        return Self.setting(profile)
    }

    public func json(_ setting: ToolSetting) -> String { IdentityConfig.object([("profile", setting.value(as: String.self))]) }

    /// A profile that is in neither the shared config file (`[profile NAME]`, `[default]`) nor
    /// the credentials file (`[NAME]`), as Perch reads them, is asked of the aws CLI itself
    /// (`aws configure list --profile NAME`, versions 1 and 2, the authority, asked only then):
    /// unusable when aws says it `could not be found`. Nil when aws is not installed or says
    /// anything else.
    public func unusable(_ setting: ToolSetting, in context: ToolContext) -> String? {
        guard let profile = setting.value(as: String.self) else { return nil }
        let environment = context.environment
        if ToolReaders.awsProfiles(environment).contains(profile) || ToolReaders.awsCredentialProfiles(environment).contains(profile) {
            return nil
        }
        guard case .exited(let status, _, let stderr) = context.run("aws", ["configure", "list", "--profile", profile]), status != 0,
            stderr.contains("could not be found")
        else { return nil }
        return "the AWS profile \(profile) does not exist (aws: could not be found); make it with aws configure --profile \(profile)"
    }

    public func importCandidates(in context: ToolContext) -> [ImportCandidate] {
        ToolReaders.awsProfiles(context.environment).map {
            ImportCandidate(idBase: "aws-" + $0, name: $0, group: "AWS", setting: Self.setting($0))
        }
    }
}

// MARK: - Verify

extension AWSAdapter {
    /// The aws CLI itself: `aws configure list` (the profile it uses here and where that came
    /// from: `env`, `manual`, none), and whether static keys in the environment beat it.
    public func ask(_ setting: ToolSetting, in context: ProofContext) -> [ToolAnswer] {
        guard let profile = setting.value(as: String.self) else { return [] }
        let asked = "aws configure list"
        let run = context.run("aws", ["configure", "list"])
        switch run {
        case .notFound:
            return [.unknown("aws", kind: .aws, expected: profile, reason: "aws not found", asked: asked)]
        case .exited(0, let stdout, _):
            let rows = Self.configureList(stdout)
            let used = rows["profile"]
            let name = used.map(\.value).flatMap { $0 == "<not set>" ? nil : $0 } ?? "default"
            // The type only (`env`, `manual`): aws CLI v1's location is a Python list of every variable it reads.
            let source = used.map { $0.type == "None" || $0.type.isEmpty ? "" : " (\($0.type))" } ?? ""
            let keys = rows["access_key"].map { $0.type == "env" } ?? false
            if keys {
                return [
                    ToolAnswer(
                        tool: "aws", kind: .aws, expected: profile, answer: "\(name)\(source), access key from the environment",
                        verdict: .disagrees, reason: "AWS_ACCESS_KEY_ID in this environment beats any profile",
                        fix: "unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN", asked: asked)
                ]
            }
            let fix =
                context.tool.environment["AWS_DEFAULT_PROFILE"] != nil && context.tool.environment["AWS_PROFILE"] == profile
                ? "unset AWS_DEFAULT_PROFILE" : "eval \"$(perch env \(context.account.id))\" (or perch shell-init in your shell's rc file)"
            return [
                .judged(
                    "aws", kind: .aws, expected: profile, answer: name + source, agrees: name == profile,
                    reason: "aws uses the profile \(name) in this environment", fix: fix, asked: asked)
            ]
        default:
            // `The config profile (work) could not be found`: the profile the shell names is missing.
            return [
                ToolAnswer(
                    tool: "aws", kind: .aws, expected: profile, answer: nil, verdict: .disagrees, reason: run.failure ?? "aws failed",
                    fix: "aws configure --profile \(profile)", asked: asked)
            ]
        }
    }

    /// The rows of `aws configure list` by name: value, type and location; a value the CLI
    /// prints as `<not set>` (both versions, one space inside) is one word.
    static func configureList(_ output: String) -> [String: (value: String, type: String, location: String)] {
        var rows: [String: (value: String, type: String, location: String)] = [:]
        for line in output.split(whereSeparator: \.isNewline) {
            // Bug: the aws CLI's `<not set>` was split at its space, so verify said
            // `says <not (set>)` and `aws uses the profile <not in this environment`.
            let joined = String(line).replacing("<not set>", with: "<not\u{A0}set>")
            let words = joined.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true).map {
                String($0).trimmingWhitespace.replacing("<not\u{A0}set>", with: "<not set>")
            }
            guard words.count >= 2, ["profile", "access_key", "secret_key", "region"].contains(words[0]) else { continue }
            rows[words[0]] = (words[1], words.count > 2 ? words[2] : "", words.count > 3 ? words[3] : "")
        }
        return rows
    }

    /// `aws sts get-caller-identity`, as aws runs in this environment (the profile it resolves
    /// here, not the account's: the server's answer is for what this shell would use): the
    /// account number and ARN the credentials belong to (the account's `expect.aws` names the
    /// number or the ARN it should be).
    public func askServer(_ setting: ToolSetting, in context: ProofContext) -> [ToolAnswer] {
        guard setting.value(as: String.self) != nil else { return [] }
        let profile = context.tool.environment["AWS_PROFILE"] ?? context.tool.environment["AWS_DEFAULT_PROFILE"] ?? "default"
        let expected = context.account.identities.expect["aws"] ?? ""
        let seconds = max(1, (context.tool.timeout + 999) / 1000)
        let arguments = [
            "sts", "get-caller-identity", "--query", "[Account,Arn]", "--output", "text",
            "--cli-connect-timeout", "\(seconds)", "--cli-read-timeout", "\(seconds)",
        ]
        let asked = "aws sts get-caller-identity"
        let run = context.run("aws", arguments)
        switch run {
        case .notFound:
            return [.unknown("aws (server)", kind: .aws, expected: expected, reason: "aws not found", asked: asked, online: true)]
        case .exited(0, let stdout, _):
            let fields = stdout.trimmingWhitespace.split(whereSeparator: { $0 == "\t" || $0 == " " }).map(String.init)
            guard fields.count >= 2 else {
                return [
                    .unknown(
                        "aws (server)", kind: .aws, expected: expected, reason: "an answer Perch cannot read", asked: asked, online: true)
                ]
            }
            let agrees = fields[0] == expected || fields[1] == expected
            return [
                .judged(
                    "aws (server)", kind: .aws, expected: expected, answer: "account \(fields[0]), \(fields[1])", agrees: agrees,
                    reason: "the credentials of \(profile) belong to \(fields[1])",
                    fix: "aws configure --profile \(profile) (or aws sso login --profile \(profile))", asked: asked, online: true)
            ]
        default:
            let failure = run.failure ?? "no answer"
            let unreachable = ["Could not connect", "timed out", "Connect timeout", "Read timeout", "Name or service not known"]
                .contains { failure.contains($0) }
            if unreachable || { if case .timedOut = run { true } else { false } }() {
                return [
                    .unknown(
                        "aws (server)", kind: .aws, expected: expected, reason: "could not reach AWS: \(failure)", asked: asked,
                        online: true)
                ]
            }
            return [
                ToolAnswer(
                    tool: "aws (server)", kind: .aws, expected: expected, answer: nil, verdict: .disagrees,
                    reason: "AWS refused the credentials of \(profile): \(failure)",
                    fix: "aws configure --profile \(profile) (or aws sso login --profile \(profile))", asked: asked, online: true)
            ]
        }
    }
}

// MARK: - Agents

extension AWSAdapter {
    /// Empty config and credentials files of Perch's, and no profile or key of the user's.
    public func closed(in folder: String) throws(ToolFailure) -> [ScopeVariable] {
        [
            ScopeVariable("AWS_CONFIG_FILE", try closedFile("aws-config", in: folder, text: "")),
            ScopeVariable("AWS_SHARED_CREDENTIALS_FILE", try closedFile("aws-credentials", in: folder, text: "")),
        ]
            + [
                "AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_ROLE_ARN",
                "AWS_ROLE_SESSION_NAME", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CONTAINER_CREDENTIALS_FULL_URI",
                "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_AUTHORIZATION_TOKEN", "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE",
            ].map {
                ScopeVariable($0, nil)
            }
    }
}
