import Foundation
import Testing

/// PerchKit as another package uses it: a versioned dependency fetched from a git repository.
@Suite("PerchKit as a dependency", .serialized)
struct PerchKitPackageTests {
    /// The repository's root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    // Bug: PerchKit's targets passed -warnings-as-errors as unsafe flags, and SwiftPM refuses a
    // versioned dependency with unsafe flags ("the target 'PerchKit' in product 'PerchKit' contains
    // unsafe build flags"), so no other package could use it.
    @Test("A package depending on PerchKit by version, from a git repository, builds and runs")
    func versionedDependencyBuilds() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("perchkit-package-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let home = scratch.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in [
            ("HOME", home.path), ("XDG_CONFIG_HOME", home.path + "/.config"), ("XDG_CACHE_HOME", home.path + "/.cache"),
            ("GIT_CONFIG_NOSYSTEM", "1"), ("GIT_AUTHOR_NAME", "Test"), ("GIT_AUTHOR_EMAIL", "test@example.com"),
            ("GIT_COMMITTER_NAME", "Test"), ("GIT_COMMITTER_EMAIL", "test@example.com"),
        ] {
            environment[name] = value
        }
        environment["NO_COLOR"] = "1"

        // The working tree's tracked files, as a repository tagged 1.0.0.
        let dependency = scratch.appendingPathComponent("perch")
        let files = try Spawn.run(["git", "-C", Self.root.path, "ls-files", "-z"], environment: environment)
        try #require(files.status == 0, "git ls-files: \(files.stderr)")
        for path in files.stdout.split(separator: "\0").map(String.init) where !path.isEmpty {
            let source = Self.root.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: source.path) else { continue }
            let target = dependency.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source, to: target)
        }
        for step in [["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "PerchKit"], ["tag", "1.0.0"]] {
            let result = try Spawn.run(["git", "-C", dependency.path] + step, environment: environment)
            try #require(result.status == 0, "git \(step.joined(separator: " ")): \(result.stderr)")
        }

        // An app of its own that uses it.
        let app = scratch.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: app.appendingPathComponent("Sources/app"), withIntermediateDirectories: true)
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "app",
                dependencies: [.package(url: "file://\(dependency.path)", from: "1.0.0")],
                targets: [.executableTarget(name: "app", dependencies: [.product(name: "PerchKit", package: "perch")])])
            """
        try manifest.write(to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let main = """
            import PerchKit
            import PerchKitLoop

            let app = TabApp(panes: [], size: Size(width: 30, height: 8))
            print(app.tooSmallNotice.isEmpty ? "none" : "built: \\(Size(width: 19, height: 6))")
            """
        try main.write(to: app.appendingPathComponent("Sources/app/main.swift"), atomically: true, encoding: .utf8)

        let build = try Spawn.run(["swift", "build", "--package-path", app.path], environment: environment)
        #expect(!build.stderr.contains("unsafe build flags") && !build.stdout.contains("unsafe build flags"), "\(build.stderr)")
        try #require(build.status == 0, "swift build: \(build.stdout.suffix(2000))\n\(build.stderr.suffix(2000))")
        let run = try Spawn.run([app.appendingPathComponent(".build/debug/app").path], environment: environment)
        #expect(run.status == 0 && run.stdout == "built: 19×6\n", "\(run.stdout)\(run.stderr)")
    }
}
