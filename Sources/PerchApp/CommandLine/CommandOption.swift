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

/// One option of command `Command`: what is known of it and how its value lands in the
/// command's own field.
struct CommandOption<Command>: Sendable {
    var info: OptionInfo
    /// Reads the value (`""` for a flag) into the command.
    var apply: @Sendable (inout Command, String) throws(UsageError) -> Void

    /// `definition`, stored by `set`.
    init<Value>(_ definition: OptionDefinition<Value>, _ set: @escaping @Sendable (inout Command, Value) -> Void) {
        info = definition.info
        let parse = definition.parse
        apply = { (command: inout Command, text: String) throws(UsageError) in set(&command, try parse(text)) }
    }
}

/// `--config PATH` and `--state PATH`, taken by every command that reads Perch's files.
struct FileOptions: Hashable, Sendable {
    /// `--config PATH`; nil for the default.
    var config: String?
    /// `--state PATH`; nil for the default.
    var state: String?
}

/// A command that takes `--config` and `--state` (``FileOptions``).
protocol ReadsPerchFiles: PerchCommand {
    var files: FileOptions { get set }
}

extension ReadsPerchFiles {
    /// `--config PATH` and `--state PATH`, first among its options.
    static var fileOptions: [CommandOption<Self>] {
        [CommandOption(SharedOption.config) { $0.files.config = $1 }, CommandOption(SharedOption.state) { $0.files.state = $1 }]
    }
}
