import PerchKit

/// A colour theme: how the interface uses colour and emphasis.
///
/// Every theme draws only colours that read on the terminal's background
/// (``Style/readable(on:)``): `default` and `high contrast` use the background the terminal
/// reports (OSC 11) and no colour until it does; `light` and `dark` say which it is.
public enum ColorTheme: String, CaseIterable, Codable, Hashable, Sendable {
    /// Colours and dim text as designed, for the background the terminal reports.
    case standard = "default"
    /// As `default`, for a light background whatever the terminal reports.
    case light
    /// As `default`, for a dark background whatever the terminal reports.
    case dark
    /// No dim text (it is drawn plain), and coloured text bold: for low-contrast screens.
    case highContrast = "high contrast"
    /// No colour at all; emphasis by bold, reverse video and glyphs only.
    case monochrome

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
    /// The theme named `value`, spelled as Settings writes it (`high contrast`) or as the command
    /// line does (`high-contrast`).
    public init?(spelled value: String) {
        self.init(rawValue: String(value.map { $0 == "-" ? " " : $0 }))
    }
}

extension SheetStyle {
    /// The style named `value`, spelled as Settings writes it (`edge to edge`) or with hyphens.
    public init?(spelled value: String) {
        self.init(rawValue: String(value.map { $0 == "-" ? " " : $0 }))
    }
}

/// A setting that Settings shows, changes and keeps.
public enum SettingKey: String, CaseIterable, Hashable, Sendable {
    case longPress, sheetStyle, reduceMotion, mouse, theme, checkWithServers, accessible
}

/// Where a setting's value comes from.
public enum SettingSource: String, Hashable, Sendable {
    /// Nobody set it.
    case standard = "default"
    /// The settings file (changed in Settings, now or in an earlier run).
    case saved
    /// A command-line flag, for this run only.
    case flag
    /// Changed in Settings, but the settings file could not be written: it applies for this run
    /// only, and the next start reads the file's old value.
    case unsaved = "not saved"
}

/// The values of the kept settings.
public struct Settings: Hashable, Sendable {
    /// How long a press or key must be held, in milliseconds (``longPressRange``).
    public var longPressMilliseconds: Int64 = 500
    public var sheetStyle: SheetStyle = .edgeToEdge
    public var reduceMotion = false
    /// Whether the terminal reports the mouse (xterm modes 1000, 1002, 1006).
    public var mouse = true
    public var theme: ColorTheme = .standard
    /// Whether `v` in Overview asks the servers too (`perch verify --online`): off by default,
    /// since it reaches the network.
    public var checkWithServers = false
    /// Whether the interface starts in the accessible mode (`--accessible`): one line of text a
    /// change, for screen readers, instead of full-screen frames. Read at start.
    public var accessible = false

    public init() {}

    /// The range Settings offers for the long-press duration, in milliseconds.
    public static let longPressRange: ClosedRange<Int64> = 200...2000
    /// One step of `←`/`→` on the long-press duration, in milliseconds.
    public static let longPressStep: Int64 = 100
}

/// The settings file (`settings.json` beside the config): each key optional, a missing one is
/// the default. Unknown keys are ignored and a wrong value is dropped, so an old or hand-edited
/// file never keeps Perch from starting.
public struct SavedSettings: Codable, Hashable, Sendable {
    public var longPressMilliseconds: Int64?
    public var sheetStyle: String?
    public var reduceMotion: Bool?
    public var mouse: Bool?
    public var theme: String?
    public var checkWithServers: Bool?
    public var accessible: Bool?

    public init() {}

    private enum CodingKeys: String, CodingKey {
        case longPressMilliseconds, sheetStyle, reduceMotion, mouse, theme, checkWithServers, accessible
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        longPressMilliseconds = try? container.decodeIfPresent(Int64.self, forKey: .longPressMilliseconds)
        sheetStyle = try? container.decodeIfPresent(String.self, forKey: .sheetStyle)
        reduceMotion = try? container.decodeIfPresent(Bool.self, forKey: .reduceMotion)
        mouse = try? container.decodeIfPresent(Bool.self, forKey: .mouse)
        theme = try? container.decodeIfPresent(String.self, forKey: .theme)
        checkWithServers = try? container.decodeIfPresent(Bool.self, forKey: .checkWithServers)
        accessible = try? container.decodeIfPresent(Bool.self, forKey: .accessible)
    }

    /// The member of the file that holds `key`, as ``CodingKeys`` names it.
    public static func member(of key: SettingKey) -> String {
        switch key {
        case .longPress: "longPressMilliseconds"
        case .sheetStyle: "sheetStyle"
        case .reduceMotion: "reduceMotion"
        case .mouse: "mouse"
        case .theme: "theme"
        case .checkWithServers: "checkWithServers"
        case .accessible: "accessible"
        }
    }

    /// The values `key` takes in the file, in words (what ``has(_:)`` accepts), for a warning.
    public static func usableValues(of key: SettingKey) -> String {
        switch key {
        case .longPress: "a whole number from \(Settings.longPressRange.lowerBound) to \(Settings.longPressRange.upperBound)"
        case .sheetStyle: SheetStyle.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        case .theme: "one of " + ColorTheme.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        case .reduceMotion, .mouse, .checkWithServers, .accessible: "true or false"
        }
    }

    /// Whether the file sets `key` to a usable value.
    public func has(_ key: SettingKey) -> Bool {
        switch key {
        case .longPress: longPressMilliseconds.map { Settings.longPressRange.contains($0) } ?? false
        case .sheetStyle: sheetStyle.flatMap(SheetStyle.init(spelled:)) != nil
        case .reduceMotion: reduceMotion != nil
        case .mouse: mouse != nil
        case .theme: theme.flatMap(ColorTheme.init(spelled:)) != nil
        case .checkWithServers: checkWithServers != nil
        case .accessible: accessible != nil
        }
    }

    /// `key`'s value as `other` holds it (nil there: not set) in place of this file's.
    public mutating func take(_ key: SettingKey, from other: SavedSettings) {
        switch key {
        case .longPress: longPressMilliseconds = other.longPressMilliseconds
        case .sheetStyle: sheetStyle = other.sheetStyle
        case .reduceMotion: reduceMotion = other.reduceMotion
        case .mouse: mouse = other.mouse
        case .theme: theme = other.theme
        case .checkWithServers: checkWithServers = other.checkWithServers
        case .accessible: accessible = other.accessible
        }
    }

    /// Writes `key`'s value from `values` into the file.
    mutating func store(_ key: SettingKey, from values: Settings) {
        switch key {
        case .longPress: longPressMilliseconds = values.longPressMilliseconds
        case .sheetStyle: sheetStyle = values.sheetStyle.rawValue
        case .reduceMotion: reduceMotion = values.reduceMotion
        case .mouse: mouse = values.mouse
        case .theme: theme = values.theme.rawValue
        case .checkWithServers: checkWithServers = values.checkWithServers
        case .accessible: accessible = values.accessible
        }
    }
}

/// The settings in effect, where each comes from, and what the settings file holds.
public struct SettingsState: Hashable, Sendable {
    public internal(set) var values = Settings()
    public internal(set) var sources: [SettingKey: SettingSource] = [:]
    /// The file as last read or written.
    public internal(set) var file = SavedSettings()

    public init() {}

    /// The defaults, then the file's values, then the flags given for this run (`flags` holds
    /// the values of the keys in `flagged`).
    public init(file: SavedSettings, flags: Settings = Settings(), flagged: Set<SettingKey> = []) {
        self.file = file
        for key in SettingKey.allCases {
            if flagged.contains(key) {
                copy(key, from: flags)
                sources[key] = .flag
            } else if file.has(key) {
                switch key {
                case .longPress: values.longPressMilliseconds = file.longPressMilliseconds ?? values.longPressMilliseconds
                case .sheetStyle: values.sheetStyle = file.sheetStyle.flatMap(SheetStyle.init(spelled:)) ?? values.sheetStyle
                case .reduceMotion: values.reduceMotion = file.reduceMotion ?? values.reduceMotion
                case .mouse: values.mouse = file.mouse ?? values.mouse
                case .theme: values.theme = file.theme.flatMap(ColorTheme.init(spelled:)) ?? values.theme
                case .checkWithServers: values.checkWithServers = file.checkWithServers ?? values.checkWithServers
                case .accessible: values.accessible = file.accessible ?? values.accessible
                }
                sources[key] = .saved
            }
        }
    }

    /// Where `key`'s value comes from.
    public func source(_ key: SettingKey) -> SettingSource { sources[key] ?? .standard }

    private mutating func copy(_ key: SettingKey, from other: Settings) {
        switch key {
        case .longPress: values.longPressMilliseconds = other.longPressMilliseconds
        case .sheetStyle: values.sheetStyle = other.sheetStyle
        case .reduceMotion: values.reduceMotion = other.reduceMotion
        case .mouse: values.mouse = other.mouse
        case .theme: values.theme = other.theme
        case .checkWithServers: values.checkWithServers = other.checkWithServers
        case .accessible: values.accessible = other.accessible
        }
    }

    /// The keys changed in Settings whose last write failed (``SettingSource/unsaved``).
    public var unsavedKeys: Set<SettingKey> { Set(SettingKey.allCases.filter { source($0) == .unsaved }) }

    /// The settings file could not be written with `keys`' new values: each is shown as
    /// ``SettingSource/unsaved`` until a later write, which holds every value, is asked for.
    public mutating func markUnsaved(_ keys: Set<SettingKey>) {
        for key in keys where sources[key] != .flag { sources[key] = .unsaved }
    }

    /// Changes `key` by one step (`step` is -1 for `←`, +1 for `→` and `Enter`): the long-press
    /// by 100 ms within its range, the others to their next value. The value is then saved; so
    /// is every value a failed write left unsaved, since the file is written whole.
    public mutating func change(_ key: SettingKey, step: Int) {
        switch key {
        case .longPress:
            let next = values.longPressMilliseconds + Int64(step) * Settings.longPressStep
            // From a flag outside the range (say 50 ms), the first step lands inside it.
            values.longPressMilliseconds = min(Settings.longPressRange.upperBound, max(Settings.longPressRange.lowerBound, next))
        case .sheetStyle: values.sheetStyle = values.sheetStyle.cycled(step)
        case .reduceMotion: values.reduceMotion.toggle()
        case .mouse: values.mouse.toggle()
        case .theme: values.theme = values.theme.cycled(step)
        case .checkWithServers: values.checkWithServers.toggle()
        case .accessible: values.accessible.toggle()
        }
        file.store(key, from: values)
        for unsaved in unsavedKeys { sources[unsaved] = .saved }
        sources[key] = .saved
    }
}

extension CaseIterable where Self: Equatable, AllCases.Index == Int {
    /// The value `step` places further along `allCases`, wrapping round.
    func cycled(_ step: Int) -> Self {
        let all = Self.allCases
        let index = all.firstIndex(of: self) ?? 0
        return all[((index + step) % all.count + all.count) % all.count]
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
