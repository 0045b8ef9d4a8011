/// What an edit of the config does with the copy the editor changed, decided without I/O, for
/// both `Edit config…` and `perch config edit`: the caller reads and writes the files, this says
/// which and with what words, as `visudo` and `crontab -e` decide (the config is replaced only by
/// a valid copy, or by an invalid one the person chose on the command line to keep).
public enum ConfigEditPolicy {
    /// What the edit came to once the editor ended: the one set of rules both interfaces follow.
    public enum Verdict: Hashable, Sendable {
        /// The editor failed, or its copy could not be read: leave the config as it is and
        /// report `problem`.
        case failed(problem: String)
        /// The copy is the config as it was (nothing to write); `mode` is the config's.
        case unchanged(mode: UInt32)
        /// The copy is not a valid config: `problems`, each placed by line and column. Keeping
        /// it anyway would write `backup` (the previous config, nil when there was none) and
        /// then the copy, both with `mode` (permission bits).
        case invalid(problems: [String], mode: UInt32, backup: [UInt8]?)
        /// The copy is a valid change: write `backup` (the previous config, nil when there was
        /// none) and then the copy, both with `mode` (permission bits).
        case valid(mode: UInt32, backup: [UInt8]?)
    }

    /// What `Edit config…` does once the editor ended.
    public enum Decision: Hashable, Sendable {
        /// Leave the config as it is and report `problem`; remove the copy unless `keepCopy`
        /// (an invalid edit is kept for the person to fix).
        case refuse(problem: String, keepCopy: Bool)
        /// Write `backup` (the previous config, when there was one and it differs) as the
        /// backup, then the edited bytes as the config, both with `mode` (permission bits);
        /// with neither (nothing changed) write nothing. Then load the config again.
        case install(mode: UInt32, backup: [UInt8]?, writesConfig: Bool)
    }

    /// What `perch config edit` does after an invalid edit (``Verdict/invalid(problems:mode:backup:)``).
    public enum Retry: Hashable, Sendable {
        /// Run the editor again on the same copy.
        case editAgain
        /// Leave the config as it is and report `message`.
        case discard(message: String)
        /// Write the invalid copy as the config (as the verdict says).
        case keepAnyway
        /// The answer was none of the three: ask again (a typo must not discard an edit).
        case askAgain
    }

    /// Mode of a config made by the edit, where there was none: read and write for its owner.
    public static let newConfigMode: UInt32 = 0o600

    /// The question `perch config edit` asks on a terminal after an invalid edit; the answer
    /// goes to ``retry(answer:)``.
    public static let retryPrompt = "(e)dit again, (d)iscard, (k)eep anyway? "

    /// The editor to run: `$VISUAL`, else `$EDITOR`, else `vi` (an empty one counts as unset),
    /// as shell text that gets the path as its argument.
    public static func editor(visual: String?, editor: String?) -> String {
        [visual, editor].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
    }

    /// The verdict after the editor ran. In this order: a failed editor, then a copy that could
    /// not be read, then a copy equal to the config (unchanged, whether or not the config is
    /// valid), then the copy's problems.
    /// - Parameters:
    ///   - editor: the editor as run, for the words.
    ///   - editorFailure: how the editor failed (a phrase such as `exited with status 1`), nil when it succeeded.
    ///   - original: the config's bytes and mode before, nil when there was no config.
    ///   - edited: the copy's bytes after the editor, nil when they could not be read.
    ///   - readFailure: why the copy could not be read (the error's words), when that is known.
    ///   - problems: the loader's problems with `edited`, each placed by line and column; empty when valid.
    public static func verdict(
        editor: String, editorFailure: String?, original: (bytes: [UInt8], mode: UInt32)?, edited: [UInt8]?,
        readFailure: String? = nil, problems: [String]
    ) -> Verdict {
        if let editorFailure { return .failed(problem: "the editor (\(editor)) \(editorFailure); the config is unchanged") }
        guard let edited else { return .failed(problem: "cannot read the edited copy" + (readFailure.map { ": \($0)" } ?? "")) }
        if let original, edited == original.bytes { return .unchanged(mode: original.mode) }
        let mode = original?.mode ?? newConfigMode
        guard problems.isEmpty else { return .invalid(problems: problems, mode: mode, backup: original?.bytes) }
        return .valid(mode: mode, backup: original?.bytes)
    }

    /// `Edit config…`'s decision after the editor ran: ``verdict(editor:editorFailure:original:edited:readFailure:problems:)``,
    /// with an invalid copy kept at `copyPath` for the person to fix (the interface asks nothing).
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
        switch verdict(editor: editor, editorFailure: editorFailure, original: original, edited: edited, problems: problems) {
        case .failed(let problem): .refuse(problem: problem, keepCopy: false)
        case .unchanged(let mode): .install(mode: mode, backup: nil, writesConfig: false)
        case .invalid(let problems, _, _):
            .refuse(problem: "your edit is kept in \(copyPath); " + problems.joined(separator: "; "), keepCopy: true)
        case .valid(let mode, let backup): .install(mode: mode, backup: backup, writesConfig: true)
        }
    }

    /// What `perch config edit` does after an invalid edit, from the person's answer to
    /// ``retryPrompt``: an answer starting with `e` edits again, with `k` keeps the copy anyway,
    /// with `d` discards it, as does the end of input; any other (an empty line, a typo) asks
    /// again. Not on a terminal (`answer` nil, nobody asked), the copy is discarded, with a word
    /// on where it can be fixed.
    /// - Parameter answer: the line typed with its newline (spaces before it and case do not
    ///   matter), "" at the end of input, nil when not asked.
    public static func retry(answer: String?) -> Retry {
        guard let answer else {
            return .discard(message: "the edit is discarded; the config is unchanged (edit it on a terminal to fix it)")
        }
        let discarded = Retry.discard(message: "the edit is discarded; the config is unchanged")
        guard !answer.isEmpty else { return discarded }
        // Bug: any answer but e or k discarded the edit, so a typo lost it.
        switch answer.drop(while: { $0 == " " || $0 == "\t" }).first?.lowercased() {
        case "e": return .editAgain
        case "k": return .keepAnyway
        case "d": return discarded
        default: return .askAgain
        }
    }

    /// What `perch config edit` says before asking ``retryPrompt`` again after an answer that
    /// was none of the three.
    public static let retryHint = "answer e to edit again, d to discard the edit, or k to keep it anyway"
}
