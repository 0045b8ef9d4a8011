import PerchCore
import PerchStore

extension IdentityTool {
    public static let aws = IdentityTool("aws")
}

/// `aws`: the profile, exported per shell as `AWS_PROFILE` (nothing global changes).
public struct AWSAdapter: PerShellToolAdapter {
    public init() {}
    public var tool: IdentityTool { .aws }
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
        if profile.contains(where: { $0.isNewline || $0 == "[" || $0 == "]" }) {
            reader.problems.append("\(reader.place).profile: \"\(profile)\" is not a profile name")
        }
        return Self.setting(profile)
    }

    public func json(_ setting: ToolSetting) -> String { IdentityConfig.object([("profile", setting.value(as: String.self))]) }



    public func importCandidates(in context: ToolContext) -> [ImportCandidate] {
        ToolReaders.awsProfiles(context.environment).map {
            ImportCandidate(idBase: "aws-" + $0, name: $0, group: "AWS", setting: Self.setting($0))
        }
    }
}
