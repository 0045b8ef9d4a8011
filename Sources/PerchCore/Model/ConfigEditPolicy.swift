/// What `Edit config…` does with the copy the editor changed, decided without I/O: the event
/// loop reads and writes the files, this says which and with what words, as `visudo` and
/// `crontab -e` decide (the config is replaced only by a valid copy).
public enum ConfigEditPolicy {
    /// What to do once the editor ended.
    public enum Decision: Hashable, Sendable {
        /// Leave the config as it is and report `problem`; remove the copy unless `keepCopy`
        /// (an invalid edit is kept for the person to fix).
        case refuse(problem: String, keepCopy: Bool)
        /// Write `backup` (the previous config, when there was one and it differs) as the
        /// backup, then the edited bytes as the config, both with `mode` (permission bits);
        /// with neither (nothing changed) write nothing. Then load the config again.
        case install(mode: UInt32, backup: [UInt8]?, writesConfig: Bool)
    }

    /// Mode of a config made by the edit, where there was none: read and write for its owner.
    public static let newConfigMode: UInt32 = 0o600

    /// The editor to run: `$VISUAL`, else `$EDITOR`, else `vi` (an empty one counts as unset),
    /// as shell text that gets the path as its argument.
    public static func editor(visual: String?, editor: String?) -> String {
        [visual, editor].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
    }

    /// The decision after the editor ran.
    /// - Parameters:
    ///   - editor: the editor as run, for the words.
    ///   - editorFailure: how the editor failed (a phrase such as `exited with status 1`), nil when it succeeded.
    ///   - original: the config's bytes and mode before, nil when there was no config.
    ///   - edited: the copy's bytes after the editor, nil when they could not be read.
    ///   - problems: the loader's problems with `edited`, each placed by line and column; empty when valid.
    ///   - copyPath: where the copy is, named when it is kept.
    public static func decide(
        editor: String, editorFailure: String?, original: (bytes: [UInt8], mode: UInt32)?, edited: [UInt8]?, problems: [String],
        copyPath: String
    ) -> Decision {
        if let editorFailure {
            return .refuse(problem: "the editor (\(editor)) \(editorFailure); the config is unchanged", keepCopy: false)
        }
        guard let edited else { return .refuse(problem: "cannot read the edited copy", keepCopy: false) }
        guard problems.isEmpty else {
            return .refuse(problem: "your edit is kept in \(copyPath); " + problems.joined(separator: "; "), keepCopy: true)
        }
        guard let original else { return .install(mode: newConfigMode, backup: nil, writesConfig: true) }
        guard edited != original.bytes else { return .install(mode: original.mode, backup: nil, writesConfig: false) }
        return .install(mode: original.mode, backup: original.bytes, writesConfig: true)
    }
}
