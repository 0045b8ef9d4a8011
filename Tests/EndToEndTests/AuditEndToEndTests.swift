import Foundation
import Testing

/// `perch audit` (issue 30, part 4): the release binary in a scratch home whose secrets are
/// planted by the real tools where they are installed (git's store helper, ssh-keygen, openssl
/// for a kube client key, the aws CLI), and docker's config.json as `docker login` writes it;
/// the fixes it names are run with the real tools (chmod, ssh-keygen -p, docker logout).
@Suite(
    "Audit: secrets in plain text, end to end", .serialized, .currentBinary,
    .enabled(if: ["git", "ssh-keygen", "openssl", "docker"].allSatisfy(ShellEndToEndTests.installed)))
struct AuditEndToEndTests {
    static let gitPassword = "ghp_PlantedByGitStoreHelper7781"
    static let ghToken = "gho_PlantedHostsYamlToken3390"
    static let dockerPassword = "PlantedDockerPassword6642"
    static let awsKey = "AKIAPLANTEDE2E00K4Z9"
    static let awsSecret = "PlantedE2EAwsSecretAccessKey/xy0077"
    static let kubeToken = "eyPlantedE2EKubeToken5511"

    /// A planted home: accounts `work` (git, gh, ssh key without a passphrase, kube, aws,
    /// docker) and `home` (ssh key with a passphrase, left at 0644), and the secrets each
    /// tool would keep. Returns the home and every secret planted (the openssl key's base64
    /// included).
    func plantedHome() throws -> (ScopedHome, [String]) {
        let home = try ScopedHome(
            accounts: [
                #"{"id": "work", "name": "Work", "git": {"name": "Ada", "email": "ada@work.example"}, "gh": {"user": "ada-work"}, "ssh": {"host": "github.com", "identityFile": "~/.ssh/id_work"}, "kube": {"context": "prod"}, "aws": "work-admin", "docker": "default"}"#,
                #"{"id": "home", "name": "Home", "git": {"name": "Ada", "email": "ada@home.example"}, "ssh": {"host": "gitlab.com", "identityFile": "~/.ssh/id_home"}}"#,
            ], contexts: ["dev", "prod"], configurations: ["default"])
        var cli = home.cli
        let root = home.home
        for folder in [".ssh", ".docker", ".aws", "gh"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        cli.extraEnvironment["DOCKER_CONFIG"] = root + "/.docker"
        cli.extraEnvironment["AWS_SHARED_CREDENTIALS_FILE"] = root + "/.aws/credentials"
        cli.extraEnvironment["AWS_CONFIG_FILE"] = root + "/.aws/config"
        let scoped = ScopedHome(cli: cli)
        let environment = cli.environment
        func run(_ argv: [String], input: String? = nil) throws {
            var argv = argv
            if let input {
                let file = root + "/input"
                try input.write(toFile: file, atomically: true, encoding: .utf8)
                argv = ["sh", "-c", argv.map(TmuxSession.quote).joined(separator: " ") + " < " + TmuxSession.quote(file)]
            }
            let result = try Spawn.run(argv, environment: environment)
            #expect(result.status == 0, "\(argv): \(result.stderr)")
        }
        // git's store helper writes ~/.git-credentials itself (git-credential-store(1)), 0600.
        try run(
            ["git", "-c", "credential.helper=store", "credential", "approve"],
            input: "protocol=https\nhost=github.com\nusername=ada-work\npassword=\(Self.gitPassword)\n\n")
        chmod(root + "/.git-credentials", 0o644)
        // ssh keys: work's without a passphrase, home's with one but readable by others.
        try run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "work", "-f", root + "/.ssh/id_work"])
        try run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "a long passphrase", "-C", "home", "-f", root + "/.ssh/id_home"])
        chmod(root + "/.ssh/id_home", 0o644)
        // A kube client key made by openssl, inline as client-key-data, and an inline token.
        try run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", root + "/client.key"])
        let keyData = try Data(contentsOf: URL(fileURLWithPath: root + "/client.key")).base64EncodedString()
        try FileManager.default.removeItem(atPath: root + "/client.key")
        var kube = try String(contentsOfFile: home.kubeconfig, encoding: .utf8)
        kube = kube.replacingOccurrences(
            of: "    token: x\n", with: "    token: \(Self.kubeToken)\n- name: robot\n  user:\n    client-key-data: \(keyData)\n")
        kube = kube.replacingOccurrences(
            of: "- name: dev\n  context:\n    cluster: local\n    user: ada\n",
            with: "- name: dev\n  context:\n    cluster: local\n    user: robot\n")
        try kube.write(toFile: home.kubeconfig, atomically: true, encoding: .utf8)
        chmod(home.kubeconfig, 0o600)
        // gh's hosts.yml as gh writes it with --insecure-storage.
        try
            "github.com:\n    users:\n        ada-work:\n            oauth_token: \(Self.ghToken)\n    git_protocol: https\n    oauth_token: \(Self.ghToken)\n    user: ada-work\n"
            .write(toFile: root + "/gh/hosts.yml", atomically: true, encoding: .utf8)
        chmod(root + "/gh/hosts.yml", 0o600)
        // docker's config.json as docker login writes it without a credential store.
        let auth = Data("ada:\(Self.dockerPassword)".utf8).base64EncodedString()
        try "{\n\t\"auths\": {\n\t\t\"registry.example\": {\n\t\t\t\"auth\": \"\(auth)\"\n\t\t}\n\t}\n}\n"
            .write(toFile: root + "/.docker/config.json", atomically: true, encoding: .utf8)
        chmod(root + "/.docker/config.json", 0o600)
        // AWS: the aws CLI writes the key where it is installed; else the same lines by hand.
        if ShellEndToEndTests.installed("aws") {
            try run(["aws", "configure", "set", "aws_access_key_id", Self.awsKey, "--profile", "work-admin"])
            try run(["aws", "configure", "set", "aws_secret_access_key", Self.awsSecret, "--profile", "work-admin"])
        } else {
            try "[work-admin]\naws_access_key_id = \(Self.awsKey)\naws_secret_access_key = \(Self.awsSecret)\n"
                .write(toFile: root + "/.aws/credentials", atomically: true, encoding: .utf8)
            chmod(root + "/.aws/credentials", 0o600)
        }
        return (scoped, [Self.gitPassword, Self.ghToken, Self.dockerPassword, auth, Self.awsKey, Self.awsSecret, Self.kubeToken, keyData])
    }

    /// Every output of `perch` holds none of `secrets` beyond their last 4 characters.
    func expectNoSecret(_ texts: [String], _ secrets: [String]) {
        for secret in secrets {
            let hidden = String(secret.dropLast(4))
            for text in texts { #expect(!text.contains(hidden), "a planted secret ending \(secret.suffix(4)) was printed") }
        }
    }

    @Test("perch audit reports each planted secret with its file, accounts, severity and fix, never the secret; exit 3, and 0 when clean")
    func plantedSecrets() throws {
        let (home, secrets) = try plantedHome()
        defer { home.cli.remove() }
        let text = try home.cli.run(["audit"])
        let transcript =
            "$ perch audit\n" + text.stdout + text.stderr.split(separator: "\n").map { "[stderr] \($0)\n" }.joined()
            + "[exit \(text.status)]\n"
        print(transcript.replacingOccurrences(of: home.home, with: "~"))
        #expect(text.status == 3, "\(text.stdout)\(text.stderr)")
        let out = text.stdout
        #expect(out.contains("Auditing the files of 2 accounts (git, ssh, kube, gh, aws, docker) and Perch's own"), "\(out)")
        // Each finding: the file, what is in it with at most its last 4, the accounts and the fix.
        let expected: [(String, String)] = [
            ("high    ~/.git-credentials", "holds a secret and is readable by group and others (mode 0644)"),
            ("medium  ~/.git-credentials", "a password for https://ada-work@github.com in plain text (git's store helper), ends in …7781"),
            ("high    ~/.ssh/id_home", "holds a secret and is readable by group and others (mode 0644)"),
            ("medium  ~/.ssh/id_work", "a private ssh key without a passphrase"),
            ("medium  ~/gh/hosts.yml", "gh's OAuth token for ada-work on github.com in plain text (line 4), ends in …3390"),
            (
                "medium  ~/.docker/config.json",
                "a registry password for registry.example in plain text (base64 in \"auth\", no credsStore or credHelpers), ends in …6642"
            ),
            ("medium  ~/.aws/credentials", "a long-lived access key (AKIA…K4Z9) and its secret for profile work-admin"),
            ("medium  ~/kube/config", "an inline token for user ada"),
            ("medium  ~/kube/config", "an inline client key (client-key-data) for user robot"),
        ]
        for (head, what) in expected {
            #expect(out.contains("  \(head)\n          \(what)"), "missing: \(head) \(what)\n\(out)")
        }
        #expect(out.contains("fix: chmod 600 \(home.home)/.git-credentials"))
        #expect(out.contains("fix: ssh-keygen -p -f ~/.ssh/id_work"))
        #expect(out.contains("kubectl config set-credentials robot --client-key=PATH --embed-certs=false"))
        #expect(out.contains("fix: gh auth login --hostname github.com"))
        #expect(out.contains("docker logout registry.example && docker login registry.example"))
        #expect(out.contains("aws configure sso --profile work-admin"))
        #expect(
            !out.contains("~/.ssh/id_home\n          a private ssh key without a passphrase"),
            "a key with a passphrase is not passphrase-free")
        #expect(
            text.stderr.contains("findings (3 high, 8 medium): each says what puts it right") || text.stderr.contains("high, "),
            "\(text.stderr)")

        let json = try home.cli.run(["audit", "--json"])
        #expect(json.status == 3)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(object["clean"] as? Bool == false)
        #expect(object["accounts"] as? [String] == ["work", "home"])
        let kinds = findings.map { $0["kind"] as? String ?? "" }
        for kind in [
            "git-credentials", "gh-token", "docker-auth", "aws-access-key", "kube-token", "kube-client-key", "ssh-key-no-passphrase",
            "readable-by-others",
        ] {
            #expect(kinds.contains(kind), "\(kind) in \(kinds)")
        }
        let git = findings.first { $0["kind"] as? String == "git-credentials" }
        #expect(git?["last4"] as? String == "7781")
        #expect(git?["accounts"] as? [String] == ["work"])
        #expect(git?["severity"] as? String == "medium")
        let token = findings.first { $0["kind"] as? String == "kube-token" }
        #expect(token?["accounts"] as? [String] == ["work"], "the account whose context uses the user")
        expectNoSecret([text.stdout, text.stderr, json.stdout, json.stderr], secrets)

        // The fixes it names, run with the real tools, put those findings right.
        chmod(home.home + "/.git-credentials", 0o600)
        chmod(home.home + "/.ssh/id_home", 0o600)
        let passphrase = try Spawn.run(
            ["ssh-keygen", "-q", "-p", "-P", "", "-N", "now locked", "-f", home.home + "/.ssh/id_work"], environment: home.cli.environment)
        #expect(passphrase.status == 0, "\(passphrase.stderr)")
        let logout = try Spawn.run(["docker", "logout", "registry.example"], environment: home.cli.environment)
        #expect(logout.status == 0, "\(logout.stderr)")
        let after = try home.cli.run(["audit", "--json"])
        let remaining =
            try #require(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])["findings"] as? [[String: Any]]
        let left = Set((remaining ?? []).map { $0["kind"] as? String ?? "" })
        #expect(left == ["git-credentials", "gh-token", "aws-access-key", "kube-token", "kube-client-key"], "\(left)")
        expectNoSecret([after.stdout, after.stderr], secrets)

        // Clean: nothing left in plain text, exit 0.
        for path in [".git-credentials", "gh/hosts.yml", ".aws/credentials"] {
            try FileManager.default.removeItem(atPath: home.home + "/" + path)
        }
        try
            "apiVersion: v1\nkind: Config\ncontexts:\n- name: prod\n  context:\n    cluster: local\n    user: ada\nusers:\n- name: ada\n  user:\n    exec:\n      command: kubelogin\n"
            .write(toFile: home.kubeconfig, atomically: true, encoding: .utf8)
        let clean = try home.cli.run(["audit"])
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.contains("no secret in plain text or open to others"))
        #expect(clean.stderr.isEmpty, "\(clean.stderr)")
    }

    @Test(
        "bug: a 0644 file holding the work token was reported as no secret in plain text: a store --file helper's file, ~/.netrc and a flow-style kubeconfig token are found, never printed"
    )
    func filesGitAndKubectlRead() throws {
        let token = "ghp_PlantedStoreFileToken8642"
        let netrc = "ghp_PlantedNetrcToken1357"
        let kubeToken = "eyPlantedFlowKubeToken2468"
        let home = try ScopedHome(
            accounts: [
                #"{"id": "work", "name": "Work", "git": {"name": "Ada", "email": "ada@work.example"}, "gh": {"user": "ada-work"}, "kube": {"context": "prod"}}"#
            ], contexts: ["prod"], configurations: ["default"])
        defer { home.cli.remove() }
        let root = home.home
        let environment = home.cli.environment
        // git's own store helper, told to keep the credential in a file of its own (git-credential-store(1) --file).
        #expect(
            try Spawn.run(
                ["git", "config", "--global", "credential.helper", "store --file ~/work-creds"], environment: environment
            )
            .status == 0)
        let input = root + "/input"
        try "protocol=https\nhost=github.com\nusername=ada-work\npassword=\(token)\n\n".write(
            toFile: input, atomically: true, encoding: .utf8)
        let approve = try Spawn.run(["sh", "-c", "git credential approve < \"$1\"", "sh", input], environment: environment)
        #expect(approve.status == 0, "\(approve.stderr)")
        chmod(root + "/work-creds", 0o644)
        try "machine github.com login ada-work password \(netrc)\n".write(toFile: root + "/.netrc", atomically: true, encoding: .utf8)
        chmod(root + "/.netrc", 0o644)
        // The user's entry in YAML's flow style, as kubectl reads it and a person may write it.
        let kube = try String(contentsOfFile: home.kubeconfig, encoding: .utf8).replacingOccurrences(
            of: "- name: ada\n  user:\n    token: x\n", with: "- name: ada\n  user: {token: \(kubeToken)}\n")
        #expect(kube.contains(kubeToken))
        try kube.write(toFile: home.kubeconfig, atomically: true, encoding: .utf8)
        let text = try home.cli.run(["audit"])
        #expect(text.status == 3, "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.contains("~/work-creds"), "\(text.stdout)")
        #expect(text.stdout.contains("~/.netrc"), "\(text.stdout)")
        #expect(text.stdout.contains("an inline token for user ada"), "\(text.stdout)")
        #expect(text.stdout.contains("chmod 600"), "\(text.stdout)")
        let json = try home.cli.run(["audit", "--json"])
        expectNoSecret([text.stdout, text.stderr, json.stdout, json.stderr], [token, netrc, kubeToken])
    }

    @Test("bad input: an unreadable file, broken JSON and YAML, a symbolic link and a file over 1 MiB are said and the audit goes on")
    func badInput() throws {
        let (home, secrets) = try plantedHome()
        defer { home.cli.remove() }
        let root = home.home
        try "{\n  \"auths\": {\n".write(toFile: root + "/.docker/config.json", atomically: true, encoding: .utf8)
        var kube = try String(contentsOfFile: home.kubeconfig, encoding: .utf8)
        kube = kube.replacingOccurrences(of: "kind: Config\n", with: "kind: Config\n\tbad: tab\n")
        try kube.write(toFile: home.kubeconfig, atomically: true, encoding: .utf8)
        // gh's hosts file is a folder: it cannot be read as a file, even by root.
        try FileManager.default.removeItem(atPath: root + "/gh/hosts.yml")
        try FileManager.default.createDirectory(atPath: root + "/gh/hosts.yml", withIntermediateDirectories: true)
        // ~/.git-credentials is a link to a file elsewhere, over 1 MiB.
        let elsewhere = root + "/elsewhere-credentials"
        try FileManager.default.moveItem(atPath: root + "/.git-credentials", toPath: elsewhere)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: elsewhere))
        handle.seekToEndOfFile()
        handle.write(Data(String(repeating: "# a comment line of padding\n", count: 40_000).utf8))
        try handle.close()
        try FileManager.default.createSymbolicLink(atPath: root + "/.git-credentials", withDestinationPath: elsewhere)

        let text = try home.cli.run(["audit"])
        #expect(text.status == 3)
        let err = text.stderr
        #expect(err.contains("~/.docker/config.json line 3: is not valid JSON (line 3"), "\(err)")
        #expect(err.contains("~/kube/config line 3: indented with a tab, which YAML does not allow; skipped"), "\(err)")
        #expect(err.contains("~/gh/hosts.yml: is not a regular file: not read"), "\(err)")
        #expect(
            err.contains("~/elsewhere-credentials: is larger than 1 MiB") || err.contains("~/.git-credentials: is larger than 1 MiB"),
            "\(err)")
        #expect(text.stdout.contains("  high    ~/.git-credentials → ~/elsewhere-credentials\n"), "\(text.stdout)")
        #expect(text.stdout.contains("fix: chmod 600 \(elsewhere)"), "the target's mode is the one to change")
        // The rest is still read.
        #expect(text.stdout.contains("an inline token for user ada"), "\(text.stdout)")
        #expect(text.stdout.contains("a private ssh key without a passphrase"))
        #expect(!err.contains("id_home"), "a key with a passphrase but open to others is told from its header: \(err)")
        let json = try home.cli.run(["audit", "--json"])
        let notes =
            try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])["notes"] as? [[String: Any]]
        #expect(
            notes?.contains { ($0["file"] as? String)?.hasSuffix("kube/config") == true && $0["line"] as? Int == 3 } == true,
            "\(notes ?? [])")
        expectNoSecret([text.stdout, text.stderr, json.stdout, json.stderr], secrets)
    }
}

extension ScopedHome {
    /// The same home with `cli`'s environment (a variable added).
    init(cli: PerchCommandLine) { self.cli = cli }
}
