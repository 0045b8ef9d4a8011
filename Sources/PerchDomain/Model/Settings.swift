/// A colour theme: how the interface uses colour and emphasis.
///
/// Every theme draws only colours that read on the terminal's background
/// (PerchKit's `Style.readable(on:)`): `default` and `high contrast` use the background the terminal
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
}

extension ColorTheme {
    /// The theme named `value`, spelled as Settings writes it (`high contrast`) or as the command
    /// line does (`high-contrast`).
    public init?(spelled value: String) {
        self.init(rawValue: String(value.map { $0 == "-" ? " " : $0 }))
    }
}

/// How the account sheet is drawn, as Settings keeps it: the interface draws it as PerchKit's
/// sheet style of the same name (a test holds the two lists to each other).
public enum SheetStyleSetting: String, CaseIterable, Hashable, Sendable {
    /// Full width, square top edge (the default).
    case edgeToEdge = "edge to edge"
    /// One column of margin on each side, rounded corners.
    case inset

    /// The style named `value`, spelled as Settings writes it (`edge to edge`) or with hyphens.
    public init?(spelled value: String) {
        self.init(rawValue: String(value.map { $0 == "-" ? " " : $0 }))
    }
}

/// A setting that Settings shows, changes and keeps.
public enum SettingKey: String, CaseIterable, Hashable, Sendable {
    case reduceMotion, sheetStyle, longPress, mouse, theme, checkWithServers, accessible
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
    public var sheetStyle: SheetStyleSetting = .edgeToEdge
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

    /// The long-press durations Perch takes, in milliseconds, from `--long-press-ms`, the
    /// settings file and Settings' `←`/`→` alike (bug: the flag took 50–10000 and the file and
    /// Settings 200–2000, so a value the flag took was dropped from the file as unusable).
    public static let longPressRange: ClosedRange<Int64> = 50...10_000
    /// One step of `←`/`→` on the long-press duration, in milliseconds.
    public static let longPressStep: Int64 = 100
}

/// The settings file (`settings.json` beside the config): each key optional, a missing one is
/// the default. Unknown keys are ignored and a wrong value is dropped, so an old or hand-edited
/// file never keeps Perch from starting. Its members are those of ``SettingDefinition/all``.
public struct SavedSettings: Codable, Hashable, Sendable {
    public var longPressMilliseconds: Int64?
    public var sheetStyle: String?
    public var reduceMotion: Bool?
    public var mouse: Bool?
    public var theme: String?
    public var checkWithServers: Bool?
    public var accessible: Bool?

    public init() {}

    /// A member of the file, by its name.
    struct Member: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// Reads each setting's member (``SettingDefinition/member``); one of another type is dropped.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Member.self)
        for definition in SettingDefinition.all { definition.decode(container, &self) }
    }

    /// Writes each member that is set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Member.self)
        for definition in SettingDefinition.all { try definition.encode(self, &container) }
    }

    /// The member of the file that holds `key` (``SettingDefinition/member``).
    public static func member(of key: SettingKey) -> String { SettingDefinition[key].member }

    /// The values `key` takes in the file, in words (what ``has(_:)`` accepts), for a warning.
    public static func usableValues(of key: SettingKey) -> String { SettingDefinition[key].usableValues }

    /// Whether the file sets `key` to a usable value.
    public func has(_ key: SettingKey) -> Bool { SettingDefinition[key].isUsable(self) }

    /// `key`'s value as `other` holds it (nil there: not set) in place of this file's.
    public mutating func take(_ key: SettingKey, from other: SavedSettings) { SettingDefinition[key].take(other, &self) }

    /// Writes `key`'s value from `values` into the file.
    mutating func store(_ key: SettingKey, from values: Settings) { SettingDefinition[key].store(values, &self) }
}

/// One kept setting, described once: its key, the member of the settings file that holds it, the
/// title Settings shows, the values it takes, and how it is read from the file, written to it,
/// copied from flags, stepped by `←`/`→` and shown. Everything that names settings goes through
/// ``all``: the file, the flags, the Settings pane and its banner, `doctor`.
public struct SettingDefinition: Sendable {
    /// Which setting.
    public let key: SettingKey
    /// Its member in `settings.json`.
    public let member: String
    /// Its row's title in Settings.
    public let title: String
    /// The values the file may hold, in words, for a warning ("true or false").
    public let usableValues: String
    let isUsable: @Sendable (SavedSettings) -> Bool
    /// The file's value, when usable, into the settings in effect.
    let read: @Sendable (SavedSettings, inout Settings) -> Void
    let store: @Sendable (Settings, inout SavedSettings) -> Void
    let take: @Sendable (SavedSettings, inout SavedSettings) -> Void
    let copy: @Sendable (Settings, inout Settings) -> Void
    let step: @Sendable (inout Settings, Int) -> Void
    /// The value as its Settings row shows it.
    public let shown: @Sendable (Settings) -> String
    let decode: @Sendable (KeyedDecodingContainer<SavedSettings.Member>, inout SavedSettings) -> Void
    let encode: @Sendable (SavedSettings, inout KeyedEncodingContainer<SavedSettings.Member>) throws -> Void

    /// Every setting, in ``SettingKey``'s order (a test holds them to it), which is the order of
    /// their rows in Settings.
    public static let all: [SettingDefinition] = [
        .flag(.reduceMotion, "reduceMotion", "Reduce motion", \.reduceMotion, \.reduceMotion),
        .choice(.sheetStyle, "sheetStyle", "Sheet style", \.sheetStyle, \.sheetStyle, spelled: SheetStyleSetting.init(spelled:)),
        .number(
            .longPress, "longPressMilliseconds", "Long-press duration", \.longPressMilliseconds, \.longPressMilliseconds,
            range: Settings.longPressRange, step: Settings.longPressStep, unit: "ms"),
        .flag(.mouse, "mouse", "Mouse", \.mouse, \.mouse),
        .choice(.theme, "theme", "Colour theme", \.theme, \.theme, spelled: ColorTheme.init(spelled:)),
        .flag(.checkWithServers, "checkWithServers", "Check with servers", \.checkWithServers, \.checkWithServers, on: "on (v asks them)"),
        .flag(.accessible, "accessible", "Accessible mode", \.accessible, \.accessible, on: "on (from the next start)"),
    ]

    /// The definition of `key`.
    public static subscript(_ key: SettingKey) -> SettingDefinition { byKey[key]! }
    private static let byKey = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })

    /// A setting that is on or off: `true` or `false` in the file, `Enter`/`←`/`→` toggle it.
    static func flag(
        _ key: SettingKey, _ member: String, _ title: String, _ value: WritableKeyPath<Settings, Bool> & Sendable,
        _ saved: WritableKeyPath<SavedSettings, Bool?> & Sendable, on: String = "on"
    ) -> SettingDefinition {
        SettingDefinition(
            key: key, member: member, title: title, usableValues: "true or false", isUsable: { $0[keyPath: saved] != nil },
            read: { file, values in if let flag = file[keyPath: saved] { values[keyPath: value] = flag } },
            store: { values, file in file[keyPath: saved] = values[keyPath: value] },
            take: { other, file in file[keyPath: saved] = other[keyPath: saved] },
            copy: { other, values in values[keyPath: value] = other[keyPath: value] },
            step: { values, _ in values[keyPath: value].toggle() },
            shown: { $0[keyPath: value] ? on : "off" },
            decode: { container, file in
                file[keyPath: saved] = try? container.decodeIfPresent(Bool.self, forKey: .init(stringValue: member))
            },
            encode: { file, container in try container.encodeIfPresent(file[keyPath: saved], forKey: .init(stringValue: member)) })
    }

    /// A whole number within `range`, stepped by `step` and kept within it.
    static func number(
        _ key: SettingKey, _ member: String, _ title: String, _ value: WritableKeyPath<Settings, Int64> & Sendable,
        _ saved: WritableKeyPath<SavedSettings, Int64?> & Sendable, range: ClosedRange<Int64>, step: Int64, unit: String
    ) -> SettingDefinition {
        SettingDefinition(
            key: key, member: member, title: title, usableValues: "a whole number from \(range.lowerBound) to \(range.upperBound)",
            isUsable: { $0[keyPath: saved].map(range.contains) ?? false },
            read: { file, values in if let number = file[keyPath: saved], range.contains(number) { values[keyPath: value] = number } },
            store: { values, file in file[keyPath: saved] = values[keyPath: value] },
            take: { other, file in file[keyPath: saved] = other[keyPath: saved] },
            copy: { other, values in values[keyPath: value] = other[keyPath: value] },
            step: { values, direction in
                let now = values[keyPath: value]
                var next = now + Int64(direction) * step
                // Off the grid of steps (a flag's 50 ms, a file's 730): the first step lands on it.
                if now % step != 0 { next = direction > 0 ? (now / step + 1) * step : (now / step) * step }
                values[keyPath: value] = min(range.upperBound, max(range.lowerBound, next))
            },
            shown: { "\($0[keyPath: value]) \(unit)  ←/→" },
            decode: { container, file in
                file[keyPath: saved] = try? container.decodeIfPresent(Int64.self, forKey: .init(stringValue: member))
            },
            encode: { file, container in try container.encodeIfPresent(file[keyPath: saved], forKey: .init(stringValue: member)) })
    }

    /// One of a list of named values (`allCases`), written by name and cycled by `←`/`→`.
    static func choice<Value: CaseIterable & RawRepresentable & Equatable & Sendable>(
        _ key: SettingKey, _ member: String, _ title: String, _ value: WritableKeyPath<Settings, Value> & Sendable,
        _ saved: WritableKeyPath<SavedSettings, String?> & Sendable, spelled: @escaping @Sendable (String) -> Value?
    ) -> SettingDefinition where Value.RawValue == String, Value.AllCases.Index == Int {
        let names = Value.allCases.map { "\"\($0.rawValue)\"" }
        return SettingDefinition(
            key: key, member: member, title: title,
            usableValues: names.count == 2 ? names.joined(separator: " or ") : "one of " + names.joined(separator: ", "),
            isUsable: { $0[keyPath: saved].flatMap(spelled) != nil },
            read: { file, values in if let chosen = file[keyPath: saved].flatMap(spelled) { values[keyPath: value] = chosen } },
            store: { values, file in file[keyPath: saved] = values[keyPath: value].rawValue },
            take: { other, file in file[keyPath: saved] = other[keyPath: saved] },
            copy: { other, values in values[keyPath: value] = other[keyPath: value] },
            step: { values, direction in values[keyPath: value] = values[keyPath: value].cycled(direction) },
            shown: { $0[keyPath: value].rawValue },
            decode: { container, file in
                file[keyPath: saved] = try? container.decodeIfPresent(String.self, forKey: .init(stringValue: member))
            },
            encode: { file, container in try container.encodeIfPresent(file[keyPath: saved], forKey: .init(stringValue: member)) })
    }
}

/// The settings in effect, where each comes from, and what the settings file holds.
public struct SettingsState: Hashable, Sendable {
    public package(set) var values = Settings()
    public internal(set) var sources: [SettingKey: SettingSource] = [:]
    /// The file as last read or written.
    public internal(set) var file = SavedSettings()

    public init() {}

    /// The defaults, then the file's values, then the flags given for this run (`flags` holds
    /// the values of the keys in `flagged`).
    public init(file: SavedSettings, flags: Settings = Settings(), flagged: Set<SettingKey> = []) {
        self.file = file
        for definition in SettingDefinition.all {
            if flagged.contains(definition.key) {
                definition.copy(flags, &values)
                sources[definition.key] = .flag
            } else if definition.isUsable(file) {
                definition.read(file, &values)
                sources[definition.key] = .saved
            }
        }
    }

    /// Where `key`'s value comes from.
    public func source(_ key: SettingKey) -> SettingSource { sources[key] ?? .standard }

    /// The keys changed in Settings whose last write failed (``SettingSource/unsaved``).
    public var unsavedKeys: Set<SettingKey> { Set(SettingKey.allCases.filter { source($0) == .unsaved }) }

    /// The settings file could not be written with `keys`' new values: each is shown as
    /// ``SettingSource/unsaved`` until a later write, which holds every value, is asked for.
    public mutating func markUnsaved(_ keys: Set<SettingKey>) {
        for key in keys where sources[key] != .flag { sources[key] = .unsaved }
    }

    /// Changes `key` by one step (`step` is -1 for `←`, +1 for `→` and `Enter`): a number by its
    /// step within its range, the others to their next value. The value is then saved; so is
    /// every value a failed write left unsaved, since the file is written whole.
    public mutating func change(_ key: SettingKey, step: Int) {
        SettingDefinition[key].step(&values, step)
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
