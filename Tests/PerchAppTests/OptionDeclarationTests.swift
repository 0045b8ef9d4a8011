import PerchDomain
import Testing

@testable import PerchApp

/// A command of the tests' own with three options, each declared once, on its field.
private struct TwoOptionsAndATag: PerchCommand, Equatable {
    static let configuration = CommandConfiguration(name: "two", summary: "a command of the tests", touchesFiles: false)

    /// `--loud`.
    @Option(.flag("--loud", help: "say it loudly")) var loud = false
    /// `--times N`, 1 to 9; nil when not given.
    @Option(.number(OptionInfo(names: ["--times"], valueName: "N", help: "say it N times"), in: 1...9, unit: "times"))
    var times: Int? = nil
    /// `--tag TAG`, each one given.
    @Option(each: OptionDefinition<String>(info: OptionInfo(names: ["--tag"], valueName: "TAG", help: "a tag (repeatable)"), parse: { $0 }))
    var tags: [String] = []

    func run(_ tool: CommandLineTool) -> Int32 { 0 }
}

/// Each option is declared once, on the field that keeps its value (48: the field, a
/// `CommandOption` and an `OptionDefinition` wrote every option three times).
@Suite("Options declared once, on their fields")
struct OptionDeclarationTests {
    @Test("a command's options are what its fields declare, in their order, and help lists them from there")
    func declaredOnce() {
        #expect(TwoOptionsAndATag.optionInfos.map(\.name) == ["--loud", "--times", "--tag", "--help"])
        let help = Help.text(of: TwoOptionsAndATag.self)
        #expect(help.contains("--times N") && help.contains("say it N times") && help.contains("a tag (repeatable)"), "\(help)")
    }

    @Test("values given reach their fields: the last of a single option, every one of a repeatable one; the rest keep their defaults")
    func valuesReachFields() throws {
        let made = try OptionReading.make(
            TwoOptionsAndATag.self,
            given: [
                .init(name: "--times", value: "2"), .init(name: "--tag", value: "a"), .init(name: "--times", value: "3"),
                .init(name: "--tag", value: "b"),
            ])
        #expect(made.times == 3)
        #expect(made.tags == ["a", "b"])
        #expect(!made.loud)
        #expect(made.$times.isGiven && made.$tags.isGiven && !made.$loud.isGiven)
    }

    @Test("a value its declaration cannot read is refused with the declaration's message")
    func badValue() {
        do {
            _ = try OptionReading.make(TwoOptionsAndATag.self, given: [.init(name: "--times", value: "ten")])
            Issue.record("--times ten was taken")
        } catch {
            #expect(error.description == "option --times needs a whole number of times from 1 to 9, not 'ten'")
        }
    }

    @Test("a command made outside the parser reads no command line: every option keeps its default")
    func madeOutsideTheParser() {
        let command = TwoOptionsAndATag()
        #expect(command.times == nil && command.tags.isEmpty && !command.$times.isGiven)
        #expect(TwoOptionsAndATag(loud: true, times: 4) == TwoOptionsAndATag(loud: true, times: 4, tags: []))
    }

    @Test("the settings the interface's flags override are read from the fields (a flag given with the default value still counts)")
    func flaggedSettings() throws {
        let flagged = try CommandLineParser.parse(["--theme", "dark", "--long-press-ms", "500", "--no-mouse"])
        #expect((flagged.command as? InterfaceCommand)?.flaggedSettings == [.theme, .longPress, .mouse])
        let plain = try CommandLineParser.parse([])
        #expect((plain.command as? InterfaceCommand)?.flaggedSettings == [])
        let doctor = try CommandLineParser.parse(["doctor", "--long-press-ms", "700"])
        #expect((doctor.command as? DoctorCommand)?.flaggedSettings == [.longPress])
        #expect((doctor.command as? DoctorCommand)?.longPressMilliseconds == 700)
    }

    @Test("every flag each command's help lists is parsed into a field of that command")
    func everyFlagReachesAField() throws {
        var checked = 0
        for command in Commands.all where !command.name.isEmpty {
            let operands = command.configuration.operands.filter { !$0.optional }.map { operand -> String in
                if case .values(let allowed) = operand.completion { return allowed[0] }
                return "x"
            }
            for option in command.optionInfos where option.valueName == nil && option != SharedOption.help {
                let words = command.name.split(separator: " ").map(String.init) + operands + [option.name]
                let arguments = words + (command.configuration.trailingCommand ? ["--", "true"] : [])
                let parsed: ParsedCommandLine
                do {
                    parsed = try CommandLineParser.parse(arguments)
                } catch {
                    // A combination the command refuses (`--json` without `--agent`) is its own
                    // rule; an option it does not know is not.
                    #expect(!error.description.contains("does not apply") && !error.description.contains("unknown option"), "\(arguments)")
                    continue
                }
                #expect(givenFlags(parsed.command) == 1, "\(arguments): \(givenFlags(parsed.command)) fields given")
                checked += 1
            }
        }
        #expect(checked >= 30, "\(checked) flags checked")
    }

    /// How many flags `command`'s fields were given, counting those of the groups of options it
    /// holds (``FileOptions``, ``SwitchSettings``).
    private func givenFlags(_ command: Any) -> Int {
        var count = 0
        for child in Mirror(reflecting: command).children {
            if let flag = child.value as? Option<Bool> {
                if flag.isGiven { count += 1 }
            } else if Mirror(reflecting: child.value).displayStyle == .struct {
                count += givenFlags(child.value)
            }
        }
        return count
    }
}
