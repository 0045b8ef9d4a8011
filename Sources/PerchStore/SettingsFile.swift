import FoundationEssentials
import Glibc
import PerchDomain

/// The settings file: `settings.json` beside the config (`$XDG_CONFIG_HOME/perch/settings.json`
/// by default), Perch's own, written atomically whenever a setting is changed in Settings.
/// `{"longPressMilliseconds": 700, "sheetStyle": "inset", "reduceMotion": true, "mouse": false,
/// "theme": "monochrome"}`; every key optional (see ``SavedSettings``).
public enum SettingsFile {
    /// The settings file for a config at `configPath`: `settings.json` in the same folder.
    public static func path(besideConfig configPath: String) -> String {
        FileSystem.directory(of: configPath) + "/settings.json"
    }

    /// Reads the file; a missing file is no settings. A file that cannot be read or parsed is
    /// left as it is, with a warning to show, and no settings are taken from it.
    public static func read(_ path: String) -> (settings: SavedSettings, warning: String?) {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(path, limit: 1 << 20)
        } catch {
            if error.isNotFound { return (SavedSettings(), nil) }
            return (SavedSettings(), "Settings file: \(error); using the defaults.")
        }
        let defaults = "using the defaults (a change in Settings replaces it)."
        // Bug: a truncated file was reported as "not a JSON object", with no place to look at.
        let document: JSONDocument
        do { document = try JSONReader.read(bytes) } catch { return (SavedSettings(), "Settings file \(path): \(error); \(defaults)") }
        guard document.kind(document.root) == .object, let settings = try? JSONDecoder().decode(SavedSettings.self, from: Data(bytes))
        else {
            return (SavedSettings(), "Settings file \(path) is not a JSON object; \(defaults)")
        }
        // Bug: a value Perch cannot use (`"theme": "hi-contrast"`, `"mouse": "yes"`) was dropped
        // without a word, the setting silently its default.
        let unusable = SettingKey.allCases.filter {
            document.value(of: document.root, forKey: SavedSettings.member(of: $0)) != nil && !settings.has($0)
        }
        guard !unusable.isEmpty else { return (settings, nil) }
        let which = unusable.map { "\(SavedSettings.member(of: $0)) must be \(SavedSettings.usableValues(of: $0))" }.joined(separator: "; ")
        return (settings, "Settings file \(path): \(which); \(unusable.count == 1 ? "it uses its" : "they use their") default.")
    }

    /// Writes `keys`' values from `settings` into the file at `path`, keeping the values the
    /// file holds for every other key, as read again under a lock (`PATH.lock`) that every
    /// writer takes: two windows changing different settings both keep their change.
    /// - Throws: ``FileError`` when the lock is not had within 2 s, or the file cannot be
    ///   written; the old file is then intact.
    public static func merge(_ keys: Set<SettingKey>, from settings: SavedSettings, into path: String) throws(FileError) {
        do {
            try FileSystem.withExclusiveLock(path + ".lock") {
                // Bug: each window wrote its own copy whole, so the last one undid another's change.
                var merged = read(path).settings
                for key in keys { merged.take(key, from: settings) }
                try write(merged, to: path)
            }
        } catch let error as FileError {
            throw error
        } catch {
            throw FileError(path: path, code: EIO, operation: "write", reason: "\(error)")
        }
    }

    /// Writes `settings` atomically (mode 0600), pretty-printed with sorted keys.
    /// - Throws: ``FileError`` when it cannot be encoded or written; the old file is then intact.
    public static func write(_ settings: SavedSettings, to path: String) throws(FileError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(settings) else {
            throw FileError(path: path, code: 22, operation: "encode", reason: "cannot encode the settings")
        }
        try FileSystem.writeAtomically(Array(data) + [0x0A], to: path, mode: 0o600)
    }
}
