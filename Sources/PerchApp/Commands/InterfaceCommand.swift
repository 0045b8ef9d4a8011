import PerchDomain
import PerchInterface
import PerchKit

/// `perch` with no command: the full-screen interface (``PerchApp/runInterface(_:)``).
struct InterfaceCommand: TakesHoldSettings {
    static let configuration = CommandConfiguration(name: "", summary: "start the interface")

    /// `theme` as the command line spells it: `high-contrast`, with no space to quote. (Character
    /// by character: `replacing` and generic initialisers would cost run-time conformance
    /// look-ups at every start with options.)
    static func spelled(_ theme: ColorTheme) -> String {
        var text = ""
        for character in theme.rawValue { text.append(character == " " ? "-" : character) }
        return text
    }

    var files = FileOptions()
    /// `--long-press-ms N`: long-press and key-hold duration, in milliseconds.
    @Option(SharedOption.longPress) var longPressMilliseconds = SharedOption.defaultLongPress
    /// `--key-hold auto|kitty|repeat|off`: how a key hold is recognised.
    @Option(SharedOption.keyHold) var keyHold: KeyHoldPreference = .auto
    /// `--reduce-motion`: draw every change of a sheet at once, without animation.
    @Option(.flag("--reduce-motion", help: "show sheets at once, without animation")) var reduceMotion = false
    /// `--no-mouse`: leave the terminal's mouse reporting off for this run.
    @Option(.flag("--no-mouse", help: "leave mouse reporting off (this run; Settings keeps a choice)")) var noMouse = false
    /// `--theme NAME`: the colour theme for this run, `high-contrast` as the command line spells
    /// it; nil for the saved one.
    @Option(
        OptionDefinition<ColorTheme>(
            info: OptionInfo(
                names: ["--theme"], valueName: "NAME", help: "colour theme: default, light, dark, high-contrast or monochrome (this run)",
                completion: .values(ColorTheme.allCases.map { spelled($0) })),
            parse: { value throws(UsageError) in
                guard let theme = ColorTheme(spelled: value) else {
                    throw UsageError(
                        description: "option --theme needs one of default, light, dark, high-contrast, monochrome, not '\(value)'")
                }
                return theme
            })
    ) var theme: ColorTheme? = nil
    /// `--accessible`: one line of text a change, for screen readers (docs/accessibility.md).
    @Option(
        .flag(
            "--accessible",
            help: """
                one line of text a change instead of full-screen frames,
                                          for screen readers (this run; Settings keeps a choice)
                """)
    ) var accessible = false
    /// `--exit-after-first-frame`: draw the first full frame, restore the terminal and exit 0
    /// (for measuring start-up).
    @Option(
        .flag(
            "--exit-after-first-frame",
            help: """
                draw the first full frame, restore the terminal and exit 0
                                          (measures start-up)
                """)
    ) var exitAfterFirstFrame = false
    /// `--version`: read by the parser itself; declared here for help, the man page and the
    /// completions.
    @Option(OptionDefinition(info: SharedOption.version, parse: { _ in true })) var version = false

    /// The settings given as flags, which override the saved ones for this run.
    var flaggedSettings: Set<SettingKey> {
        var flagged: Set<SettingKey> = []
        if $longPressMilliseconds.isGiven { flagged.insert(.longPress) }
        if $reduceMotion.isGiven { flagged.insert(.reduceMotion) }
        if $noMouse.isGiven { flagged.insert(.mouse) }
        if $theme.isGiven { flagged.insert(.theme) }
        if $accessible.isGiven { flagged.insert(.accessible) }
        return flagged
    }

    func run(_ tool: CommandLineTool) -> Int32 { PerchApp.runInterface(self) }
}
