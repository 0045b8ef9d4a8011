import Glibc
import PerchDomain
import PerchStore

extension IdentityTool {
    public static let gcloud = IdentityTool("gcloud")
}

/// `gcloud`: the active configuration. Its state is a documented file, `active_config` under
/// gcloud's folder (`$CLOUDSDK_CONFIG`, else `~/.config/gcloud`; gcloud topic configurations),
/// so it is written atomically instead of starting gcloud (which takes half a second).
public struct GcloudAdapter: ToolAdapter {
    public init() {}
    public var tool: IdentityTool { .gcloud }
    /// How a scope carries it (the man page's SCOPES).
    public var scopeCarrier: String? { "CLOUDSDK_ACTIVE_CONFIG_NAME" }
    /// Its member in the starter config, commented out.
    public var configExample: ToolConfigExample? { ToolConfigExample("\"gcloud\": \"work\"") }
    public var title: String { "Google Cloud CLI" }
    public var fieldPaths: [String] { ["gcloud.configuration"] }
    public var program: String? { "gcloud" }
    /// gcloud topic configurations: `CLOUDSDK_ACTIVE_CONFIG_NAME` beats `active_config`, and
    /// `CLOUDSDK_CORE_ACCOUNT` beats the configuration's account.
    public var overrides: [ToolOverride] {
        [
            ToolOverride("CLOUDSDK_ACTIVE_CONFIG_NAME", "gcloud topic configurations: it beats the active configuration"),
            ToolOverride("CLOUDSDK_CORE_ACCOUNT", "gcloud topic configurations: it beats the configuration's account"),
        ]
    }

    public static func setting(_ name: String) -> ToolSetting {
        ToolSetting(tool: .gcloud, summary: name, fields: [ToolField("configuration", name)], value: name)
    }

    public func read(_ reader: inout ToolMemberReader) -> ToolSetting? {
        guard let name = reader.plainOrObjectString(key: "configuration", example: #"{"configuration": "work"}"#) else { return nil }
        // gcloud's own rule for configuration names: lowercase letters, digits and hyphens, starting with a letter.
        let valid =
            name.utf8.first.map { $0 >= 0x61 && $0 <= 0x7A } == true
            && name.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
        if !valid {
            reader.problems.append(
                "\(reader.place).configuration: \"\(name)\" is not a gcloud configuration name (a–z, 0–9 and '-', starting with a letter)")
        }
        return Self.setting(name)
    }

    public func json(_ setting: ToolSetting) -> String { IdentityConfig.object([("configuration", setting.value(as: String.self))]) }

    public func wanted(_ setting: ToolSetting?, account: Account, in context: ToolContext) -> ToolState? {
        setting?.value(as: String.self).map { ToolState(["active_config": $0]) }
    }

    /// `active_config`'s name (`""` when there is none: gcloud then uses `default`) and, when
    /// the file exists, its whole text (`file`), so a give-back writes it as it was.
    public func current(in context: ToolContext) -> Result<ToolState, ToolFailure> {
        let file = ToolReaders.gcloudFolder(context.environment) + "/active_config"
        guard let bytes = try? FileSystem.read(file) else { return .success(ToolState(["active_config": ""])) }
        let text = String(decoding: bytes, as: UTF8.self)
        return .success(ToolState(["active_config": text.trimmingWhitespace, "file": text]))
    }

    public func isMet(_ wanted: ToolState, by now: ToolState) -> Bool {
        (wanted["active_config"] ?? "") == (now["active_config"] ?? "")
            || (wanted["active_config"] == "default" && now["active_config"] == "")
    }

    public func apply(_ state: ToolState, in context: ToolContext) -> ToolStep {
        let folder = ToolReaders.gcloudFolder(context.environment)
        let file = folder + "/active_config"
        let name = state["active_config"] ?? ""
        do {
            if let own = state["file"], own.trimmingWhitespace == name {
                // A before-state: the file as the user had it (a line end, an empty file).
                try FileSystem.writeAtomically(Array(own.utf8), to: file, mode: 0o644)
            } else if name.isEmpty {
                if unlink(file) != 0, errno != ENOENT { return .failed("cannot remove \(file): \(String(cString: strerror(errno)))") }
            } else {
                // gcloud refuses to activate a configuration that does not exist; so does Perch.
                if name != "default", access(folder + "/configurations/config_" + name, F_OK) != 0 {
                    return .failed("no gcloud configuration \"\(name)\" (gcloud config configurations create \(name))")
                }
                try FileSystem.writeAtomically(Array(name.utf8), to: file, mode: 0o644)
            }
        } catch {
            return .failed("\(error)")
        }
        guard case .success(let now) = current(in: context), isMet(state, by: now) else { return .failed("active_config did not change") }
        return .applied(describe(now))
    }

    public func describe(_ state: ToolState) -> String {
        let name = state["active_config"] ?? ""
        return name.isEmpty ? "default" : name
    }

    public func check(_ setting: ToolSetting, in context: ToolContext) -> IdentityCheck {
        let name = setting.value(as: String.self) ?? ""
        let actual = ToolReaders.gcloudActiveConfiguration(context.environment)
        var check = IdentityCheck(tool: .gcloud, expected: name, actual: actual, matches: actual == name)
        // The file naming it is not enough: gcloud needs the configuration itself (gcloud topic
        // configurations), except `default`, which gcloud makes itself when it is active and
        // missing (a gcloud never run yet has none).
        if actual == name, name != "default", !ToolReaders.gcloudConfigurations(context.environment).contains(name) {
            check.matches = false
            check.note = "gcloud has no configuration \(name): gcloud config configurations create \(name)"
        }
        // `CLOUDSDK_ACTIVE_CONFIG_NAME` naming this very configuration (a scope's) beats nothing.
        guard context.environment["CLOUDSDK_ACTIVE_CONFIG_NAME"] == name else { return overridden(check, in: context) }
        var scoped = context
        scoped.environment.variables.removeValue(forKey: "CLOUDSDK_ACTIVE_CONFIG_NAME")
        return overridden(check, in: scoped)
    }

    /// `CLOUDSDK_ACTIVE_CONFIG_NAME` (gcloud topic configurations: it beats `active_config` for
    /// the process that has it), with `CLOUDSDK_CORE_ACCOUNT` removed; a failure when there is
    /// no such configuration.
    public func scope(_ setting: ToolSetting?, account: Account, over environment: [String: String], in context: ToolContext)
        -> Result<ToolScope, ToolFailure>
    {
        guard let name = setting?.value(as: String.self) else { return .success(ToolScope()) }
        let folder = ToolReaders.gcloudFolder(context.environment)
        if name != "default", access(folder + "/configurations/config_" + name, F_OK) != 0 {
            return .failure(ToolFailure("no gcloud configuration \"\(name)\" (gcloud config configurations create \(name))"))
        }
        let others = removedOverrides(environment).filter { $0.name != "CLOUDSDK_ACTIVE_CONFIG_NAME" }
        return .success(ToolScope(variables: [ScopeVariable("CLOUDSDK_ACTIVE_CONFIG_NAME", name)] + others))
    }

    /// The user's own active configuration (`default` when `active_config` names none); nil
    /// when `CLOUDSDK_ACTIVE_CONFIG_NAME` of the user's own already chooses one.
    public func ownSetting(_ own: ToolState, over environment: [String: String]) -> ToolSetting? {
        guard (environment["CLOUDSDK_ACTIVE_CONFIG_NAME"] ?? "").isEmpty else { return nil }
        let name = own["active_config"] ?? ""
        return Self.setting(name.isEmpty ? "default" : name)
    }

    /// `CLOUDSDK_ACTIVE_CONFIG_NAME` naming the user's own configuration, even one gcloud no
    /// longer has (gcloud then says so, as it would without Perch); the user's own
    /// `CLOUDSDK_CORE_ACCOUNT` is theirs, and kept.
    public func sealed(_ own: ToolState, account: Account, over environment: [String: String], in context: ToolContext)
        -> Result<ToolScope, ToolFailure>
    {
        guard let name = ownSetting(own, over: environment)?.value(as: String.self) else { return .success(ToolScope()) }
        return .success(ToolScope(variables: [ScopeVariable("CLOUDSDK_ACTIVE_CONFIG_NAME", name)]))
    }

    public func importCandidates(in context: ToolContext) -> [ImportCandidate] {
        ToolReaders.gcloudConfigurations(context.environment).map {
            ImportCandidate(idBase: "gcloud-" + $0, name: $0, group: "gcloud", setting: Self.setting($0))
        }
    }
}

// MARK: - Verify

extension GcloudAdapter {
    /// gcloud itself: `gcloud config configurations list` filtered to the active one (which
    /// honours `CLOUDSDK_ACTIVE_CONFIG_NAME`), with its account and project; `CLOUDSDK_CORE_ACCOUNT`
    /// and `CLOUDSDK_CORE_PROJECT` beat those (gcloud topic configurations).
    public func ask(_ setting: ToolSetting, in context: ProofContext) -> [ToolAnswer] {
        guard let name = setting.value(as: String.self) else { return [] }
        let asked = "gcloud config configurations list --filter=is_active:true"
        let run = context.run(
            "gcloud",
            [
                "config", "configurations", "list", "--filter=is_active:true",
                "--format=value(name,properties.core.account,properties.core.project)",
            ])
        if case .notFound = run { return [.unknown("gcloud", kind: .gcloud, expected: name, reason: "gcloud not found", asked: asked)] }
        guard let output = run.output else {
            return [.unknown("gcloud", kind: .gcloud, expected: name, reason: run.failure ?? "gcloud failed", asked: asked)]
        }
        let fields = output.trimmingWhitespace.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        let active = fields.first ?? ""
        let environment = context.tool.environment
        let account = environment["CLOUDSDK_CORE_ACCOUNT"] ?? (fields.count > 1 ? fields[1] : "")
        let project = environment["CLOUDSDK_CORE_PROJECT"] ?? (fields.count > 2 ? fields[2] : "")
        var answer = active.isEmpty ? "(no active configuration)" : active
        if !account.isEmpty { answer += ", account \(account)" }
        if !project.isEmpty { answer += ", project \(project)" }
        let variables = ["CLOUDSDK_ACTIVE_CONFIG_NAME", "CLOUDSDK_CORE_ACCOUNT"].filter { environment[$0] != nil }
        let agrees = active == name && environment["CLOUDSDK_CORE_ACCOUNT"] == nil
        let reason =
            !variables.isEmpty
            ? variables.map { "\($0)=\(environment[$0]!)" }.joined(separator: ", ") + " in this environment beats the active configuration"
            : "gcloud's active configuration is \(active.isEmpty ? "none" : active)"
        return [
            ToolAnswer(
                tool: "gcloud", kind: .gcloud, expected: name, answer: answer, verdict: agrees ? .agrees : .disagrees,
                reason: agrees ? nil : reason,
                fix: agrees ? nil : variables.isEmpty ? "perch switch \(context.account.id)" : "unset " + variables.joined(separator: " "),
                asked: asked)
        ]
    }
}

// MARK: - Agents

extension GcloudAdapter {
    /// An empty gcloud config folder of Perch's (`CLOUDSDK_CONFIG`), and no configuration,
    /// account or project chosen by a variable of the user's.
    public func closed(in folder: String) throws(ToolFailure) -> [ScopeVariable] {
        [ScopeVariable("CLOUDSDK_CONFIG", try closedFile("gcloud", in: folder))]
            + [
                "CLOUDSDK_ACTIVE_CONFIG_NAME", "CLOUDSDK_CORE_ACCOUNT", "CLOUDSDK_CORE_PROJECT", "CLOUDSDK_AUTH_ACCESS_TOKEN_FILE",
                "CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE", "GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_OAUTH_ACCESS_TOKEN",
            ].map { ScopeVariable($0, nil) }
    }
}
