import PerchDomain
import PerchKit

/// The inline picker's block and rules (`perch pick`, `perch switch` with no account), which its
/// root model (``AccountPicker``) follows: the interface's own account sheet, drawn as a block of
/// rows below the cursor's line by a line-mode backend.
///
/// - Printable keys and pastes type into the filter at once; `Enter` or a click on a row ends the
///   picker with that row's account (even the current one: the picker still chose it); `Esc`,
///   `Ctrl-C` and `Ctrl-D` cancel. Nothing else is presented (no help, no form), nothing is
///   switched or saved here, and no Catalog source or identity check runs.
/// - The block is the sheet's fit height, capped by `--height` or by half the terminal (at least
///   ``minimumDefaultRows``), and by the rows below the cursor's line. The root's ``AccountPicker/size``
///   is a virtual screen just tall enough for that sheet; the frame drawn is the block alone
///   (``AccountPicker/renderFrame()``), and pointer positions are read against the block's top
///   row, which the terminal's cursor position report (DSR 6) gives.
public struct InlinePickerMode: Hashable, Sendable {
    /// How the picker ended.
    public enum Outcome: Hashable, Sendable {
        /// The account with this id was chosen.
        case picked(accountID: String)
        /// Cancelled (`Esc`, `Ctrl-D`, or the sheet went away).
        case cancelled
        /// Interrupted by `Ctrl-C`: the command exits 130 (128 + SIGINT), as at a prompt.
        case interrupted
    }

    /// Rows of the block with the default cap: half the terminal, but never fewer than this.
    public static let minimumDefaultRows = 6

    /// What `Enter` does, for the footer: `switch` or `pick`.
    public let verb: String
    /// `--height`, the most rows to take; nil for the default cap.
    public let requestedHeight: Int?
    /// Rows of the sheet's list (accounts and group headings), for its fit height.
    public let rowCount: Int
    /// The real terminal's size, columns × rows.
    public internal(set) var terminal: Size
    /// Rows taken below the cursor's line.
    public internal(set) var blockHeight: Int
    /// Screen row (0-based) of the block's first row, once the terminal said where the cursor's
    /// line is; the pointer is ignored until then.
    public internal(set) var blockTop: Int?
    /// Column (0-based) of the cursor on its line, once the terminal said: 0 is an empty line.
    public internal(set) var lineColumn: Int?
    /// How the picker ended; nil while it runs.
    public internal(set) var outcome: Outcome?

    /// - Parameters:
    ///   - rowCount: rows of the sheet's list.
    ///   - terminal: the terminal's size, columns × rows.
    ///   - requestedHeight: `--height`; nil for the default cap.
    ///   - verb: what `Enter` does, shown in the footer.
    public init(rowCount: Int, terminal: Size, requestedHeight: Int?, verb: String) {
        self.rowCount = rowCount
        self.terminal = terminal
        self.requestedHeight = requestedHeight
        self.verb = verb
        blockHeight = Self.blockHeight(rowCount: rowCount, terminal: terminal, requested: requestedHeight)
    }

    /// Block height for `rowCount` sheet list rows on a terminal of `terminal` size, in rows:
    /// the sheet's fit height (list rows and chrome, as in the interface), capped by `requested`
    /// or by half the terminal (at least ``minimumDefaultRows``), and by the rows below the
    /// cursor's line (the terminal's height less that line).
    public static func blockHeight(rowCount: Int, terminal: Size, requested: Int?) -> Int {
        let fitted = rowCount + SheetLayout.chromeRows
        let cap = requested ?? max(minimumDefaultRows, terminal.height / 2)
        return max(0, min(fitted, cap, terminal.height - 1))
    }

    /// Whether the block fits: the minimum width, and the sheet's chrome plus one row.
    public var fits: Bool { terminal.width >= Layout.minimumSize.width && blockHeight >= SheetLayout.chromeRows + 1 }

    /// The virtual screen the root lays the sheet out on: the block and the rows a sheet leaves
    /// above itself.
    var virtualSize: Size { Size(width: terminal.width, height: blockHeight + SheetLayout.minimumRowsAbove) }

    /// The footer's text: the picker's own keys, with `first–last of count` when the list scrolls.
    func footer(visibleRows: Int, scroll: Int, count: Int) -> String {
        var footer = " type to filter · ↑↓ move · Enter \(verb) · Esc cancel"
        if visibleRows < count, visibleRows > 0 {
            footer += " · \(scroll + 1)–\(min(count, scroll + visibleRows)) of \(count)"
        }
        return footer
    }
}
