import PerchInterfaceTesting
import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

/// One background a theme may be drawn on: the theme, what the terminal reported (nil: nothing
/// yet), and the background colours are chosen for (nil: not known, so both must read).
private struct Case: CustomStringConvertible, Sendable {
    var theme: ColorTheme
    var reported: TerminalBackground?
    var description: String { "\(theme.rawValue), terminal reported \(reported?.rawValue ?? "nothing")" }
    /// The backgrounds the text must read on: the one colours are chosen for, or both.
    var screens: [TerminalBackground] { theme.background(reported: reported).map { [$0] } ?? TerminalBackground.allCases }
}

private let cases: [Case] = ColorTheme.allCases.flatMap { theme in
    ([nil] + TerminalBackground.allCases).map { Case(theme: theme, reported: $0) }
}

/// Every style a pane, layer or the tab bar could draw: each colour or none, with and without
/// bold, reverse video and dim.
private let allStyles: [Style] = ([nil] + TerminalColor.allCases.map { Color($0) }).flatMap { color in
    [false, true].flatMap { bold in
        [false, true].flatMap { reverse in
            [false, true].map { dim in Style(foreground: color, bold: bold, reverse: reverse, dim: dim) }
        }
    }
}

/// A pair of text and background as drawn, with its WCAG ratio and the ratio it needs.
private struct Pair {
    var style: Style
    var palette: String
    var screen: TerminalBackground
    var boldBright: Bool
    var ratio: Double
    var needed: Double
}

/// The pairs `style` (as the theme left it) makes on `screen` in `palette`: its colour on the
/// background, once with bold drawn bright and once without where the palette does both. With
/// reverse video it is the same two colours swapped, the same ratio. Text without a colour is
/// the palette's own default text, which needs nothing more.
private func pairs(_ style: Style, on screen: TerminalBackground, in palette: TerminalPalette) -> [Pair] {
    guard let color = style.foreground?.standard else { return [] }
    // The palette's default text: its black on white, its white on black.
    let defaultText = (screen == .light ? palette.rgb(.black, bright: false) : palette.rgb(.white, bright: false)).contrastRatio(
        with: screen.rgb)
    let needed = min(style.bold ? 3 : 4.5, defaultText)
    return (style.bold ? palette.boldBrightnesses : [false]).map { bright in
        let ratio = palette.rgb(color, bright: bright).contrastRatio(with: screen.rgb)
        return Pair(style: style, palette: palette.name, screen: screen, boldBright: bright, ratio: ratio, needed: needed)
    }
}

private func describe(_ style: Style) -> String {
    [style.foreground?.standard?.name ?? "default", style.bold ? "bold" : nil, style.reverse ? "reverse" : nil, style.dim ? "dim" : nil]
        .compactMap { $0 }.joined(separator: " ")
}

@Suite("Contrast: every colour Perch draws reads on light and dark backgrounds")
struct ContrastTests {
    @Test("WCAG ratios: black on white is 21:1, a colour on itself 1:1, xterm's red on white 5.84:1")
    func wcagRatios() {
        #expect(abs(RGBColor.black.contrastRatio(with: .white) - 21) < 1e-9)
        #expect(abs(RGBColor(0x123456).contrastRatio(with: RGBColor(0x123456)) - 1) < 1e-9)
        #expect(abs(RGBColor(0xCD0000).contrastRatio(with: .white) - 5.84) < 0.01)
        #expect(abs(RGBColor(0x00FFFF).contrastRatio(with: .white) - 1.25) < 0.01, "bright cyan, the selected tab's")
        #expect(RGBColor(0xFFFFFF).isLight && RGBColor(0xE5E5E5).isLight && !RGBColor(0x2E3436).isLight && !RGBColor.black.isLight)
    }

    @Test("every style, themed, reaches 4.5:1 (3:1 bold) in every common palette, bold bright or not", arguments: cases)
    fileprivate func everyStyleReads(_ test: Case) {
        var failures: [String] = []
        for style in allStyles {
            let themed = test.theme.style(style, on: test.theme.background(reported: test.reported))
            if themed.dim { #expect(themed.foreground == nil, "dim text keeps no colour: \(describe(style))") }
            for screen in test.screens {
                for palette in TerminalPalette.common {
                    for pair in pairs(themed, on: screen, in: palette) where pair.ratio < pair.needed {
                        failures.append(
                            "\(describe(style)) drawn \(describe(themed)) on \(screen) in \(palette.name)"
                                + "\(pair.boldBright ? " (bold bright)" : ""): \(pair.ratio) < \(pair.needed)")
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) pairs too faint:\n\(failures.prefix(12).joined(separator: "\n"))")
    }

    /// The lowest ratio of any coloured pair in `screen`'s cells, drawn on `background` in
    /// `palette`, bold bright or not; nil when nothing is coloured.
    private func lowestRatio(_ screen: Screen, on background: TerminalBackground, in palette: TerminalPalette) -> (
        ratio: Double, style: Style
    )? {
        var lowest: (Double, Style)?
        for row in 0..<screen.size.height {
            for column in 0..<screen.size.width {
                let style = screen[column, row].style
                for pair in pairs(style, on: background, in: palette) where lowest.map({ pair.ratio < $0.0 }) ?? true {
                    lowest = (pair.ratio, style)
                }
            }
        }
        return lowest
    }

    // Bug: on a white background the selected tab was white on bright cyan, 1.25:1, and the
    // sample-accounts line yellow on white, 1.70:1; `--theme high-contrast` made both worse.
    @Test(
        "on xterm's white background, the selected tab and the sample-accounts line read in every theme",
        arguments: ColorTheme.allCases.filter { $0 != .dark })
    func tabAndSamplesOnWhite(_ theme: ColorTheme) throws {
        var info = RunInfo()
        info.usesSampleAccounts = true
        info.background = .light
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24), info: info)
        state.settingsState.values.theme = theme
        let screen = state.render()
        let samples = try #require(state.render().lines.firstIndex { $0.contains("Sample accounts") })
        let tab = try #require(screen.lines.last?.firstIndex(of: "O")).utf16Offset(in: screen.lines.last!)
        #expect(screen[tab, 23].style.reverse, "the selected tab is still reverse video")
        for (row, column) in [(samples, 3), (23, tab)] {
            let style = screen[column, row].style
            for pair in pairs(style, on: .light, in: .xterm) {
                #expect(pair.ratio >= pair.needed, "row \(row) drawn \(describe(style)): \(pair.ratio)")
            }
        }
        if let lowest = lowestRatio(screen, on: .light, in: .xterm) {
            #expect(lowest.ratio >= 3, "the faintest pair on the screen: \(describe(lowest.style)), \(lowest.ratio)")
        }
    }

    @Test("until the terminal reports its background, no colour is drawn; a report or a forced theme brings colour back")
    func colourFollowsTheBackground() {
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
        func colours(_ screen: Screen) -> Set<Color> {
            var found = Set<Color>()
            for row in 0..<screen.size.height {
                for column in 0..<screen.size.width { if let color = screen[column, row].style.foreground { found.insert(color) } }
            }
            return found
        }
        #expect(colours(state.render()).isEmpty)
        state.info.background = .dark
        #expect(colours(state.render()) == [.cyan], "the selected tab, in cyan on a dark background")
        state.info.background = nil
        state.settingsState.values.theme = .light
        #expect(colours(state.render()).isEmpty, "on light, the bold tab is reverse video without colour")
        state.settingsState.values.theme = .dark
        #expect(colours(state.render()) == [.cyan])
    }
}

@Suite("A theme's style map")
struct StyleMapTests {
    @Test("the table gives every style what the theme gives it, for every theme and background")
    func tableMatchesTheTheme() {
        for theme in ColorTheme.allCases {
            for background in [nil] + TerminalBackground.allCases {
                let map = theme.styleMap(on: background)
                for style in allStyles {
                    #expect(map[style] == theme.style(style, on: background), "\(theme) on \(String(describing: background)): \(style)")
                }
                var screen = Screen(size: Size(width: allStyles.count, height: 1))
                for (column, style) in allStyles.enumerated() { screen.put("x", column: column, row: 0, style: style) }
                screen.apply(theme, reported: background)
                for (column, style) in allStyles.enumerated() where style.foreground != nil || style.dim {
                    #expect(screen[column, 0].style == theme.style(style, on: theme.background(reported: background)))
                }
            }
        }
    }
}
