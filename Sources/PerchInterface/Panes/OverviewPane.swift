import PerchDomain
import PerchKit

/// The Overview pane: who you are signed in as, a switch under way, and the switch count. It
/// keeps no state of its own; its keys ask Perch's root to apply the account's tools again (`r`)
/// or to ask each tool who it will be (`v`). A PerchKit ``Pane`` of Perch's own (``PerchPane``): it reads the accounts, the switch and the tools through the app's
/// model (``ModelContext``) and sends the root messages (``PerchModel/Message``)s.
public struct OverviewPane: PerchPane {
    public init() {}

    /// Keeps nothing between runs.
    public init(kept: [String: AccountPanes]) {}

    /// Holding the Overview tab opens the account sheet (Perch's root opens it).
    public static let holdsTab = true

    /// What its keys mean.
    public enum Verb: Hashable, Sendable {
        /// Apply the current account's tool identities again.
        case reapply
        /// Ask each tool (and, with the setting on, each server) who it will be.
        case verify
    }

    /// Its own keys (help lists them first on this pane).
    public static let keyTable = KeyTable<Verb>(
        "Overview",
        [
            .init([.char("r")], "r", "apply the account's tools again", .reapply),
            .init([.char("v")], "v", "ask each tool who it will be", .verify),
        ])

    /// `r` and `v` ask the root (``PerchModel/Message/reapplyIdentities``, ``PerchModel/Message/verifyIdentities``);
    /// nothing else reaches it.
    public mutating func update(_ input: ComponentInput<Verb>, _ kit: Context) -> [Reaction<Never>] {
        switch input {
        case .verb(.reapply): [.perch(.reapplyIdentities)]
        case .verb(.verify): [.perch(.verifyIdentities)]
        default: []
        }
    }

    /// Draws who you are, the switch under way, the tools and the count into `rect`.
    public func render(into frame: inout Frame, in rect: Rect, _ kit: Context) {
        guard let context = kit.perch else { return }
        frame.screen.header("Overview", in: rect)
        var row = rect.y + 2
        func line(_ text: String, _ style: Style = .plain, indent: Int = 3) {
            if row < rect.maxY { frame.screen.put(text, column: rect.x + indent, row: row, style: style, width: rect.width - indent) }
            row += 1
        }
        if context.info.usesSampleAccounts {
            // Bug: the embedded samples looked like the person's own accounts.
            line("Sample accounts (no config yet): perch init writes one to edit.", Style(foreground: .yellow))
            row += 1
        }
        if let account = context.currentAccount {
            line("Signed in as", .dim)
            // The mark in the account's colour, not bold: bold blue and magenta read on no light
            // background, and would be dropped (``Style/readable(on:)``).
            if row < rect.maxY {
                let x = frame.screen.put(
                    "●", column: rect.x + 3, row: row, style: Style(foreground: account.markColor), width: rect.width - 3)
                frame.screen.put(" " + account.name, column: x, row: row, style: .bold, width: max(0, rect.maxX - x))
            }
            row += 1
            line(account.handle ?? "(no handle)", account.handle == nil ? .dim : .plain, indent: 5)
        } else {
            line("No account chosen yet.", .bold)
            line("\(context.accounts.count) account\(context.accounts.count == 1 ? "" : "s") available.", .dim)
        }
        if let scope = context.info.shellScope {
            // A pick switches the global account; the shell Perch came from keeps its own.
            row += 1
            let how = scope.kind == "pinned" ? "perch use" : scope.kind == "directory" ? "a bound folder" : "perch exec"
            line("This shell: \(context.displayName(of: scope.account)) (\(how))", Style(foreground: .cyan, bold: true))
            line("A pick here switches the global account; this shell keeps its own.", .dim, indent: 5)
        }
        if let pending = context.pendingSwitch {
            // Until the store confirms it, a switch is shown as asked for, never as done.
            row += 1
            line("Switching to \(context.displayName(of: pending.accountID))…", Style(foreground: .yellow, bold: true))
            if let reason = pending.waitingReason { line(reason, .dim, indent: 5) }
            if let queued = pending.queued { line("then to \(context.displayName(of: queued))", .dim, indent: 5) }
            // Each tool's step of the switch, as it comes back (pending, applied, failed).
            let target = context.accounts.accounts.first { $0.id == pending.accountID }
            if target?.identities.isEmpty == false {
                line("Tools: applying…", Style(foreground: .yellow), indent: 5)
                let status = context.identities
                for result in status?.accountID == pending.accountID ? status?.report?.results ?? [] : [] {
                    let mark = result.succeeded ? "✓" : result.status == .failed ? "✗" : "…"
                    line(
                        "\(mark) \(result.tool.rawValue)  \(result.status == .pending ? "pending" : result.status.rawValue)", .dim,
                        indent: 7)
                }
            }
        }
        if let account = context.currentAccount, !account.identities.isEmpty,
            context.pendingSwitch == nil || context.identities?.accountID == account.id
        {
            row += 1
            for (text, style, indent) in Self.toolLines(account, context.identities, width: rect.width) {
                line(text, style, indent: indent)
            }
            for (text, style, indent) in Self.verifyLines(context.identities, width: rect.width) { line(text, style, indent: indent) }
        }
        row += 1
        line("Switches so far: \(context.saved.switchCount)")
        row += 1
        // Wrapped at word boundaries (it was cut mid-word on a narrow screen).
        let hint = "Hold the Overview tab (or the 1 key), or press a, to switch account."
        for text in DisplayWidth.wrapped(hint, to: rect.width - 3, rows: max(1, rect.maxY - row)) { line(text, .dim) }
    }

    /// What the tools themselves answered when `v` asked them (``ToolAnswer``, as `perch verify`
    /// prints them): a line while they are asked, then one per answer, ✓ green, ✗ red with what
    /// it says and the fix, – dim with why it cannot tell. Nothing before the first `v`.
    /// - Parameter width: the pane's width in columns; a long line wraps (``wrapped(_:_:_:indent:width:)``).
    static func verifyLines(_ status: IdentityStatus?, width paneWidth: Int = .max) -> [(String, Style, Int)] {
        guard let status else { return [] }
        if status.verifying {
            return [("Asking each tool\(status.verifyingOnline ? " and server" : "") who it will be…", Style(foreground: .yellow), 3)]
        }
        guard let answers = status.answers else { return [] }
        let disagreeing = answers.filter { $0.verdict == .disagrees }.count
        var lines: [(String, Style, Int)] = [
            (
                answers.isEmpty
                    ? "Verified: no tool to ask here (per-shell tools: perch verify in your shell)"
                    : disagreeing == 0 ? "Verified: every tool agrees (v asks again)" : "Verified: \(disagreeing) disagree (v asks again)",
                disagreeing == 0 ? .dim : Style(foreground: .red, bold: true), 3
            )
        ]
        let width = answers.map { DisplayWidth.columns(of: $0.tool) }.max() ?? 0
        for answer in answers {
            let name = answer.tool + String(repeating: " ", count: width - DisplayWidth.columns(of: answer.tool))
            switch answer.verdict {
            case .agrees:
                lines +=
                    wrapped("✓ \(name)  ", answer.answer ?? answer.expected, Style(foreground: .green), indent: 5, width: paneWidth).lines
            case .disagrees:
                var text = "says \(answer.answer ?? "nothing"), expected \(answer.expected)"
                if let fix = answer.fix { text += "; fix: \(fix)" }
                lines += wrapped("✗ \(name)  ", text, Style(foreground: .red, bold: true), indent: 5, width: paneWidth).lines
            case .unknown:
                let text = "\(answer.answer.map { $0 + "  " } ?? "")\(answer.reason ?? "cannot tell")"
                lines += wrapped("– \(name)  ", text, .dim, indent: 5, width: paneWidth).lines
            }
        }
        return lines
    }

    /// The Tools section: one line per tool the account names, marked ✓ (the tool reports the
    /// account's identity), ✗ (it differs: drift, or applying failed) or – (not checked here:
    /// per shell, not installed, not set up), from the last check and the last apply.
    /// A tool's line is wrapped at spaces under its text on the pane's `width` (columns), on at
    /// most ``wrappedRows`` rows (then `perch status` has the rest).
    static func toolLines(_ account: Account, _ status: IdentityStatus?, width paneWidth: Int = .max) -> [(String, Style, Int)] {
        var lines: [(String, Style, Int)] = []
        let applying = status?.applying == true
        lines.append((applying ? "Tools: applying…" : "Tools (r applies them again)", applying ? Style(foreground: .yellow) : .dim, 3))
        let tools = account.identities.tools
        let width = tools.map { $0.rawValue.count }.max() ?? 0
        var shortened = false
        for tool in tools {
            let check = status?.checks?.first { $0.tool == tool }
            let result = status?.report?.results.first { $0.tool == tool }
            var mark = "–"
            var text = ""
            var style = Style.dim
            if let check {
                mark = check.mark
                text = check.expected
                // Bug: `client-dev (now client-dev)` when the name was right and the note said what was wrong.
                if check.matches == false, check.actual != check.expected {
                    text += " (now \(check.actual ?? "nothing"))"
                } else if check.matches == false, check.note == nil {
                    text += ", but it does not work here"
                }
                if let note = check.note { text += "  " + note }
                style =
                    check.matches == true ? Style(foreground: .green) : check.matches == false ? Style(foreground: .red, bold: true) : .dim
            } else if account.identities[tool]?.isPerShell == true {
                // Nothing global to apply or read: the shell gets them from `perch env`.
                text = account.identities.expected(tool) + "  per shell (perch env)"
            } else if let result {
                mark = result.succeeded ? "✓" : result.status == .failed ? "✗" : result.status == .pending ? "…" : "–"
                text =
                    (result.status == .restored ? "back to your own" : result.status.rawValue)
                    + (result.detail.isEmpty ? "" : ": \(result.detail)")
                style =
                    result.succeeded
                    ? Style(foreground: .green) : result.status == .failed ? Style(foreground: .red, bold: true) : .dim
            } else {
                text = "not checked yet"
            }
            if let result, result.status == .failed, check != nil { text += "  failed: \(result.detail)" }
            let name = tool.rawValue + String(repeating: " ", count: width - tool.rawValue.count)
            let rows = wrapped("\(mark) \(name)  ", text, style, indent: 5, width: paneWidth)
            lines += rows.lines
            shortened = shortened || rows.shortened
        }
        if shortened { lines.append(("(shortened: perch status shows every reason whole)", .dim, 5)) }
        return lines
    }

    /// Most rows one tool's line takes in Overview.
    static let wrappedRows = 4

    /// `lead` then `text`, wrapped at spaces (``DisplayWidth/wrapped(_:to:rows:)``) into lines
    /// that fit a pane `width` columns wide from column `indent`, the lines after the first under
    /// the text's first column, at most ``wrappedRows`` (the last then ends in `…`).
    /// - Returns: the lines, and whether text was left out.
    static func wrapped(_ lead: String, _ text: String, _ style: Style, indent: Int, width: Int)
        -> (lines: [(String, Style, Int)], shortened: Bool)
    {
        // Bug (everyday issue): a reason (a dead agent, an ended certificate) was cut mid-word
        // at the screen's edge (100 columns), and what to do was lost.
        let leadColumns = DisplayWidth.columns(of: lead)
        let available = width == .max ? Int.max : width - indent - leadColumns
        guard available >= 20, !DisplayWidth.fits(text, in: available) else { return ([(lead + text, style, indent)], false) }
        let rows = DisplayWidth.wrapped(text, to: available, rows: wrappedRows)
        let shortened = rows.count == wrappedRows && DisplayWidth.wrapped(text, to: available, rows: wrappedRows + 1).count > wrappedRows
        let pad = String(repeating: " ", count: leadColumns)
        return (rows.enumerated().map { ($0.offset == 0 ? lead + $0.element : pad + $0.element, style, indent) }, shortened)
    }
}

extension Tab {
    /// Who you are signed in as: the first tab, the one the account sheet is held from.
    public static let overview = Tab(OverviewPane.self)
}
