import Foundation
import Testing

/// PerchKit is a toolkit for any app: its sources name none of Perch's panes, accounts or tools.
@Suite("PerchKit's sources")
struct NamesNothingOfPerchTests {
    /// Words that belong to Perch, not to the toolkit.
    static let perchWords = [
        "account", "accounts", "overview", "catalog", "stats", "settings", "identity", "identities", "kube", "kubectl", "kubeconfig",
        "gcloud", "ssh", "aws", "github", "gh", "git", "docker", "switcher", "perch pick", "perch switch", "perch doctor",
    ]

    @Test("No file of PerchKit, PerchKitTerminal, PerchKitLoop or TerminalText names a pane, account or tool of Perch's")
    func namesNothing() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var checked = 0
        for module in ["PerchKit", "PerchKitTerminal", "PerchKitLoop", "TerminalText"] {
            let folder = root.appendingPathComponent("Sources/\(module)")
            let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).lowercased()
                checked += 1
                for word in Self.perchWords {
                    let pattern = "\\b" + NSRegularExpression.escapedPattern(for: word) + "\\b"
                    let found = text.range(of: pattern, options: .regularExpression)
                    #expect(found == nil, "\(module)/\(file) names \"\(word)\"")
                }
            }
        }
        #expect(checked >= 30, "the sources were read: \(checked) files")
    }
}
