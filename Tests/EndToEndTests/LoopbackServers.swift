import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What the `perch verify` end-to-end tests start and make: servers on 127.0.0.1 only (a real
/// sshd, moto's AWS server, a listener that never answers) and users in the password database.
/// Each is stopped or removed by the test that made it, by its PID or name.
enum Loopback {
    /// Why `what` cannot run here, or nil.
    static func missing(_ programs: [String]) -> String? {
        for program in programs {
            let found =
                program.hasPrefix("/")
                ? FileManager.default.isExecutableFile(atPath: program) : ShellEndToEndTests.installed(program)
            if !found { return "\(program) is not installed (make test-deps installs it)" }
        }
        return nil
    }

    /// A TCP port free on 127.0.0.1 now (bound to port 0, then closed).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(fd) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// Whether something accepts connections on 127.0.0.1:`port`.
    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// Whether `pid` (a child of this process) is still running; reaps it when it has ended.
    static func running(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    /// Waits until 127.0.0.1:`port` accepts, as long as `pid` runs, within `timeout` seconds.
    static func waitUntilAccepting(_ port: Int, pid: pid_t, timeout: Double) -> Bool {
        TmuxSession.eventually(timeout: timeout) { accepts(port) || !running(pid) } && accepts(port)
    }

    /// Starts `argv`, a server of the test's own that picks a free port on 127.0.0.1, with its
    /// standard output in `output` (and its errors in `errors`, by default the same file), reads
    /// the port from the output with `port` as it comes, and waits until the port accepts, within
    /// 20 s. Returns its process id and port.
    /// - Throws: a failure naming `what` and its output when it ends, or never says its port or
    ///   accepts; the process is stopped then.
    static func startServer(
        _ argv: [String], output: String, errors: String? = nil, what: String, port read: @escaping (String) -> Int?
    ) throws -> (pid: pid_t, port: Int) {
        let pid = try Spawn.start(argv, stdout: output, stderr: errors ?? output)
        var port = 0
        _ = TmuxSession.eventually(timeout: 20) {
            port = read(text(output)) ?? 0
            return port > 0 || !running(pid)
        }
        guard port > 0, waitUntilAccepting(port, pid: pid, timeout: 20) else {
            stop(pid)
            throw TestUser.Failure("\(what) did not start: \(text(errors ?? output))")
        }
        return (pid, port)
    }

    /// The port a server printed alone on its first line.
    static func portLine(_ output: String) -> Int? { Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) }

    /// Stops `pid`, a child this test started: SIGTERM, SIGKILL when it has not ended within 5 s;
    /// then reaps it.
    static func stop(_ pid: pid_t) {
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        if !TmuxSession.eventually(timeout: 5, { !running(pid) }) {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
    }

    /// The text of a file, or "".
    static func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// Writes `text` to `path` with `mode`.
    static func write(_ text: String, to path: String, mode: mode_t = 0o644) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, mode)
    }
}

/// A user in the password database, made with `useradd` for one test and removed with
/// `userdel` by it. ssh finds `~/.ssh` (config, keys, known_hosts) through the password
/// database, not `$HOME`, so the ssh side of a test runs as such a user.
struct TestUser {
    var name: String
    var uid: uid_t
    var gid: gid_t
    var home: String

    /// Why users cannot be made here, or nil.
    static var cannotCreate: String? {
        if geteuid() != 0 { return "making a user needs root (useradd), and this runs as uid \(geteuid())" }
        return Loopback.missing(["useradd", "userdel", "setpriv", "chown"])
    }

    /// Makes user `name` with `home` (not created: the folder is the test's) and `/bin/sh`, with
    /// no password but not locked (`*`: sshd without PAM refuses a locked `!` account). Throws
    /// the reason when it cannot; refuses a name that is already taken (it is someone else's).
    static func create(_ name: String, home: String) throws -> TestUser {
        if getpwnam(name) != nil { throw Failure("a user named \(name) already exists here; the test leaves it alone") }
        let made = try Spawn.run(["useradd", "-M", "-d", home, "-s", "/bin/sh", "-p", "*", "-U", name])
        guard made.status == 0, let entry = getpwnam(name) else {
            throw Failure("useradd \(name) failed (status \(made.status)): \(made.stderr.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return TestUser(name: name, uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid, home: home)
    }

    /// A fresh name, `perchv` and 8 random letters (useradd's names are at most 32 characters).
    static func freshName() -> String {
        "perchv" + String((0..<8).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement()! })
    }

    /// `userdel`, again within 10 s while a process of the user is still ending.
    func remove() {
        _ = TmuxSession.eventually(timeout: 10) {
            _ = try? Spawn.run(["userdel", name])
            return getpwnam(name) == nil
        }
    }

    /// `argv` run as this user (setpriv execs it: no process in between).
    func command(_ argv: [String]) -> [String] {
        ["setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups"] + argv
    }

    /// A copy of the binary under test in `home` (`home/bin/perch`, mode 0755), for a user who
    /// may not reach the checkout (a clone in a 0700 folder, as `mktemp -d` makes): the path.
    static func binaryCopy(in home: String) throws -> String {
        let path = home + "/bin/perch"
        try FileManager.default.createDirectory(atPath: home + "/bin", withIntermediateDirectories: true)
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        // Copied by a child process, not in this one: a copy written here holds a descriptor open
        // for writing that a process forked meanwhile by a test running in parallel inherits, and
        // exec(2) of the copy then fails with ETXTBSY ("Text file busy", seen in CI).
        let copied = try Spawn.run(["install", "-m", "0755", TmuxSession.binary, path])
        if copied.status != 0 { throw Failure("install \(path): \(copied.stderr)") }
        return path
    }

    /// Gives `path` and everything under it to this user.
    func own(_ path: String) throws {
        let result = try Spawn.run(["chown", "-R", "\(uid):\(gid)", path])
        if result.status != 0 { throw Failure("chown \(path): \(result.stderr)") }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// A real OpenSSH server on 127.0.0.1, as root with its config, host key and authorized_keys in
/// a scratch folder (`sshd -f CONFIG -D -e`, no PAM, no strict modes), letting in only `login`.
struct SSHServer {
    var pid: pid_t
    var port: Int
    /// The host's public key, `ssh-ed25519 AAAA…`.
    var hostKey: String
    var log: String

    static let program = "/usr/sbin/sshd"

    /// The known_hosts line for this server.
    var knownHostsLine: String { "[127.0.0.1]:\(port) \(hostKey)\n" }

    /// An authorized_keys line giving `publicKey` a forced command that prints `greeting`
    /// (to standard error, as GitHub's does, when `toStderr`) and exits 1.
    static func forcedGreeting(_ greeting: String, toStderr: Bool = true, key publicKey: String) -> String {
        let escaped = greeting.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        // The command runs through the login's shell; the greeting is double-quoted inside it.
        return "command=\"echo \\\"\(escaped)\\\"\(toStderr ? " >&2" : ""); exit 1\",no-pty,no-port-forwarding "
            + publicKey.trimmingCharacters(in: .whitespacesAndNewlines) + "\n"
    }

    /// Starts sshd in `folder` (made and kept by the caller) on a free port; waits until it accepts.
    static func start(in folder: String, login: String, authorizedKeys: String) throws -> SSHServer {
        // sshd's privilege separation folder; the ssh service would make it at boot.
        if access("/run/sshd", F_OK) != 0 { mkdir("/run/sshd", 0o755) }
        let hostKeyPath = folder + "/ssh_host_ed25519_key"
        let generated = try Spawn.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "perch-test-host", "-f", hostKeyPath])
        guard generated.status == 0 else { throw TestUser.Failure("ssh-keygen for the host key: \(generated.stderr)") }
        let hostKey = Loopback.text(hostKeyPath + ".pub").split(separator: " ").prefix(2).joined(separator: " ")
        try Loopback.write(authorizedKeys, to: folder + "/authorized_keys")
        var lastLog = ""
        for _ in 0..<3 {  // another process may take the free port before sshd binds it
            let port = try freePort()
            let config = """
                Port \(port)
                ListenAddress 127.0.0.1
                HostKey \(hostKeyPath)
                PidFile \(folder)/sshd.pid
                UsePAM no
                StrictModes no
                AuthorizedKeysFile \(folder)/authorized_keys
                AllowUsers \(login)
                PasswordAuthentication no
                KbdInteractiveAuthentication no
                PubkeyAuthentication yes
                PermitUserEnvironment no
                PrintMotd no
                UseDNS no
                LogLevel VERBOSE

                """
            try Loopback.write(config, to: folder + "/sshd_config")
            let log = folder + "/sshd-\(port).log"
            let pid = try Spawn.start([program, "-f", folder + "/sshd_config", "-D", "-e"], stdout: log, stderr: log)
            if Loopback.waitUntilAccepting(port, pid: pid, timeout: 10) {
                return SSHServer(pid: pid, port: port, hostKey: hostKey, log: log)
            }
            Loopback.stop(pid)
            lastLog = Loopback.text(log)
        }
        throw TestUser.Failure("sshd did not start: \(lastLog)")
    }

    static func freePort() throws -> Int { try Loopback.freePort() }

    func stop() { Loopback.stop(pid) }
}

/// A TCP listener on 127.0.0.1 that accepts connections and never says anything (python3).
struct SilentListener {
    var pid: pid_t
    var port: Int

    static func start(in folder: String) throws -> SilentListener {
        let portFile = folder + "/silent.port"
        let script = """
            import socket
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(16)
            print(s.getsockname()[1], flush=True)
            held = []
            while True: held.append(s.accept()[0])
            """
        let (pid, port) = try Loopback.startServer(
            ["python3", "-c", script], output: portFile, what: "the silent listener", port: Loopback.portLine)
        return SilentListener(pid: pid, port: port)
    }

    func stop() { Loopback.stop(pid) }
}

/// moto's AWS server (`python3 -m moto.server`) on 127.0.0.1, answering the aws CLI.
struct MotoServer {
    var pid: pid_t
    var port: Int
    var endpoint: String { "http://127.0.0.1:\(port)" }

    /// Why moto and the aws CLI cannot be used here, or nil. The aws CLI must read
    /// `endpoint_url` from a profile: aws-cli 1.29 and 2.13 (botocore 1.31) or later.
    static let missing: String? = {
        guard let aws = try? Spawn.run(["aws", "--version"]), aws.status == 0 else {
            return "the aws CLI is not installed (make test-deps installs awscli with pip)"
        }
        guard (try? Spawn.run(["python3", "-c", "import moto.server"]).status) == 0 else {
            return "moto's server is not installed (make test-deps installs moto[server] with pip)"
        }
        // `aws-cli/1.45.11 Python/3.11.7 …`
        let version = (aws.stdout + aws.stderr).split(separator: " ").first { $0.hasPrefix("aws-cli/") }?.dropFirst(8) ?? ""
        let parts = version.split(separator: ".").compactMap { Int($0) }
        guard parts.count >= 2 else { return "cannot read the aws CLI's version from \(aws.stdout)" }
        let supported = parts[0] == 1 ? parts[1] >= 29 : parts[0] >= 2 && (parts[0] > 2 || parts[1] >= 13)
        return supported ? nil : "aws-cli \(version) is too old to read endpoint_url from a profile (1.29 or 2.13 needed)"
    }()

    static func start(in folder: String) throws -> MotoServer {
        var lastLog = ""
        for _ in 0..<3 {
            let port = try Loopback.freePort()
            let log = folder + "/moto-\(port).log"
            let pid = try Spawn.start(["python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", "\(port)"], stdout: log, stderr: log)
            if Loopback.waitUntilAccepting(port, pid: pid, timeout: 60) { return MotoServer(pid: pid, port: port) }
            Loopback.stop(pid)
            lastLog = Loopback.text(log)
        }
        throw TestUser.Failure("moto did not start: \(lastLog)")
    }

    func stop() { Loopback.stop(pid) }
}
