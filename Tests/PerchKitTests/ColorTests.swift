import PerchKit
import Testing

/// Background colours, the 256-colour palette and true colour (48: PerchKit had 8 foreground
/// colours and no background).
@Suite("Colours beyond the eight")
struct ColorTests {
    @Test("a style keeps each colour and attribute apart, in 7 bytes: setting one leaves every other as it was")
    func packing() {
        let colors: [Color?] = [
            nil, .red, .bright(.cyan), .indexed(208), .indexed(255), Color(RGBColor(0xFF_FFFF)), Color(RGBColor(0x01_0203)),
        ]
        for foreground in colors {
            for background in colors {
                for attributes in 0..<16 {
                    let style = Style(
                        foreground: foreground, background: background, bold: attributes & 1 != 0, reverse: attributes & 2 != 0,
                        dim: attributes & 4 != 0, underline: attributes & 8 != 0)
                    #expect(style.foreground == foreground && style.background == background)
                    #expect(style.bold == (attributes & 1 != 0) && style.reverse == (attributes & 2 != 0))
                    #expect(style.dim == (attributes & 4 != 0) && style.underline == (attributes & 8 != 0))
                    var changed = style
                    changed.background = .indexed(17)
                    #expect(changed.foreground == foreground && changed.bold == style.bold && changed.underline == style.underline)
                    changed.foreground = nil
                    #expect(changed.background == .indexed(17) && changed.reverse == style.reverse)
                }
            }
        }
        #expect(MemoryLayout<Style>.size == 7)
        #expect(Style(foreground: .red) != Style(background: .red), "a foreground is not a background")
        #expect(Style(foreground: .indexed(1)) == Style(foreground: .red), "palette colour 1 is red")
        #expect(Style(foreground: Color(RGBColor(0xCD_0000))) != Style(foreground: .red), "a true colour is not a palette colour")
    }

    @Test("a colour beyond the terminal's is drawn as the nearest it has, by xterm's palette")
    func downsampling() {
        // Independent figures (a script of its own): xterm's 256-colour table (16–231: levels 0,
        // 95, 135, 175, 215, 255; 232–255: greys 8 + 10n), searched by least CIE 1976 distance.
        #expect(Color(RGBColor(0xFF_8700)).downsampled(toPaletteOf: 256) == 208, "an exact cube colour")
        #expect(Color(RGBColor(0x1E_90FF)).downsampled(toPaletteOf: 256) == 33, "dodger blue")
        #expect(Color(RGBColor(0x80_8080)).downsampled(toPaletteOf: 256) == 244, "grey 128 is grey 232 + 12")
        // Bug: by sRGB distance, night blue was grey 237, its hue lost.
        #expect(Color(RGBColor(0x1F_3A5F)).downsampled(toPaletteOf: 256) == 24, "night blue stays blue: #005F87")
        #expect(Color(RGBColor(0xFF_8700)).downsampled(toPaletteOf: 16) == 1, "orange among the 16: red")
        #expect(Color(RGBColor(0xFF_0000)).downsampled(toPaletteOf: 16) == 9, "pure red is bright red")
        #expect(Color(RGBColor(0xFF_0000)).downsampled(toPaletteOf: 8) == 1, "pure red among the 8")
        #expect(Color.indexed(208).downsampled(toPaletteOf: 16) == 1)
        #expect(Color(RGBColor(0x80_8080)).downsampled(toPaletteOf: 16) == 8, "mid grey is bright black")
        #expect(Color.bright(.red).downsampled(toPaletteOf: 8) == 1, "bright red without the bright eight")
        #expect(Color.indexed(42).downsampled(toPaletteOf: 256) == 42, "a colour the terminal has is itself")
        #expect(Color.indexed(16).rgb == RGBColor(0x00_0000) && Color.indexed(231).rgb == RGBColor(0xFF_FFFF))
        #expect(Color.indexed(232).rgb == RGBColor(0x08_0808) && Color.indexed(255).rgb == RGBColor(0xEE_EEEE))
    }

    @Test("a terminal's depth: from terminfo's colours, or from TERM and COLORTERM where no terminfo is read")
    func depth() {
        #expect(ColorDepth(terminfoColors: 16_777_216) == .trueColor)
        #expect(ColorDepth(terminfoColors: 256) == .palette256)
        #expect(ColorDepth(terminfoColors: 88) == .sixteen)
        #expect(ColorDepth(terminfoColors: 8) == .eight)
        #expect(ColorDepth(terminfoColors: -1) == .none)
        func environment(_ values: [String: String]) -> ColorDepth { ColorDepth.environment { values[$0] } }
        #expect(environment(["TERM": "xterm-256color", "COLORTERM": "truecolor"]) == .trueColor)
        #expect(environment(["TERM": "xterm-direct"]) == .trueColor)
        #expect(environment(["TERM": "xterm-256color"]) == .palette256)
        #expect(environment(["TERM": "xterm"]) == .eight)
        #expect(environment(["TERM": "xterm-256color", "NO_COLOR": "1"]) == .none)
        #expect(environment(["TERM": "dumb", "COLORTERM": "truecolor"]) == .none)
        #expect(ColorDepth.trueColor.number(for: .red) == 1, "the eight stay SGR 31's")
        #expect(ColorDepth.trueColor.number(for: Color(RGBColor(0x1F_3A5F))) == 0x1F_3A5F)
        #expect(ColorDepth.trueColor.number(for: Color(RGBColor(0x00_0003))) == 8, "not read as standard colour 3")
        #expect(ColorDepth.trueColor.number(for: .indexed(208)) == 0xFF_8700)
        #expect(ColorDepth.none.number(for: .red) == nil)
    }

    @Test("a line for a terminal sets each colour as the depth allows (SGR 38;2, 38;5, 90–97, 30–37), and none with NO_COLOR")
    func ansiLine() {
        var screen = Screen(size: Size(width: 3, height: 1))
        screen.put("a", column: 0, row: 0, style: Style(foreground: Color(RGBColor(0xFF_8700)), background: .indexed(236)))
        screen.put("b", column: 1, row: 0, style: Style(foreground: .bright(.red), bold: true))
        screen.put("c", column: 2, row: 0, style: Style(background: .blue))
        #expect(screen.ansiLine(0, depth: .trueColor) == "\u{1B}[0;38;2;255;135;0;48;5;236ma\u{1B}[0;1;91mb\u{1B}[0;44mc\u{1B}[0m")
        #expect(screen.ansiLine(0, depth: .palette256) == "\u{1B}[0;38;5;208;48;5;236ma\u{1B}[0;1;91mb\u{1B}[0;44mc\u{1B}[0m")
        #expect(screen.ansiLine(0, depth: .sixteen) == "\u{1B}[0;31;40ma\u{1B}[0;1;91mb\u{1B}[0;44mc\u{1B}[0m")
        #expect(screen.ansiLine(0, depth: .eight) == "\u{1B}[0;31;40ma\u{1B}[0;1;31mb\u{1B}[0;44mc\u{1B}[0m")
        #expect(screen.ansiLine(0, depth: .none) == "a\u{1B}[0;1mb\u{1B}[0mc", "attributes stay, colours go")
    }

    @Test("a theme's map and the readable check leave a style with a background or a colour beyond the eight as the app chose it")
    func themesLeaveExtendedColors() {
        let map = StyleMap { style in
            var style = style
            style.foreground = nil
            return style
        }
        #expect(map[Style(foreground: .red, bold: true)] == .bold, "the eight are mapped")
        let band = Style(foreground: .white, background: Color(RGBColor(0x1F_3A5F)), bold: true)
        #expect(map[band] == band)
        #expect(map[Style(foreground: .indexed(208))] == Style(foreground: .indexed(208)))
        #expect(band.readable(on: .light) == band && band.readable(on: nil) == band)
        #expect(Style(foreground: .yellow).readable(on: .light) == Style(foreground: .magenta), "the eight as before")
    }

    @Test("a colour names itself as snapshots write it")
    func names() {
        #expect("\(Color.cyan)" == "cyan" && "\(Color.bright(.red))" == "bright red")
        #expect("\(Color.indexed(208))" == "palette 208" && "\(Color(RGBColor(0x1F_3A5F)))" == "#1F3A5F")
    }
}
