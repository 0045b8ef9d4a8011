import PerchDomain
import PerchKit

extension ColorTheme {
    /// The background colours are chosen for: the one this theme names, else `reported` (nil:
    /// not known, and no colour is drawn).
    public func background(reported: TerminalBackground?) -> TerminalBackground? {
        switch self {
        case .light: .light
        case .dark: .dark
        case .standard, .highContrast, .monochrome: reported
        }
    }

    /// How the theme draws a cell in `style` on `background` (as ``background(reported:)``
    /// gives it): monochrome drops colour; high contrast drops dim and makes coloured text
    /// bold; then only colours that read on that background are kept (``Style/readable(on:)``).
    public func style(_ style: Style, on background: TerminalBackground?) -> Style {
        var style = style
        switch self {
        case .monochrome: style.foreground = nil
        case .highContrast:
            if style.foreground != nil { style.bold = true }
            style.dim = false
        case .standard, .light, .dark: break
        }
        return style.readable(on: background)
    }
}

extension ColorTheme {
    /// The map of every style as this theme draws it on `background` (``style(_:on:)``), made
    /// once for each theme and background: a frame then costs a table look-up per coloured cell.
    func styleMap(on background: TerminalBackground?) -> StyleMap {
        let themeIndex = Self.allCases.firstIndex(of: self)!
        let backgroundIndex = background.map { TerminalBackground.allCases.firstIndex(of: $0)! + 1 } ?? 0
        return Self.styleMaps[themeIndex][backgroundIndex]
    }

    /// ``styleMap(on:)`` for each theme (in `allCases` order), then for no background, then
    /// each of `TerminalBackground.allCases`.
    private static let styleMaps: [[StyleMap]] = allCases.map { theme in
        ([nil] + TerminalBackground.allCases).map { background in StyleMap { theme.style($0, on: background) } }
    }
}

extension Screen {
    /// The screen as `theme` draws it on a terminal whose background is `reported` (nil: not
    /// known): ``ColorTheme/style(_:on:)`` for every cell.
    mutating func apply(_ theme: ColorTheme, reported: TerminalBackground?) {
        restyle(with: theme.styleMap(on: theme.background(reported: reported)))
    }
}

extension SheetStyle {
    /// The sheet style Settings keeps as `setting`: the case of the same name.
    public init(_ setting: SheetStyleSetting) {
        switch setting {
        case .edgeToEdge: self = .edgeToEdge
        case .inset: self = .inset
        }
    }
}

extension TerminalColor {
    /// The colour an account's mark is drawn in: the terminal colour of the same name.
    public init(_ color: AccountColor) {
        self = TerminalColor(rawValue: color.rawValue) ?? .white
    }
}

extension Account {
    /// The colour the current account's mark (`●`) is drawn in, never bold: its own (`color` in
    /// the config), else green. As every colour, it is left out where it would not read on the
    /// terminal's background (``Style/readable(on:)``: magenta on a dark one).
    public var markColor: Color { Color(color.map(TerminalColor.init) ?? .green) }
}
