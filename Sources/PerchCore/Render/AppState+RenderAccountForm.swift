extension AppState {
    /// Most rows the reason for a failed write takes at the form's foot; a longer one ends in `…`.
    public static let maximumWriteErrorRows = 6

    /// Draws the `Add account…` form over everything, tab bar included: the close control and
    /// title, each field with its problem (red) or a hint (dim) under it, the buttons, and a
    /// footer with the keys, or the reason the config could not be written.
    func renderAccountForm(_ form: AccountForm, into screen: inout Screen) {
        let layout = AccountFormLayout(screen: size)
        screen.fill(Rect(x: 0, y: 0, width: size.width, height: size.height))
        let x = screen.put("✕", column: CoverLayout.closeColumn, row: 0, style: .bold)
        screen.put("  Add account", column: x, row: 0, style: .bold, width: size.width - x)
        screen.fill(Rect(x: 0, y: 1, width: size.width, height: 1), with: "─", style: .dim)
        let inputWidth = layout.inputWidth
        for field in AccountForm.fields {
            let row = layout.row(of: field)
            guard layout.isContentRow(row) else { break }
            let focused = field == form.focus
            screen.put(focused ? " ▸ " : "   ", column: 0, row: row, style: focused ? .selected : .plain)
            screen.put(field.label, column: 3, row: row, style: focused ? .bold : .plain, width: AccountFormLayout.inputColumn - 4)
            // The text's end stays in view: a long value shows its last columns.
            let inner = inputWidth - 2
            let text = form.value(field)
            let shown = focused ? DisplayWidth.truncatedLeading(text, to: max(0, inner - 1)) + "▏" : DisplayWidth.truncated(text, to: inner)
            let input = layout.input(field)
            screen.put("[", column: input.x, row: row, style: .dim)
            screen.put(shown, column: input.x + 1, row: row, style: focused ? .bold : .plain, width: inner)
            screen.put("]", column: input.maxX - 1, row: row, style: .dim)
            let noteRow = row + 1
            guard layout.isContentRow(noteRow) else { break }
            let noteWidth = size.width - AccountFormLayout.inputColumn - 1
            if let problem = form.problems[field] {
                screen.put(
                    DisplayWidth.truncated(problem.message, to: max(0, noteWidth)), column: input.x + 1, row: noteRow,
                    style: Style(foreground: .red, bold: true))
            } else if text.isEmpty {
                screen.put(DisplayWidth.truncated(field.hint, to: max(0, noteWidth)), column: input.x + 1, row: noteRow, style: .dim)
            }
        }
        if layout.isContentRow(layout.buttonRow) {
            for button in AccountFormButton.allCases {
                let rect = layout.button(button)
                let style = button == .add ? Style(foreground: .cyan, bold: true) : Style.plain
                screen.put(button.text, column: rect.x, row: rect.y, style: style, width: max(0, size.width - rect.x))
            }
        }
        let footerRow = size.height - 1
        if let error = form.writeError {
            // The whole reason, wrapped, on the rows below the buttons (at least the footer row):
            // a reason cut at the screen's edge would hide what to do about it.
            let style = Style(foreground: .red, bold: true, reverse: true)
            let room = max(1, min(Self.maximumWriteErrorRows, footerRow - layout.buttonRow))
            let lines = DisplayWidth.wrapped(error, to: max(1, size.width - 2), rows: room)
            for (offset, line) in lines.enumerated() {
                let row = footerRow - lines.count + 1 + offset
                screen.fill(Rect(x: 0, y: row, width: size.width, height: 1), style: style)
                screen.put(" " + line, column: 0, row: row, style: style, width: size.width)
            }
        } else {
            screen.put(
                " Enter add · Tab next field · Esc or ✕ cancel · F1 help", column: 0, row: footerRow, style: .dim, width: size.width)
        }
    }
}
