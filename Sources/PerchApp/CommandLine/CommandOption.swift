import PerchDomain
import PerchInterface
import PerchKit

/// What help, the man page and the completions know of an option, whichever command declares it.
struct OptionInfo: Sendable, Equatable {
    /// Its spellings; the last is the one used in messages (`-h`, `--help`).
    var names: [String]
    /// The name of its value in help (`PATH`, `ids|tsv|json`), or nil for a flag.
    var valueName: String?
    /// Its text in help; a second line starts with spaces up to ``helpColumn``.
    var help: String
    /// What a shell completes for its value; ``CompletionKind/none`` for a flag or free text.
    var completion: CompletionKind = .none
    /// Whether the usage line shows it first and without brackets (`perch add --name NAME`).
    var required = false
    /// Whether it belongs to every command that reads files (`--config`, `--state`): the man
    /// page names no commands for it.
    var common = false

    /// The column, counted from 0, where help text starts.
    static let helpColumn = 26

    /// The spelling used in messages.
    var name: String { names.last! }

    /// Its lines in help: spellings and value name, then the text from ``helpColumn``, or on
    /// the next line when the spellings reach that column.
    var helpLine: String {
        let left = "  " + names.joined(separator: ", ") + (valueName.map { " " + $0 } ?? "")
        guard DisplayWidth.columns(of: left) < Self.helpColumn else {
            return left + "\n" + "".padded(toColumns: Self.helpColumn) + help
        }
        return left.padded(toColumns: Self.helpColumn) + help
    }

    /// Its help text on one line, without the option's name (for the man page and fish).
    var summary: String {
        helpLine.split(separator: "\n").map { line in
            line.count > Self.helpColumn ? String(line.dropFirst(Self.helpColumn)) : ""
        }.filter { !$0.isEmpty }.joined(separator: " ")
    }
}

/// An option that reads its value into a `Value`, declared once and taken by each command that
/// lists it (``CommandOption/init(_:_:)``), as swift-argument-parser's option groups are.
struct OptionDefinition<Value: Sendable>: Sendable {
    var info: OptionInfo
    /// Reads the value as given (`""` for a flag).
    /// - Throws: ``UsageError`` naming the option and what it needs.
    var parse: @Sendable (String) throws(UsageError) -> Value
}

extension OptionDefinition where Value == Bool {
    /// A flag: true when given.
    static func flag(_ name: String, help: String) -> OptionDefinition {
        OptionDefinition(info: OptionInfo(names: [name], help: help), parse: { _ in true })
    }
}

extension OptionDefinition where Value: FixedWidthInteger & LosslessStringConvertible {
    /// An option whose value is a whole number in `range`, counted in `unit` (`milliseconds`,
    /// `rows`) in its message.
    static func number(_ info: OptionInfo, in range: ClosedRange<Value>, unit: String) -> OptionDefinition {
        OptionDefinition(
            info: info,
            parse: { value throws(UsageError) in
                guard let number = Value(value), range.contains(number) else {
                    throw UsageError(
                        description:
                            "option \(info.name) needs a whole number of \(unit) from \(range.lowerBound) to \(range.upperBound), not '\(value)'"
                    )
                }
                return number
            })
    }
}

extension OptionDefinition where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// An option whose value is one of `Value`'s cases, as spelled by its raw value; completion
    /// offers them all, and the message names them in their order.
    static func choice(_ name: String, valueName: String, help: String) -> OptionDefinition {
        OptionDefinition(
            info: OptionInfo(names: [name], valueName: valueName, help: help, completion: .values(Value.allCases.map(\.rawValue))),
            parse: { value throws(UsageError) in
                guard let choice = Value(rawValue: value) else {
                    let names = Value.allCases.map(\.rawValue).joined(separator: ", ")
                    throw UsageError(description: "option \(name) needs one of \(names), not '\(value)'")
                }
                return choice
            })
    }
}

/// An option of a command, declared once, on the field that keeps its value: its
/// ``OptionDefinition`` is everything the parser, help, the man page and the completions know of
/// it, as swift-argument-parser's `@Option` and `@Flag` are (`@Option(.flag("--json", help: …))
/// var json = false`).
///
/// The parser makes the command (``PerchCommand/init()``) while ``OptionReading/current`` holds
/// what the command line gave: each field then takes the values given for it and says what it
/// is, in the order the fields are declared (help's order). A command made anywhere else (a
/// test, help) has every option at its default.
@propertyWrapper
struct Option<Value: Sendable>: Sendable {
    var wrappedValue: Value
    /// Whether the command line gave it (``PerchCommand`` fields read it as `$name.isGiven`).
    private(set) var isGiven = false

    var projectedValue: Option { self }

    /// Option `definition`, kept in the field: `wrappedValue` when not given; given more than
    /// once, the last one counts.
    init(wrappedValue: Value, _ definition: OptionDefinition<Value>) {
        self.wrappedValue = wrappedValue
        isGiven = OptionReading.read(definition, into: &self.wrappedValue) { $0 = $1 }
    }

    /// Option `definition`, kept in an optional field that is nil when it is not given.
    init<Wrapped>(wrappedValue: Value, _ definition: OptionDefinition<Wrapped>) where Value == Wrapped? {
        self.wrappedValue = wrappedValue
        isGiven = OptionReading.read(definition, into: &self.wrappedValue) { $0 = $1 }
    }

    /// Option `definition`, given any number of times: each value, in order (`--scan A --scan B`).
    init<Element>(wrappedValue: Value, each definition: OptionDefinition<Element>) where Value == [Element] {
        self.wrappedValue = wrappedValue
        isGiven = OptionReading.read(definition, into: &self.wrappedValue) { $0.append($1) }
    }

    /// Option `definition` of `KEY=VALUE` pairs, given any number of times: the last value of
    /// each key counts (`--set a=1 --set b=2`).
    init<Key: Hashable & Sendable, Item: Sendable>(wrappedValue: Value, each definition: OptionDefinition<(Key, Item)>)
    where Value == [Key: Item] {
        self.wrappedValue = wrappedValue
        isGiven = OptionReading.read(definition, into: &self.wrappedValue) { $0[$1.0] = $1.1 }
    }
}

/// Options compare by value alone: a command parsed from `--json` equals one made with `json`
/// set.
extension Option: Equatable where Value: Equatable {
    static func == (left: Option, right: Option) -> Bool { left.wrappedValue == right.wrappedValue }
}

extension Option: Hashable where Value: Hashable {
    func hash(into hasher: inout Hasher) { hasher.combine(wrappedValue) }
}

/// The command line as a command's ``Option`` fields read it while the parser makes the command;
/// also what each field said it is, and the first value none could read.
///
/// Its fields change only while a command is made, which is synchronous, on the thread that
/// made the reading and within its `withValue`; no other thread sees it then, so it needs no
/// lock (a `Mutex` of a tuple cost `perch current` its generic metadata at every start).
final class OptionReading: @unchecked Sendable {
    /// The reading under way, or nil (a command made outside the parser keeps its defaults).
    @TaskLocal static var current: OptionReading?

    /// An option a field declared: what is known of it, and how its value is checked.
    struct Declared: Sendable {
        var info: OptionInfo
        /// Reads a value as the field would, and throws the field's ``UsageError``.
        var check: @Sendable (String) throws(UsageError) -> Void
    }

    /// An option as given: the spelling, and the value (`""` for a flag).
    struct Given: Sendable {
        var name: String
        var value: String
    }

    /// The options given, in order.
    let given: [Given]
    /// The options the fields declared, in declaration order.
    private(set) var declared: [Declared] = []
    /// The first value a field could not read, or nil.
    private(set) var error: UsageError?

    init(given: [Given] = []) { self.given = given }

    /// The options `Command`'s fields declare, in order (its ``PerchCommand/init()`` made with
    /// nothing given).
    static func declared<Command: PerchCommand>(by _: Command.Type) -> [Declared] {
        let reading = OptionReading()
        _ = $current.withValue(reading) { Command() }
        return reading.declared
    }

    /// Makes `Command` with the options given, each in the field that declares it.
    /// - Throws: the ``UsageError`` of the first value a field could not read.
    static func make<Command: PerchCommand>(_: Command.Type, given: [Given]) throws(UsageError) -> Command {
        let reading = OptionReading(given: given)
        let command = $current.withValue(reading) { Command() }
        if let error = reading.error { throw error }
        return command
    }

    /// Declares `definition` to the reading under way, and stores each value given for it into
    /// `value` with `store`; whether any was given.
    static func read<Stored, Parsed>(
        _ definition: OptionDefinition<Parsed>, into value: inout Stored, _ store: (inout Stored, Parsed) -> Void
    ) -> Bool {
        guard let reading = current else { return false }
        let parse = definition.parse
        reading.declared.append(Declared(info: definition.info, check: { text throws(UsageError) in _ = try parse(text) }))
        var given = false
        for option in reading.given where definition.info.names.contains(option.name) {
            do throws(UsageError) {
                store(&value, try parse(option.value))
                given = true
            } catch {
                if reading.error == nil { reading.error = error }
            }
        }
        return given
    }
}

/// `--config PATH` and `--state PATH`, taken by every command that reads Perch's files.
struct FileOptions: Hashable, Sendable {
    /// `--config PATH`; nil for the default.
    @Option(SharedOption.config) var config: String? = nil
    /// `--state PATH`; nil for the default.
    @Option(SharedOption.state) var state: String? = nil
}

/// A command that takes `--config` and `--state` (``FileOptions``).
protocol ReadsPerchFiles: PerchCommand {
    var files: FileOptions { get set }
}
