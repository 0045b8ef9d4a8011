import PerchIdentities

/// The terminal multiplexer `perch doctor` runs in, found from the variables each sets in the
/// shells it starts (`TMUX`, `STY`), and what it does to Perch, each with its one-line fix.
///
/// - tmux holds a lone `Esc` for its `escape-time` (500 ms by default) before passing it on, in
///   case it starts a sequence: Esc arrives that late, and a key pressed meanwhile is taken with
///   it (tmux's manual, `escape-time`). The value is asked of tmux itself
///   (`tmux show -sv escape-time`), which finds its server from `TMUX`.
/// - GNU screen, with mouse reporting on, holds `Esc` until the next key, so `Esc` alone does
///   nothing; and it ignores the alternate screen unless `altscreen on` is in `~/.screenrc`
///   (screen's manual, `altscreen`), though its terminfo entry claims one, so the last frame
///   would stay under the shell's prompt (Perch clears it when it ends under screen).
enum Multiplexer: Hashable {
    case tmux
    case screen

    /// Most milliseconds of tmux's `escape-time` that a person does not notice.
    static let escapeTimeLimit = 50

    /// The multiplexers the environment says Perch runs in, the innermost last as far as the
    /// variables tell (both may be set when one runs inside the other).
    static func detected(_ environment: (String) -> String?) -> [Multiplexer] {
        var found: [Multiplexer] = []
        if let tmux = environment("TMUX"), !tmux.isEmpty { found.append(.tmux) }
        if let sty = environment("STY"), !sty.isEmpty { found.append(.screen) }
        return found
    }

    /// tmux's `escape-time` in milliseconds, asked of the tmux server in `TMUX` (2 s at most), or
    /// why it could not be read.
    static func tmuxEscapeTime() -> Result<Int, Unreadable> {
        let result = ProgramRunner.run("tmux", ["show", "-sv", "escape-time"], in: IdentityEnvironment.current(), timeout: 2_000)
        guard let output = result.output else { return .failure(Unreadable(reason: result.failure ?? "no answer")) }
        let words = output.split(whereSeparator: \.isWhitespace)
        guard words.count == 1, let value = Int(words[0]) else {
            return .failure(Unreadable(reason: "tmux answered \(output.prefix(40))"))
        }
        return .success(value)
    }

    /// Why a value could not be read.
    struct Unreadable: Error, Hashable { var reason: String }

    /// The doctor's lines for multiplexers `found`, given tmux's `escape-time` as read (only
    /// asked when tmux is found).
    static func lines(_ found: [Multiplexer], escapeTime: @autoclosure () -> Result<Int, Unreadable>) -> [(String, String)] {
        guard !found.isEmpty else { return [("multiplexer", "none (neither TMUX nor STY is set)")] }
        var lines: [(String, String)] = []
        for multiplexer in found {
            switch multiplexer {
            case .tmux:
                lines.append(("multiplexer", "tmux (TMUX is set)"))
                switch escapeTime() {
                case .success(let milliseconds) where milliseconds > escapeTimeLimit:
                    lines.append(
                        (
                            "tmux escape-time",
                            "\(milliseconds) ms (tmux show -sv escape-time): Esc reaches Perch \(milliseconds) ms late, and a key pressed "
                                + "meanwhile is taken with it; fix: set -sg escape-time 10 (in ~/.tmux.conf)"
                        ))
                case .success(let milliseconds):
                    lines.append(("tmux escape-time", "\(milliseconds) ms (tmux show -sv escape-time): fine"))
                case .failure(let unreadable):
                    lines.append(
                        (
                            "tmux escape-time",
                            "unknown (tmux show -sv escape-time: \(unreadable.reason)); over \(escapeTimeLimit) ms delays Esc, "
                                + "fix: set -sg escape-time 10"
                        ))
                }
            case .screen:
                lines.append(("multiplexer", "GNU screen (STY is set)"))
                lines.append(
                    (
                        "screen and Esc",
                        "with mouse reporting on, screen holds Esc until the next key, so Esc alone does nothing; "
                            + "fix: perch --no-mouse (or Mouse off in Settings)"
                    ))
                lines.append(
                    (
                        "screen altscreen",
                        "screen ignores the alternate screen unless altscreen is on, so a frame would stay under the prompt "
                            + "(Perch clears its last frame under screen); fix: altscreen on (in ~/.screenrc)"
                    ))
            }
        }
        return lines
    }
}
