import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// An interactive bash, zsh or fish in its own tmux server, with `perch shell-init` loaded from
/// its startup file and a prompt that shows `[PERCH_ACCOUNT|PERCH_SCOPE]> ` (`following` when
/// the shell has no account of its own), typed into as a person would.
final class ShellPane {
    let socket = "perch-shell-\(getpid())-\(UUID().uuidString.prefix(8))"
    let shell: String
    /// The command that starts this shell with its startup file (for `exec` in the pane).
    let command: String

    /// `before` and `after` are lines of the startup file before and after Perch's shell-init;
    /// `extra` is added to the shell's environment.
    init(_ shell: String, home: ScopedHome, extra: [String: String] = [:], before: String = "", after: String = "") throws {
        self.shell = shell
        let folder = home.home + "/rc-\(shell)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let perchFolder = home.home + "/perch-bin"
        try? FileManager.default.createDirectory(atPath: perchFolder, withIntermediateDirectories: true)
        if access(perchFolder + "/perch", F_OK) != 0 { symlink(TmuxSession.binary, perchFolder + "/perch") }
        var environment = home.cli.environment
        environment["PATH"] = perchFolder + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["TERM"] = "xterm-256color"
        environment["SHELL"] = "/bin/" + shell
        environment.merge(extra) { $1 }
        switch shell {
        case "zsh":
            try """
            setopt PROMPT_SUBST
            PS1='[${PERCH_ACCOUNT-none}|${PERCH_SCOPE:-following}]> '
            \(before)
            eval "$(perch shell-init zsh)"
            \(after)

            """.write(toFile: folder + "/.zshrc", atomically: true, encoding: .utf8)
            environment["ZDOTDIR"] = folder
            command = "zsh -i"
        case "fish":
            try """
            set -g fish_greeting ''
            function fish_prompt
                printf '[%s|%s]> ' (set -q PERCH_ACCOUNT; and echo $PERCH_ACCOUNT; or echo none) (set -q PERCH_SCOPE; and echo $PERCH_SCOPE; or echo following)
            end
            \(before)
            perch shell-init fish | source
            \(after)

            """.write(toFile: folder + "/rc.fish", atomically: true, encoding: .utf8)
            command = "fish --no-config -i -C 'source \(folder)/rc.fish'"
        default:
            try """
            PS1='[${PERCH_ACCOUNT-none}|${PERCH_SCOPE:-following}]> '
            \(before)
            eval "$(perch shell-init bash)"
            \(after)

            """.write(toFile: folder + "/bashrc", atomically: true, encoding: .utf8)
            command = "bash --noprofile --rcfile \(folder)/bashrc -i"
        }
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(TmuxSession.quote($0.value))" }.joined(separator: " ")
        try tmux(["new-session", "-d", "-x", "120", "-y", "40", "exec env -i \(assignments) \(command)"])
    }

    deinit {
        _ = try? tmux(["kill-server"])
        unlink(TmuxSession.socketPath(socket))
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        return try Spawn.run(["tmux", "-u", "-L", socket, "-f", "/dev/null"] + arguments, environment: TmuxSession.tmuxEnvironment).stdout
    }

    func screen() throws -> [String] {
        try tmux(["capture-pane", "-p"]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The screen as one text, for messages ("" when tmux cannot be asked).
    var text: String { ((try? screen()) ?? []).joined(separator: "\n") }

    /// Types `line` and Enter.
    func type(_ line: String) throws {
        try tmux(["send-keys", "-l", line])
        try tmux(["send-keys", "Enter"])
    }

    /// Waits (up to `timeout` seconds) until the last line with text starts with `prompt`.
    @discardableResult
    func waitForPrompt(_ prompt: String, timeout: Double = 10) throws -> Bool {
        // tmux leaves out a line's trailing spaces.
        let prompt = prompt.trimmingCharacters(in: .whitespaces)
        return try waitUntil(timeout: timeout) { lines in
            lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.hasPrefix(prompt) == true
        }
    }

    /// Waits until `condition` holds for the screen, checked every 20 ms.
    func waitUntil(timeout: Double, _ condition: ([String]) -> Bool) throws -> Bool {
        try TmuxSession.waitUntil(timeout: timeout, screen: screen, condition)
    }

    /// Types `command` (which prints one line starting with `marker`) on a cleared screen and
    /// returns that line once the prompt (`[work|pinned]`) is back after it, alone on its line.
    func answer(_ command: String, marker: String, prompt: String) throws -> String? {
        let bare = prompt.trimmingCharacters(in: .whitespaces) + (prompt.hasSuffix(">") || prompt.hasSuffix("> ") ? "" : ">")
        func lastLine(_ lines: [String]) -> String? { lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } }
        try type("clear")
        _ = try waitUntil(timeout: 10) { lines in lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty } == [bare] }
        try type(command)
        _ = try waitUntil(timeout: 10) { lines in lines.contains { $0.hasPrefix(marker) } && lastLine(lines) == bare }
        return try screen().first { $0.hasPrefix(marker) }
    }
}

/// Issue 19, per shell and per folder: real bash, zsh and fish in tmux, each with a prompt.
@Suite("perch use, following at the prompt, bound folders", .serialized, .currentBinary)
struct ShellScopeEndToEndTests {
    static let available = ["tmux", "kubectl"].allSatisfy(ShellEndToEndTests.installed)

    static func home() throws -> ScopedHome {
        try ScopedHome(
            accounts: [
                #"{"id": "work", "name": "Work", "kube": {"context": "prod"}, "aws": "work-admin", "env": {"TEAM": "core"}, "directories": ["~/proj"]}"#,
                #"{"id": "personal", "name": "Personal", "kube": {"context": "dev"}, "aws": "home"}"#,
            ], contexts: ["dev", "prod"], configurations: ["home"])
    }

    @Test(
        "pinned with perch use, following a switch made elsewhere at the next prompt, and bound folders",
        .enabled(if: available), arguments: ["bash", "zsh", "fish"])
    func scopes(shell: String) throws {
        try #require(ShellEndToEndTests.installed(shell), "\(shell) is not installed (make test-deps installs it)")
        let home = try Self.home()
        defer { home.cli.remove() }
        try FileManager.default.createDirectory(atPath: home.home + "/proj/api", withIntermediateDirectories: true)
        #expect(try home.cli.run(["switch", "personal"]).status == 0)
        let pinned = try ShellPane(shell, home: home)
        let following = try ShellPane(shell, home: home)
        for pane in [pinned, following] {
            #expect(try pane.waitForPrompt("[personal|following]> "), "\(shell): \(pane.text)")
        }
        // perch use: this shell only.
        try pinned.type("perch use work")
        #expect(try pinned.waitForPrompt("[work|pinned]> "), "\(pinned.text)")
        #expect(
            try pinned.answer(
                "echo \"kube=$(kubectl config current-context) aws=$AWS_PROFILE team=$TEAM\"", marker: "kube=", prompt: "[work|pinned]")
                == "kube=prod aws=work-admin team=core")
        #expect(
            try following.answer(
                "echo \"kube=$(kubectl config current-context) aws=$AWS_PROFILE\"", marker: "kube=", prompt: "[personal|following]")
                == "kube=dev aws=home")
        // A switch made elsewhere: the following shell has it at its next prompt; the pinned one keeps its own.
        #expect(try home.cli.run(["switch", "work"]).status == 0)
        try following.type("")
        #expect(try following.waitForPrompt("[work|following]> "), "\(following.text)")
        #expect(
            try following.answer("echo \"aws=$AWS_PROFILE team=$TEAM\"", marker: "aws=", prompt: "[work|following]")
                == "aws=work-admin team=core")
        #expect(try home.cli.run(["switch", "personal"]).status == 0)
        try pinned.type("")
        try following.type("")
        #expect(try following.waitForPrompt("[personal|following]> "))
        #expect(try pinned.waitForPrompt("[work|pinned]> "))
        #expect(
            try following.answer(
                "echo \"aws=$AWS_PROFILE team=$(printenv TEAM || echo unset)\"", marker: "aws=", prompt: "[personal|following]")
                == "aws=home team=unset")
        // perch use --global: the environment from before the pin, and the global account.
        try pinned.type("perch use --global")
        #expect(try pinned.waitForPrompt("[personal|following]> "), "\(pinned.text)")
        #expect(
            try pinned.answer(
                "echo \"kc=$KUBECONFIG scope=$(printenv PERCH_SCOPE || echo none) team=$(printenv TEAM || echo unset)\"", marker: "kc=",
                prompt: "[personal|following]")
                == "kc=\(home.kubeconfig) scope=none team=unset")
        // A bound folder: its account while in it, one line saying so, the global one after.
        try following.type("cd ~/proj/api")
        #expect(try following.waitForPrompt("[work|directory]> "), "\(following.text)")
        #expect(try following.screen().contains { $0.contains("~/proj: this shell is work (Work) here") })
        #expect(
            try following.answer("echo \"kube=$(kubectl config current-context)\"", marker: "kube=", prompt: "[work|directory]")
                == "kube=prod")
        try following.type("cd ~")
        #expect(try following.waitForPrompt("[personal|following]> "), "\(following.text)")
        // A pinned shell ignores bound folders.
        try pinned.type("perch use work")
        try pinned.type("cd ~/proj")
        try pinned.type("perch use personal")
        #expect(try pinned.waitForPrompt("[personal|pinned]> "), "\(pinned.text)")
    }
}
