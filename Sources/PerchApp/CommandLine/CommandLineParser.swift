import PerchDomain
import PerchInterface

/// A command line that cannot be used: ``description`` is the one-line message and ``usage``
/// the usage line of the command it was meant for (the program's when none can be told).
public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public var usage: String

    public init(description: String, usage: String? = nil) {
        self.description = description
        self.usage = usage ?? Help.usage(of: InterfaceCommand.self)
    }
}

/// What a command line asks for: the command, with its own options and operands in its fields,
/// and whether to run it or print its help or the version.
struct ParsedCommandLine: Sendable {
    /// What to do with ``command``.
    enum Request: Hashable, Sendable {
        /// Carry out the command.
        case run
        /// Print the help of the command (the program's when it is the interface).
        case help
        /// Print the version.
        case version
    }

    var request: Request = .run
    /// The command; the interface when none was given.
    var command: any PerchCommand = InterfaceCommand()
    /// The group whose help was asked for without a member (`perch help config`), or nil.
    var group: CommandGroup?

    /// The words that name the command (`config check`); empty for the interface.
    var name: String { type(of: command).name }

    /// The help text asked for: the group's, else the command's.
    var helpText: String { group.map(Help.text(of:)) ?? Help.text(of: type(of: command)) }
}

/// The one parser of `perch`'s command line, reading every command's declarations
/// (``PerchCommand``). Options may come before or after the command and take their value as
/// the next argument or after `=`; `--` ends the options.
enum CommandLineParser {
    /// Parses `arguments` (without the program name).
    /// - Throws: ``UsageError`` for an unknown command or option, an option the command does
    ///   not take, a missing or bad value, a missing or stray operand, or what the command's
    ///   ``PerchCommand/validate()`` refuses.
    static func parse(_ arguments: [String]) throws(UsageError) -> ParsedCommandLine {
        var result = ParsedCommandLine()
        var words: [String] = []
        var given: [OptionReading.Given] = []
        var trailing: [String]?
        var index = 0
        var optionsEnded = false
        // A command with a trailing command (`perch exec ID`): what follows `--` (or, with no
        // `--`, everything after its operands) is the command.
        var takesRest = false
        while index < arguments.count {
            if !takesRest, let first = words.first, let found = command(named: first), found.configuration.trailingCommand,
                words.count == 1 + found.configuration.operands.count
            {
                takesRest = true
                if optionsEnded || !arguments[index...].contains("--") {
                    trailing = Array(arguments[index...])
                    break
                }
            }
            let argument = arguments[index]
            index += 1
            if takesRest, argument == "--" {
                trailing = Array(arguments[index...])
                break
            }
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                words.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let declared = declaration(of: name, words: words) else {
                throw UsageError(description: "unknown option '\(name)'", usage: guessUsage(words))
            }
            let info = declared.info
            var value = ""
            if info.valueName != nil {
                if let inline {
                    value = inline
                } else {
                    guard index < arguments.count else {
                        throw UsageError(description: "option \(name) needs a value", usage: guessUsage(words))
                    }
                    value = arguments[index]
                    index += 1
                }
            } else if inline != nil {
                throw UsageError(description: "option \(name) takes no value", usage: guessUsage(words))
            }
            if info == SharedOption.help {
                result.request = .help
            } else if info == SharedOption.version {
                if result.request != .help { result.request = .version }
            } else {
                // The value is checked where it stands, as the option's declaration reads it.
                do throws(UsageError) {
                    try declared.check(value)
                } catch {
                    throw UsageError(description: error.description, usage: guessUsage(words))
                }
                given.append(OptionReading.Given(name: name, value: value))
            }
        }
        let (type, operands) = try interpret(words, into: &result)
        if result.group != nil { return result }
        if result.request == .version, !type.name.isEmpty {
            throw UsageError(description: "option --version does not apply to 'perch \(type.name)'", usage: Help.usage(of: type))
        }
        guard result.request == .run else {
            result.command = type.init()
            return result
        }
        result.command = try make(type, given: given, operands: operands, trailing: trailing ?? [])
        return result
    }

    /// Takes the words that are not options: `help`, the command, and its operands.
    private static func interpret(_ words: [String], into result: inout ParsedCommandLine) throws(UsageError) -> (
        any PerchCommand.Type, [String]
    ) {
        var words = words[...]
        if words.first == "help" {
            result.request = .help
            words = words.dropFirst()
            if words.first == "help" { words = words.dropFirst() }  // `perch help help`: the program's help
        }
        var type: any PerchCommand.Type = InterfaceCommand.self
        var operands: [String]?
        if let first = words.first {
            if let found = command(named: first), !found.name.isEmpty {
                type = found
                words = words.dropFirst()
            } else if let group = CommandGroup.all.first(where: { $0.name == first }) {
                guard words.count >= 2 else {
                    if result.request == .help {
                        result.group = group
                        return (type, [])
                    }
                    throw UsageError(description: "'perch \(group.name)' needs " + group.memberWords, usage: Help.usage(of: group))
                }
                let name = first + " " + words[words.startIndex + 1]
                guard let found = command(named: name) else {
                    throw UsageError(description: "unknown command '\(name)'", usage: Help.usage(of: group))
                }
                type = found
                words = words.dropFirst(2)
            } else if result.request == .run, let found = Commands.all.first(where: { $0.configuration.shorthand == first }) {
                // `perch -`: the previous account, as `cd -` and `kubectx -`.
                type = found
                operands = [first]
                words = words.dropFirst()
            } else {
                throw UsageError(description: "unknown command '\(first)'" + commandGuess(first) + " (perch --help lists the commands)")
            }
        }
        // The operands its configuration names, in order; checked once the options are known.
        if operands == nil {
            let count = type.configuration.operands.count
            operands = Array(words.prefix(count))
            words = words.dropFirst(count)
        }
        if let stray = words.first, result.request == .run {
            throw UsageError(description: "unexpected argument '\(stray)'", usage: Help.usage(of: type))
        }
        return (type, operands ?? [])
    }

    /// The command of `type` with the options given applied, its operands bound and checked.
    private static func make<Command: PerchCommand>(
        _ type: Command.Type, given: [OptionReading.Given], operands: [String], trailing: [String]
    )
        throws(UsageError) -> Command
    {
        var command: Command
        do throws(UsageError) {
            // An option the command does not take is named before any value is read: a value
            // checked against another command's declaration of the same name (`--timeout` before
            // the command word) is not the command's to refuse.
            // Bug: `perch --timeout 5000 --limit 3 registry update` named --timeout's value, not --limit.
            if given.isEmpty {
                // Every field at its default, read from nothing: the way of the prompt's commands
                // (`perch current`, `perch shell-hook`), which make no reading at all.
                command = Command()
            } else {
                let declared = Command.declaredOptions
                for option in given where !declared.contains(where: { $0.info.names.contains(option.name) }) {
                    let info = declaration(of: option.name, words: [])!.info
                    throw UsageError(description: "option \(info.name) does not apply to 'perch \(type.name)'")
                }
                command = try OptionReading.make(type, given: given)
            }
            try checkOperands(operands, of: type)
            command.bind(operands: operands)
            command.bind(trailing: trailing)
            try command.validate()
        } catch {
            // The usage line is made only for a message (it reads every option's declaration).
            throw UsageError(description: error.description, usage: Help.usage(of: type))
        }
        return command
    }

    /// Checks the operands against the command's configuration: every one that may not be
    /// left out is there, and one with fixed values is one of them.
    private static func checkOperands(_ operands: [String], of type: any PerchCommand.Type) throws(UsageError) {
        let declared = type.configuration.operands
        for (index, operand) in declared.enumerated() {
            guard index < operands.count else {
                if operand.optional { break }
                let needs = operand.needs ?? declared.map(\.name).joined(separator: " ")
                throw UsageError(description: "'perch \(type.name)' needs \(needs)")
            }
            if case .values(let allowed) = operand.completion, !allowed.contains(operands[index]) {
                let knows = operand.knows ?? "takes " + allowed.joined(separator: ", ")
                throw UsageError(description: "'perch \(type.name)' \(knows), not '\(operands[index])'")
            }
        }
    }

    /// The command `name` names (`list`, `config check`, `` for the interface), or nil.
    static func command(named name: String) -> (any PerchCommand.Type)? {
        Commands.all.first { $0.name == name }
    }

    /// The declaration that reads option `name`: the parser's own (`--help`, `--version`, which
    /// take any value), else that of the command the words so far name, else the first
    /// command's that takes it. Each command's declarations are made once here (a command is
    /// made to read them).
    private static func declaration(of name: String, words: [String]) -> OptionReading.Declared? {
        for builtin in [SharedOption.help, SharedOption.version] where builtin.names.contains(name) {
            return OptionReading.Declared(info: builtin, check: { _ throws(UsageError) in })
        }
        if let named = namedCommand(words), let declared = named.option(named: name) { return declared }
        for command in Commands.all { if let declared = command.option(named: name) { return declared } }
        return nil
    }

    /// The command the words so far name (`help` left out), or nil.
    private static func namedCommand(_ words: [String]) -> (any PerchCommand.Type)? {
        let named = words.first == "help" ? Array(words.dropFirst()) : words
        let isGroup = CommandGroup.all.contains { $0.name == named.first }
        let name = isGroup ? named.prefix(2).joined(separator: " ") : named.first ?? ""
        return command(named: name)
    }

    /// ` (did you mean 'switch'?)` for a mistyped command, or "".
    static func commandGuess(_ typed: String) -> String {
        let words = Completion.commandWords.filter { $0 != "-" }
        var near = Account.suggestions(for: typed, in: words.map { Account(id: $0, name: $0) })
        // A command's start (`man` for `man-page`) is not a typo of it, but names it all the same.
        if near.isEmpty, typed.count >= 3 { near = words.filter { $0.hasPrefix(typed) } }
        guard !near.isEmpty else { return "" }
        return "; did you mean " + near.map { "'\($0)'" }.joined(separator: " or ") + "?"
    }

    /// The usage line of the command the words so far name, for a message about an option.
    private static func guessUsage(_ words: [String]) -> String {
        guard let named = namedCommand(words), !named.name.isEmpty else { return Help.usage(of: InterfaceCommand.self) }
        return Help.usage(of: named)
    }
}
