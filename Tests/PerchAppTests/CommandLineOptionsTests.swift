import PerchDomain
import PerchIdentities
import PerchInterface
import PerchInterfaceTesting
import PerchKit
import Testing

@testable import PerchApp

/// A command line that parses, and the fields expected.
struct ValidCommandLine: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var request: ParsedCommandLine.Request = .run
    var config: String? = nil
    var state: String? = nil
    var longPress: Int64 = 500
    /// The words that name the command; empty for the interface.
    var command = ""
    var account: String? = nil
    var json = false
    var field: String? = nil
    var limit: Int? = nil
    var testDescription: String { arguments.isEmpty ? "(no arguments)" : arguments.joined(separator: " ") }
}

/// A command line that must be rejected, and the message expected.
struct InvalidCommandLine: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var message: String
    var testDescription: String { arguments.joined(separator: " ") }
}

private let rangeMessage = "option --long-press-ms needs a whole number of milliseconds from 50 to 10000"

@Suite("CommandLineOptions")
struct CommandLineOptionsTests {
    init() { ToolAdapters.installShipped() }  // as perch does before parsing: --field kube.context names a tool's key

    @Test(
        "valid command lines",
        arguments: [
            ValidCommandLine(arguments: []),
            ValidCommandLine(arguments: ["--config", "/a/accounts.json"], config: "/a/accounts.json"),
            ValidCommandLine(arguments: ["--config=/a/accounts.json"], config: "/a/accounts.json"),
            ValidCommandLine(arguments: ["--config=a=b.json"], config: "a=b.json"),
            ValidCommandLine(arguments: ["--state", "/s.json"], state: "/s.json"),
            ValidCommandLine(arguments: ["--state=/s.json"], state: "/s.json"),
            ValidCommandLine(arguments: ["--long-press-ms", "800"], longPress: 800),
            ValidCommandLine(arguments: ["--long-press-ms=800"], longPress: 800),
            ValidCommandLine(arguments: ["--long-press-ms", "50"], longPress: 50),
            ValidCommandLine(arguments: ["--long-press-ms", "10000"], longPress: 10_000),
            ValidCommandLine(arguments: ["--help"], request: .help),
            ValidCommandLine(arguments: ["-h"], request: .help),
            ValidCommandLine(arguments: ["--version"], request: .version),
            ValidCommandLine(arguments: ["--version", "--help"], request: .help),
            ValidCommandLine(arguments: ["--help", "--version"], request: .help),
            ValidCommandLine(
                arguments: ["--config", "c.json", "--state=s.json", "--long-press-ms", "120"],
                config: "c.json", state: "s.json", longPress: 120),
            ValidCommandLine(arguments: ["--config", "a.json", "--config", "b.json"], config: "b.json"),
            ValidCommandLine(arguments: ["list"], command: "list"),
            ValidCommandLine(arguments: ["list", "--json"], command: "list", json: true),
            ValidCommandLine(arguments: ["--json", "list"], command: "list", json: true),
            ValidCommandLine(arguments: ["--config", "c.json", "list"], config: "c.json", command: "list"),
            ValidCommandLine(arguments: ["current", "--field", "name"], command: "current", field: "name"),
            ValidCommandLine(arguments: ["current", "--field", "kube.context"], command: "current", field: "kube.context"),
            ValidCommandLine(arguments: ["switch", "--", "-rf"], command: "switch", account: "-rf"),
            ValidCommandLine(arguments: ["current", "--field=handle", "--state", "s"], state: "s", command: "current", field: "handle"),
            ValidCommandLine(arguments: ["switch", "work"], command: "switch", account: "work"),
            ValidCommandLine(
                arguments: ["switch", "Open Source", "--state=s"], state: "s", command: "switch", account: "Open Source"),
            ValidCommandLine(arguments: ["switch", "--", "-odd"], command: "switch", account: "-odd"),
            ValidCommandLine(arguments: ["history", "--limit", "5", "--json"], command: "history", json: true, limit: 5),
            ValidCommandLine(arguments: ["init"], command: "init"),
            ValidCommandLine(arguments: ["config", "path"], command: "config path"),
            ValidCommandLine(arguments: ["config", "check", "--config", "x"], config: "x", command: "config check"),
            ValidCommandLine(arguments: ["config", "edit"], command: "config edit"),
            ValidCommandLine(arguments: ["help"], request: .help),
            // Bug: `perch help help` was an unknown command.
            ValidCommandLine(arguments: ["help", "help"], request: .help),
            ValidCommandLine(arguments: ["help", "switch"], request: .help, command: "switch"),
            ValidCommandLine(arguments: ["switch", "--help"], request: .help, command: "switch"),
            ValidCommandLine(arguments: ["help", "config", "edit"], request: .help, command: "config edit"),
        ])
    func valid(_ c: ValidCommandLine) throws {
        let options = try CommandLineParser.parse(c.arguments)
        #expect(options.request == c.request)
        #expect(options.config == c.config)
        #expect(options.state == c.state)
        #expect(options.longPress == c.longPress)
        #expect(options.name == c.command)
        #expect(options.account == c.account)
        #expect(options.json == c.json)
        #expect(options.field == c.field)
        #expect(options.limit == c.limit)
    }

    @Test(
        "invalid command lines",
        arguments: [
            InvalidCommandLine(arguments: ["--config"], message: "option --config needs a value"),
            InvalidCommandLine(arguments: ["--state"], message: "option --state needs a value"),
            InvalidCommandLine(arguments: ["--long-press-ms"], message: "option --long-press-ms needs a value"),
            InvalidCommandLine(arguments: ["--state", "/s", "--config"], message: "option --config needs a value"),
            InvalidCommandLine(arguments: ["--config="], message: "option --config needs a non-empty path"),
            InvalidCommandLine(arguments: ["--config", ""], message: "option --config needs a non-empty path"),
            InvalidCommandLine(arguments: ["--state="], message: "option --state needs a non-empty path"),
            InvalidCommandLine(arguments: ["--long-press-ms", "49"], message: rangeMessage + ", not '49'"),
            InvalidCommandLine(arguments: ["--long-press-ms", "10001"], message: rangeMessage + ", not '10001'"),
            InvalidCommandLine(arguments: ["--long-press-ms=0"], message: rangeMessage + ", not '0'"),
            InvalidCommandLine(arguments: ["--long-press-ms", "-500"], message: rangeMessage + ", not '-500'"),
            InvalidCommandLine(arguments: ["--long-press-ms", "1.5"], message: rangeMessage + ", not '1.5'"),
            InvalidCommandLine(arguments: ["--long-press-ms", "abc"], message: rangeMessage + ", not 'abc'"),
            InvalidCommandLine(arguments: ["--long-press-ms="], message: rangeMessage + ", not ''"),
            InvalidCommandLine(
                arguments: ["--long-press-ms", "99999999999999999999"], message: rangeMessage + ", not '99999999999999999999'"),
            InvalidCommandLine(arguments: ["--bogus"], message: "unknown option '--bogus'"),
            InvalidCommandLine(arguments: ["--bogus=1"], message: "unknown option '--bogus'"),
            InvalidCommandLine(arguments: ["-x"], message: "unknown option '-x'"),
            InvalidCommandLine(arguments: ["--Config", "a"], message: "unknown option '--Config'"),
            InvalidCommandLine(arguments: ["stray"], message: "unknown command 'stray' (perch --help lists the commands)"),
            InvalidCommandLine(
                arguments: ["--config", "a.json", "extra"], message: "unknown command 'extra' (perch --help lists the commands)"),
            InvalidCommandLine(arguments: ["list", "extra"], message: "unexpected argument 'extra'"),
            InvalidCommandLine(arguments: ["switch", "a", "b"], message: "unexpected argument 'b'"),
            InvalidCommandLine(arguments: ["config"], message: "'perch config' needs path, check or edit"),
            InvalidCommandLine(arguments: ["config", "show"], message: "unknown command 'config show'"),
            InvalidCommandLine(arguments: ["list", "--field", "id"], message: "option --field does not apply to 'perch list'"),
            // Bug: the value of an option given before the command word, read as another command
            // reads it, was refused before the option the command does not take was named.
            InvalidCommandLine(
                arguments: ["--timeout", "5000", "--limit", "3", "registry", "update"],
                message: "option --limit does not apply to 'perch registry update'"),
            // Bug: `perch list --version` printed the version and exited 0.
            InvalidCommandLine(arguments: ["list", "--version"], message: "option --version does not apply to 'perch list'"),
            InvalidCommandLine(arguments: ["switch", "a", "--json"], message: "option --json does not apply to 'perch switch'"),
            InvalidCommandLine(
                arguments: ["list", "--long-press-ms", "100"], message: "option --long-press-ms does not apply to 'perch list'"),
            InvalidCommandLine(
                arguments: ["current", "--field", "email"],
                message:
                    "option --field needs a field of an account (id, name, handle, group, kube.context, git.email, aws.profile, …), not 'email'"
            ),
            InvalidCommandLine(
                arguments: ["history", "--limit", "-1"], message: "option --limit needs a whole number of entries (0 or more), not '-1'"),
            InvalidCommandLine(
                arguments: ["history", "--limit=x"], message: "option --limit needs a whole number of entries (0 or more), not 'x'"),
            InvalidCommandLine(arguments: ["--help", "stray"], message: "unknown command 'stray' (perch --help lists the commands)"),
            // Bug (issue 20): a mistyped command got no "did you mean".
            InvalidCommandLine(
                arguments: ["swich", "work"], message: "unknown command 'swich'; did you mean 'switch'? (perch --help lists the commands)"),
            InvalidCommandLine(
                arguments: ["lsit"], message: "unknown command 'lsit'; did you mean 'list'? (perch --help lists the commands)"),
            // Bug: `perch man` got no hint of `perch man-page`: the start of a command is no typo of it.
            InvalidCommandLine(
                arguments: ["man"], message: "unknown command 'man'; did you mean 'man-page'? (perch --help lists the commands)"),
            InvalidCommandLine(arguments: ["add"], message: "'perch add' needs ID"),
            InvalidCommandLine(arguments: ["set", "work", "git.email"], message: "'perch set' needs ID PATH VALUE"),
            InvalidCommandLine(arguments: ["rename", "a", "b", "c"], message: "unexpected argument 'c'"),
            InvalidCommandLine(arguments: ["remove", "a", "--name", "x"], message: "option --name does not apply to 'perch remove'"),
            InvalidCommandLine(
                arguments: ["current", "--field", "git..email"],
                message:
                    "option --field needs a field of an account (id, name, handle, group, kube.context, git.email, aws.profile, …), not 'git..email'"
            ),
            // fish-shell PR #10319: an id that looks like an option is an option unless it comes after `--`.
            InvalidCommandLine(arguments: ["switch", "-rf"], message: "unknown option '-rf'"),
        ])
    func invalid(_ c: InvalidCommandLine) {
        do {
            let options = try CommandLineParser.parse(c.arguments)
            Issue.record("accepted: \(options)")
        } catch {
            #expect(error.description == c.message)
        }
    }

    // Bug: `--help=yes` and `--version=2` were accepted and the value silently ignored.
    @Test("options that take no value reject one given with =", arguments: ["--help=yes", "--version=2"])
    func flagWithValue(_ argument: String) {
        #expect(throws: UsageError.self, "\(argument) was accepted") {
            try CommandLineParser.parse([argument])
        }
    }

    @Test("the default long-press duration is inside the allowed range and matches the help")
    func defaults() {
        let options = InterfaceCommand()
        #expect(ParsedCommandLine().request == .run)
        #expect(SharedOption.longPressRange.contains(options.longPressMilliseconds))
        #expect(Help.program.contains("50–10000 ms (default \(options.longPressMilliseconds))"))
        #expect(Help.program.contains(Help.usage(of: InterfaceCommand.self)))
    }
}

@Suite("Error messages")
struct ErrorMessageTests {
    // Bug: `perch list` printed a right-to-left override in a name raw, and `--json` a raw C1 control.
    @Test("bidirectional overrides and C1 controls are escaped in text and in JSON")
    func bidiAndC1() {
        #expect(PerchApp.visibleControls("A\u{202E}B\u{9B}C\u{2066}") == #"A\u{202E}B\u{9B}C\u{2066}"#)
        #expect(PerchApp.visibleControls("plain é ü 日本") == "plain é ü 日本")
        #expect(PerchApp.escapingInvisibleControls(inJSON: "{\"name\" : \"A\u{202E}B\u{9B}\"}") == #"{"name" : "A\u202eB\u009b"}"#)
    }

    // Bug: a config error quoting an id with escape sequences retitled and cleared the terminal.
    @Test("control characters in messages are shown as visible escapes")
    func controlsAreVisible() {
        let shown = PerchApp.visibleControls("id \"x\u{1B}]0;PWNED\u{07}\u{1B}[2J\u{9B}\u{7F}\"\nnext")
        #expect(shown == "id \"x^[]0;PWNED^G^[[2J\\u{9B}^?\"^Jnext", "a newline in data cannot start a second line")
        #expect(!shown.unicodeScalars.contains { $0.value < 0x20 })
    }
}

/// Facts stated once: the key help of `perch --help` and the holdable keys come from the key
/// tables the interface routes keys by (``PerchKeys``).
@Suite("Key help from the key tables")
struct KeyHelpTests {
    @Test("every key and gesture of every pane and of the sheet is in perch --help, with the words ? shows")
    func helpListsTheTable() {
        let help = Help.program
        let rows =
            PerchKeys.everywhere + Tab.allCases.flatMap(PerchKeys.pane) + PerchKeys.sheet + PerchKeys.sheetFilter + PerchKeys.overLayers
        for row in rows {
            #expect(help.contains("  " + row.label), "\(row.label) missing")
            #expect(help.contains(row.help), "\(row.help) missing")
        }
        #expect(help.contains("hold Enter".padded(toColumns: 23) + "item menu") || help.contains("hold Enter"), "the Catalog's hold")
    }

    // Bug: perch --help listed the panes' keys as one list, naming no pane ("Enter  open the item
    // full-screen"), and left out the Catalog's r, whose label Overview's r had taken.
    @Test("perch --help lists each pane's own keys under its tab's name, after those of every tab")
    func helpNamesThePanes() {
        let help = Help.program
        let catalog = help.components(separatedBy: "On Catalog:\n").dropFirst().first?.components(separatedBy: "\n\n").first ?? ""
        #expect(catalog.contains("  r" + String(repeating: " ", count: 22) + "run the catalog command again"), "\(catalog)")
        #expect(catalog.contains("Enter") && !catalog.contains("Ctrl-C"), "\(catalog)")
        #expect(help.contains("On Overview:\n  r") && help.contains("On Settings:\n") && help.contains("On Stats:\n"))
        #expect(help.contains("on every tab:\n  a"))
    }

    @Test("the holdable keys are the tabs' digits and the panes' tables' holds, and each acts only where it is held")
    func holdsFromTheTable() {
        var state = TabApp.perch(accounts: Account.samples, saved: SavedState(currentAccount: "work"), size: Size(width: 80, height: 24))
        #expect(state.holdableKeys == [.char("1"), KeyEvent(.enter)])
        for tab in Tab.allCases {
            _ = state.update(.key(.char(tab.shortcut)))
            #expect(state.acceptsKeyHold(.char("1")), "hold 1 on \(tab)")
            #expect(state.acceptsKeyHold(KeyEvent(.enter)) == (tab == .catalog), "hold Enter on \(tab)")
        }
        _ = state.update(.key(.char("2")))
        _ = state.update(.keyHold(KeyEvent(.enter)))
        #expect(state.presented.count == 1, "hold Enter on the Catalog opened the context menu")
    }

    @Test("a pane's key holds are its own key table's: the Catalog's hold Enter")
    func paneHoldsFromItsTable() {
        #expect(CatalogPane.keyTable.holds.map(\.key) == [KeyEvent(.enter)])
        #expect(OverviewPane.keyTable.holds.isEmpty, "holding 1 is the root's, for the pane that holds its tab")
        var state = TabApp.perch(accounts: Account.samples, saved: SavedState(currentAccount: "work"), size: Size(width: 80, height: 24))
        _ = state.update(.key(.char("2")))
        _ = state.update(.keyHold(KeyEvent(.enter)))
        #expect(state.presented.last?.is(ContextMenu.self) == true, "the hold's verb is the table's .menu")
    }
}

/// Text padded for help columns is measured in display columns.
@Suite("Help columns")
struct HelpColumnTests {
    // Bug: a module-wide String.padding(toLength:) shadowed Foundation's and counted characters, not columns.
    @Test("padding counts display columns: wide characters take two, combining marks none")
    func paddedColumns() {
        #expect("日本".padded(toColumns: 6) == "日本  ")
        #expect("e\u{301}".padded(toColumns: 3) == "e\u{301}  ")
        #expect("abcdef".padded(toColumns: 3) == "abcdef ")
    }
}

@Suite("--key-hold and perch doctor")
struct KeyHoldOptionTests {
    @Test("--key-hold takes auto, kitty, repeat or off, for the interface and doctor", arguments: KeyHoldPreference.allCases)
    func keyHold(_ preference: KeyHoldPreference) throws {
        #expect(try CommandLineParser.parse(["--key-hold", preference.rawValue]).interface?.keyHold == preference)
        let doctor = try CommandLineParser.parse(["doctor", "--key-hold=\(preference.rawValue)"])
        #expect(doctor.name == "doctor" && (doctor.command as? DoctorCommand)?.keyHold == preference)
    }

    @Test("--key-hold with another value is a usage error naming the four")
    func badKeyHold() {
        #expect(throws: UsageError(description: "option --key-hold needs one of auto, kitty, repeat, off, not 'always'")) {
            try CommandLineParser.parse(["--key-hold", "always"])
        }
        #expect(InterfaceCommand().keyHold == .auto)
    }

    @Test("the modes: auto follows the terminal's answer, the others are forced")
    func modes() {
        #expect(KeyboardProtocolProbe.mode(requested: .auto, answer: .kitty(flags: 0)) == .releaseEvents)
        #expect(KeyboardProtocolProbe.mode(requested: .auto, answer: .primaryAttributesOnly) == .autoRepeat)
        #expect(KeyboardProtocolProbe.mode(requested: .auto, answer: .silent) == .autoRepeat)
        #expect(KeyboardProtocolProbe.mode(requested: .repeat, answer: .kitty(flags: 0)) == .autoRepeat)
        #expect(KeyboardProtocolProbe.mode(requested: .kitty, answer: nil) == .releaseEvents)
        #expect(KeyboardProtocolProbe.mode(requested: .off, answer: .kitty(flags: 0)) == .off)
    }

    @Test("doctor reads the replies in any split with the shared decoder, DECRQM answers included")
    func probeParsing() {
        let replies = Array("\u{1B}[?1006;2$y\u{1B}[?2004;0$yj\u{1B}[?1u\u{1B}[?62;22ck".utf8)
        for split in 0...replies.count {
            var decoder = InputDecoder()
            var answers = Doctor.Answers()
            let events = decoder.feed(replies[..<split]) + decoder.feed(replies[split...])
            let ended = events.contains { if case .reply(let reply) = $0 { answers.take(reply) } else { false } }
            #expect(ended && answers.modes == [1006: 2, 2004: 0] && answers.keyboard == .kitty(flags: 1), "split at \(split)")
        }
        let answers = Doctor.parseAnswers(Array("\u{1B}[?1006;2$y\u{1B}[?2004;0$y\u{1B}[?1;2c".utf8))
        #expect(answers?.modes == [1006: 2, 2004: 0] && answers?.keyboard == .primaryAttributesOnly)
        #expect(Doctor.parseAnswers(Array("\u{1B}[?1006;2$y\u{1B}[?1u".utf8)) == nil, "no device attributes yet")
    }
}
