import Foundation
import PerchDomain
import PerchInterface
import PerchStore
import Testing

@testable import PerchIdentities

/// Every value Perch writes into another tool's file is one that tool reads back as the same
/// plain value, or the config is refused (docs/security.md): hostile values written through
/// Perch's writers and read back by the real tool.
@Suite("Tool grammars: written as data, read back by the tool")
struct ToolGrammarTests {
    static func installed(_ program: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
        }
    }

    static func run(_ arguments: [String], environment: [String: String]) -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return (-1, "") }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Paths that pass ``ToolGrammar/sshPathProblem(_:)`` and hold what ssh_config would read
    /// as syntax unquoted: spaces, `#`, `=`, a comma, a non-ASCII letter, a long name.
    static let hostilePaths = [
        "/k/with space/id", "/k/hash#not-a-comment", "/k/eq=sign", "/k/a,b", "/k/jörg/id", "/k/" + String(repeating: "x", count: 300),
        "/k/trailing ", "/k/tab-less=#mix ed",
    ]

    // Bug (trust issue): a quote in ssh.identityFile made ssh refuse its whole config; spaces and
    // `#` were written unquoted.
    @Test("ssh -G reads each identity file Perch writes as exactly that path", .enabled(if: installed("ssh")), arguments: hostilePaths)
    func sshReadsPathsBack(path: String) throws {
        #expect(ToolGrammar.sshPathProblem(path) == nil)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("perch-grammar-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let account = Account(id: "work", name: "Work")
        let text = SSHAdapter.includeText(
            SSHAdapter.Setting(hosts: ["github.com"], identityFile: path, agent: path + ".sock"), account: account)
        try text.write(toFile: folder + "/config", atomically: true, encoding: .utf8)
        let read = Self.run(["ssh", "-G", "-F", folder + "/config", "github.com"], environment: ["PATH": "/usr/bin:/bin", "HOME": folder])
        #expect(read.status == 0, "ssh read the file: \(text)")
        let lines = read.stdout.split(separator: "\n")
        #expect(lines.first { $0.hasPrefix("identityfile ") } == "identityfile \(path)"[...], "\(text)")
        #expect(lines.first { $0.hasPrefix("identityagent ") } == "identityagent \(path).sock"[...], "\(text)")
    }

    @Test(
        "hosts and paths ssh would read as syntax are refused with the reason",
        arguments: [
            ("github.com=exec=touch", "not '='"), ("a b", "not a space"), ("a,b", "not ','"), ("a\"b", "not '\"'"), ("#x", "not '#'"),
            ("h\u{1B}", "not the control character U+001B"), ("", "is empty"), ("gitlab.例え", "not '例'"),
        ])
    func hostileHostsAreRefused(host: String, reason: String) {
        #expect(ToolGrammar.sshPatternProblem(host)?.hasSuffix(reason) == true, "\(ToolGrammar.sshPatternProblem(host) ?? "nil")")
    }

    @Test(
        "paths ssh would expand or read as quoting are refused",
        arguments: ["/k/a\"b", "/k/a'b", "/k/a\\b", "/k/id_%h", "/k/${HOME}/id", "/k/a\nb", "/k/\u{7F}"])
    func hostilePathsAreRefused(path: String) {
        #expect(ToolGrammar.sshPathProblem(path) != nil)
    }

    /// Names YAML reads as something other than the string (YAML 1.1 and 1.2), or as syntax.
    static let hostileYAMLNames = [
        "123", "1e3", "0x1F", "0o17", "1_000", "+1", ".inf", "yes", "No", "ON", "null", "~", "true", "*alias", "&anchor", "!tag", "[x",
        "{x", "x-", "a: b", "a #b", "@x", "`x", "%x", "x'y", "日本", "|x", ">x", "?x", "a,b", "'q'", "plain", "dev.us-1/x@y",
    ]

    // Bug (trust issue): a context named `123` was written unquoted into current-context, and
    // kubectl could not load the kubeconfig at all.
    @Test("kubectl reads each context name Perch writes as exactly that name", .enabled(if: installed("kubectl")))
    func kubectlReadsNamesBack() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("perch-grammar-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let kubeconfig = folder + "/config"
        let contexts = Self.hostileYAMLNames.map { "- name: \(ToolGrammar.yamlScalar($0))\n  context: {cluster: c, user: u}\n" }.joined()
        try
            ("apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: https://127.0.0.1:1}\nusers:\n- name: u\n  user: {}\ncontexts:\n"
            + contexts + "current-context: plain\n").write(toFile: kubeconfig, atomically: true, encoding: .utf8)
        let environment = IdentityEnvironment(
            variables: ["HOME": folder, "PATH": "/usr/local/bin:/usr/bin:/bin", "KUBECONFIG": kubeconfig], statePath: folder + "/state.json"
        )
        for name in Self.hostileYAMLNames {
            #expect(ToolGrammar.yamlNameProblem(name) == nil, "\(name)")
            try KubeAdapter.writeCurrentContext(name, environment)
            let read = Self.run(["kubectl", "config", "current-context"], environment: environment.variables)
            #expect(
                read.status == 0 && read.stdout == name + "\n", "kubectl read \(read.stdout.debugDescription) for \(name.debugDescription)")
            #expect(ToolReaders.kubeCurrentContext(environment) == name, "Perch reads back what it wrote for \(name.debugDescription)")
        }
    }

    /// Names and emails that pass config check and hold git-config syntax: quotes, backslashes,
    /// comment characters, section brackets, `=`, spaces at either end, non-ASCII.
    static let hostileGitValues = [
        #"Ada "the" Lovelace"#, #"back\slash"#, "semi; colon # hash", "[section]", "a = b", "  padded  ", "Zoë Łukasz 日本",
        #"trailing"#, "x" + String(repeating: "y", count: 2000),
    ]

    @Test("git config reads each name and email Perch writes in its include as exactly that value", .enabled(if: installed("git")))
    func gitReadsValuesBack() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("perch-grammar-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for value in Self.hostileGitValues {
            let text = GitAdapter.includeText(
                GitAdapter.Setting(name: value, email: value + "@x.example"), account: Account(id: "a", name: "A"))
            try text.write(toFile: folder + "/include", atomically: true, encoding: .utf8)
            let environment = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": folder, "GIT_CONFIG_NOSYSTEM": "1"]
            let name = Self.run(["git", "config", "--file", folder + "/include", "--get", "user.name"], environment: environment)
            let email = Self.run(["git", "config", "--file", folder + "/include", "--get", "user.email"], environment: environment)
            #expect(
                name.status == 0 && name.stdout == value + "\n", "git read \(name.stdout.debugDescription) for \(value.debugDescription)")
            #expect(email.stdout == value + "@x.example\n")
        }
    }

    // Bug (trust issue): a repository's core.sshCommand `./ssh -i ~/.ssh/id_work` was asked as the
    // system's ssh and shown ✓, while git ran the repository's own ./ssh.
    @Test(
        "only the bare word ssh with options that choose a key, a user, a port or an agent counts as plain ssh",
        arguments: [
            (["ssh", "-i", "~/.ssh/id_home", "-o", "IdentitiesOnly=yes"], true), (["ssh", "-p", "22", "-l", "git"], true),
            (["./ssh", "-i", "k"], false), (["/any/path/ssh", "-i", "k"], false), (["ssh", "-F", "cfg"], false),
            (["ssh", "-o", "ProxyCommand=touch x"], false), (["ssh", "-J", "h"], false), (["sh", "-c", "ssh"], false),
        ])
    func plainSSH(words: [String], plain: Bool) {
        #expect((SSHAdapter.plainSSHOptions(words) != nil) == plain)
    }

    @Test("a plain YAML name stays plain, as kubectl writes it; every other is a JSON string")
    func yamlScalarForms() {
        #expect(ToolGrammar.yamlScalar("prod") == "prod")
        #expect(ToolGrammar.yamlScalar("dev.us-1/x@y") == "dev.us-1/x@y")
        #expect(ToolGrammar.yamlScalar("123") == "\"123\"")
        #expect(ToolGrammar.yamlScalar("yes") == "\"yes\"")
        #expect(ToolGrammar.yamlScalar("a: b") == "\"a: b\"")
    }
}

/// Secrets by name and by shape (docs/security.md, "Secrets").
@Suite("Secrets are shown by their last 4 characters")
struct SecretShapeTests {
    @Test(
        "a secret by its name or its shape shows as …last4; anything else as it is",
        arguments: [
            ("API_TOKEN", "plainvalue123", "…e123"), ("DB_PASSWORD", "hunter2", "…"), ("AWS_SECRET_ACCESS_KEY", "abc/def+ghi", "…+ghi"),
            ("NOTE", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "…6789"), ("NOTE", "glpat-abcdefghijklmnopqrst", "…qrst"),
            ("NOTE", "xoxr-1234567890-abcdefghij", "…ghij"), ("NOTE", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig", "…"),
            ("NOTE", String(repeating: "ab12", count: 10), "…ab12"), ("TEAM", "web", "web"),
            ("NOTE", "a plain sentence here", "a plain sentence here"),
            // Found by trying them: a password in a URL, MySQL's variable, an HTTP credential, a short Slack token.
            ("DSN", "postgres://u:s3cretPassw0rd@db/x", "…"), ("MYSQL_PWD", "pw1234567", "…"), ("AUTHZ", "Bearer abc.def", "…"),
            ("SLACK", "xoxb-1-2-abc", "…"),
        ])
    func shown(name: String, value: String, expected: String) {
        let shown = EnvironmentEntry.shown(name, value)
        #expect(shown.hasPrefix("…") == expected.hasPrefix("…"), "\(name)=\(value) → \(shown)")
        if expected.hasPrefix("…") {
            #expect(!shown.contains(value.prefix(8)), "no run of its first 8 characters")
        } else {
            #expect(shown == value)
        }
    }

    // Bug (trust issue): a token in env was printed whole on status's "Last applied", by list --json and current --json, on Overview and in the Catalog.
    @Test("an env setting's summary and fields never hold a secret; its exports do")
    func settingMasksItsSecrets() {
        let setting = EnvAdapter.setting([
            EnvironmentEntry(name: "API_TOKEN", value: "ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
            EnvironmentEntry(name: "TEAM", value: "web"),
        ])
        #expect(setting.summary == "API_TOKEN=…6789 TEAM=web")
        #expect(setting.fields.map(\.value) == ["…6789", "web"])
        #expect(setting.exports.first?.value == "ghp_abcdefghijklmnopqrstuvwxyz0123456789")
    }

    // Bug (trust issue): PERCH_SCOPE_SET held every secret a scope set (an account's DB_PASSWORD),
    // and every child got it under that name too.
    @Test("a scope's own record of what it set holds no secret")
    func scopeRecordHoldsNoSecret() throws {
        let scratch = try ScratchHome(fakes: [])
        let account = Account(
            id: "s", name: "S",
            identities: ToolIdentities([EnvAdapter.setting([EnvironmentEntry(name: "DB_PASSWORD", value: "hunter2hunter2")])]))
        for kind in [ScopeKind.exec, .pinned] {
            let scoped = IdentityScope.scoped(
                account, kind: kind, over: scratch.environment.variables, in: ToolContext(environment: scratch.environment))
            #expect(scoped.variables["DB_PASSWORD"] == "hunter2hunter2")
            let others = scoped.variables.filter { $0.key != "DB_PASSWORD" && $0.value.contains("hunter2") }
            #expect(others.isEmpty, "\(others)")
        }
    }

    @Test("what a tool exports (AWS_PROFILE, CLOUDSDK_ACTIVE_CONFIG_NAME) needs no trust; only the config's own env is judged")
    func toolExportsNeedNoTrust() {
        let account = Account(id: "a", name: "A", identities: ToolIdentities([AWSAdapter.setting("work")]))
        #expect(!account.runsCommands)
    }

    // Bug (trust issue): a config others could write set PROMPT_COMMAND through env.
    @Test(
        "variables a shell, a loader or git runs as code need trust; others do not",
        arguments: [
            ("PROMPT_COMMAND", true), ("BASH_ENV", true), ("LD_PRELOAD", true), ("GIT_SSH_COMMAND", true), ("GIT_CONFIG_KEY_0", true),
            ("BASH_FUNC_ls%%", true), ("PS1", true), ("NODE_OPTIONS", true), ("TEAM", false), ("API_TOKEN", false), ("LANG", false),
            // Found by trying them: each ran code from a config others could write.
            ("GIT_COMMON_DIR", true), ("PYTHONUSERBASE", true), ("PROMPT2", true), ("AWS_CONFIG_FILE", true), ("CLOUDSDK_PYTHON", true),
        ])
    func codeBearing(name: String, needsTrust: Bool) {
        #expect(EnvironmentEntry.isCodeBearingName(name) == needsTrust)
        let account = Account(
            id: "a", name: "A", identities: ToolIdentities([EnvAdapter.setting([EnvironmentEntry(name: name, value: "x")])]))
        #expect(account.runsCommands == needsTrust)
    }
}

/// The alias names Perch asks ssh about: names only, from `Host` lines (ssh -G says what they mean).
@Suite("ssh host alias names")
struct SSHAliasNameTests {
    @Test("Host lines give their plain names, lowercased, once; patterns, negations and other keywords are left out")
    func names() {
        let text =
            "Host github.com-work gh-Acme\n  HostName github.com\nhost=*.example !bad gh-acme\nHostName x\nMatch host y\n\tHost\t\"quoted\"\n"
        #expect(SSHAliases.names(inConfig: text) == ["github.com-work", "gh-acme", "quoted"])
    }
}

/// `perch setup ssh`'s Include line (the everyday issue: it wrote an absolute path where the docs
/// show `~/.config/perch/ssh/config`).
@Suite("ssh Include path")
struct SSHIncludePathTests {
    @Test("~ under HOME when HOME is the password database's home (ssh expands ~ from there), else the whole path; quoted with a space")
    func includePath() {
        let path = "/home/ada/.config/perch/ssh/config"
        #expect(IdentitySetup.includePath(path, home: "/home/ada", passwordHome: "/home/ada") == "~/.config/perch/ssh/config")
        #expect(IdentitySetup.includePath(path, home: "/home/ada", passwordHome: "/root") == path)
        #expect(IdentitySetup.includePath("/srv/perch/ssh", home: "/home/ada", passwordHome: "/home/ada") == "/srv/perch/ssh")
        #expect(
            IdentitySetup.includePath("/home/a b/.config/perch/ssh/config", home: "/home/a b", passwordHome: "/root")
                == "\"/home/a b/.config/perch/ssh/config\"")
        #expect(IdentitySetup.includePath("/home/adam/x", home: "/home/ada", passwordHome: "/home/ada") == "/home/adam/x")
    }
}
