/// A command of `perch`, in the manner of swift-argument-parser's `ParsableCommand`: one type
/// per command (or family member), holding its own options as fields, with everything the
/// parser, `--help`, the man page and the completions of bash, zsh and fish know of it, and
/// what runs it. ``Commands/all`` lists them, one line each.
///
/// Its options are fields marked ``Option``, each declared once with its help; the parser
/// (``CommandLineParser``) makes the value with ``init()`` while they read the command line
/// (``OptionReading``), binds its operands, then asks ``validate()``; any other option is
/// refused as not applying to it.
protocol PerchCommand: Sendable {
    /// Its name, summary, operands and the like.
    static var configuration: CommandConfiguration { get }
    /// What its help and the man page say beyond the summary, or nothing.
    static var details: String { get }
    /// The command with every option at its default.
    init()
    /// Takes its operands, in the order of ``CommandConfiguration/operands`` (those given; the
    /// optional ones may be missing).
    mutating func bind(operands: [String])
    /// Takes what follows its operands (or `--`) when ``CommandConfiguration/trailingCommand``
    /// is set: a command to run, program first.
    mutating func bind(trailing: [String])
    /// Checks what the options and operands cannot check one by one.
    /// - Throws: ``UsageError`` (its usage line is filled in by the parser).
    func validate() throws(UsageError)
    /// `--config` and `--state` as given; both nil for a command that reads no file.
    var files: FileOptions { get }
    /// Carries the command out with `tool` (its console and paths); the exit status
    /// (``ExitStatus``).
    func run(_ tool: CommandLineTool) -> Int32
}

extension PerchCommand {
    static var details: String { "" }
    mutating func bind(operands: [String]) {}
    mutating func bind(trailing: [String]) {}
    func validate() throws(UsageError) {}
    var files: FileOptions { FileOptions() }

    /// The words that name it (`config check`); empty for the interface.
    static var name: String { configuration.name }

    /// The options its fields declare (``Option``), in declaration order: help's.
    static var declaredOptions: [OptionReading.Declared] { OptionReading.declared(by: Self.self) }

    /// What help, the man page and the completions list of its options: ``declaredOptions``,
    /// then `-h, --help`.
    static var optionInfos: [OptionInfo] {
        // Loops by index here and in ``option(named:)``: they run for a command type known only
        // at run time, where a generic algorithm (`map`, `first(where:)`) looks up Array's
        // conformances at run time (0.2 M instructions in `perch current --field name`).
        let options = Self.declaredOptions
        var infos: [OptionInfo] = []
        infos.reserveCapacity(options.count + 1)
        var index = 0
        while index < options.count {
            infos.append(options[index].info)
            index += 1
        }
        infos.append(SharedOption.help)
        return infos
    }

    /// What is known of the option spelled `name`, or nil.
    static func optionInfo(named name: String) -> OptionInfo? { option(named: name)?.info }

    /// The option its fields declare spelled `name` (`--json`), or nil.
    static func option(named name: String) -> OptionReading.Declared? {
        let options = Self.declaredOptions
        var index = 0
        while index < options.count {
            if options[index].info.names.contains(name) { return options[index] }
            index += 1
        }
        return nil
    }

    /// Its operands in the usage line: ` ID PATH VALUE`, ` [ACCOUNT]`, ` ID -- COMMAND [ARGS…]`.
    static var operandText: String {
        configuration.operands.filter { !$0.hidden }.map { " " + ($0.optional ? "[\($0.name)]" : $0.name) }.joined()
            + (configuration.trailingCommand ? CommandConfiguration.trailingText : "")
    }
}

/// What is known of a command before it is parsed: its name, summary and operands, and how
/// `perch` treats it.
struct CommandConfiguration: Sendable {
    /// The words that name it (`config check`); empty for the interface.
    var name: String
    /// One line of summary.
    var summary: String
    /// Its operands, in order.
    var operands: [Operand] = []
    /// Whether it reads or writes Perch's or the tools' files (all but printing a script or the
    /// manual page): refused to root in another user's home.
    var touchesFiles = true
    /// Whether a switch left half done by a killed process is put right before it runs. Off
    /// for the commands a prompt runs (which put it right without waiting), for `switch`
    /// (which does it under the state lock) and for those that only print.
    var recoversInterruptedSwitch = true
    /// A word that alone stands for this command with that word as its operand (`perch -` is
    /// `perch switch -`); nil for none.
    var shorthand: String?
    /// Whether a command to run follows its operands (after `--`, or everything after them).
    var trailingCommand = false

    /// The trailing command in a usage line.
    static let trailingText = " -- COMMAND [ARGS…]"
}

/// How a shell completes a value: an operand's or an option's.
public enum CompletionKind: Hashable, Sendable {
    /// Free text: nothing is offered.
    case none
    /// A file name.
    case file
    /// An account id or name of the config in use, asked of `perch list --format tsv` at
    /// completion time (ids that begin with `-` are never offered).
    case account
    /// One of these words.
    case values([String])
    /// A dotted field path of an account (``ToolLists/setPaths``).
    case fieldPath
    /// A field `perch current --field` prints (``ToolLists/currentFields``).
    case accountField
    /// The name of a tool described as data (``ToolLists/describedNames``), for `perch tools
    /// show NAME`; any name is accepted (an unknown one is the command's to answer).
    case describedTool
}

/// An operand of a command: its name in the usage line, whether it may be left out, what a
/// shell completes for it, and what a message says when it is missing or not one of the values.
struct Operand: Sendable {
    /// `ID`, `SHELL`, `ID-OR-NAME|-`.
    var name: String
    var optional = false
    var completion: CompletionKind = .none
    /// What `'perch CMD' needs …` says when it is missing (`a shell: bash, zsh or fish`); the
    /// operands' names when nil.
    var needs: String?
    /// What `'perch CMD' … , not 'x'` says when the value is not one of ``CompletionKind/values(_:)``
    /// (`knows bash, zsh and fish`).
    var knows: String?
    /// Whether the usage line, help and completions leave it out (what a program other than a
    /// person passes, such as the remote a git hook gives).
    var hidden = false
    /// Whether the usage line shows it without brackets although parsing lets it be left out
    /// (`perch setup --undo` with no tool is `perch reset`, not a use of `perch setup`).
    var shownRequired = false

    /// The shell operand of `completion`, `shell-init` and `shell-hook`.
    static let shell = Operand(
        name: "SHELL", completion: .values(CompletionShell.allCases.map(\.rawValue)), needs: "a shell: bash, zsh or fish",
        knows: "knows bash, zsh and fish")
    /// An account that must be given, completed from the config.
    static let account = Operand(name: "ID", completion: .account)
}
