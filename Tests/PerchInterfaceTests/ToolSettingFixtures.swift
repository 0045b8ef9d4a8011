@testable import PerchDomain
@testable import PerchInterface

// The core knows no tool: its tests make settings as the adapters would.
extension IdentityTool {
    static let git = IdentityTool("git")
    static let kube = IdentityTool("kube")
    static let gh = IdentityTool("gh")
    static let aws = IdentityTool("aws")
}

extension ToolSetting {
    /// A machine-wide setting of `tool` described as `summary`.
    static func fixture(_ tool: IdentityTool, _ summary: String, perShell: Bool = false) -> ToolSetting {
        ToolSetting(tool: tool, isPerShell: perShell, summary: summary, fields: [ToolField("value", summary)], value: summary)
    }
}
