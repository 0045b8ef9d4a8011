import Foundation
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchStore
import PerchTestSupport

/// A scratch home for identity tests: its own HOME, XDG folders, KUBECONFIG, CLOUDSDK_CONFIG,
/// GH_CONFIG_DIR and AWS config, GIT_CONFIG_NOSYSTEM=1, and a `bin` folder first on PATH where
/// fake `kubectl`, `gcloud` and `gh` programs record their arguments in `calls/NAME.log` and
/// change their files as the real ones do. Nothing outside the folder is read or written.
final class ScratchHome {
    let root: String
    var home: String { root + "/home" }
    var bin: String { root + "/bin" }
    var kubeconfig: String { home + "/.kube/config" }
    var gcloudFolder: String { home + "/gcloud" }
    /// PATH: the fake programs' folder, then the system's (git, ssh, bash… where installed).
    var path: String

    init(fakes: [String] = ["kubectl", "gcloud", "gh"], systemPath: Bool = true) throws {
        ToolAdapters.installShipped()
        root = FileManager.default.temporaryDirectory.appendingPathComponent("perch-identities-\(UUID().uuidString)").path
        path = root + "/bin" + (systemPath ? ":/usr/local/bin:/usr/bin:/bin" : "")
        for folder in [home, bin, home + "/calls", home + "/.kube", gcloudFolder, home + "/gh"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        for fake in fakes { try install(fake, Self.fakeScripts[fake]!) }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// The environment the identities run in: only the scratch folders.
    var environment: IdentityEnvironment {
        IdentityEnvironment(
            variables: [
                "HOME": home, "PATH": path, "KUBECONFIG": kubeconfig, "CLOUDSDK_CONFIG": gcloudFolder, "GH_CONFIG_DIR": home + "/gh",
                "GIT_CONFIG_NOSYSTEM": "1", "AWS_CONFIG_FILE": home + "/.aws/config", "LC_ALL": "C",
            ], statePath: home + "/.local/state/perch/state.json")
    }

    func switcher(timeout: Int64 = 10_000, samplesOnly: Bool = false) -> IdentitySwitcher {
        IdentitySwitcher(environment: environment, timeout: timeout, samplesOnly: samplesOnly)
    }

    /// Writes an executable script into `bin`.
    func install(_ name: String, _ script: String) throws {
        writeExecutable("#!/bin/sh\n" + script, to: bin + "/" + name)
    }

    func write(_ text: String, to relative: String) throws {
        let file = home + "/" + relative
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
    }

    func read(_ relative: String) -> String? { try? String(contentsOfFile: home + "/" + relative, encoding: .utf8) }

    /// The argument lines a fake program recorded, oldest first.
    func calls(_ program: String) -> [String] {
        (read("calls/\(program).log") ?? "").split(separator: "\n").map(String.init)
    }

    /// Runs a program of the scratch environment and returns its standard output, trimmed.
    func run(_ program: String, _ arguments: [String]) -> String? {
        ProgramRunner.run(program, arguments, in: environment).output?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every file under the home except the fakes' call logs, with its bytes: for checking that
    /// nothing changed.
    func snapshot() -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: home)
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasPrefix("calls") { continue }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: home + "/" + relative, isDirectory: &isFolder), !isFolder.boolValue {
                files[relative] = FileManager.default.contents(atPath: home + "/" + relative)
            }
        }
        return files
    }

    static func installed(_ program: String) -> Bool {
        ["/usr/local/bin", "/usr/bin", "/bin"].contains { FileManager.default.isExecutableFile(atPath: $0 + "/" + program) }
    }

    /// Fakes that record their arguments and change the tool's file as the real program does.
    static let fakeScripts: [String: String] = [
        "kubectl": #"""
        echo "$*" >> "$HOME/calls/kubectl.log"
        case "$1 $2" in
          "config use-context")
            grep -q "name: $3\$" "$KUBECONFIG" || { echo "error: no context exists with the name: \"$3\"" >&2; exit 1; }
            sed -i "s/^current-context:.*/current-context: $3/" "$KUBECONFIG" ;;
          "config set-context") echo "$5" > "$HOME/kube-namespace" ;;
          "config view") cat "$HOME/kube-namespace" 2>/dev/null || true ;;
        esac
        """#,
        "gcloud": #"""
        echo "$*" >> "$HOME/calls/gcloud.log"
        if [ "$1 $2 $3" = "config configurations activate" ]; then
          [ -f "$CLOUDSDK_CONFIG/configurations/config_$4" ] || { echo "ERROR: Cannot activate configuration [$4], it does not exist." >&2; exit 1; }
          printf '%s' "$4" > "$CLOUDSDK_CONFIG/active_config"
        fi
        """#,
        "gh": #"""
        echo "$*" >> "$HOME/calls/gh.log"
        if [ "$1 $2" = "auth switch" ]; then
          printf '%s:\n    users:\n        other:\n        %s:\n    git_protocol: https\n    user: %s\n' "$4" "$6" "$6" > "$GH_CONFIG_DIR/hosts.yml"
        fi
        """#,
    ]

    /// A kubeconfig with contexts `dev` and `prod`, `dev` current.
    func writeKubeconfig(current: String = "dev") throws {
        try write(
            """
            apiVersion: v1
            kind: Config
            clusters:
            - cluster:
                server: https://127.0.0.1:1
              name: local
            contexts:
            - context:
                cluster: local
                user: ada
              name: dev
            - context:
                cluster: local
                namespace: web
                user: ada
              name: prod
            current-context: \(current)
            users:
            - name: ada
              user: {}

            """, to: ".kube/config")
    }
}

extension Account {
    /// An account with these identities.
    static func with(_ id: String, _ identities: ToolIdentities) -> Account {
        Account(id: id, name: id.capitalized, identities: identities)
    }
}

extension ToolIdentities {
    /// Identities built through the adapters, for tests.
    static func make(
        git: GitAdapter.Setting? = nil, ssh: SSHAdapter.Setting? = nil, kube: KubeAdapter.Setting? = nil, gcloud: String? = nil,
        gh: GitHubAdapter.Setting? = nil, aws: String? = nil, docker: String? = nil, env: [EnvironmentEntry] = []
    ) -> ToolIdentities {
        var settings: [ToolSetting] = []
        if let git { settings.append(GitAdapter.setting(git)) }
        if let ssh { settings.append(SSHAdapter.setting(ssh)) }
        if let kube { settings.append(KubeAdapter.setting(kube)) }
        if let gcloud { settings.append(GcloudAdapter.setting(gcloud)) }
        if let gh { settings.append(GitHubAdapter.setting(gh)) }
        if let aws { settings.append(AWSAdapter.setting(aws)) }
        if let docker { settings.append(DockerAdapter.setting(docker)) }
        if !env.isEmpty { settings.append(EnvAdapter.setting(env)) }
        return ToolIdentities(settings)
    }
}

extension ScratchHome {
    /// The switch session of this home, its state file under the scratch XDG state folder.
    func session(timeout: Int64 = 10_000, force: Bool = false, keepGoing: Bool = false, besideState: Bool = false) -> SwitchSession {
        var environment = self.environment
        environment.ownFilesBesideState = besideState
        return IdentitySwitcher(environment: environment, timeout: timeout).session(
            store: StateStore(path: environment.statePath), source: .cli, force: force, keepGoing: keepGoing)
    }

    /// A git config file in the scratch home, global for git (`GIT_CONFIG_GLOBAL` is not set: `~/.gitconfig`).
    func gitUses(_ key: String, in folder: String? = nil) -> String? {
        ProgramRunner.run("git", ["config", "--get", key], in: environment, folder: folder ?? home).output?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension ToolIdentities {
    /// Each adapter's value, for tests.
    var git: GitAdapter.Setting? { self[.git]?.value(as: GitAdapter.Setting.self) }
    var ssh: SSHAdapter.Setting? { self[.ssh]?.value(as: SSHAdapter.Setting.self) }
    var kube: KubeAdapter.Setting? { self[.kube]?.value(as: KubeAdapter.Setting.self) }
    var gcloud: String? { self[.gcloud]?.value(as: String.self) }
    var gh: GitHubAdapter.Setting? { self[.gh]?.value(as: GitHubAdapter.Setting.self) }
    var aws: String? { self[.aws]?.value(as: String.self) }
    var docker: String? { self[.docker]?.value(as: String.self) }
    var env: [EnvironmentEntry] { self[.env]?.value(as: [EnvironmentEntry].self) ?? [] }
}
