import PerchStore

/// `perch set ID PATH VALUE`: one field of an account.
struct SetCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "set", summary: "set a field of an account: name, git.email, kube.context, env.TEAM, …",
        operands: [.account, Operand(name: "PATH", completion: .fieldPath), Operand(name: "VALUE")])
    /// The paths named from the registry (``ToolLists``).
    static var details: String {
        ("PATH is a key of the account, dotted for a tool's key: " + ToolLists.settablePaths.joined(separator: ", ")
            + ". VALUE is written as a string, or as it is when it is a").wrapped(toColumns: 86) + "\n"
            + "JSON list or object ('[\"github.com\", \"gitlab.com\"]'). It is checked as\n"
            + "perch config check checks it: a key it does not know is refused with the paths\n"
            + "there are, and a field that cannot stand without another (kube.namespace without\n"
            + "kube.context) with the object form to set them together. ssh.host is optional\n"
            + "(github.com). The id is changed with perch rename.\n" + writerNote
    }
    var files = FileOptions()
    var id = ""
    /// The field, dotted for a tool's key (`kube.context`).
    var path = ""
    /// The value as given: a string, or JSON when it is a list or object.
    var value = ""

    mutating func bind(operands: [String]) { (id, path, value) = (operands[0], operands[1], operands[2]) }
    func run(_ tool: CommandLineTool) -> Int32 { tool.setField(self) }
}

extension CommandLineTool {
    // MARK: perch set / unset

    func setField(_ options: SetCommand) -> Int32 {
        let (id, pathText, value) = (options.id, options.path, options.value)
        guard let keys = fieldPath(pathText) else { return ExitStatus.usage }
        if keys == ["id"] {
            console.error("the id is changed with `perch rename \(shown(id)) NEW`, which carries its state and history along")
            return ExitStatus.usage
        }
        return edit(.set(id: id, path: keys, json: Self.jsonValue(value)), done: "Set \(pathText) of \(shown(id))") { lines in
            setHint(lines, id: id, keys: keys, value: value)
        }
    }

    /// After a refused `perch set`: the paths there are, for a key the config does not know; the
    /// whole object at once, for a tool's key that cannot stand without another one (bug: an
    /// unknown key was called "ignored" while it was refused, with no path listed; `ssh.host`
    /// alone gave only "ssh.identityFile: missing (required)").
    private func setHint(_ lines: [String], id: String, keys: [String], value: String) {
        if lines.contains(where: { $0.contains(": unknown key") }) {
            console.note("PATH is one of: " + ToolLists.settablePaths.joined(separator: ", ") + ".")
            return
        }
        guard keys.count == 2 else { return }
        let tool = keys[0]
        let missing = lines.compactMap { line -> String? in
            guard let start = line.firstRange(of: "].\(tool)."), let end = line.firstRange(of: ": missing (required)"),
                start.upperBound <= end.lowerBound
            else { return nil }
            return String(line[start.upperBound..<end.lowerBound])
        }
        guard !missing.isEmpty else { return }
        let members = [(keys[1], Self.jsonValue(value))] + missing.map { ($0, "\"…\"") }
        let object = "{" + members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
        console.note(
            "\(tool).\(keys[1]) cannot stand alone: \(tool) needs \(missing.map { "\(tool).\($0)" }.joined(separator: " and ")) too. "
                + "Set them together: perch set \(shown(id)) \(tool) '\(shown(object))'")
    }

    /// `text` as JSON: a list or object as written when it is one, otherwise a string.
    static func jsonValue(_ text: String) -> String {
        if let first = text.utf8.first(where: { $0 != 0x20 }), first == UInt8(ascii: "[") || first == UInt8(ascii: "{"),
            let document = try? JSONReader.read(Array(text.utf8)), [.array, .object].contains(document.kind(document.root))
        {
            return text
        }
        return ConfigWriter.jsonString(text)
    }
}
