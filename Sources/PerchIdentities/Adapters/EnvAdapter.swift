import PerchDomain
import PerchStore

extension IdentityTool {
    public static let env = IdentityTool("env")
}

/// `env`: variables exported per shell (`perch env`) and passed to hooks.
public struct EnvAdapter: PerShellToolAdapter {
    public init() {}
    public var tool: IdentityTool { .env }
    /// Its member in the starter config, left on: it only changes a shell.
    public var configExample: ToolConfigExample? { ToolConfigExample("\"env\": { \"TEAM\": \"web\" }", isLeftOn: true) }
    /// How a scope carries it (the man page's SCOPES).
    public var scopeCarrier: String? { "the account's values" }
    public var title: String { "environment variables" }
    public var fieldPaths: [String] { ["env.NAME"] }

    /// Names Perch sets itself, which `env` may not name: its own, and those the other adapters export.
    public static var reservedNames: Set<String> {
        // A described tool's overrides too: its scope removes them, so `perch exec` and `perch env`
        // would disagree on one an `env` sets. Bug (review).
        Set(
            ["PERCH_ACCOUNT", "PERCH_ENV_NAMES", "PERCH_ENV_SET", "PATH", "HOME"] + ToolAdapters.registry.flatMap(\.exportedNames)
                + ToolAdapters.described.flatMap { $0.overrides.map(\.name) })
    }

    public static func setting(_ entries: [EnvironmentEntry]) -> ToolSetting { .exporting(entries, as: .env) }

    public func read(_ reader: inout ToolMemberReader) -> ToolSetting? {
        let place = reader.place
        guard case .object(let members) = reader.value else {
            reader.problems.append(#"\#(place): expected an object of names and values, like {"TEAM": "web"}"#)
            return nil
        }
        var entries: [EnvironmentEntry] = []
        for (name, element) in members {
            let path = "\(place).\(name)"
            guard case .string(let text) = element else {
                reader.problems.append("\(path): expected a string, found \(element.kind)")
                continue
            }
            if !EnvironmentEntry.isValidName(name) {
                reader.problems.append("\(path): \"\(name)\" is not a variable name (A–Z, a–z, 0–9 and '_', not starting with a digit)")
            } else if name.hasPrefix("PERCH_") {
                // Bug (trust issue): env could set PERCH_SCOPE* and through them a PATH the check forbids.
                reader.problems.append("\(path): PERCH_ variables are Perch's own and cannot be set from the config")
            } else if Self.reservedNames.contains(name) {
                let owner = ToolAdapters.registry.first { $0.exportedNames.contains(name) }
                reader.problems.append("\(path): Perch sets \(name) itself" + (owner.map { " (use \"\($0.tool.rawValue)\": …)" } ?? ""))
            } else if text.utf8.contains(0) {
                reader.problems.append("\(path): must not hold a NUL character")
            } else {
                if EnvironmentEntry.looksLikeSecret(text) {
                    reader.warnings.append(
                        "\(path): looks like a secret (a token or key); secrets do not belong in the config (use a secret manager or a hook)"
                    )
                }
                entries.append(EnvironmentEntry(name: name, value: text))
            }
        }
        return Self.setting(entries)
    }

    public func json(_ setting: ToolSetting) -> String {
        IdentityConfig.object((setting.value(as: [EnvironmentEntry].self) ?? []).map { ($0.name, $0.value) })
    }
}

// MARK: - Verify

extension EnvAdapter {
    /// This environment's variables against the account's (values that look like secrets
    /// shown by their last 4 characters only).
    public func ask(_ setting: ToolSetting, in context: ProofContext) -> [ToolAnswer] {
        [IdentityProof.variables(self, setting, in: context)]
    }
}
