import Foundation
import PerchTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 49, agents as accounts: four coding agents under four accounts (`"agent": true`) run
/// concurrently through `perch exec`, each committing and pushing over a real OpenSSH server on
/// 127.0.0.1 and asking gh (and, where installed, the real Azure CLI) who it is, while the user's global account changes 50 times. Every
/// commit, every push (the server logs the key of each) and every answer must be the agent's own;
/// the user's global files must be byte-identical afterwards; and an agent whose token is gone
/// must not start. gh is a small fake that answers `gh auth token` per user and `gh api user`
/// for the token it is given, since Debian's gh 2.23 has one account per host.
@Suite("Agents under perch exec", .serialized, .currentBinary)
struct AgentEndToEndTests {
    static let count = 4
    static let rounds = 8

    @Test(
        "4 agents commit, push over sshd and ask gh concurrently while the global account changes 50 times: nothing crosses; a missing token stops an agent",
        .enabled(if: FileManager.default.isExecutableFile(atPath: SSHServer.program) && ShellEndToEndTests.installed("git")))
    func agentLoop() throws {
        if let reason = TestUser.cannotCreate {
            print("skipped: \(reason)")
            return
        }
        var cli = try PerchCommandLine()
        let serverFolder = try TmuxSession.makeScratchHome().path
        let home = cli.home.path
        var login: TestUser?
        var user: TestUser?
        var server: SSHServer?
        defer {
            server?.stop()
            user?.remove()
            login?.remove()
            cli.remove()
            try? FileManager.default.removeItem(atPath: serverFolder)
        }
        let ssh = home + "/.ssh"
        try FileManager.default.createDirectory(atPath: ssh, withIntermediateDirectories: true)
        // The server: one bare repository and one key per agent; each key's forced command logs
        // which key came and runs git-shell for the push.
        login = try TestUser.create(TestUser.freshName(), home: serverFolder)
        let pushLog = serverFolder + "/pushes.log"
        var authorized = ""
        for n in 0..<Self.count {
            #expect(try Spawn.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "a\(n)", "-f", ssh + "/id_a\(n)"]).status == 0)
            authorized +=
                "command=\"echo a\(n) $SSH_ORIGINAL_COMMAND >> \(pushLog); exec git-shell -c \\\"$SSH_ORIGINAL_COMMAND\\\"\",no-pty,no-port-forwarding "
                + Loopback.text(ssh + "/id_a\(n).pub")
            #expect(try Spawn.run(["git", "init", "-q", "--bare", "-b", "main", serverFolder + "/repo-\(n).git"]).status == 0)
        }
        // The global accounts' keys exist but the server knows none of them.
        for id in ["x", "y"] {
            #expect(try Spawn.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", id, "-f", ssh + "/id_" + id]).status == 0)
        }
        server = try SSHServer.start(in: serverFolder, login: login!.name, authorizedKeys: authorized)
        try login!.own(serverFolder)
        user = try TestUser.create(TestUser.freshName(), home: home)
        try Loopback.write(server!.knownHostsLine, to: ssh + "/known_hosts_test")
        try Loopback.write(
            "Host gitserver\n  HostName 127.0.0.1\n  Port \(server!.port)\n  User \(login!.name)\n  UserKnownHostsFile ~/.ssh/known_hosts_test\n",
            to: ssh + "/config")
        try Loopback.write("[user]\n\tname = Ada Own\n\temail = ada@own.example\n", to: home + "/.gitconfig")
        // gh: tokens per user, `gh api user` answers for the token given (else the active user).
        try FileManager.default.createDirectory(atPath: home + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home + "/gh", withIntermediateDirectories: true)
        try Loopback.write("github.com:\n    users:\n        x-user:\n        y-user:\n    user: x-user\n", to: home + "/gh/hosts.yml")
        writeExecutable(
            #"""
            #!/bin/sh
            [ "$3" = --help ] && exit 0
            case "$1 $2" in
              "auth token") [ -e "$HOME/revoked-$6" ] && { echo "no oauth token found for $6" >&2; exit 1; }; echo "token-$6" ;;
              "auth switch") printf 'github.com:\n    users:\n        x-user:\n        y-user:\n    user: %s\n' "$6" > "$GH_CONFIG_DIR/hosts.yml.new" && mv "$GH_CONFIG_DIR/hosts.yml.new" "$GH_CONFIG_DIR/hosts.yml" ;;
              "api user") if [ -n "$GH_TOKEN" ]; then echo "${GH_TOKEN#token-}"; else sed -n 's/^    user: //p' "${GH_CONFIG_DIR:-$HOME/.config/gh}/hosts.yml"; fi ;;
            esac
            exit 0

            """#, to: home + "/bin/gh")
        // The real Azure CLI, where installed, described only by Perch's shipped JSON: each agent
        // has a folder of its own, and your shell's AZURE_CONFIG_DIR names yours.
        let az = ShellEndToEndTests.installed("az")
        for name in (0..<Self.count).map({ "a\($0)" }) + ["own"] where az {
            try FileManager.default.createDirectory(atPath: home + "/.azure-" + name, withIntermediateDirectories: true)
            try AzureCLIEndToEndTests.profile("\(name)@azure.example").write(
                toFile: home + "/.azure-\(name)/azureProfile.json", atomically: true, encoding: .utf8)
        }
        var accounts = (0..<Self.count).map { n in
            #"{"id": "a\#(n)", "name": "Agent \#(n)", "agent": true, "git": {"name": "Agent \#(n)", "email": "a\#(n)@agents.example"}, "ssh": {"host": "gitserver", "identityFile": "~/.ssh/id_a\#(n)"}, "gh": {"user": "bot-\#(n)"}"#
                + (az ? #", "az": {"configDir": "~/.azure-a\#(n)", "user": "a\#(n)@azure.example"}}"# : "}")
        }
        accounts += ["x", "y"].map { id in
            #"{"id": "\#(id)", "name": "\#(id)", "git": {"name": "Ada \#(id)", "email": "ada@\#(id).example"}, "ssh": {"host": "gitserver", "identityFile": "~/.ssh/id_\#(id)"}, "gh": {"user": "\#(id)-user"}}"#
        }
        try cli.writeConfig("{\"accounts\": [\n" + accounts.joined(separator: ",\n") + "\n]}")
        cli.extraEnvironment = [
            "PATH": home + "/bin:/usr/local/bin:/usr/bin:/bin", "USER": user!.name, "LOGNAME": user!.name, "GIT_CONFIG_NOSYSTEM": "1",
            "GH_CONFIG_DIR": home + "/gh", "AZURE_CONFIG_DIR": home + "/.azure-own", "AZURE_CORE_COLLECT_TELEMETRY": "false",
        ]
        let binary = try TestUser.binaryCopy(in: home)
        try user!.own(home)
        func asUser(_ argv: [String]) throws -> Spawn.Result {
            try Spawn.run(user!.command(["/bin/sh", "-c", "cd \"$HOME\" && exec \"$@\"", "sh"] + argv), environment: cli.environment)
        }
        for arguments in [["setup", "git", "--yes"], ["setup", "ssh", "--yes"], ["switch", "x"]] {
            let done = try asUser([binary] + arguments)
            #expect(done.status == 0, "\(arguments): \(done.stdout)\(done.stderr)")
        }
        for n in 0..<Self.count {
            let made = try asUser(["git", "init", "-q", "-b", "main", "work-\(n)"])
            #expect(made.status == 0, "\(made.stderr)")
            #expect(try asUser(["git", "-C", "work-\(n)", "remote", "add", "origin", "gitserver:repo-\(n).git"]).status == 0)
        }
        let globalFiles =
            [home + "/.gitconfig", home + "/.ssh/config", home + "/gh/hosts.yml"] + (az ? [home + "/.azure-own/azureProfile.json"] : [])
        let before = globalFiles.map { FileManager.default.contents(atPath: $0) }

        // Each agent: commit, push, ask gh, `rounds` times; then its author, committer and gh answer.
        let script = #"""
            cd "$HOME/work-$1" || exit 1
            i=0
            while [ $i -lt $2 ]; do
              git commit -q --allow-empty -m "$1-$i" && git push -q origin HEAD:main || echo "push-failed $i"
              echo "gh $(gh api user)"
              if [ "$3" = az ]; then echo "az $(az account show --query user.name -o tsv 2>&1)"; fi
              i=$((i + 1))
            done
            """#
        var agents: [(Int, pid_t, String)] = []
        for n in 0..<Self.count {
            let out = home + "/agent-\(n).out"
            let pid = try Spawn.start(
                user!.command([binary, "exec", "a\(n)", "--", "sh", "-c", script, "-", String(n), String(Self.rounds), az ? "az" : "-"]),
                environment: cli.environment, stdout: out, stderr: out + ".err")
            agents.append((n, pid, out))
        }
        var switches = 0
        while agents.contains(where: { !TmuxSession.hasEnded($0.1) }) || switches < 50 || switches % 2 == 1 {
            let switched = try asUser([binary, "switch", switches % 2 == 0 ? "y" : "x"])
            #expect(switched.status == 0, "\(switched.stderr)")
            switches += 1
        }
        var crossings: [String] = []
        var operations = 0
        for (n, pid, out) in agents {
            #expect(try Spawn.wait(pid) == 0, "a\(n): \(Loopback.text(out + ".err"))")
            let lines = Loopback.text(out).split(separator: "\n")
            #expect(lines.count == Self.rounds * (az ? 2 : 1), "a\(n): \(lines)")
            for line in lines {
                operations += 1
                if line != "gh bot-\(n)" && line != "az a\(n)@azure.example" { crossings.append("a\(n) answer: \(line)") }
            }
            // What the server has: every commit the agent's, author and committer.
            let log = try Spawn.run(
                ["git", "--git-dir", serverFolder + "/repo-\(n).git", "log", "--format=%an <%ae>|%cn <%ce>", "main"],
                environment: ["PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1", "HOME": serverFolder])
            let commits = log.stdout.split(separator: "\n")
            #expect(commits.count == Self.rounds, "a\(n): \(log.stdout)\(log.stderr)")
            for commit in commits where commit != "Agent \(n) <a\(n)@agents.example>|Agent \(n) <a\(n)@agents.example>" {
                crossings.append("a\(n) commit: \(commit)")
            }
            operations += commits.count
        }
        // Every push came with the key of the repository's agent.
        let pushes = Loopback.text(pushLog).split(separator: "\n").filter { $0.contains("git-receive-pack") }
        #expect(pushes.count == Self.count * Self.rounds, "\(pushes.count) pushes")
        for push in pushes {
            let key = push.prefix { $0 != " " }
            if !push.contains("repo-\(key.dropFirst()).git") { crossings.append("push: \(push)") }
        }
        operations += pushes.count
        print(
            "agents: \(Self.count) agents, \(operations) commits, pushes and answers, \(switches) global switches, \(crossings.count) crossings"
        )
        #expect(crossings.isEmpty, "\(crossings.prefix(10))")
        #expect(switches >= 50 && switches % 2 == 0)
        #expect(globalFiles.map { FileManager.default.contents(atPath: $0) } == before, "the user's global files are as they were")

        // One agent's token gone: its next command does not start.
        try Loopback.write("", to: home + "/revoked-bot-0")
        try user!.own(home + "/revoked-bot-0")
        let marker = home + "/started"
        let refused = try asUser([binary, "exec", "a0", "--", "touch", marker])
        #expect(refused.status == 3, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("was not started"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(try asUser([binary, "exec", "a1", "--", "touch", marker]).status == 0, "another agent still starts")
    }
}
