import Foundation
import PerchDomain
import PerchInterface
import Testing

@testable import PerchIdentities

/// Perch's reading of docker's config.json (``DockerAdapter/currentFromFiles(in:)``), used by
/// every scope's seal instead of starting docker, against `docker context show` itself.
@Suite("docker's current context from its files, against docker", .enabled(if: ScratchHome.installed("docker")))
struct DockerContextReaderTests {
    static let configs: [String?] = [
        nil, "{}", "{\"auths\": {}}", "{\"currentContext\": \"\"}", "{\"currentContext\": \"default\"}",
        "{\n\t\"auths\": {},\n\t\"currentContext\": \"default\"\n}", "{\"currentContext\": \"work\"}", "{\"currentContext\": 3}",
        "not json", "[\"currentContext\"]", "{\"currentContext\": \"default\", \"currentContext\": \"work\"}",
    ]

    @Test("wherever the files tell, they tell what docker context show says; otherwise docker is asked")
    func agreesWithDocker() throws {
        var told = 0
        for (index, config) in Self.configs.enumerated() {
            try withTemporaryFolder { folder in
                if let config { try config.write(toFile: folder + "/config.json", atomically: true, encoding: .utf8) }
                let variables = [
                    "HOME": folder, "DOCKER_CONFIG": folder, "PATH": "/usr/local/bin:/usr/bin:/bin", "DOCKER_CONTEXT": "perchs-own",
                ]
                let context = ToolContext(
                    environment: IdentityEnvironment(variables: variables, ownFilesBesideState: true), timeout: 10_000)
                let read = DockerAdapter().currentFromFiles(in: context)
                guard let read else { return }
                told += 1
                var global = variables
                global["DOCKER_CONTEXT"] = nil
                let docker = ProgramRunner.run("docker", ["context", "show"], in: IdentityEnvironment(variables: global))
                #expect(
                    read["context"] == docker.output?.trimmingCharacters(in: .whitespacesAndNewlines),
                    "config \(index): \(config ?? "none")")
                #expect(read["config"] == (config == nil ? "0" : "1"))
            }
        }
        #expect(told == 6, "the files told for the six default cases, no more")
    }

    @Test("DOCKER_HOST is docker's to resolve")
    func dockerHost() {
        let context = ToolContext(
            environment: IdentityEnvironment(variables: ["HOME": "/nonexistent", "DOCKER_HOST": "tcp://127.0.0.1:9"]), timeout: 1000)
        #expect(DockerAdapter().currentFromFiles(in: context) == nil)
    }
}
