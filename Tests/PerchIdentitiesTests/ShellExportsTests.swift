import Foundation
import PerchDomain
import PerchInterface
import Testing

@testable import PerchIdentities

/// Values that need quoting in every shell.
private let awkward = [
    EnvironmentEntry(name: "QUOTE", value: "it's \"here\""), EnvironmentEntry(name: "DOLLAR", value: "$HOME `id` $(id) \\n"),
    EnvironmentEntry(name: "SPACES", value: "  a  b  "), EnvironmentEntry(name: "TWO_LINES", value: "one\ntwo"),
    EnvironmentEntry(name: "UNICODE", value: "ünï ✓"),
]

private let work = Account(id: "work", name: "Work", identities: ToolIdentities.make(aws: "work-admin", env: awkward))
private let home = Account(id: "home", name: "Home", identities: ToolIdentities.make(env: [EnvironmentEntry(name: "QUOTE", value: "home")]))

@Suite("perch env and perch shell-init through real shells", .serialized)
struct ShellExportsTests {
    /// Whether bash, zsh and fish are all installed: otherwise these tests are reported as
    /// skipped (a cancelled test case would be counted in a passing test).
    static let allShells = ShellKind.allCases.allSatisfy { ScratchHome.installed($0.rawValue) }
    static let noShells: Comment = "bash, zsh and fish must all be installed (make test-deps installs them)"

    /// Runs `script` with `shell` in the scratch environment; returns stdout.
    private func run(_ shell: ShellKind, _ script: String, in scratch: ScratchHome, extra: [String: String] = [:]) -> String? {
        var environment = scratch.environment
        for (name, value) in extra { environment.variables[name] = value }
        let arguments =
            shell == .fish
            ? ["--no-config", "-c", script] : shell == .zsh ? ["-f", "-c", script] : ["--norc", "--noprofile", "-c", script]
        return ProgramRunner.run(shell.rawValue, arguments, in: environment).output
    }

    @Test(
        "every value comes through exactly, with PERCH_ACCOUNT and AWS_PROFILE", .enabled(if: Self.allShells, Self.noShells),
        arguments: ShellKind.allCases)
    func exports(shell: ShellKind) throws {
        let scratch = try ScratchHome(fakes: [])
        try scratch.write(ShellExports.script(for: work, shell: shell, environment: [:]), to: "env.sh")
        let load = shell == .fish ? "source \(scratch.home)/env.sh" : ". \(scratch.home)/env.sh"
        let names = ["PERCH_ACCOUNT", "AWS_PROFILE"] + awkward.map(\.name)
        let print = names.map { shell == .fish ? "printf '%s\\0' \"$\($0)\"" : "printf '%s\\0' \"$\($0)\"" }.joined(separator: "; ")
        let output = run(shell, "\(load); \(print)", in: scratch)
        let values = output?.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(values == ["work", "work-admin"] + awkward.map(\.value))
    }

    @Test(
        "the previous account's variables are unset when the next one lacks them", .enabled(if: Self.allShells, Self.noShells),
        arguments: ShellKind.allCases)
    func unsetsPrevious(shell: ShellKind) throws {
        let scratch = try ScratchHome(fakes: [])
        let first = ShellExports.script(for: work, shell: shell, environment: [:])
        let names = ([ShellExports.namesVariable] + work.identities.exports.map(\.name)).joined(separator: " ")
        // As the shell would have it after the first: PERCH_ENV_NAMES lists what it exported.
        let second = ShellExports.script(
            for: home, shell: shell, environment: [ShellExports.namesVariable: work.identities.exports.map(\.name).joined(separator: " ")])
        try scratch.write(first + second, to: "env.sh")
        let load = shell == .fish ? "source \(scratch.home)/env.sh" : ". \(scratch.home)/env.sh"
        let check =
            shell == .fish
            ? "for n in AWS_PROFILE DOLLAR QUOTE; if set -q $n; echo \"$n=$$n\"; else; echo \"$n unset\"; end; end"
            : "for n in AWS_PROFILE DOLLAR QUOTE; do if [ -n \"$(eval echo \\${$n+x})\" ]; then eval echo \"$n=\\$$n\"; else echo \"$n unset\"; fi; done"
        let output = run(shell, "\(load); \(check)", in: scratch)
        #expect(output == "AWS_PROFILE unset\nDOLLAR unset\nQUOTE=home\n", "\(names)")
    }

    @Test(
        "shell-init: after perch switch in that shell its variables follow; the wrapper keeps perch's exit status",
        .enabled(if: Self.allShells, Self.noShells), arguments: ShellKind.allCases)
    func shellInit(shell: ShellKind) throws {
        let scratch = try ScratchHome(fakes: [])
        // A stand-in perch: `switch X` records X and exits 3; `env` prints X's exports.
        try scratch.write(ShellExports.script(for: work, shell: shell, environment: [:]), to: "work.env")
        try scratch.write(ShellExports.script(for: nil, shell: shell, environment: [:]), to: "none.env")
        try scratch.install(
            "fakeperch",
            """
            case "$1" in
              switch) echo "$2" > "$HOME/current"; exit 3 ;;
              env|shell-hook) if [ -f "$HOME/current" ]; then cat "$HOME/$(cat "$HOME/current").env"; else cat "$HOME/none.env"; fi ;;
            esac
            """)
        try scratch.write(ShellExports.initScript(shell, program: "fakeperch"), to: "init.sh")
        let load = shell == .fish ? "source \(scratch.home)/init.sh" : ". \(scratch.home)/init.sh"
        let script =
            shell == .fish
            ? "\(load); echo \"before=$PERCH_ACCOUNT\"; perch switch work; echo \"status=$status\"; echo \"after=$PERCH_ACCOUNT $AWS_PROFILE\""
            : "\(load); echo \"before=$PERCH_ACCOUNT\"; perch switch work; echo \"status=$?\"; echo \"after=$PERCH_ACCOUNT $AWS_PROFILE\""
        #expect(run(shell, script, in: scratch) == "before=\nstatus=3\nafter=work work-admin\n")
    }

    @Test("the shell is taken from $SHELL's last part, bash when unknown")
    func shellFromPath() {
        #expect(ShellKind.from(shellPath: "/usr/bin/fish") == .fish)
        #expect(ShellKind.from(shellPath: "/bin/zsh") == .zsh)
        #expect(ShellKind.from(shellPath: "/bin/tcsh") == .bash)
        #expect(ShellKind.from(shellPath: nil) == .bash)
    }
}
