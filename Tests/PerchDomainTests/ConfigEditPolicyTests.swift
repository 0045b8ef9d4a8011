import Testing

@testable import PerchDomain

/// `Edit config…`'s decisions, made in the core without a terminal or a file (issue 21: the
/// policy was 43 lines of the event loop).
struct ConfigEditPolicyTests {
    static let before: [UInt8] = Array(#"{"accounts": []}"#.utf8)
    static let after: [UInt8] = Array(#"{"accounts": [{"id": "a", "name": "A"}]}"#.utf8)

    @Test(
        "The editor is $VISUAL, else $EDITOR, else vi; an empty one counts as unset",
        arguments: [
            ("code -w", "nano", "code -w"), (nil, "nano", "nano"), ("", "nano", "nano"), (nil, nil, "vi"), ("", "", "vi"),
        ] as [(String?, String?, String)])
    func editor(visual: String?, editor: String?, expected: String) {
        #expect(ConfigEditPolicy.editor(visual: visual, editor: editor) == expected)
    }

    @Test("A failed editor changes nothing and the copy goes")
    func editorFailed() {
        let decision = ConfigEditPolicy.decide(
            editor: "vi", editorFailure: "exited with status 1", original: (Self.before, 0o640), edited: nil, problems: [],
            copyPath: "/c")
        #expect(decision == .refuse(problem: "the editor (vi) exited with status 1; the config is unchanged", keepCopy: false))
    }

    @Test("A copy that cannot be read changes nothing")
    func unreadable() {
        let decision = ConfigEditPolicy.decide(
            editor: "vi", editorFailure: nil, original: (Self.before, 0o640), edited: nil, problems: [], copyPath: "/c")
        #expect(decision == .refuse(problem: "cannot read the edited copy", keepCopy: false))
    }

    @Test("An invalid edit is kept for the person to fix, with every problem named")
    func invalidKept() {
        let decision = ConfigEditPolicy.decide(
            editor: "vi", editorFailure: nil, original: (Self.before, 0o640), edited: Self.after, problems: ["line 1: a", "line 2: b"],
            copyPath: "/home/ada/.accounts.json.edit-1.json")
        #expect(
            decision
                == .refuse(problem: "your edit is kept in /home/ada/.accounts.json.edit-1.json; line 1: a; line 2: b", keepCopy: true))
    }

    @Test("A valid change keeps the old config as the backup, with the config's own mode")
    func validChange() {
        let decision = ConfigEditPolicy.decide(
            editor: "vi", editorFailure: nil, original: (Self.before, 0o640), edited: Self.after, problems: [], copyPath: "/c")
        #expect(decision == .install(mode: 0o640, backup: Self.before, writesConfig: true))
    }

    @Test("No change writes nothing, and a config made by the edit is its owner's alone")
    func unchangedAndNew() {
        #expect(
            ConfigEditPolicy.decide(
                editor: "vi", editorFailure: nil, original: (Self.before, 0o640), edited: Self.before, problems: [], copyPath: "/c")
                == .install(mode: 0o640, backup: nil, writesConfig: false))
        #expect(
            ConfigEditPolicy.decide(editor: "vi", editorFailure: nil, original: nil, edited: Self.after, problems: [], copyPath: "/c")
                == .install(mode: 0o600, backup: nil, writesConfig: true))
    }

    @Test("Unchanged wins over invalid: a config the editor left as it was is not reported as an edit to keep")
    func unchangedInvalid() {
        #expect(
            ConfigEditPolicy.verdict(
                editor: "vi", editorFailure: nil, original: (Self.before, 0o640), edited: Self.before, problems: ["line 1: a"])
                == .unchanged(mode: 0o640))
        #expect(
            ConfigEditPolicy.decide(
                editor: "vi", editorFailure: nil, original: (Self.before, 0o640), edited: Self.before, problems: ["line 1: a"],
                copyPath: "/c")
                == .install(mode: 0o640, backup: nil, writesConfig: false))
    }

    @Test("The verdict on the command line: failures with their reason, and what keeping an invalid edit would write")
    func verdicts() {
        #expect(
            ConfigEditPolicy.verdict(editor: "nano", editorFailure: "exited with status 4", original: nil, edited: nil, problems: [])
                == .failed(problem: "the editor (nano) exited with status 4; the config is unchanged"))
        #expect(
            ConfigEditPolicy.verdict(
                editor: "vi", editorFailure: nil, original: (Self.before, 0o640), edited: nil,
                readFailure: "cannot read /c: Permission denied",
                problems: []) == .failed(problem: "cannot read the edited copy: cannot read /c: Permission denied"))
        #expect(
            ConfigEditPolicy.verdict(
                editor: "vi", editorFailure: nil, original: (Self.before, 0o640), edited: Self.after, problems: ["line 1: a"])
                == .invalid(problems: ["line 1: a"], mode: 0o640, backup: Self.before))
        #expect(
            ConfigEditPolicy.verdict(editor: "vi", editorFailure: nil, original: nil, edited: Self.after, problems: ["line 1: a"])
                == .invalid(problems: ["line 1: a"], mode: 0o600, backup: nil))
        #expect(
            ConfigEditPolicy.verdict(editor: "vi", editorFailure: nil, original: (Self.before, 0o640), edited: Self.after, problems: [])
                == .valid(mode: 0o640, backup: Self.before))
        #expect(
            ConfigEditPolicy.verdict(editor: "vi", editorFailure: nil, original: nil, edited: Self.after, problems: [])
                == .valid(mode: 0o600, backup: nil))
    }

    @Test(
        "After an invalid edit on a terminal: e edits again, k keeps it, d (or the end of input) discards, anything else asks again",
        arguments: [
            ("e\n", .editAgain), ("E", .editAgain), ("  edit\n", .editAgain), ("k\n", .keepAnyway), ("Keep", .keepAnyway),
            ("d\n", .discard(message: "the edit is discarded; the config is unchanged")),
            ("", .discard(message: "the edit is discarded; the config is unchanged")),
            // Bug: a typo discarded the edit.
            ("x\n", .askAgain), ("\n", .askAgain), ("  \n", .askAgain),
        ] as [(String, ConfigEditPolicy.Retry)])
    func retry(answer: String, expected: ConfigEditPolicy.Retry) {
        #expect(ConfigEditPolicy.retry(answer: answer) == expected)
    }

    @Test("Off a terminal nobody is asked: an invalid edit is discarded, with where to fix it")
    func retryOffTerminal() {
        #expect(
            ConfigEditPolicy.retry(answer: nil)
                == .discard(message: "the edit is discarded; the config is unchanged (edit it on a terminal to fix it)"))
        #expect(ConfigEditPolicy.retryPrompt == "(e)dit again, (d)iscard, (k)eep anyway? ")
    }
}
