import FoundationEssentials
import PerchCore

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
        return (settings, nil)
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
