import Foundation
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchStore
import Testing

/// A scratch home with planted tool files, its environment, and the accounts of a config.
private final class AuditHome {
    let root: String
    var home: String { root + "/home" }

    init() throws {
        ToolAdapters.installShipped()
        root = FileManager.default.temporaryDirectory.appendingPathComponent("perch-audit-\(UUID().uuidString)").path
        for folder in [
            home + "/.ssh", home + "/.docker", home + "/.kube", home + "/.aws", home + "/gh", home + "/.config", root + "/elsewhere",
        ] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    var environment: IdentityEnvironment {
        IdentityEnvironment(
            variables: [
                "HOME": home, "PATH": "/usr/local/bin:/usr/bin:/bin", "XDG_CONFIG_HOME": home + "/.config", "GH_CONFIG_DIR": home + "/gh",
                "DOCKER_CONFIG": home + "/.docker", "KUBECONFIG": home + "/.kube/config", "AWS_CONFIG_FILE": home + "/.aws/config",
                "AWS_SHARED_CREDENTIALS_FILE": home + "/.aws/credentials", "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C",
            ], statePath: home + "/.local/state/perch/state.json")
    }

    /// Writes `text` at `path` (relative to the home) with `mode`.
    func plant(_ path: String, _ text: String, mode: Int = 0o600) throws {
        let full = home + "/" + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: full)
    }

    /// A private key made by ssh-keygen at `~/.ssh/NAME`, with `passphrase` ("" for none).
    func key(_ name: String, passphrase: String, mode: Int = 0o600) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ssh-keygen", "-q", "-t", "ed25519", "-N", passphrase, "-C", name, "-f", home + "/.ssh/" + name]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: home + "/.ssh/" + name)
    }

    func audit(_ accounts: [String]) throws -> AuditReport {
        let config = try ConfigLoader.parse(Array(("{\"accounts\": [" + accounts.joined(separator: ",") + "]}").utf8), path: "c.json")
        return SecretAudit.audit(accounts: config.accounts, environment: environment)
    }
}

/// What a test expects of one finding.
private struct Expected: Hashable, CustomStringConvertible {
    var kind: String
    var accounts: [String]
    var severity: AuditFinding.Severity
    var last4: String?
    var description: String { "\(kind) \(accounts) \(severity) \(last4 ?? "-")" }

    init(_ kind: String, _ accounts: [String], _ severity: AuditFinding.Severity, _ last4: String? = nil) {
        self.kind = kind
        self.accounts = accounts
        self.severity = severity
        self.last4 = last4
    }

    init(_ finding: AuditFinding) {
        self.init(finding.kind, finding.accounts, finding.severity, finding.last4)
    }
}

/// One planted home and what the audit must find in it.
private struct AuditCase: CustomTestStringConvertible, Sendable {
    var name: String
    var accounts: [String]
    /// Path under the home, text, mode.
    var files: [(String, String, Int)]
    var expected: Set<Expected>
    /// Secrets planted that must not appear in the report beyond their last 4 characters.
    var secrets: [String] = []
    var testDescription: String { name }
}

private let work =
    #"{"id": "work", "name": "Work", "git": {"email": "ada@work.example"}, "gh": {"user": "ada-work"}, "kube": {"context": "prod"}, "aws": "work-admin", "docker": "default"}"#
private let deploy = #"{"id": "deploy", "name": "Deploy", "aws": "deploy"}"#

private let gitSecret = "ghp_PlantedGitStorePassword4321"
private let ghSecret = "gho_PlantedHostsYamlToken8765"
private let dockerSecret = "PlantedDockerRegistryPass5555"
private let awsKey = "AKIAPLANTEDKEY0000Q7Z3"
private let awsSecret = "PlantedAwsSecretAccessKey/abcdef0909"
private let kubeToken = "eyPlantedKubeBearerToken2468"
private let kubePassword = "PlantedKubePassword1357"
private let kubeKeyData = "LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tUlantedKeyData"

private let kubeconfig = """
    apiVersion: v1
    kind: Config
    clusters:
    - name: local
      cluster:
        server: https://127.0.0.1:1
    contexts:
    - name: prod
      context:
        cluster: local
        user: ada
    - name: dev
      context: {cluster: local, user: bob}
    current-context: prod
    users:
    - name: ada
      user:
        token: \(kubeToken)
    - name: bob
      user:
        client-key-data: \(kubeKeyData)
    - name: carol
      user:
        username: carol
        password: "\(kubePassword)"

    """

private let ghHosts = """
    github.com:
        users:
            ada-work:
                oauth_token: \(ghSecret)
        git_protocol: https
        oauth_token: \(ghSecret)
        user: ada-work
    gitlab.example:
        user: someone
        oauth_token: gho_OtherHostToken00001111

    """

private let dockerAuth = Data("ada:\(dockerSecret)".utf8).base64EncodedString()

private let netrcSecret = "ghp_PlantedNetrcPassword9999"
private let storeSecret = "ghp_PlantedStoreFilePassword7777"
private let urlToken = "ghp_PlantedUrlUserToken3535"
private let npmSecret = "npm_PlantedNpmAuthToken4242"
private let cacheSecret = "PlantedCachedSessionToken8080"
private let flowToken = "eyPlantedFlowStyleToken6060"

private let cases: [AuditCase] = [
    AuditCase(
        name: "bug: ~/.netrc, which git's curl reads, was not audited: a password there, readable by others at 0644",
        accounts: [work],
        files: [(".netrc", "machine github.com\n  login ada-work\n  password \(netrcSecret)\nmacdef init\npassword notread\n\n", 0o644)],
        expected: [Expected("netrc-password", ["work"], .medium, "9999"), Expected("readable-by-others", ["work"], .high)],
        secrets: [netrcSecret]),
    AuditCase(
        name: "bug: the file a credential.helper \"store --file PATH\" names was not audited (asked of git config)",
        accounts: [work],
        files: [
            (".gitconfig", "[credential]\n\thelper = \"store --file ~/.config/creds/work\"\n", 0o600),
            (".config/creds/work", "https://ada-work:\(storeSecret)@github.com\n", 0o644),
        ],
        expected: [Expected("git-credentials", ["work"], .medium, "7777"), Expected("readable-by-others", ["work"], .high)],
        secrets: [storeSecret]),
    AuditCase(
        name: "bug: a token in a URL's user-name slot (an url.<base>.insteadOf rule of the global config) was not audited",
        accounts: [work],
        files: [(".gitconfig", "[url \"https://\(urlToken)@github.com/\"]\n\tinsteadOf = https://github.com/\n", 0o644)],
        expected: [Expected("url-credential", ["work"], .medium, "3535"), Expected("readable-by-others", ["work"], .high)],
        secrets: [urlToken]),
    AuditCase(
        name: "bug: a token in the user-name slot of a ~/.git-credentials line (no password after it) was skipped",
        accounts: [work], files: [(".git-credentials", "https://\(urlToken)@github.com\n", 0o600)],
        expected: [Expected("git-credentials", ["work"], .medium, "3535")], secrets: [urlToken]),
    AuditCase(
        name: "bug: ~/.npmrc was not audited: a registry's _authToken is found, a ${VARIABLE} is not",
        accounts: [work],
        files: [(".npmrc", "//registry.npmjs.org/:_authToken=\(npmSecret)\n//npm.example/:_authToken=${NPM_TOKEN}\n", 0o600)],
        expected: [Expected("npm-token", [], .medium, "4242")], secrets: [npmSecret]),
    AuditCase(
        name: "bug: AWS's cli/cache and sso/cache were not audited: a cached session token readable by others at 0644 is high",
        accounts: [work],
        files: [
            (
                ".aws/cli/cache/role.json",
                #"{"Credentials": {"AccessKeyId": "ASIAX", "SecretAccessKey": "x", "SessionToken": "\#(cacheSecret)"}}"#, 0o644
            ),
            (".aws/sso/cache/token.json", #"{"accessToken": "\#(cacheSecret)", "expiresAt": "2030-01-01T00:00:00Z"}"#, 0o600),
        ],
        expected: [Expected("readable-by-others", ["work"], .high)], secrets: [cacheSecret]),
    AuditCase(
        name: "bug: a kubeconfig token written in YAML's flow style (user: {token: …}) was not found (asked of kubectl config view)",
        accounts: [work],
        files: [
            (
                ".kube/config",
                "apiVersion: v1\nkind: Config\ncontexts:\n- {name: prod, context: {cluster: c, user: ada}}\nusers:\n- name: ada\n  user: {token: \(flowToken)}\n",
                0o600
            )
        ],
        expected: [Expected("kube-token", ["work"], .medium, "6060")], secrets: [flowToken]),
    AuditCase(
        name: "git's store helper: a password in ~/.git-credentials, readable by others at 0644",
        accounts: [work], files: [(".git-credentials", "https://ada-work:\(gitSecret)@github.com\n", 0o644)],
        expected: [Expected("git-credentials", ["work"], .medium, "4321"), Expected("readable-by-others", ["work"], .high)],
        secrets: [gitSecret]),
    AuditCase(
        name: "gh's hosts.yml: one token per user and host (the active user's copy is the same token); another host's has no account",
        accounts: [work], files: [("gh/hosts.yml", ghHosts, 0o600)],
        expected: [Expected("gh-token", ["work"], .medium, "8765"), Expected("gh-token", [], .medium, "1111")], secrets: [ghSecret]),
    AuditCase(
        name: "docker config.json: auth without a credsStore; a credHelpers registry is left out",
        accounts: [work],
        files: [
            (
                ".docker/config.json",
                #"{"auths": {"registry.example": {"auth": "\#(dockerAuth)"}, "ghcr.io": {"auth": "\#(dockerAuth)"}}, "credHelpers": {"ghcr.io": "pass"}}"#,
                0o600
            )
        ],
        expected: [Expected("docker-auth", ["work"], .medium, "5555")], secrets: [dockerSecret, dockerAuth]),
    AuditCase(
        name: "docker config.json with a credsStore: nothing",
        accounts: [work],
        files: [(".docker/config.json", #"{"auths": {"registry.example": {"auth": "\#(dockerAuth)"}}, "credsStore": "pass"}"#, 0o600)],
        expected: []),
    AuditCase(
        name: "AWS: AKIA keys of named profiles and of their source_profile; other profiles and ASIA keys are not reported",
        accounts: [work, deploy],
        files: [
            (
                ".aws/credentials",
                "[work-admin]\naws_access_key_id = \(awsKey)\naws_secret_access_key = \(awsSecret)\n[other]\naws_access_key_id = AKIAOTHERPROFILE0000\naws_secret_access_key = x\n[temp]\naws_access_key_id = ASIATEMPORARY000000\n",
                0o600
            ),
            (".aws/config", "[profile deploy]\nrole_arn = arn:aws:iam::123456789012:role/deploy\nsource_profile = work-admin\n", 0o644),
        ],
        expected: [Expected("aws-access-key", ["work", "deploy"], .medium, "0909")], secrets: [awsKey, awsSecret]),
    AuditCase(
        name: "kubeconfig: inline token, client-key-data and password, with the accounts whose context uses the user",
        accounts: [work], files: [(".kube/config", kubeconfig, 0o640)],
        expected: [
            Expected("kube-token", ["work"], .medium, "2468"), Expected("kube-client-key", [], .medium),
            Expected("kube-password", [], .medium, "1357"), Expected("readable-by-others", ["work"], .high),
        ], secrets: [kubeToken, kubePassword, kubeKeyData]),
    AuditCase(
        name: "Perch's own files: a git include writable by others is high, a state file readable by others is low",
        accounts: [work],
        files: [(".config/perch/git/identity.gitconfig", "[user]\n", 0o666), (".local/state/perch/state.json", "{}", 0o644)],
        expected: [Expected("perch-file-mode", ["work"], .high), Expected("perch-file-mode", ["work"], .low)]),
    AuditCase(
        name: "tools no account names are not read",
        accounts: [#"{"id": "plain", "name": "Plain"}"#],
        files: [(".git-credentials", "https://a:\(gitSecret)@github.com\n", 0o644), (".kube/config", kubeconfig, 0o600)], expected: []),
]

@Suite("Audit: secrets in plain text (SecretAudit)")
struct SecretAuditTests {
    @Test("each kind of secret is found with its accounts, severity and last 4 characters, and never shown whole", arguments: cases)
    fileprivate func findsEachKind(_ test: AuditCase) throws {
        let home = try AuditHome()
        for (path, text, mode) in test.files { try home.plant(path, text, mode: mode) }
        let report = try home.audit(test.accounts)
        #expect(Set(report.findings.map(Expected.init)) == test.expected, "\(report.findings)")
        #expect(report.findings.count == test.expected.count, "\(report.findings)")
        #expect(report.notes.isEmpty, "\(report.notes)")
        let encoded = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        for secret in test.secrets { #expect(!encoded.contains(String(secret.dropLast(4))), "\(secret) in \(encoded)") }
        for finding in report.findings where finding.kind != "readable-by-others" && finding.kind != "perch-file-mode" {
            #expect(!finding.fix.isEmpty && !finding.what.isEmpty)
        }
    }

    @Test("NETRC and NPM_CONFIG_USERCONFIG name the files read; a password in a remote URL of the repository audited is found")
    func namedFilesAndRemoteURL() throws {
        let home = try AuditHome()
        try home.plant("elsewhere/netrc", "machine github.com login ada-work password \(netrcSecret)\n")
        try home.plant("elsewhere/npmrc", "_authToken=\(npmSecret)\n")
        let repository = home.home + "/src/site"
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        var variables = home.environment.variables
        variables["NETRC"] = home.home + "/elsewhere/netrc"
        variables["NPM_CONFIG_USERCONFIG"] = "~/elsewhere/npmrc"
        let environment = IdentityEnvironment(variables: variables, statePath: home.home + "/.local/state/perch/state.json")
        let git = { (arguments: [String]) in
            #expect(ProgramRunner.run("git", ["-C", repository] + arguments, in: environment).output != nil)
        }
        git(["init", "-q"])
        git(["remote", "add", "origin", "https://ada-work:\(storeSecret)@github.com/acme/site.git"])
        let config = try ConfigLoader.parse(Array(("{\"accounts\": [" + work + "]}").utf8), path: "c.json")
        let report = SecretAudit.audit(accounts: config.accounts, environment: environment, folder: repository)
        #expect(
            Set(report.findings.map(Expected.init)) == [
                Expected("netrc-password", ["work"], .medium, "9999"), Expected("npm-token", [], .medium, "4242"),
                Expected("url-credential", ["work"], .medium, "7777"), Expected("readable-by-others", ["work"], .high),
            ], "\(report.findings)")
        #expect(report.findings.contains { $0.kind == "url-credential" && $0.file == repository + "/.git/config" })
        let encoded = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        for secret in [netrcSecret, npmSecret, storeSecret] { #expect(!encoded.contains(String(secret.dropLast(4)))) }
    }

    @Test(
        "ssh keys: one without a passphrase is found (real ssh-keygen), one with a passphrase is not, 0644 keys are readable by others and still told apart"
    )
    func sshKeys() throws {
        let home = try AuditHome()
        try home.key("id_open", passphrase: "")
        try home.key("id_locked", passphrase: "correct horse")
        try home.key("id_wide", passphrase: "", mode: 0o644)
        try home.key("id_wide_locked", passphrase: "correct horse", mode: 0o644)
        let report = try home.audit([
            #"{"id": "open", "name": "O", "ssh": {"host": "github.com", "identityFile": "~/.ssh/id_open"}}"#,
            #"{"id": "locked", "name": "L", "ssh": {"host": "gitlab.com", "identityFile": "~/.ssh/id_locked"}}"#,
            #"{"id": "wide", "name": "W", "ssh": {"host": "example.org", "identityFile": "~/.ssh/id_wide"}}"#,
            #"{"id": "wide-locked", "name": "WL", "ssh": {"host": "example.net", "identityFile": "~/.ssh/id_wide_locked"}}"#,
        ])
        #expect(
            Set(report.findings.map(Expected.init)) == [
                Expected("ssh-key-no-passphrase", ["open"], .medium), Expected("ssh-key-no-passphrase", ["wide"], .medium),
                Expected("readable-by-others", ["wide"], .high), Expected("readable-by-others", ["wide-locked"], .high),
            ], "\(report.findings)")
        #expect(report.findings.first?.kind == "readable-by-others", "high first")
        #expect(report.findings.first { $0.kind == "ssh-key-no-passphrase" }?.fix.contains("ssh-keygen -p -f ~/.ssh/id_") == true)
        #expect(report.notes.isEmpty, "\(report.notes)")
    }

    @Test("a symbolic link is followed once and its target reported; a link to a link is a note, not read")
    func symbolicLinks() throws {
        let home = try AuditHome()
        let target = home.root + "/elsewhere/creds"
        try "https://ada-work:\(gitSecret)@github.com\n".write(toFile: target, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target)
        try FileManager.default.createSymbolicLink(atPath: home.home + "/.git-credentials", withDestinationPath: target)
        var report = try home.audit([work])
        #expect(report.findings.map(\.kind) == ["git-credentials"])
        #expect(report.findings.first?.file == home.home + "/.git-credentials")
        #expect(report.findings.first?.target == target)

        try FileManager.default.removeItem(atPath: home.home + "/.git-credentials")
        try FileManager.default.createSymbolicLink(atPath: home.root + "/elsewhere/link", withDestinationPath: target)
        try FileManager.default.createSymbolicLink(
            atPath: home.home + "/.git-credentials", withDestinationPath: home.root + "/elsewhere/link")
        report = try home.audit([work])
        #expect(report.findings.isEmpty)
        #expect(report.notes.map(\.message).contains { $0.contains("another link: followed once only") }, "\(report.notes)")
    }

    @Test("a file over 1 MiB is read up to 1 MiB, and says so: a secret after that is not seen")
    func largeFile() throws {
        let home = try AuditHome()
        let late = "https://late:PlantedAfterTheCap9999@example.org\n"
        let padding = String(repeating: "# padding line of a large file\n", count: (SecretAudit.readLimit / 31) + 10)
        try home.plant(".git-credentials", "https://ada-work:\(gitSecret)@github.com\n" + padding + late)
        let report = try home.audit([work])
        #expect(report.findings.map(\.last4) == ["4321"], "\(report.findings)")
        #expect(report.notes.map(\.message) == ["is larger than 1 MiB: only its first 1 MiB was read"])
    }

    @Test("a file that cannot be read is a note and the audit goes on with the other files")
    func unreadable() throws {
        let home = try AuditHome()
        // A folder where the file should be: unreadable as a file even by root.
        try FileManager.default.createDirectory(atPath: home.home + "/.git-credentials", withIntermediateDirectories: true)
        try home.plant("gh/hosts.yml", ghHosts)
        var report = try home.audit([work])
        #expect(report.notes.map(\.message) == ["is not a regular file: not read"], "\(report.notes)")
        #expect(report.findings.contains { $0.kind == "gh-token" })
        if getuid() != 0 {
            try FileManager.default.removeItem(atPath: home.home + "/.git-credentials")
            try home.plant(".git-credentials", "https://a:\(gitSecret)@github.com\n", mode: 0o000)
            report = try home.audit([work])
            #expect(report.notes.map(\.message) == ["cannot be read: Permission denied; skipped"], "\(report.notes)")
        }
    }

    @Test("broken JSON names the file and line; broken YAML lines are named and the rest is still read")
    func brokenFiles() throws {
        let home = try AuditHome()
        try home.plant(".docker/config.json", "{\n  \"auths\": {\n    \"r\": {\"auth\": \"\(dockerAuth)\"\n}\n")
        try home.plant(
            ".kube/config",
            kubeconfig.replacingOccurrences(of: "kind: Config\n", with: "kind: Config\n\tbroken: tab\nnot a key value line\n"))
        let report = try home.audit([work])
        let docker = report.notes.first { $0.file.hasSuffix("config.json") }
        #expect(docker?.line == 5 && docker?.message.hasPrefix("is not valid JSON (line 5") == true, "\(report.notes)")
        let kube = report.notes.filter { $0.file.hasSuffix(".kube/config") }
        #expect(kube.map(\.line) == [3, 4], "\(kube)")
        #expect(kube.first?.message.contains("tab") == true)
        #expect(report.findings.contains { $0.kind == "kube-token" && $0.accounts == ["work"] }, "\(report.findings)")
        let encoded = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(!encoded.contains(String(dockerSecret.dropLast(4))) && !encoded.contains(String(dockerAuth.dropLast(4))))
    }

    @Test("last4 is given only for secrets of at least 12 characters")
    func lastFour() {
        #expect(SecretAudit.last4("abcdefghijkl") == "ijkl")
        #expect(SecretAudit.last4("abcdefghijk") == nil)
    }
}
