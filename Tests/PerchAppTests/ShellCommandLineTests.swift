import Glibc
import PerchKit
import Testing

@testable import PerchApp
@testable import PerchDomain
@testable import PerchInterface

@Suite("Command line for shells")
struct ShellCommandLineTests {
    @Test(
        "perch - and switch - ask for the previous account; switch with no account asks for the picker",
        arguments: [
            (["-"], "-"), (["switch", "-"], "-"), (["--state", "s", "-"], "-"), (["switch"], nil), (["switch", "--height", "8"], nil),
        ] as [([String], String?)])
    func previousAndPicker(arguments: [String], account: String?) throws {
        let options = try CommandLineParser.parse(arguments)
        #expect(options.name == "switch")
        #expect(options.account == account)
    }

    @Test(
        "--format and --json give the list format",
        arguments: [
            (["list"], nil), (["list", "--json"], .json), (["list", "--format", "ids"], .ids), (["list", "--format=tsv"], .tsv),
            (["list", "--format", "json", "--json"], .json),
        ] as [([String], OutputFormat?)])
    func formats(arguments: [String], format: OutputFormat?) throws {
        #expect(try (CommandLineParser.parse(arguments).command as? ListCommand)?.listFormat == format)
    }

    @Test(
        "new usage errors",
        arguments: [
            (["list", "--format", "csv"], "option --format needs one of ids, tsv, json, not 'csv'"),
            (["list", "--format", "ids", "--json"], "use either --json or --format ids, not both"),
            (["current", "--format", "ids"], "option --format does not apply to 'perch current'"),
            (["pick", "--height", "3"], "option --height needs a whole number of rows from 4 to 200, not '3'"),
            (["list", "--height", "5"], "option --height does not apply to 'perch list'"),
            (["completion"], "'perch completion' needs a shell: bash, zsh or fish"),
            (["completion", "ksh"], "'perch completion' knows bash, zsh and fish, not 'ksh'"),
            (["completion", "bash", "zsh"], "unexpected argument 'zsh'"),
            (["pick", "work"], "unexpected argument 'work'"),
            (["-", "work"], "unexpected argument 'work'"),
        ])
    func usageErrors(arguments: [String], message: String) {
        do {
            let options = try CommandLineParser.parse(arguments)
            Issue.record("accepted: \(options)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("completion takes its shell and pick its height", arguments: CompletionShell.allCases)
    func completionShell(shell: CompletionShell) throws {
        #expect(try (CommandLineParser.parse(["completion", shell.rawValue]).command as? CompletionCommand)?.shell == shell)
        #expect(try (CommandLineParser.parse(["pick", "--height", "12"]).command as? PickCommand)?.height == 12)
    }

    @Test("the completion scripts name every command word and every option of the table")
    func scriptsFollowTheTable() {
        for shell in CompletionShell.allCases {
            let script = Completion.script(for: shell)
            for word in Completion.commandWords + CommandGroup.all.flatMap(Completion.groupWords) {
                #expect(script.contains(word), "\(shell) lacks \(word)")
            }
            for option in Commands.allOptions {
                for name in option.names where name.hasPrefix("--") {
                    let spelled = shell == .fish ? "-l " + name.dropFirst(2) : name
                    #expect(script.contains(spelled), "\(shell) lacks \(name)")
                }
            }
        }
    }

    @Test("the man page has a synopsis line and an entry for every command, and escapes roff")
    func manPage() {
        let page = ManPage.text
        #expect(page.hasPrefix(#".\""#))
        #expect(page.components(separatedBy: ".SY perch").count - 1 == Commands.all.count)
        for command in Commands.all where !command.name.isEmpty {
            #expect(page.contains("\\fBperch " + ManPage.escaped(command.name) + "\\fR"), "no entry for \(command.name)")
        }
        #expect(page.contains(".SH KEYS"), "the keys come from the interface's help")
        #expect(ManPage.escaped(#".a\b-c"#) == #"\&.a\eb\-c"#)
        #expect(!page.split(separator: "\n").contains { $0.hasPrefix("'") }, "no line starts a roff control by accident")
    }

    // Bug: the man page listed only the panes' and the account sheet's keys.
    @Test(
        "the man page lists the keys of every layer, under its title (the sheet's as In the account sheet)",
        arguments: PerchKeys.layers.map(\.title) + ["In the account sheet"])
    func manPageLayerKeys(_ title: String) {
        let page = ManPage.text
        let rows = PerchKeys.layers.first { $0.title == title }?.rows ?? PerchKeys.sheet + PerchKeys.sheetFilter
        #expect(page.contains(ManPage.escaped(title) + ":"), "no \(title)")
        for row in rows {
            #expect(page.contains(ManPage.escaped(row.label)), "\(title): no \(row.label)")
            #expect(page.contains(ManPage.escaped(row.help)), "\(title): no \(row.help)")
        }
    }

    // Issue 20: the man page's date was a constant.
    @Test("the man page's date comes from the build: SOURCE_DATE_EPOCH, else the binary's time")
    func manPageDate() {
        #expect(ManPage.buildDate(lookup: { $0 == "SOURCE_DATE_EPOCH" ? "0" : nil }) == "1970-01-01")
        #expect(ManPage.buildDate(lookup: { $0 == "SOURCE_DATE_EPOCH" ? "1798675200" : nil }) == "2026-12-31")
        var info = stat()
        #expect(stat("/proc/self/exe", &info) == 0)
        let civil = WallTime.civil(fromDays: Int64(info.st_mtim.tv_sec) / 86_400)
        let built = ManPage.buildDate(lookup: { _ in nil })
        #expect(built.hasPrefix("\(civil.year)-"), "\(built)")
        #expect(ManPage.text.contains(".TH PERCH 1 \"\(built)\""))
    }

    @Test("completion values come from the command table: --theme, --key-hold, --shell, field paths")
    func completionValues() {
        let theme = InterfaceCommand.optionInfo(named: "--theme")!
        #expect(Completion.values(of: theme) == ["default", "light", "dark", "high-contrast", "monochrome"])
        #expect(Completion.values(of: SharedOption.keyHold.info) == ["auto", "kitty", "repeat", "off"])
        #expect(Completion.values(of: SharedOption.shell.info) == ["bash", "zsh", "fish"])
        for theme in Completion.values(of: theme)! {
            #expect((try? CommandLineParser.parse(["--theme", theme])) != nil, "\(theme) is offered and accepted")
        }
        let bash = Completion.script(for: .bash)
        for command in ["switch", "env", "set", "unset", "rename", "remove"] {
            #expect(bash.contains("\"\(command)\") case $operands in 0) _perch_accounts ;;"), "accounts for \(command)")
        }
        #expect(
            bash.contains("\"set\") case $operands in 0) _perch_accounts ;; 1) COMPREPLY=($(compgen -W \"name "), "paths for set ID <PATH>")
        #expect(bash.contains("kube.context") && bash.contains("git.email"), "field paths for set ID <PATH>")
        #expect(bash.contains("[[ $id == -* ]] && continue"), "an id that reads as an option is never offered")
    }

    @Test(
        "the picker's rows: the sheet's fit height, capped by --height, half the terminal, and the rows below the cursor's line",
        arguments: [
            (5, Size(width: 80, height: 24), nil, 8),  // 4 accounts + Add account + 3 rows of chrome
            (30, Size(width: 80, height: 24), nil, 12),  // half of 24
            (30, Size(width: 80, height: 10), nil, 6),  // at least 6 by default
            (30, Size(width: 80, height: 24), 5, 5),
            (2, Size(width: 80, height: 24), 20, 5),  // never more than it needs
            (30, Size(width: 80, height: 4), 50, 3),  // never more than the rows below the cursor's line (fzf #2446)
        ] as [(Int, Size, Int?, Int)])
    func blockHeight(rows: Int, terminal: Size, requested: Int?, expected: Int) {
        #expect(InlinePickerMode.blockHeight(rowCount: rows, terminal: terminal, requested: requested) == expected)
    }
}
