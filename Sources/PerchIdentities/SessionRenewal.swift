import PerchDomain
import PerchStore

/// What renews an account's credentials for one tool: the tool's own login, run on the
/// terminal (`perch renew`), or, where no login of the tool's does it, what does.
public enum SessionRenewal: Hashable, Sendable {
    /// Run `program` with `arguments` (and `variables` added to the environment) on the
    /// terminal; `shown` is the command as a person would type it.
    case run(tool: IdentityTool, program: String, arguments: [String], variables: [String: String], shown: String)
    /// Nothing to run: why, and what renews it.
    case say(tool: IdentityTool, String)

    /// The tool.
    public var tool: IdentityTool {
        switch self {
        case .run(let tool, _, _, _, _), .say(let tool, _): tool
        }
    }

    /// The tools `perch renew` knows, in the order it renews them.
    public static let tools: [IdentityTool] = [.aws, .gcloud, .kube]

    /// What renews `account`'s credentials for each of ``tools`` it names (of `tool` only, when
    /// given), in that order.
    ///
    /// - aws: an SSO profile (`sso_session` or `sso_start_url` in the aws config) runs `aws sso
    ///   login --profile P`; a profile that assumes a role (`role_arn`) and one of plain keys are
    ///   said (the aws CLI assumes the role again by itself while its source credentials hold).
    /// - gcloud: `gcloud auth login`, with `CLOUDSDK_ACTIVE_CONFIG_NAME` naming the account's
    ///   configuration, so the login is kept there.
    /// - kube: said: a client certificate's renewal is the cluster administrator's; an exec
    ///   plugin (`users[].user.exec.command`, asked of kubectl) is run by kubectl itself when a
    ///   credential is needed, and is never run by Perch (its output is a credential).
    public static func plans(_ account: Account, tool: IdentityTool? = nil, in context: ToolContext) -> [SessionRenewal] {
        var plans: [SessionRenewal] = []
        for candidate in tools where tool == nil || tool == candidate {
            guard let setting = account.identities[candidate] else { continue }
            switch candidate {
            case .aws:
                guard let profile = setting.value(as: String.self) else { continue }
                let files = SessionExpiries.awsFiles(context.environment)
                let config = SessionExpiries.sections(
                    (try? FileSystem.read(files.config)).map { String(decoding: $0.prefix(1 << 20), as: UTF8.self) } ?? "")
                let section = config[profile == "default" ? "default" : "profile \(profile)"] ?? [:]
                if section["sso_session"] != nil || section["sso_start_url"] != nil {
                    plans.append(
                        .run(
                            tool: .aws, program: "aws", arguments: ["sso", "login", "--profile", profile], variables: [:],
                            shown: "aws sso login --profile \(profile)"))
                } else if section["role_arn"] != nil {
                    plans.append(
                        .say(
                            tool: .aws,
                            "the profile \(profile) assumes a role: the aws CLI assumes it again by itself while its source profile's credentials hold (aws sts get-caller-identity --profile \(profile) shows it)"
                        ))
                } else {
                    plans.append(
                        .say(
                            tool: .aws,
                            "the profile \(profile) is not an SSO profile: no login of aws renews it (renew its keys with the tool that wrote them)"
                        ))
                }
            case .gcloud:
                guard let name = setting.value(as: String.self) else { continue }
                plans.append(
                    .run(
                        tool: .gcloud, program: "gcloud", arguments: ["auth", "login"], variables: ["CLOUDSDK_ACTIVE_CONFIG_NAME": name],
                        shown: "CLOUDSDK_ACTIVE_CONFIG_NAME=\(name) gcloud auth login"))
            case .kube:
                guard let kube = setting.value(as: KubeAdapter.Setting.self) else { continue }
                var inputs: [String] = []
                if let end = SessionExpiries.kubeCertificate(kube.context, in: context, inputs: &inputs), let renew = end.renew {
                    plans.append(.say(tool: .kube, renew))
                    continue
                }
                let plugin =
                    context.run(
                        "kubectl",
                        ["config", "view", "--minify", "--context", kube.context, "-o", "jsonpath={.users[0].user.exec.command}"]
                    ).output?.trimmingWhitespace ?? ""
                plans.append(
                    .say(
                        tool: .kube,
                        plugin.isEmpty
                            ? "the context \(kube.context) has no credential Perch can renew (no exec plugin, no client certificate)"
                            : "the context \(kube.context) gets its credential from its exec plugin \(plugin), which kubectl runs when one is needed: any kubectl command renews it (kubectl --context \(kube.context) get --raw /version)"
                    ))
            default: continue
            }
        }
        return plans
    }
}
