import Foundation
import PerchDomain
import PerchInterface
import Testing

@testable import PerchStore

/// A registry's file read, filled, diffed and layered: everything below the git fetch.
@Suite("Registries: definitions, diff, conflicts, trust and the user's overrides")
struct RegistryTests {
    func definitions(_ text: String, values: [String: String] = [:]) throws -> RegistryDefinitions {
        try RegistryDefinitions.read(Array(text.utf8), filled: values)
    }

    @Test("a template is filled with the member's value; a value not given is asked for, by name")
    func templates() throws {
        let text = #"""
            {"version": 1, // comments, as in accounts.json
             "values": {"email": {"prompt": "Your email at Acme", "example": "ada@acme.example"}},
             "accounts": [{"id": "acme", "name": "Acme", "handle": "${email}", "group": "literal $${email}"}]}
            """#
        let filled = try definitions(text, values: ["email": "ada@acme.example"])
        #expect(filled.accounts.map(\.id) == ["acme"])
        #expect(filled.accounts[0].object.leaves(prefix: "").contains { $0.path == "handle" && $0.value == .string("ada@acme.example") })
        #expect(filled.accounts[0].object.leaves(prefix: "").contains { $0.path == "group" && $0.value == .string("literal ${email}") })
        #expect(filled.values == [.init(name: "email", prompt: "Your email at Acme", example: "ada@acme.example")])
        #expect(throws: RegistryDefinitions.MissingValues(values: filled.values)) { try definitions(text) }
    }

    @Test("a member's value is never pasted into code: a template in onSwitch or a code-bearing env is refused")
    func noTemplateInCode() throws {
        let text = #"""
            {"values": {"email": "Your email"},
             "accounts": [{"id": "a", "name": "A", "onSwitch": "echo ${email}"}]}
            """#
        let error = try #require(throws: RegistryDefinitions.Problems.self) { try definitions(text, values: ["email": "x; rm -rf ~"]) }
        #expect(error.lines.contains { $0.hasPrefix("accounts[0].onSwitch: a ${…} value cannot be used in code") })
    }

    @Test("an undeclared ${name}, a bad account and an unknown top-level key are each reported with their JSON path")
    func problems() throws {
        let error = try #require(throws: RegistryDefinitions.Problems.self) {
            try definitions(#"{"acounts": [], "accounts": [{"id": "a", "name": "${who}"}, {"id": "B!", "name": "b"}]}"#)
        }
        #expect(error.lines.contains { $0.contains("acounts: unknown key") && $0.contains("did you mean \"accounts\"") })
        #expect(error.lines.contains("accounts[0].name: ${who} is not in values"))
        let invalid = try #require(throws: RegistryDefinitions.Problems.self) {
            try definitions(#"{"accounts": [{"id": "B!", "name": "b"}]}"#)
        }
        #expect(invalid.lines.contains { $0.hasPrefix("accounts[0].id:") }, "\(invalid.lines)")
    }

    // Bug (hostile review): `MAILPATH`, missing from the list of variables a shell acts on,
    // ran `$(…)` from an untrusted registry at the next prompt. From a registry, every variable needs trust.
    @Test("code: onSwitch, catalog and every env variable of a registry are code; without code they are gone")
    func code() throws {
        let found = try definitions(
            #"""
            {"accounts": [
              {"id": "a", "name": "A", "onSwitch": "make", "env": {"MAILPATH": "/tmp/m?$(touch x)", "PROMPT_COMMAND": "curl x"}},
              {"id": "b", "name": "B", "kube": {"context": "prod"}}]}
            """#)
        #expect(found.idsWithCode == ["a"])
        #expect(found.codeText == #"[["a", {"onSwitch": "make", "env": {"MAILPATH": "/tmp/m?$(touch x)", "PROMPT_COMMAND": "curl x"}}]]"#)
        #expect(
            found.codeLines == [#"a: onSwitch = "make""#, #"a: env.MAILPATH = "/tmp/m?$(touch x)""#, #"a: env.PROMPT_COMMAND = "curl x""#])
        let inert = RegistryDefinitions.withoutCode(found.accounts[0].object)
        #expect(inert == .object([("id", .string("a")), ("name", .string("A"))]))
        #expect(EnvironmentEntry.isCodeBearingName("MAILPATH"), "a config others can write may not set it either")
        // Bug (second hostile review): a described tool's setting pointed npm at a config that runs scripts.
        let described = try definitions(
            #"{"accounts": [{"id": "n", "name": "N", "npm": {"userconfig": "~/evil-npmrc"}, "kube": {"context": "p"}}]}"#)
        #expect(described.idsWithCode == ["n"])
        #expect(
            RegistryDefinitions.withoutCode(described.accounts[0].object).leaves(prefix: "").map(\.path) == ["id", "name", "kube.context"])
        let long = try #require(throws: RegistryDefinitions.Problems.self) {
            try definitions("{\"accounts\": [{\"id\": \"\(String(repeating: "a", count: 65))\", \"name\": \"L\"}]}")
        }
        #expect(long.lines == ["accounts[0].id: longer than 64 characters"])
        var record = RegistryRecord(name: "acme", url: "u", ref: nil, path: nil, commit: "c", fetched: 0, values: [:])
        #expect(!record.trusts(found))
        record.trustedCode = found.codeText
        #expect(record.trusts(found))
        #expect(record.trusts(try definitions(#"{"accounts": [{"id": "b", "name": "B"}]}"#)), "no code needs no trust")
        let control = try #require(throws: RegistryDefinitions.Problems.self) {
            try definitions(#"{"accounts": [{"id": "c", "name": "C", "env": {"TEAM": "a\u001b]0;x\u0007"}}]}"#)
        }
        #expect(control.lines == ["accounts[0].env.TEAM: holds a control character (an escape, a line break, a tab)"])
    }

    @Test("tool descriptions are code: in the trusted text, in the diff, and written for start-up only once trusted")
    func tools() throws {
        let text = #"{"tools": [{"version": 1, "tool": "acme", "program": "acmectl"}], "accounts": [{"id": "a", "name": "A"}]}"#
        let found = try definitions(text)
        #expect(found.tools.map(\.name) == ["acme"])
        #expect(found.codeText.contains(#"["tool", {"version": 1, "tool": "acme", "program": "acmectl"}]"#))
        #expect(found.codeLines == [#"tool acme: version = 1"#, #"tool acme: program = "acmectl""#])
        let changes = RegistryDefinitions.changes(from: nil, to: found)
        #expect(changes.map(\.id) == ["a", "tool acme"])
        #expect(changes[1].touchesCode && changes[1].lines[0] == "  + tool acme (new tool description)  [code: inert until trusted]")
        try withTemporaryFolder { folder in
            let (_, untrusted) = try committed(text, in: folder + "/u")
            #expect(RegistryStore.trustedToolsFolder(statePath: untrusted) == nil)
            let (_, trusted) = try committed(text, in: folder + "/t", trusted: true)
            let tools = try #require(RegistryStore.trustedToolsFolder(statePath: trusted))
            #expect(try String(contentsOfFile: tools + "/acme.json", encoding: .utf8).contains(#""program": "acmectl""#))
        }
        let other = try definitions(#"{"tools": [{"version": 1, "tool": "acme", "program": "other"}], "accounts": []}"#)
        #expect(RegistryStore.conflicts([("company", found), ("team", other)]).map(\.field) == ["tool acme"])
    }

    @Test("the diff names each account and field: changed, added, removed, and code as code")
    func escapedDiff() throws {
        let old = try definitions(#"{"accounts": [{"id": "a", "name": "A"}, {"id": "gone", "name": "G"}]}"#)
        let new = try definitions(
            #"{"accounts": [{"id": "a", "name": "A", "onSwitch": "echo \"hi\"", "handle": "@a"}, {"id": "c", "name": "C"}]}"#)
        let changes = RegistryDefinitions.changes(from: old, to: new)
        #expect(changes.map(\.id) == ["a", "c", "gone"])
        #expect(changes.map(\.kind) == [.changed, .added, .removed])
        let lines = changes.flatMap(\.lines)
        #expect(lines.contains(#"      + onSwitch: "echo \"hi\"""#), "\(lines)")
        #expect(changes[0].touchesCode)
        #expect(lines.contains(#"      + handle: "@a""#))
        #expect(lines.contains("  - gone (removed)"))
        #expect(RegistryDefinitions.changes(from: new, to: new).isEmpty)
    }

    @Test("two registries that set one field differently conflict, named both; equal values and other fields join")
    func conflicts() throws {
        let company = try definitions(#"{"accounts": [{"id": "web", "name": "Web", "handle": "@web", "color": "blue"}]}"#)
        let team = try definitions(#"{"accounts": [{"id": "web", "name": "Web", "handle": "@team"}]}"#)
        let agreeing = try definitions(#"{"accounts": [{"id": "web", "name": "Web", "group": "other"}]}"#)
        let found = RegistryStore.conflicts([("company", company), ("team", team)])
        #expect(found.map(\.description) == [#"account web, field handle: registry company says "@web", registry team says "@team""#])
        #expect(RegistryStore.conflicts([("company", company), ("other", agreeing)]).isEmpty)
        // Bug: where the user's accounts.json sets the field, the user's value wins: no conflict
        // (the advice to set it there was given though it was set).
        #expect(RegistryStore.conflicts([("company", company), ("team", team)], overridden: ["web": ["handle"]]).isEmpty)
        #expect(RegistryStore.conflicts([("company", company), ("team", team)], overridden: ["web": ["color"]]).count == 1)
    }

    @Test("JSON Merge Patch (RFC 7396): objects merge member by member, null removes, anything else replaces")
    func mergePatch() {
        let target = JSONValue.object([("a", .string("b")), ("c", .object([("d", .string("e")), ("f", .string("g"))]))])
        let patch = JSONValue.object([("a", .string("z")), ("c", .object([("f", .null)])), ("n", .array([.number(1)]))])
        #expect(
            target.merging(patch)
                == .object([("a", .string("z")), ("c", .object([("d", .string("e"))])), ("n", .array([.number(1)]))]))
        #expect(target.merging(.string("x")) == .string("x"))
    }

    /// A state file in `folder` with registry `acme` committed holding `registry`.
    func committed(_ registry: String, in folder: String, trusted: Bool = false) throws -> (RegistryPaths, String) {
        let state = folder + "/state.json"
        let paths = RegistryPaths(statePath: state)
        let found = try definitions(registry)
        var index = RegistryIndex()
        var record = RegistryRecord(
            name: "acme", url: "file:///x", ref: nil, path: nil, commit: String(repeating: "a", count: 40), fetched: 0, values: [:])
        if trusted { record.trustedCode = found.codeText }
        index.registries = [record]
        try RegistryStore.commit(index, definitions: ["acme": found], paths: paths, statePath: state)
        return (paths, state)
    }

    @Test("the user's accounts.json wins field by field over a registry's account, naming only what it overrides")
    func override() throws {
        try withTemporaryFolder { folder in
            let (_, state) = try committed(#"{"accounts": [{"id": "web", "name": "Web", "handle": "@web", "color": "blue"}]}"#, in: folder)
            let config = folder + "/accounts.json"
            try #"{"accounts": [{"id": "me", "name": "Me"}, {"id": "web", "handle": "@mine", "color": null}]}"#.write(
                toFile: config, atomically: true, encoding: .utf8)
            let loaded = try ConfigLoader.load(PerchPaths(config: config, state: state))
            #expect(loaded.accounts.map(\.id) == ["me", "web"])
            #expect(loaded.accounts[1].handle == "@mine")
            #expect(loaded.accounts[1].color == nil)
            #expect(loaded.accounts[1].name == "Web")
            #expect(loaded.accounts[1].group == "acme", "a registry's accounts are listed under its name")
            // An override that makes the account invalid is the user's config's problem, with its place.
            try #"{"accounts": [{"id": "web", "name": ""}]}"#.write(toFile: config, atomically: true, encoding: .utf8)
            let error = try #require(throws: ConfigError.self) { try ConfigLoader.load(PerchPaths(config: config, state: state)) }
            #expect(error.lines.contains { $0.contains(#"accounts[0] (over the registry's account "web"): name:"#) }, "\(error.lines)")
        }
    }

    // Bug: with an override of a registry account in accounts.json (no name), every edit
    // (perch set, bind, add, config edit) failed with "accounts[1].name: missing (required)".
    @Test("the config writer reads an override as an override: an edit beside one, and of one, is written")
    func writerKeepsOverrides() throws {
        try withTemporaryFolder { folder in
            let (_, state) = try committed(#"{"accounts": [{"id": "web", "name": "Web", "handle": "@web"}]}"#, in: folder)
            let config = folder + "/accounts.json"
            try #"{"accounts": [{"id": "me", "name": "Me"}, {"id": "web", "handle": "@mine"}]}"#.write(
                toFile: config, atomically: true, encoding: .utf8)
            #expect(throws: ConfigWriteError.self) { try ConfigWriter.apply(.set(id: "me", path: ["handle"], json: #""@me""#), to: config) }
            try ConfigLayering.$statePath.withValue(state) {
                _ = try ConfigWriter.apply(.set(id: "me", path: ["handle"], json: #""@me""#), to: config)
                _ = try ConfigWriter.apply(.set(id: "web", path: ["color"], json: #""green""#), to: config)
                _ = try ConfigWriter.append(Account(id: "new", name: "New"), to: config, samples: [])
            }
            let loaded = try ConfigLoader.load(PerchPaths(config: config, state: state))
            #expect(loaded.accounts.map(\.id) == ["me", "new", "web"])
            #expect(loaded.accounts[0].handle == "@me")
            #expect(loaded.accounts[2].handle == "@mine" && loaded.accounts[2].color == .green && loaded.accounts[2].name == "Web")
        }
    }

    // Bug (second hostile review): a registry's account bound the user's own `~/work`.
    @Test("a folder or remote bound by an account of the user's own stays theirs: the registry's binding is left out, with a warning")
    func ownBindingsWin() throws {
        try withTemporaryFolder { folder in
            let (_, state) = try committed(
                #"{"accounts": [{"id": "web", "name": "Web", "directories": ["/srv/work", "/srv/web"], "remotes": ["github.com/acme/**"]}]}"#,
                in: folder)
            let config = folder + "/accounts.json"
            try #"{"accounts": [{"id": "me", "name": "Me", "directories": ["/srv/work"], "remotes": ["github.com/acme/**"]}]}"#.write(
                toFile: config, atomically: true, encoding: .utf8)
            let loaded = try ConfigLoader.load(PerchPaths(config: config, state: state))
            let web = try #require(loaded.accounts.first { $0.id == "web" })
            #expect(web.identities.directories == ["/srv/web"] && web.identities.remotes.isEmpty)
            #expect(loaded.warnings.contains("registry account web: /srv/work is bound by an account of your own, which keeps it"))
            #expect(loaded.warnings.contains("registry account web: github.com/acme/** is bound by an account of your own, which keeps it"))
        }
    }

    @Test("an override in a config others can write may set a plain variable, never a command")
    func overrideTrust() throws {
        try withTemporaryFolder { folder in
            let (_, state) = try committed(#"{"accounts": [{"id": "web", "name": "Web"}]}"#, in: folder)
            let config = folder + "/accounts.json"
            try #"{"accounts": [{"id": "web", "env": {"TEAM": "web"}}]}"#.write(toFile: config, atomically: true, encoding: .utf8)
            chmod(config, 0o664)
            #expect(try ConfigLoader.load(PerchPaths(config: config, state: state)).accounts.map(\.id) == ["web"])
            try #"{"accounts": [{"id": "web", "env": {"PROMPT_COMMAND": "curl x"}}]}"#.write(
                toFile: config, atomically: true, encoding: .utf8)
            chmod(config, 0o664)
            #expect(throws: ConfigError.unsafePermissions(path: config, mode: try FileSystem.readContents(config).mode)) {
                try ConfigLoader.load(PerchPaths(config: config, state: state))
            }
        }
    }

    @Test("untrusted code never reaches the accounts Perch uses; trusted code does")
    func inertUntilTrusted() throws {
        try withTemporaryFolder { folder in
            let registry = #"{"accounts": [{"id": "web", "name": "Web", "onSwitch": "touch /tmp/never"}]}"#
            let (_, state) = try committed(registry, in: folder)
            let loaded = try ConfigLoader.load(
                PerchPaths(config: nil, state: state, lookup: { $0 == "XDG_CONFIG_HOME" ? folder + "/cfg" : nil }))
            #expect(loaded.fromRegistries)
            #expect(loaded.accounts.map(\.id) == ["web"])
            #expect(loaded.accounts[0].onSwitch == nil)
            let (_, trustedState) = try committed(registry, in: folder + "/t", trusted: true)
            let trusted = try ConfigLoader.load(
                PerchPaths(config: nil, state: trustedState, lookup: { $0 == "XDG_CONFIG_HOME" ? folder + "/cfg" : nil }))
            #expect(trusted.accounts[0].onSwitch == "touch /tmp/never")
        }
    }

    @Test("a commit replaces the index in one rename: the files the old index named stay until then, and go after")
    func commitIsOneStep() throws {
        try withTemporaryFolder { folder in
            let (paths, state) = try committed(#"{"accounts": [{"id": "web", "name": "Web"}]}"#, in: folder)
            let first = try RegistryStore.readIndex(paths)
            let firstAccounts = try #require(first.accounts)
            var index = first
            index.registries[0].commit = String(repeating: "b", count: 40)
            let next = try definitions(#"{"accounts": [{"id": "web", "name": "Web 2"}]}"#)
            try RegistryStore.commit(index, definitions: ["acme": next], paths: paths, statePath: state)
            let second = try RegistryStore.readIndex(paths)
            #expect(second.accounts != firstAccounts)
            #expect(!FileManager.default.fileExists(atPath: paths.folder + "/" + firstAccounts))
            #expect(!FileManager.default.fileExists(atPath: paths.definitions(first.registries[0])))
            #expect(FileManager.default.fileExists(atPath: paths.definitions(second.registries[0])))
            #expect(RegistryStore.effective(statePath: state)?.accounts.map(\.name) == ["Web 2"])
            // What a killed write left is removed by the next commit.
            try "x".write(toFile: paths.folder + "/.acme-x.json.tmp-AbC123", atomically: false, encoding: .utf8)
            try RegistryStore.commit(second, definitions: ["acme": next], paths: paths, statePath: state)
            #expect(!FileManager.default.fileExists(atPath: paths.folder + "/.acme-x.json.tmp-AbC123"))
            // Removing the last registry leaves no accounts file and no repository behind.
            try FileManager.default.createDirectory(atPath: paths.repository("acme"), withIntermediateDirectories: true)
            try RegistryStore.commit(RegistryIndex(), definitions: [:], paths: paths, statePath: state)
            #expect(RegistryStore.effective(statePath: state) == nil)
            #expect(!FileManager.default.fileExists(atPath: paths.repository("acme")))
        }
    }

    // Bug (hostile review): two registry commands at once each wrote the index they had read: one's change was lost.
    @Test("a commit made from an index another command has replaced since is refused, and changes nothing")
    func staleIndex() throws {
        try withTemporaryFolder { folder in
            let (paths, state) = try committed(#"{"accounts": [{"id": "web", "name": "Web"}]}"#, in: folder)
            let read = try RegistryStore.readIndex(paths)
            let found = try definitions(#"{"accounts": [{"id": "web", "name": "Web"}]}"#)
            var other = read
            other.registries[0].fetched = 7
            try RegistryStore.commit(other, definitions: ["acme": found], paths: paths, statePath: state, replacing: read)
            let bytes = try FileSystem.read(paths.index)
            var mine = read
            mine.registries[0].trustedCode = "x"
            #expect(throws: RegistryFileError.self) {
                try RegistryStore.commit(mine, definitions: ["acme": found], paths: paths, statePath: state, replacing: read)
            }
            #expect(try FileSystem.read(paths.index) == bytes)
        }
    }

    @Test("the current-account cache is keyed by the registries' index: an update makes an entry stale")
    func cacheKey() throws {
        try withTemporaryFolder { folder in
            let (paths, state) = try committed(#"{"accounts": [{"id": "web", "name": "Web"}]}"#, in: folder)
            let config = folder + "/accounts.json"
            try #"{"accounts": [{"id": "me", "name": "Me"}]}"#.write(toFile: config, atomically: true, encoding: .utf8)
            try "{}".write(toFile: state, atomically: true, encoding: .utf8)
            let cache = CurrentAccountCache(statePath: state)
            let later = CurrentAccountCache.realTimeNanoseconds() + 10_000_000_000
            cache.store(
                Account(id: "web", name: "Web"), configPath: config, config: .of(config), statePath: state, state: .of(state), now: later)
            #expect(cache.account(configPath: config, statePath: state)?.id == "web")
            var index = try RegistryStore.readIndex(paths)
            index.registries[0].fetched = 1
            try RegistryStore.commit(
                index, definitions: ["acme": try definitions(#"{"accounts": [{"id": "web", "name": "Web"}]}"#)], paths: paths,
                statePath: state)
            #expect(cache.account(configPath: config, statePath: state) == nil)
        }
    }

    @Test("a registry's name is an account id's characters, not starting with - or .")
    func names() {
        #expect(RegistryRecord.isValidName("acme-team"))
        for bad in ["", "-x", ".x", "A", "a/b", "a b", "tools-a", "accounts-1"] { #expect(!RegistryRecord.isValidName(bad), "\(bad)") }
    }
}
