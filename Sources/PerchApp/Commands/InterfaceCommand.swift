import PerchDomain
import PerchInterface
import PerchKit

/// `perch` with no command: the full-screen interface (``PerchApp/runInterface(_:)``).
struct InterfaceCommand: TakesHoldSettings {
    static let configuration = CommandConfiguration(name: "", summary: "start the interface")

    static let options: [CommandOption<Self>] =
        fileOptions + holdOptions + [
            CommandOption(reduceMotion) {
                $0.reduceMotion = $1
                $0.flaggedSettings.insert(.reduceMotion)
            },
            CommandOption(noMouse) {
                $0.noMouse = $1
                $0.flaggedSettings.insert(.mouse)
            },
            CommandOption(theme) {
                $0.theme = $1
                $0.flaggedSettings.insert(.theme)
            },
            CommandOption(accessible) {
                $0.accessible = $1
                $0.flaggedSettings.insert(.accessible)
            },
            CommandOption(exitAfterFirstFrame) { $0.exitAfterFirstFrame = $1 },
            // Read by the parser; listed here for help, the man page and completions.
            CommandOption(OptionDefinition(info: SharedOption.version, parse: { _ in true })) { _, _ in },
        ]

    /// `--reduce-motion`: draw every change of a sheet at once, without animation.
    static let reduceMotion = OptionDefinition.flag("--reduce-motion", help: "show sheets at once, without animation")
    /// `--no-mouse`: leave the terminal's mouse reporting off for this run.
    static let noMouse = OptionDefinition.flag("--no-mouse", help: "leave mouse reporting off (this run; Settings keeps a choice)")
    /// `--theme NAME`: the colour theme for this run; `high-contrast` as the command line spells it.
    static let theme = OptionDefinition<ColorTheme>(
        info: OptionInfo(
            names: ["--theme"], valueName: "NAME", help: "colour theme: default, light, dark, high-contrast or monochrome (this run)",
            completion: .values(ColorTheme.allCases.map { spelled($0) })),
        parse: { value throws(UsageError) in
            guard let theme = ColorTheme(spelled: value) else {
                throw UsageError(description: "option --theme needs one of default, light, dark, high-contrast, monochrome, not '\(value)'")
            }
            return theme
        })
    /// `theme` as the command line spells it: `high-contrast`, with no space to quote. (Character
    /// by character: `replacing` and generic initialisers would cost run-time conformance
    /// look-ups at every start with options.)
    static func spelled(_ theme: ColorTheme) -> String {
        var text = ""
        for character in theme.rawValue { text.append(character == " " ? "-" : character) }
        return text
    }

    /// `--exit-after-first-frame`: draw the first full frame, restore the terminal and exit 0.
    /// `--accessible`: one line of text a change, for screen readers (docs/accessibility.md).
    static let accessible = OptionDefinition.flag(
        "--accessible",
        help: """
            one line of text a change instead of full-screen frames,
                                      for screen readers (this run; Settings keeps a choice)
            """)

    static let exitAfterFirstFrame = OptionDefinition.flag(
        "--exit-after-first-frame",
        help: """
            draw the first full frame, restore the terminal and exit 0
                                      (measures start-up)
            """)

    var files = FileOptions()
    /// `--long-press-ms N`: long-press and key-hold duration, in milliseconds.
    var longPressMilliseconds = SharedOption.defaultLongPress
    /// `--key-hold auto|kitty|repeat|off`: how a key hold is recognised.
    var keyHold: KeyHoldPreference = .auto
    /// `--reduce-motion`.
    var reduceMotion = false
    /// `--no-mouse`.
    var noMouse = false
    /// `--accessible`.
    var accessible = false
    /// `--theme NAME`; nil for the saved one.
    var theme: ColorTheme?
    /// `--exit-after-first-frame`: draw the first full frame, restore the terminal and exit 0
    /// (for measuring start-up).
    var exitAfterFirstFrame = false
    /// The settings given as flags, which override the saved ones for this run.
    var flaggedSettings: Set<SettingKey> = []

    func run(_ tool: CommandLineTool) -> Int32 { PerchApp.runInterface(self) }
}
