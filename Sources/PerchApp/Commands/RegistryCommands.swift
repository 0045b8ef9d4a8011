import Glibc
import PerchDomain
import PerchIdentities
import PerchStore

/// The options the `registry` commands share.
enum RegistryOption {
    /// `--ref REF`: the branch, tag or commit to fetch.
    static let ref = OptionDefinition<String>(
        info: OptionInfo(names: ["--ref"], valueName: "REF", help: "the branch, tag or commit to use (default: the default branch)"),
        parse: { value throws(UsageError) in
            guard RegistryFetch.isValidRef(value) else {
                throw UsageError(description: "option --ref needs a branch, tag or commit name, not '\(PerchApp.visibleControls(value))'")
            }
            return value
        })
    /// `--path DIR`: the folder of the repository holding the registry file.
    static let path = OptionDefinition<String>(
        info: OptionInfo(names: ["--path"], valueName: "DIR", help: "the folder in the repository that holds perch-registry.json"),
        parse: { value throws(UsageError) in
            guard RegistryFetch.isValidPath(value) else {
                throw UsageError(
                    description: "option --path needs a relative folder without . or .. parts, not '\(PerchApp.visibleControls(value))'")
            }
            return value
        })
    /// `--allowed-signers FILE`: require signed commits.
    static let allowedSigners = OptionDefinition<String>(
        info: OptionInfo(
            names: ["--allowed-signers"], valueName: "FILE",
            help: "use only commits signed by a key of FILE (ssh-keygen's allowed signers; git verify-commit)", completion: .file),
        parse: { value throws(UsageError) in
            guard !value.isEmpty else { throw UsageError(description: "option --allowed-signers needs a file") }
            return value
        })
    /// `--signing-key FINGERPRINT`: require commits signed by that OpenPGP key.
    static let signingKey = OptionDefinition<String>(
        info: OptionInfo(
            names: ["--signing-key"], valueName: "FINGERPRINT",
            help: "use only commits signed by this OpenPGP key of your keyring (its 40-hex fingerprint; git verify-commit)"),
        parse: { value throws(UsageError) in
            guard RegistryFetch.isFingerprint(value) else {
                throw UsageError(
                    description:
                        "option --signing-key needs an OpenPGP key's fingerprint (40 hex digits), not '\(PerchApp.visibleControls(value))'")
            }
            return value.uppercased()
        })
    /// `--set NAME=VALUE`: a value the registry asks each member for.
    static let set = OptionDefinition<(String, String)>(
        info: OptionInfo(names: ["--set"], valueName: "NAME=VALUE", help: "answer a value the registry asks for (repeatable)"),
        parse: { value throws(UsageError) in
            guard let equals = value.firstIndex(of: "="), equals != value.startIndex, value.index(after: equals) != value.endIndex else {
                throw UsageError(description: "option --set needs NAME=VALUE, not '\(PerchApp.visibleControls(value))'")
            }
            let answer = String(value[value.index(after: equals)...])
            guard answer.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
                throw UsageError(description: "option --set: a value may not hold control characters")
            }
            return (String(value[..<equals]), answer)
        })
    /// `--timeout SECONDS`: how long a fetch may take.
    static let timeout = OptionDefinition<Int>.number(
        OptionInfo(names: ["--timeout"], valueName: "SECONDS", help: "how long git may take to fetch (default 60)"), in: 1...3600,
        unit: "seconds")
    /// `--commit COMMIT` of `registry trust`.
    static let commit = OptionDefinition<String>(
        info: OptionInfo(names: ["--commit"], valueName: "COMMIT", help: "trust the code of exactly this commit (without asking)"),
        parse: { value throws(UsageError) in
            guard value.utf8.count >= 7, value.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else {
                throw UsageError(
                    description: "option --commit needs at least 7 hex digits of a commit, not '\(PerchApp.visibleControls(value))'")
            }
            return value
        })
}

extension CommandLineTool {
    var registryPaths: RegistryPaths { RegistryPaths(statePath: paths.state) }

    /// The index, or nil after saying why it cannot be read.
    func registryIndex(_ command: String) -> RegistryIndex? {
        do {
            return try RegistryStore.readIndex(registryPaths)
        } catch {
            console.error("\(command): \(shown(error.description))")
            return nil
        }
    }

    /// The definitions of every record, or nil after saying which cannot be read.
    func acceptedDefinitions(_ index: RegistryIndex, command: String) -> [String: RegistryDefinitions]? {
        var found: [String: RegistryDefinitions] = [:]
        for record in index.registries {
            do {
                found[record.name] = try RegistryStore.definitions(of: record, registryPaths)
            } catch {
                console.error(
                    "\(command): \(record.name): \(shown(error.description)); perch registry update \(record.name) fetches it again")
                return nil
            }
        }
        return found
    }

    /// Reads a fetched registry file, asking for the values it needs on a terminal; nil after
    /// saying why not (the exit status in `status`).
    func readDefinitions(
        _ fetched: RegistryFetch.Fetched, name: String, values: inout [String: String], command: String, status: inout Int32
    ) -> RegistryDefinitions? {
        while true {
            do {
                let found = try RegistryDefinitions.read(fetched.bytes, filled: values)
                // Each tool description is checked as the user's own would be (docs/tools.md).
                var problems: [String] = []
                // Bug (hostile review): a registry's `npm` replaced the shipped description, and
                // one carrying the user's own tool's variable stopped every command once trusted.
                let taken = Set(ShippedToolDescriptions.all.map(\.name)).union(
                    FileSystem.names(in: ToolDescriptions.folder()).filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) })
                for (index, tool) in found.tools.enumerated() where taken.contains(tool.name) {
                    problems.append(
                        "tools[\(index)]: \"\(tool.name)\" is a tool Perch ships or you describe; a registry may not replace it")
                }
                for (index, tool) in found.tools.enumerated() {
                    let (_, found) = ToolDescription.parse(
                        Array(tool.object.text.utf8), origin: tool.name + ".json", builtIn: ToolAdapters.builtIn.map(\.tool.rawValue))
                    problems += found.map { "tools[\(index)]: " + $0 }
                }
                if !problems.isEmpty { throw RegistryDefinitions.Problems(lines: problems) }
                return found
            } catch let missing as RegistryDefinitions.MissingValues {
                guard isatty(STDIN_FILENO) == 1 else {
                    let names = missing.values.map { "--set \($0.name)=…" }.joined(separator: " ")
                    console.error(
                        "perch \(command): registry \(name) asks each member for "
                            + missing.values.map { "\($0.name) (\(shown($0.prompt)))" }.joined(separator: ", ")
                            + "; run it again with \(names)")
                    status = ExitStatus.usage
                    return nil
                }
                for value in missing.values {
                    console.write(
                        "\(shown(name)) asks: \(shown(value.prompt))" + (value.example.map { " (e.g. \(shown($0)))" } ?? "") + ": ")
                    guard let answer = readLine(), !answer.isEmpty,
                        answer.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
                    else {
                        console.print("Nothing changed.")
                        status = ExitStatus.unmet
                        return nil
                    }
                    values[value.name] = answer
                }
            } catch let problems as RegistryDefinitions.Problems {
                for line in problems.lines {
                    console.error(
                        "\(command): registry \(name) at \(fetched.commit.prefix(7)): \(RegistryDefinitions.fileName): \(shown(line))")
                }
                console.error("Nothing changed: a registry file with problems is not used.")
                status = ExitStatus.unmet
                return nil
            } catch {
                status = ExitStatus.unmet
                return nil
            }
        }
    }

    /// Prints the changes of one registry.
    func printChanges(_ changes: [RegistryChange], record: RegistryRecord, from old: String?) {
        let place = "\(record.ref ?? "default branch") at \(record.shortCommit)"
        console.print("Registry \(record.name) (\(shown(record.url)), \(old.map { "\(String($0.prefix(7))) → " } ?? "")\(place)):")
        if changes.isEmpty { console.print("  no account changes") }
        for change in changes {
            for line in change.lines { console.print(shown(line)) }
        }
    }

    /// Makes `index` the registries (``RegistryStore/commit(_:definitions:paths:statePath:replacing:)``);
    /// false after saying why not and that `failure` (`nothing changed`).
    func commitRegistries(
        _ index: RegistryIndex, _ definitions: [String: RegistryDefinitions], replacing read: RegistryIndex, command: String,
        failure: String
    ) -> Bool {
        do {
            try RegistryStore.commit(index, definitions: definitions, paths: registryPaths, statePath: paths.state, replacing: read)
            return true
        } catch {
            console.error("\(command): \(shown(error.description)); \(failure)")
            return false
        }
    }

    /// The fields each entry of the user's `accounts.json` sets (dotted paths, by id): where
    /// the user's value wins, registries that disagree are no conflict.
    // Bug: a conflict was reported, with the advice to set the field in accounts.json, though
    // accounts.json already set it.
    func ownEntryFields() -> [String: Set<String>] {
        guard let bytes = try? FileSystem.read(paths.config), let document = try? JSONReader.read(bytes, options: .jsonWithComments),
            let list = document.value(of: document.root, forKey: "accounts")
        else { return [:] }
        var fields: [String: Set<String>] = [:]
        for element in document.elements(list) {
            guard let id = document.value(of: element, forKey: "id").flatMap(document.string) else { continue }
            fields[id, default: []].formUnion(JSONValue(document, element).leaves(prefix: "").map(\.path).filter { $0 != "id" })
        }
        return fields
    }

    /// Refuses (the exit status, after saying why) a registry account whose id is one of the
    /// user's own accounts, one no registry had before: the registry would add its fields to
    /// an account the user made. An entry the user wrote over a registry's account (its id was
    /// a registry's already) is an override, as meant. Nil when there is no such id.
    // Bug (hostile review): a registry with an account `me` gave the user's own `me` its git
    // author, kube context and remotes, shown as "+ me (new account)".
    func ownAccountCollision(
        _ ids: Set<String>, known index: RegistryIndex, definitions: [String: RegistryDefinitions], registry: String, command: String
    ) -> Int32? {
        let before = Set(index.registries.flatMap { definitions[$0.name]?.accounts.map(\.id) ?? [] })
        // An account of the user's own: its id is no registry's yet, and it has a name of its own.
        let own = ownEntryFields()
        let taken = ids.filter { !before.contains($0) && own[$0]?.contains("name") == true }.sorted()
        guard !taken.isEmpty else { return nil }
        console.error(
            "\(command): registry \(registry) has accounts with the ids of your own: " + taken.map(shown).joined(separator: ", ")
                + "; it would add its fields to them")
        console.error("Nothing changed. Rename yours (perch rename ID NEW), or ask the registry to rename its accounts.")
        return ExitStatus.unmet
    }

    /// What to say of the code of `definitions` when `record` does not trust it, or nil.
    func codeNote(_ definitions: RegistryDefinitions, record: RegistryRecord) -> String? {
        guard !record.trusts(definitions) else { return nil }
        let ids = definitions.idsWithCode
        let tools = definitions.tools.count
        let whose = [
            ids.isEmpty ? nil : "\(ids.count) account\(ids.count == 1 ? "" : "s")",
            tools == 0 ? nil : "\(tools) tool description\(tools == 1 ? "" : "s")",
        ].compactMap { $0 }.joined(separator: " and ")
        return "Code (onSwitch, catalog commands, env variables, tool descriptions) of \(whose) stays inert: "
            + "a switch leaves it out until you review it with `perch registry trust \(record.name)`."
    }

    /// Where account `id` comes from, for `perch status` and a switch: each registry that
    /// defines it, its commit, and whether its code was left out; empty when it is only the
    /// user's. Reads nothing when there is no registry.
    func registryOrigins(of id: String) -> [(record: RegistryRecord, inert: Bool)] {
        let paths = registryPaths
        guard access(paths.index, F_OK) == 0, let index = try? RegistryStore.readIndex(paths) else { return [] }
        return index.registries.compactMap { record in
            guard let found = try? RegistryStore.definitions(of: record, paths), found.accounts.contains(where: { $0.id == id }) else {
                return nil
            }
            return (record, !record.trusts(found) && found.idsWithCode.contains(id))
        }
    }

    /// The lines a switch to `id` adds when a registry's code for it was left out.
    func registryInertNotes(for id: String) -> [String] {
        registryOrigins(of: id).filter(\.inert).map { origin in
            "\(id)'s code from registry \(origin.record.name) (onSwitch, catalog commands, env variables) was left out: "
                + "not trusted at \(origin.record.shortCommit); review it with perch registry trust \(origin.record.name)"
        }
    }
}
