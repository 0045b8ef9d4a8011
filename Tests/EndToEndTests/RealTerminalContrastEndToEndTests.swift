import Foundation
import Testing

/// Colours as a person sees them: Perch in a real xterm on a white background and on a black
/// one, and in kitty on its own dark one, under Xvfb, driven by X key events; each screen
/// (Overview, Catalog, Stats, Settings, the account sheet) photographed with `xwd` and its
/// glyphs' and backgrounds' colours read from the pixels (`RealTerminal/contrast_screens.py`,
/// on `realterm.py` and `screencolors.py`). Perch runs with its default theme, so it chooses
/// light or dark from the terminal's answer to OSC 11. Every run of text reaches a WCAG 2.2
/// contrast ratio of 4.5:1 (3:1 bold), or the terminal's own default text's ratio where that is
/// lower; the ratios are printed. Reported as skipped, with the reason, where xterm, kitty,
/// Xvfb, xdotool or xwd is missing (`make test-deps` installs them) or X cannot start.
/// `PERCH_CONTRAST_SHOTS=DIR` keeps the screenshots (XWD files) in DIR.
@Suite(.serialized, .currentBinary)
struct RealTerminalContrastEndToEndTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "RealTerminal/contrast_screens.py")

    /// A terminal and the default colours it is started with.
    struct Setup: CustomStringConvertible, Sendable {
        var terminal: String
        var background: String?
        var foreground: String?
        var description: String { "\(terminal) on \(background ?? "its own dark background")" }
    }

    static let setups = [
        Setup(terminal: "xterm", background: "white", foreground: "black"),
        Setup(terminal: "xterm", background: "black", foreground: "white"),
        Setup(terminal: "kitty"),
    ]

    /// Why `terminal` cannot run here, or nil.
    static func missing(_ terminal: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for tool in [terminal, "Xvfb", "xdotool", "xwd", "python3"] {
            let found = path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
            if !found { return "\(tool) is not installed (make test-deps installs xterm, kitty, xvfb, xdotool and x11-apps)" }
        }
        return nil
    }

    struct Outcome: Decodable {
        var themed: Bool?
        var screens: [Screen]
        struct Screen: Decodable {
            var name: String
            var error: String?
            var screenBackground: String?
            var defaultTextRatio: Double?
            var selectedTab: Run?
            var lowest: Run?
            var runs: [Run]?
        }
        struct Run: Decodable, CustomStringConvertible {
            var row: Int
            var text: String
            var bold: Bool
            var foreground: String?
            var background: String
            var ratio: Double?
            var needed: Double?
            var description: String {
                let ratio = self.ratio.map { String(format: "%.2f:1", $0) } ?? "no glyph"
                let needed = self.needed.map { String(format: " (needs %.1f)", $0) } ?? ""
                let text = self.text.trimmingCharacters(in: .whitespaces)
                return "row \(row) \"\(text.prefix(40))\"\(bold ? " bold" : ""): \(foreground ?? "-") on \(background), \(ratio)\(needed)"
            }
        }
    }

    @Test("In a real terminal, the selected tab and every line of text on each screen read at 4.5:1 (3:1 bold)", arguments: setups)
    func everyLineReads(_ setup: Setup) throws {
        if let missing = Self.missing(setup.terminal) { try Test.cancel("skipped: \(missing)") }
        var argv = ["python3", Self.script.path, TmuxSession.binary, "--terminal", setup.terminal]
        if let background = setup.background { argv += ["--background", background] }
        if let foreground = setup.foreground { argv += ["--foreground", foreground] }
        if let shots = ProcessInfo.processInfo.environment["PERCH_CONTRAST_SHOTS"], !shots.isEmpty { argv += ["--shots", shots] }
        let result = try Spawn.run(argv)
        if result.status == 77 { try Test.cancel("skipped: \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))") }
        try #require(result.status == 0, "contrast_screens.py failed: \(result.stderr)")
        let outcome = try JSONDecoder().decode(Outcome.self, from: Data(result.stdout.utf8))
        #expect(outcome.themed == true, "Perch drew no colour: it never learnt the background from OSC 11")
        #expect(outcome.screens.count == 5, "\(outcome.screens.map(\.name))")
        for screen in outcome.screens {
            #expect(screen.error == nil, "\(screen.name): \(screen.error ?? "")")
            guard let runs = screen.runs else { continue }
            print(
                "contrast in \(setup), \(screen.name) (background \(screen.screenBackground ?? "?"), default text "
                    + "\(screen.defaultTextRatio.map { String(format: "%.2f:1", $0) } ?? "?")): selected tab "
                    + "\(screen.selectedTab.map(\.description) ?? "none"); lowest \(screen.lowest.map(\.description) ?? "none")")
            // The sheet covers the tab bar; every other screen shows the selected tab.
            if screen.name != "account sheet" {
                let tab = try #require(screen.selectedTab, "\(screen.name): no selected tab found on the bottom row")
                #expect(tab.text.contains(screen.name), "\(screen.name): the selected tab is \(tab)")
                #expect(tab.background != screen.screenBackground, "\(screen.name): the selected tab stands out from the screen: \(tab)")
            }
            #expect(runs.contains { $0.needed != nil }, "\(screen.name): no text measured")
            for run in runs {
                guard let needed = run.needed else { continue }
                #expect((run.ratio ?? 0) >= needed, "\(setup), \(screen.name): \(run)")
            }
        }
    }

    struct PaletteOutcome: Decodable {
        var colours: [Colour]
        struct Colour: Decodable {
            var code: Int
            var bold: Bool
            var foreground: String?
            var background: String
        }
    }

    /// The 16 colours each terminal ships, as `TerminalPalette.xterm` and `.kitty` (PerchKit)
    /// have them for the contrast test, and whether it draws bold in the bright eight.
    static let palettes: [String: (colours: [String], boldBright: Bool)] = [
        "xterm": (
            [
                "#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5",
                "#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff",
            ], true
        ),
        "kitty": (
            [
                "#000000", "#cc0403", "#19cb00", "#cecb00", "#0d73cc", "#cb1ed1", "#0dcdcd", "#dddddd",
                "#767676", "#f2201f", "#23fd00", "#fffd00", "#1a8fff", "#fd28ff", "#14ffff", "#ffffff",
            ], false
        ),
    ]

    @Test(
        "The screenshot reader reads the terminal's own eight colours, plain and bold, as the contrast test's palettes have them",
        arguments: [setups[0], setups[2]])
    func readerReadsThePalette(_ setup: Setup) throws {
        if let missing = Self.missing(setup.terminal) { try Test.cancel("skipped: \(missing)") }
        var argv = ["python3", Self.script.path, TmuxSession.binary, "--palette", "--terminal", setup.terminal]
        if let background = setup.background { argv += ["--background", background] }
        if let foreground = setup.foreground { argv += ["--foreground", foreground] }
        let result = try Spawn.run(argv)
        if result.status == 77 { try Test.cancel("skipped: \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))") }
        try #require(result.status == 0, "contrast_screens.py --palette failed: \(result.stderr)")
        let outcome = try JSONDecoder().decode(PaletteOutcome.self, from: Data(result.stdout.utf8))
        let palette = try #require(Self.palettes[setup.terminal])
        #expect(outcome.colours.count == 16, "\(outcome.colours.map { "\($0.code)\($0.bold ? " bold" : "")" })")
        for colour in outcome.colours {
            let index = colour.code - 30 + (colour.bold && palette.boldBright ? 8 : 0)
            // A colour drawn on itself leaves no glyph pixel to read.
            let expected = palette.colours[index] == colour.background ? nil : palette.colours[index]
            #expect(
                colour.foreground == expected,
                "\(setup), SGR \(colour.code)\(colour.bold ? " bold" : ""): read \(colour.foreground ?? "nothing")")
        }
    }
}
