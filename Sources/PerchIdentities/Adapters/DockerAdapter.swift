import Glibc
import PerchDomain
import PerchStore

extension IdentityTool {
    public static let docker = IdentityTool("docker")
}

/// `docker`: the Docker CLI's context, applied with `docker context use NAME`, checked with
/// `docker context show`, and exported per shell as `DOCKER_CONTEXT` (docker context(1)).
public struct DockerAdapter: ToolAdapter {
    public init() {}
    public var tool: IdentityTool { .docker }
    /// Its member in the starter config, commented out.
    public var configExample: ToolConfigExample? { ToolConfigExample("\"docker\": \"work\"") }
    public var title: String { "Docker" }
    public var fieldPaths: [String] { ["docker.context"] }
    public var program: String? { "docker" }
    /// Docker's "Use the CLI: environment variables": `DOCKER_HOST` beats the context.
    public var exportedNames: [String] { ["DOCKER_CONTEXT"] }
    public var overrides: [ToolOverride] {
        [ToolOverride("DOCKER_HOST", "docker cli environment variables: DOCKER_HOST beats the context")]
    }

    public static func setting(_ name: String) -> ToolSetting {
        ToolSetting(
            tool: .docker, summary: name, fields: [ToolField("context", name)],
            exports: [EnvironmentEntry(name: "DOCKER_CONTEXT", value: name)], value: name)
    }

    public func read(_ reader: inout ToolMemberReader) -> ToolSetting? {
        guard let name = reader.plainOrObjectString(key: "context", example: #"{"context": "remote"}"#) else { return nil }
        if name.contains(where: { $0 == "/" }) || ToolGrammar.plainNameProblem(name) != nil {
            reader.problems.append("\(reader.place).context: \"\(name)\" is not a docker context name")
        }
        return Self.setting(name)
    }

    public func json(_ setting: ToolSetting) -> String { IdentityConfig.object([("context", setting.value(as: String.self))]) }

    public func wanted(_ setting: ToolSetting?, account: Account, in context: ToolContext) -> ToolState? {
        setting?.value(as: String.self).map { ToolState(["context": $0]) }
    }

    public func current(in context: ToolContext) -> Result<ToolState, ToolFailure> {
        // What the CLI uses: DOCKER_CONTEXT is exported by Perch itself, so the global one is asked.
        var global = context
        global.environment.variables["DOCKER_CONTEXT"] = nil
        let run = global.run("docker", ["context", "show"])
        if case .notFound = run { return .failure(ToolFailure("docker not found")) }
        guard let output = run.output else { return .failure(ToolFailure("docker context show \(run.failure ?? "failed")")) }
        // Whether docker's config.json exists: docker makes it at `docker context use`, and a
        // give-back to a state without one removes it again (``apply(_:in:)``).
        return .success(
            ToolState(["context": output.trimmingWhitespace, "config": access(Self.configFile(context.environment), F_OK) == 0 ? "1" : "0"])
        )
    }

    /// docker's config.json: in `$DOCKER_CONFIG`, else `~/.docker` (docker config-file(5)).
    static func configFile(_ environment: IdentityEnvironment) -> String {
        (environment["DOCKER_CONFIG"].map(environment.expandingTilde) ?? environment.home + "/.docker") + "/config.json"
    }

    /// The global context `docker context show` names, read from its files (docker context(1),
    /// "docker CLI environment variables"), for the one case that needs no more: config.json
    /// missing, or a JSON object whose `currentContext` is missing, empty or `default`, gives
    /// `default`. `DOCKER_CONTEXT` is left out, as ``current(in:)`` leaves it out. Nil (docker is
    /// asked) when `DOCKER_HOST` is set, when config.json does not read as a JSON object, and
    /// for any other context, whose existence only docker can tell. Proved against docker by
    /// DockerContextReaderTests.
    public func currentFromFiles(in context: ToolContext) -> ToolState? {
        let environment = context.environment
        if let host = environment["DOCKER_HOST"], !host.isEmpty { return nil }
        let file = Self.configFile(environment)
        let exists = access(file, F_OK) == 0
        var name = "default"
        if exists {
            guard let bytes = try? FileSystem.read(file), let document = try? JSONReader.read(bytes),
                document.kind(document.root) == .object
            else { return nil }
            for (key, value) in document.members(document.root) where document.string(key) == "currentContext" {
                // The last of a repeated key wins, as in docker's JSON decoding.
                guard document.kind(value) == .string, let text = document.string(value) else { return nil }
                name = text.isEmpty ? "default" : text
            }
        }
        // A named context must exist for docker to name it; anything unusual is docker's to say.
        guard name == "default" else { return nil }
        return ToolState(["context": name, "config": exists ? "1" : "0"])
    }

    /// Only the context is compared: whether config.json exists is given back, never asked for.
    public func isMet(_ wanted: ToolState, by now: ToolState) -> Bool {
        (wanted["context"] ?? "") == (now["context"] ?? "")
    }

    public func apply(_ state: ToolState, in context: ToolContext) -> ToolStep {
        let name = state["context"] ?? "default"
        let run = context.run("docker", ["context", "use", name.isEmpty ? "default" : name])
        if case .notFound = run { return .failed(SwitchSession.unreadableDetail(self, ToolFailure("docker not found"), in: context)) }
        if let failure = run.failure {
            // Bug: docker's own text (a path under contexts/meta/) beside kube's helpful one.
            if failure.contains("context not found") { return .failed("no docker context \"\(name)\" (docker context ls lists them)") }
            return .failed(failure)
        }
        guard case .success(let now) = current(in: context), isMet(state, by: now) else {
            return .failed("docker context show reports another context after docker context use")
        }
        // Bug: config.json, made by docker during `docker context use`, stayed after a give-back
        // (perch reset) to a state without it. Removed only when it holds what docker wrote
        // there and nothing else (`{"auths": {}}`): a login made meanwhile keeps it.
        if state["config"] == "0", now["config"] == "1" {
            let file = Self.configFile(context.environment)
            if let bytes = try? FileSystem.read(file),
                String(decoding: bytes, as: UTF8.self).filter({ !$0.isWhitespace }) == #"{"auths":{}}"#
            {
                unlink(file)
            }
        }
        return .applied(describe(now))
    }

    public func describe(_ state: ToolState) -> String { state["context"].flatMap { $0.isEmpty ? nil : $0 } ?? "default" }

    public func importCandidates(in context: ToolContext) -> [ImportCandidate] { [] }

    /// The user's own context (`default` when none is named); nil when `DOCKER_CONTEXT` or
    /// `DOCKER_HOST` of the user's own already chooses one.
    public func ownSetting(_ own: ToolState, over environment: [String: String]) -> ToolSetting? {
        guard (environment["DOCKER_CONTEXT"] ?? "").isEmpty, (environment["DOCKER_HOST"] ?? "").isEmpty else { return nil }
        let name = own["context"] ?? ""
        return Self.setting(name.isEmpty ? "default" : name)
    }

    /// In a scope (`PERCH_SCOPE` set), `DOCKER_CONTEXT` is the scope's own choice, which the
    /// docker CLI honours: the context `docker context show` gives with it is checked. Elsewhere
    /// the global context is (``current(in:)``), as a switch sets it.
    public func check(_ setting: ToolSetting, in context: ToolContext) -> IdentityCheck {
        let name = setting.value(as: String.self) ?? ""
        guard IdentityScope.kind(context.environment.variables) != nil, context.environment["DOCKER_CONTEXT"] != nil else {
            return defaultCheck(setting, in: context)
        }
        let run = context.run("docker", ["context", "show"])
        guard let shown = run.output?.trimmingWhitespace, !shown.isEmpty else {
            return IdentityCheck(
                tool: .docker, expected: name, actual: nil, matches: nil, note: run.failure ?? "docker context show failed")
        }
        return overridden(IdentityCheck(tool: .docker, expected: name, actual: shown, matches: shown == name), in: context)
    }
}

// MARK: - Verify

extension DockerAdapter {
    /// The docker CLI itself: `docker context show` (which honours `DOCKER_CONTEXT`); a set
    /// `DOCKER_HOST` beats any context (docker cli environment variables).
    public func ask(_ setting: ToolSetting, in context: ProofContext) -> [ToolAnswer] {
        guard let name = setting.value(as: String.self) else { return [] }
        let asked = "docker context show"
        let run = context.run("docker", ["context", "show"])
        if case .notFound = run { return [.unknown("docker", kind: .docker, expected: name, reason: "docker not found", asked: asked)] }
        guard let shown = run.output?.trimmingWhitespace, !shown.isEmpty else {
            return [
                .unknown("docker", kind: .docker, expected: name, reason: run.failure ?? "docker context show said nothing", asked: asked)
            ]
        }
        if let host = context.tool.environment["DOCKER_HOST"] {
            return [
                ToolAnswer(
                    tool: "docker", kind: .docker, expected: name, answer: "\(shown), DOCKER_HOST=\(host)", verdict: .disagrees,
                    reason: "DOCKER_HOST in this environment beats the context", fix: "unset DOCKER_HOST", asked: asked)
            ]
        }
        let fix =
            context.tool.environment["DOCKER_CONTEXT"] != nil
            ? "eval \"$(perch env \(context.account.id))\"" : "perch switch \(context.account.id)"
        return [
            .judged(
                "docker", kind: .docker, expected: name, answer: shown, reason: "docker uses the context \(shown)", fix: fix, asked: asked)
        ]
    }
}

// MARK: - Agents

extension DockerAdapter {
    /// An empty docker config folder of Perch's (`DOCKER_CONFIG`: no context, no credentials),
    /// and no context or host of the user's.
    public func closed(in folder: String) throws(ToolFailure) -> [ScopeVariable] {
        [ScopeVariable("DOCKER_CONFIG", try closedFile("docker", in: folder))]
            + ["DOCKER_CONTEXT", "DOCKER_HOST", "DOCKER_AUTH_CONFIG", "DOCKER_CERT_PATH", "DOCKER_TLS_VERIFY"].map {
                ScopeVariable($0, nil)
            }
    }
}
