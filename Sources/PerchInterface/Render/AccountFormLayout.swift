import PerchDomain
import PerchKit

/// A button of the `Add account…` form.
public enum AccountFormButton: CaseIterable, Hashable, Sendable {
    case add, cancel

    /// The button as drawn, brackets included.
    public var text: String {
        switch self {
        case .add: "[ Add ]"
        case .cancel: "[ Cancel ]"
        }
    }
}

/// Geometry of the `Add account…` form, full-screen: the close control (`✕`) and title on the
/// top row, a rule, then each field on two rows (label and input, then its problem or hint),
/// the buttons, and a footer on the last row. Rendering and hit-testing both use it. Rows that
/// fall on or below the footer are not drawn and do not react.
public struct AccountFormLayout: Hashable, Sendable {
    /// The cells that react to a click on the close control: the `✕` and a column each side.
    public let close = Rect(x: 0, y: 0, width: 3, height: 1)
    /// The screen, columns × rows.
    public let screen: Size
    /// Screen row of the first field's input.
    public let firstFieldRow: Int
    /// Column where the input brackets start (after the labels).
    public static let inputColumn = 11
    /// Widest input drawn, brackets included, in columns.
    public static let maximumInputWidth = 44

    /// Rows the content is scrolled up by, so that the focused field is in view on a short
    /// screen (0 when everything fits).
    public let scroll: Int
    /// Screen row of the buttons when nothing is scrolled.
    private let unscrolledButtonRow: Int

    /// The first row content may take (below the title and its rule).
    public static let firstContentRow = 2

    /// - Parameter focus: the focused field, scrolled into view (with the buttons, when it is the
    ///   last field) when the screen is too short for the whole form.
    public init(screen: Size, focus: AccountField = .id) {
        self.screen = screen
        let first = screen.height >= 16 ? 3 : 2
        firstFieldRow = first
        let fields = AccountForm.fields
        let buttons = first + 2 * (fields.count - 1) + (screen.height >= 16 ? 3 : 2)
        unscrolledButtonRow = buttons
        let focusRow = first + 2 * (fields.firstIndex(of: focus) ?? 0)
        let lastContentRow = screen.height - 2
        let wantedBottom = focus == fields.last ? buttons : focusRow + 1
        var scroll = max(0, wantedBottom - lastContentRow)
        scroll = min(scroll, max(0, focusRow - Self.firstContentRow))
        self.scroll = scroll
    }

    /// Screen row of the input of `field`.
    public func row(of field: AccountField) -> Int { firstFieldRow + 2 * (AccountForm.fields.firstIndex(of: field) ?? 0) - scroll }

    /// Whether content is scrolled away above the first content row (a `↑` mark shows it).
    public var hasMoreAbove: Bool { scroll > 0 }
    /// Whether content (a field or the buttons) lies below the last content row (a `↓` mark).
    public var hasMoreBelow: Bool { buttonRow >= screen.height - 1 }

    /// Whether content lies past an edge, so the `↑`/`↓` marks take the two rightmost columns.
    public var scrolls: Bool { hasMoreAbove || hasMoreBelow }

    /// Columns on the right that content leaves free: 2 for the marks while the form scrolls
    /// (they overwrote a field's `]` and its hint: `Handle  [        ↓`, `requir↓d`), else 0.
    public var markColumns: Int { scrolls ? 2 : 0 }

    /// Width of an input, brackets included, in columns.
    public var inputWidth: Int { max(4, min(Self.maximumInputWidth, screen.width - Self.inputColumn - 1 - markColumns)) }

    /// The input of `field`, brackets included.
    public func input(_ field: AccountField) -> Rect { Rect(x: Self.inputColumn, y: row(of: field), width: inputWidth, height: 1) }

    /// Screen row of the buttons.
    public var buttonRow: Int { unscrolledButtonRow - scroll }

    /// The row a field's label and input take: from the left edge to the end of its input.
    public func fieldRect(_ field: AccountField) -> Rect {
        Rect(x: 0, y: row(of: field), width: Self.inputColumn + inputWidth, height: 1)
    }

    /// Where `button` is drawn.
    public func button(_ button: AccountFormButton) -> Rect {
        var x = 2
        for candidate in AccountFormButton.allCases {
            let width = DisplayWidth.columns(of: candidate.text)
            if candidate == button { return Rect(x: x, y: buttonRow, width: width, height: 1) }
            x += width + 2
        }
        return Rect(x: 0, y: 0, width: 0, height: 0)
    }

    /// Whether screen row `row` is between the rule and the footer, where the form's content may
    /// be drawn (and react to the pointer).
    public func isContentRow(_ row: Int) -> Bool { row >= Self.firstContentRow && row < screen.height - 1 }
}
