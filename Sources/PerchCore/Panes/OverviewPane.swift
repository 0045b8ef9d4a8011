/// The Overview pane: who you are signed in as, a switch under way, and the switch count. It
/// keeps no state of its own and reacts to no key (the tab bar and the root handle them).
public struct OverviewPane: ScreenModel, Hashable, Sendable {
    public init() {}

    public mutating func update(_ message: ModelMessage, _ context: ModelContext) -> [Intent] { [] }

    public func render(into frame: inout Frame, _ context: ModelContext) {
        let rect = context.layout.pane
        frame.screen.header("Overview", in: rect)
        var row = rect.y + 2
        func line(_ text: String, _ style: Style = .plain, indent: Int = 3) {
            if row < rect.maxY { frame.screen.put(text, column: rect.x + indent, row: row, style: style, width: rect.width - indent) }
            row += 1
        }
        if let account = context.currentAccount {
            line("Signed in as", .dim)
            line("● " + account.name, Style(foreground: .green, bold: true))
            line(account.handle ?? "(no handle)", account.handle == nil ? .dim : .plain, indent: 5)
        } else {
            line("No account chosen yet.", .bold)
            line("\(context.accounts.count) account\(context.accounts.count == 1 ? "" : "s") available.", .dim)
        }
        if let pending = context.pendingSwitch {
            // Until the store confirms it, a switch is shown as asked for, never as done.
            row += 1
            line("Switching to \(context.displayName(of: pending.accountID))…", Style(foreground: .yellow, bold: true))
            if let reason = pending.waitingReason { line(reason, .dim, indent: 5) }
            if let queued = pending.queued { line("then to \(context.displayName(of: queued))", .dim, indent: 5) }
        }
        row += 1
        line("Switches so far: \(context.saved.switchCount)")
        row += 1
        line("Hold the Overview tab (or the 1 key), or press a, to switch account.", .dim)
    }
}
