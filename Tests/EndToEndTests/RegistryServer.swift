import Foundation
import PerchTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A registry's git repository as its maintainers keep it: a working clone whose commits of
/// `perch-registry.json` are pushed to a bare repository, which Perch fetches over `file://`
/// or through ``RegistryServer``. The maintainers' git runs with a config of its own
/// (`GIT_CONFIG_GLOBAL`, no system config) and never reads the runner's.
final class RegistryRepository {
    /// The bare repository Perch fetches (its default branch `main`).
    let bare: String
    /// The maintainers' clone.
    let work: String
    let environment: [String: String]
    /// The repository as a `file://` URL.
    var url: String { "file://" + bare }

    /// Makes `NAME.git` and the clone `NAME-work` in `folder`.
    init(in folder: String, name: String) throws {
        bare = folder + "/" + name + ".git"
        work = folder + "/" + name + "-work"
        let config = folder + "/" + name + "-maintainer.gitconfig"
        // safe.directory: the bare repository may belong to the server's login (sshd serves it as that user).
        try Loopback.write(
            "[user]\n\tname = Registry Maintainer\n\temail = maintainer@acme.example\n[commit]\n\tgpgsign = false\n[safe]\n\tdirectory = *\n",
            to: config)
        environment = [
            "HOME": folder, "PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": config, "LC_ALL": "C.UTF-8",
        ]
        try git(["init", "-q", "--bare", "-b", "main", bare])
        try git(["init", "-q", "-b", "main", work])
    }

    /// `git ARGUMENTS` (in `folder` when given) as the maintainers run it; its output.
    @discardableResult
    func git(_ arguments: [String], in folder: String? = nil) throws -> String {
        let run = try Spawn.run(["git"] + (folder.map { ["-C", $0] } ?? []) + arguments, environment: environment)
        guard run.status == 0 else { throw TestUser.Failure("git \(arguments.joined(separator: " ")): \(run.stderr)") }
        return run.stdout
    }

    /// Commits `text` as `perch-registry.json`, signed with the ssh key at `signingKey` when
    /// given, and pushes it to the bare repository's `main`; returns the commit's full hash.
    @discardableResult
    func publish(_ text: String, message: String = "registry", signingKey: String? = nil) throws -> String {
        try Loopback.write(text, to: work + "/perch-registry.json")
        try git(["add", "perch-registry.json"], in: work)
        let signing = signingKey.map { ["-c", "gpg.format=ssh", "-c", "user.signingkey=" + $0] } ?? []
        try git(signing + ["commit", "-q", "--allow-empty", "-m", message] + (signingKey == nil ? [] : ["-S"]), in: work)
        try git(["push", "-q", bare, "HEAD:refs/heads/main"], in: work)
        return try git(["rev-parse", "HEAD"], in: work).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A real OpenSSH server on 127.0.0.1 serving registries as git does over ssh: sshd (as root,
/// ``SSHServer``) lets in one login made for the test (``TestUser``) with one client key, whose
/// forced command runs only `git-upload-pack`. The client side is Perch's git, as root, with
/// `GIT_SSH_COMMAND` naming the key and a known_hosts file of the test's own (`-F /dev/null`:
/// the runner's `~/.ssh` is neither read nor made).
///
/// ``holdFetches(_:)`` makes the forced command wait, after ssh has let the client in and before
/// git answers, so that a test can cut the connection in the middle of a fetch
/// (``dropHeldConnection()``). ``remove()`` ends sshd and removes the login and the folders.
final class RegistryServer {
    /// The login's home: the repositories, sshd's files, the forced command.
    let folder: String
    /// The client's key and known_hosts (root's scratch folder, not the login's).
    let client: String
    var login: TestUser?
    var server: SSHServer?

    /// Why it cannot run here, or nil.
    static var missing: String? {
        Loopback.missing([SSHServer.program, "ssh", "ssh-keygen", "git"]) ?? TestUser.cannotCreate
    }

    init() throws {
        folder = try TmuxSession.makeScratchHome().path
        client = try TmuxSession.makeScratchHome().path
    }

    /// Where the forced command notes what it serves and the pid it holds; the login writes there.
    var runFolder: String { folder + "/run" }
    var servedLog: String { runFolder + "/served.log" }
    var holdFile: String { runFolder + "/hold" }
    var heldPIDFile: String { runFolder + "/held.pid" }
    var clientKey: String { client + "/id_registry" }

    /// Makes the login and the client key, starts sshd; throws `TestUser.Failure` when it cannot.
    func start() throws {
        if let reason = Self.missing { throw TestUser.Failure(reason) }
        let login = try TestUser.create(TestUser.freshName(), home: folder)
        self.login = login
        try FileManager.default.createDirectory(atPath: runFolder, withIntermediateDirectories: true)
        try Loopback.write("", to: servedLog)
        try login.own(runFolder)
        // The login's git serves repositories that root's git writes.
        try Loopback.write("[safe]\n\tdirectory = *\n", to: folder + "/.gitconfig")
        let made = try Spawn.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "perch-registry-client", "-f", clientKey])
        guard made.status == 0 else { throw TestUser.Failure("ssh-keygen: \(made.stderr)") }
        let serve = folder + "/serve.sh"
        writeExecutable(
            """
            #!/bin/sh
            echo "$SSH_ORIGINAL_COMMAND" >> \(servedLog)
            if [ -e \(holdFile) ]; then
              echo $$ > \(heldPIDFile).new && mv \(heldPIDFile).new \(heldPIDFile)
              exec sleep 600
            fi
            case "$SSH_ORIGINAL_COMMAND" in
              "git-upload-pack "*) exec /bin/sh -c "$SSH_ORIGINAL_COMMAND" ;;
              *) echo "this server only serves fetches" >&2; exit 1 ;;
            esac

            """, to: serve)
        let key = Loopback.text(clientKey + ".pub").trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try SSHServer.start(in: folder, login: login.name, authorizedKeys: "restrict,command=\"\(serve)\" \(key)\n")
        self.server = server
        try Loopback.write(server.knownHostsLine, to: client + "/known_hosts")
    }

    /// The ssh URL of `repository` (a bare repository under ``folder``).
    func url(_ repository: RegistryRepository) -> String {
        "ssh://\(login?.name ?? "nobody")@127.0.0.1:\(server?.port ?? 1)\(repository.bare)"
    }

    /// The variables Perch's git needs to reach this server: its key, this server's host key only.
    var clientEnvironment: [String: String] {
        let command = [
            "ssh", "-F", "/dev/null", "-i", clientKey, "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none", "-o", "BatchMode=yes",
            "-o", "StrictHostKeyChecking=yes", "-o", "UserKnownHostsFile=" + client + "/known_hosts", "-o",
            "GlobalKnownHostsFile=/dev/null",
        ].map(TmuxSession.quote).joined(separator: " ")
        return ["GIT_SSH_COMMAND": command]
    }

    /// How many connections sshd let in with the client key so far.
    var acceptedConnections: Int {
        guard let server, let login else { return 0 }
        return Loopback.text(server.log).components(separatedBy: "Accepted publickey for \(login.name) ").count - 1
    }

    /// The commands the forced command was asked to run, one a line.
    var served: [String] { Loopback.text(servedLog).split(separator: "\n").map(String.init) }

    /// While `hold`, the forced command waits (holding the connection open) instead of running git.
    func holdFetches(_ hold: Bool) throws {
        if hold {
            try Loopback.write("", to: holdFile)
        } else {
            unlink(holdFile)
        }
    }

    /// The pid of a held forced command, once one is waiting (within `timeout` seconds).
    func heldPID(timeout: Double = 20) -> pid_t? {
        var pid: pid_t?
        _ = waitUntil(timeout: timeout) {
            pid = pid_t(Loopback.text(heldPIDFile).trimmingCharacters(in: .whitespacesAndNewlines))
            return pid != nil
        }
        return pid
    }

    /// The parent of `pid` (proc(5), `/proc/PID/stat`'s fourth field), or nil.
    static func parent(of pid: pid_t) -> pid_t? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let end = stat.lastIndex(of: ")") else {
            return nil
        }
        return stat[stat.index(after: end)...].split(separator: " ").dropFirst().first.flatMap { pid_t($0) }
    }

    /// Cuts the held connection as a network failure would: every process of that connection
    /// (the held command and the sshd processes between it and the listening sshd, all
    /// descendants of the sshd this test started) is killed with SIGKILL, so the TCP connection
    /// closes with git's fetch half done. Returns the pids killed.
    @discardableResult
    func dropHeldConnection() throws -> [pid_t] {
        let server = try #require(server)
        let held = try #require(heldPID(), "no fetch was held: \(served)")
        var chain = [held]
        while let parent = Self.parent(of: chain.last!), parent != server.pid, parent > 1 { chain.append(parent) }
        try #require(Self.parent(of: chain.last!) == server.pid, "the held command \(held) is not below sshd \(server.pid)")
        for pid in chain.reversed() { kill(pid, SIGKILL) }
        unlink(heldPIDFile)
        return chain
    }

    /// Ends the held command (left behind by sshd once its client went away), by its pid.
    func endHeldCommand() {
        if let pid = pid_t(Loopback.text(heldPIDFile).trimmingCharacters(in: .whitespacesAndNewlines)) { kill(pid, SIGKILL) }
        unlink(heldPIDFile)
    }

    /// Stops sshd (connections are refused from then on).
    func stop() { server?.stop() }

    /// Stops sshd, removes the login and both folders; safe after a partial start.
    func remove() {
        server?.stop()
        endHeldCommand()
        login?.remove()
        try? FileManager.default.removeItem(atPath: folder)
        try? FileManager.default.removeItem(atPath: client)
    }
}

/// A scratch home for the registry tests (``ScopedHome``: scratch XDG folders, a kubeconfig,
/// gcloud files, `GIT_CONFIG_NOSYSTEM=1`), with one account of the user's own, git set up
/// (Perch's include in `~/.gitconfig`) and a repository to ask git who it is in.
struct RegistryHome {
    let scoped: ScopedHome
    /// Variables added to Perch's environment (the ssh server's `GIT_SSH_COMMAND`).
    var extra: [String: String] = [:]

    static let ownAccount = #"{"id": "me", "name": "Me", "git": {"name": "Me Myself", "email": "me@home.example"}}"#

    init() throws {
        scoped = try ScopedHome(accounts: [Self.ownAccount], contexts: ["dev"], configurations: ["default"])
        let setup = try scoped.cli.run(["setup", "git", "--yes"])
        try #require(setup.status == 0, "perch setup git: \(setup.stdout)\(setup.stderr)")
        let made = try Spawn.run(["git", "init", "-q", scratchRepository], environment: scoped.cli.environment)
        try #require(made.status == 0, "git init: \(made.stderr)")
    }

    var home: String { scoped.home }
    var statePath: String { scoped.cli.statePath }
    var configPath: String { scoped.cli.configPath }
    /// The registries' index beside the state file.
    var indexPath: String { String(statePath.dropLast(".json".count)) + ".registries.json" }
    /// The registries' folder beside the state file.
    var registriesFolder: String { String(statePath.dropLast(".json".count)) + ".registries" }
    var scratchRepository: String { home + "/src/scratch" }
    var environment: [String: String] { scoped.cli.environment.merging(extra) { $1 } }

    /// `perch ARGUMENTS`, no terminal.
    func perch(_ arguments: [String]) throws -> Spawn.Result {
        try Spawn.run([TmuxSession.binary] + arguments, environment: environment)
    }

    /// The index's bytes, or nil when there is none.
    func indexBytes() -> Data? { FileManager.default.contents(atPath: indexPath) }

    /// The commit the index records for registry `name`, or nil.
    func commit(of name: String) -> String? {
        guard let data = indexBytes(), let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let registries = json["registries"] as? [[String: Any]]
        else { return nil }
        return registries.first { $0["name"] as? String == name }?["commit"] as? String
    }

    /// The names of the registries in the index, in order.
    func registryNames() -> [String] {
        guard let data = indexBytes(), let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let registries = json["registries"] as? [[String: Any]]
        else { return [] }
        return registries.compactMap { $0["name"] as? String }
    }

    /// `perch list --format ids`: the ids every command sees (the run must succeed).
    func ids(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let list = try perch(["list", "--format", "ids"])
        #expect(list.status == 0, "perch list: \(list.stdout)\(list.stderr)", sourceLocation: sourceLocation)
        return list.stdout.split(separator: "\n").map(String.init)
    }

    /// Who git itself says commits in a repository of the home (`git var GIT_AUTHOR_IDENT`, without the time).
    func author() throws -> String {
        let run = try Spawn.run(["git", "-C", scratchRepository, "var", "GIT_AUTHOR_IDENT"], environment: environment)
        return String(run.stdout.split(separator: ">").first ?? "") + ">"
    }

    /// The user's accounts.json, as bytes.
    func configBytes() -> Data? { FileManager.default.contents(atPath: configPath) }

    /// Writes the user's accounts.json: the own account and `more` (JSON objects).
    func writeConfig(_ more: [String]) throws {
        try scoped.cli.writeConfig("{\"accounts\": [\n" + ([Self.ownAccount] + more).joined(separator: ",\n") + "\n]}\n")
    }

    func remove() { scoped.cli.remove() }

    /// The pids of processes whose command line mentions `text` (git and ssh started for a fetch).
    static func processes(mentioning text: String) -> [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { name -> pid_t? in
            guard let pid = pid_t(name), pid != getpid(), let data = FileManager.default.contents(atPath: "/proc/\(name)/cmdline") else {
                return nil
            }
            if String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self).contains(text) { return pid }
            // Bug (a flaky run): git's own children (`git index-pack --stdin`) name no path, but
            // work in the repository and wrote objects there after the wait had ended.
            let folder = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(name)/cwd")) ?? ""
            return folder.hasPrefix(text) ? pid : nil
        }
    }
}
