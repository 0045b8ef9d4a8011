import PerchStore

/// `perch unset ID PATH`: one field of an account removed.
struct UnsetCommand: ReadsPerchFiles {
    static let configuration = CommandConfiguration(
        name: "unset", summary: "remove a field of an account", operands: [.account, Operand(name: "PATH", completion: .fieldPath)])
    static let details: String =
        "Removes the key at PATH (as for perch set); a tool's object left empty goes too.\n"
        + "The id and name cannot be removed.\n" + writerNote
    var files = FileOptions()
    var id = ""
    /// The field, as for `perch set`.
    var path = ""

    mutating func bind(operands: [String]) { (id, path) = (operands[0], operands[1]) }
    func run(_ tool: CommandLineTool) -> Int32 { tool.unsetField(self) }
}

extension CommandLineTool {
    func unsetField(_ options: UnsetCommand) -> Int32 {
        let (id, pathText) = (options.id, options.path)
        guard let keys = fieldPath(pathText) else { return ExitStatus.usage }
        if keys == ["id"] || keys == ["name"] {
            // Bug: "accounts need an name".
            console.error(
                "accounts need \(keys[0] == "id" ? "an id" : "a name"); set it with `perch \(keys[0] == "id" ? "rename" : "set") \(shown(id)) …` instead"
            )
            return ExitStatus.usage
        }
        return edit(.unset(id: id, path: keys), done: "Removed \(pathText) from \(shown(id))")
    }
}
