import Foundation
import PerchDomain
import PerchIdentities
import PerchInterface
import Testing

@testable import PerchStore

/// A config edit (set, unset, rename, remove) and the exact text it must leave.
struct TextEditCase: Sendable, CustomTestStringConvertible {
    var name: String
    var before: String
    var edit: ConfigEdit
    var after: String
    var testDescription: String { name }
}

private let commented = """
    {
      // my accounts
      "version": 1,
      "accounts": [
        {"id": "work", "name": "Work", "handle": "@w"}, // the job
        {
          "id": "home",
          "name": "Home",
          "git": {"email": "a@home.example"},
        },
      ],
    }

    """

/// `perch set`, `unset`, `rename` and `remove` (issue 20): the config writer changes only the
/// bytes of the change, keeps comments, order and trailing commas, and refuses an invalid result.
@Suite("Editing an account in the config as text")
struct ConfigEditTests {
    init() { ToolAdapters.installShipped() }  // the tools' keys (git, kube, env) are read by their adapters

    @Test(
        "each edit changes only its own bytes",
        arguments: [
            TextEditCase(
                name: "set replaces a value", before: commented, edit: .set(id: "work", path: ["name"], json: #""Job""#),
                after: commented.replacingOccurrences(of: #""name": "Work""#, with: #""name": "Job""#)),
            TextEditCase(
                name: "set adds a key to a one-line object", before: commented, edit: .set(id: "work", path: ["group"], json: #""Jobs""#),
                after: commented.replacingOccurrences(of: #""handle": "@w"}"#, with: #""handle": "@w", "group": "Jobs"}"#)),
            TextEditCase(
                name: "set adds a key on its own line, keeping the trailing comma", before: commented,
                edit: .set(id: "home", path: ["handle"], json: #""@h""#),
                after: commented.replacingOccurrences(
                    of: "\"git\": {\"email\": \"a@home.example\"},\n",
                    with: "\"git\": {\"email\": \"a@home.example\"},\n      \"handle\": \"@h\",\n")),
            TextEditCase(
                name: "set makes the objects on the way", before: commented,
                edit: .set(id: "work", path: ["kube", "context"], json: #""prod""#),
                after: commented.replacingOccurrences(of: #""handle": "@w"}"#, with: #""handle": "@w", "kube": {"context": "prod"}}"#)),
            TextEditCase(
                name: "set goes into an object that is there", before: commented,
                edit: .set(id: "home", path: ["git", "name"], json: #""Ada""#),
                after: commented.replacingOccurrences(
                    of: #"{"email": "a@home.example"}"#, with: #"{"email": "a@home.example", "name": "Ada"}"#)),
            TextEditCase(
                name: "unset removes a key and its comma", before: commented, edit: .unset(id: "work", path: ["handle"]),
                after: commented.replacingOccurrences(of: #""name": "Work", "handle": "@w"}"#, with: #""name": "Work"}"#)),
            TextEditCase(
                name: "unset takes an object it leaves empty along, and its line", before: commented,
                edit: .unset(id: "home", path: ["git", "email"]),
                after: commented.replacingOccurrences(of: "      \"git\": {\"email\": \"a@home.example\"},\n", with: "")),
            TextEditCase(
                name: "rename changes the id only", before: commented, edit: .rename(from: "home", to: "house"),
                after: commented.replacingOccurrences(of: #""id": "home""#, with: #""id": "house""#)),
            TextEditCase(
                name: "remove takes the account's lines and keeps the comment of the one before", before: commented,
                edit: .remove(id: "home"),
                after: commented.replacingOccurrences(
                    of:
                        "    {\n      \"id\": \"home\",\n      \"name\": \"Home\",\n      \"git\": {\"email\": \"a@home.example\"},\n    },\n",
                    with: "")),
            TextEditCase(
                name: "remove of the first account on one line",
                before: #"{"accounts": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]}"#,
                edit: .remove(id: "a"), after: #"{"accounts": [{"id": "b", "name": "B"}]}"#),
            TextEditCase(
                name: "remove of the last account on one line",
                before: #"{"accounts": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]}"#,
                edit: .remove(id: "b"), after: #"{"accounts": [{"id": "a", "name": "A"}]}"#),
        ])
    func edits(_ c: TextEditCase) throws {
        try withTemporaryFolder { folder in
            let path = folder + "/accounts.json"
            try FileSystem.writeAtomically(Array(c.before.utf8), to: path, mode: 0o640)
            let outcome = try ConfigWriter.apply(c.edit, to: path)
            #expect(try String(decoding: FileSystem.read(path), as: UTF8.self) == c.after)
            #expect(outcome.backupPath == path + ".bak")
            #expect(try FileSystem.read(path + ".bak") == Array(c.before.utf8), "the .bak is the file before")
            #expect(try FileSystem.readContents(path).mode == 0o640, "the config keeps its mode")
        }
    }

    @Test(
        "a change that would leave an invalid config is refused with the reason, and nothing is written",
        arguments: [
            (ConfigEdit.set(id: "home", path: ["git", "email"], json: #""no-at-sign""#), #"accounts[1].git.email: "no-at-sign" has no @"#),
            (.set(id: "work", path: ["color"], json: #""pink""#), #"accounts[0].color: "pink" is not one of"#),
            (.set(id: "work", path: ["gti", "email"], json: #""a@b""#), #"accounts[0].gti: unknown key (did you mean "git"?)"#),
            (.set(id: "work", path: ["env", "AWS_PROFILE"], json: #""x""#), "accounts[0].env.AWS_PROFILE: Perch sets AWS_PROFILE itself"),
            (.set(id: "work", path: ["handle"], json: #""   ""#), "accounts[0].handle: must not be only spaces"),
            (.unset(id: "work", path: ["name"]), "accounts[0].name: missing (required)"),
            (.rename(from: "work", to: "-rf"), #"accounts[0].id: "-rf" must not begin with '-'"#),
        ])
    func refused(_ edit: ConfigEdit, _ reason: String) throws {
        try withTemporaryFolder { folder in
            let path = folder + "/accounts.json"
            try FileSystem.writeAtomically(Array(commented.utf8), to: path)
            do throws(ConfigWriteError) {
                _ = try ConfigWriter.apply(edit, to: path)
                Issue.record("accepted")
            } catch {
                guard case .refused(let config) = error else {
                    Issue.record("expected .refused, got \(error)")
                    return
                }
                #expect(config.lines.contains { $0.contains(reason) }, "\(config.lines)")
            }
            #expect(try FileSystem.read(path) == Array(commented.utf8), "nothing written")
            #expect(access(path + ".bak", F_OK) != 0, "no .bak left")
        }
    }

    @Test("an account or key that is not there, and a rename onto a used id, are reported")
    func missing() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/accounts.json"
            try FileSystem.writeAtomically(Array(commented.utf8), to: path)
            #expect(throws: ConfigWriteError.noAccount(id: "nope", path: path)) { try ConfigWriter.apply(.remove(id: "nope"), to: path) }
            #expect(throws: ConfigWriteError.noKey(path: "kube.context", account: "work", config: path)) {
                try ConfigWriter.apply(.unset(id: "work", path: ["kube", "context"]), to: path)
            }
            #expect(throws: ConfigWriteError.duplicate(id: "work", path: path)) {
                try ConfigWriter.apply(.rename(from: "home", to: "work"), to: path)
            }
        }
    }

    @Test("with no config yet, an edit writes the sample accounts with the change")
    func noConfig() throws {
        try withTemporaryFolder { folder in
            let path = folder + "/perch/accounts.json"
            let outcome = try ConfigWriter.apply(.set(id: "work", path: ["git", "email"], json: #""ada@work.example""#), to: path)
            #expect(outcome.backupPath == nil)
            #expect(outcome.accounts.map(\.id) == Account.samples.map(\.id))
            #expect(AccountFields.value(of: outcome.accounts[0], at: "git.email") == .string("ada@work.example"))
        }
    }
}

/// What the state keeps about an account follows a rename and forgets a removed one (issue 20).
@Suite("Renaming and forgetting an account in the state")
struct StateAccountChangeTests {
    @Test("a rename carries the current account, counts, panes and every history entry")
    func rename() throws {
        try withTemporaryFolder { folder in
            let store = StateStore(path: folder + "/state.json")
            _ = try store.recordSwitch(to: "work", source: .cli)
            _ = try store.recordSwitch(to: "home", source: .cli)
            _ = try store.recordSwitch(to: "work", source: .cli)
            try store.savePanes(["work": AccountPanes(), "home": AccountPanes()])
            let change = try store.renameAccount(from: "work", to: "job")
            #expect(change == StateStore.AccountChange(wasCurrent: true, historyEntries: 3))
            let state = try store.peek().state
            #expect(state.currentAccount == "job")
            #expect(state.switchesPerAccount == ["job": 2, "home": 1])
            #expect(state.panes.map { Set($0.keys) } == ["job", "home"])
            let history = try store.history.read()
            #expect(history.map(\.account) == ["job", "home", "job"])
            #expect(history.map(\.previous) == [nil, "job", "home"])
        }
    }

    // Bug (issue 20): pane state was kept for removed accounts.
    @Test("a removed account's pane state and count go, the history stays, and it is no longer current")
    func forget() throws {
        try withTemporaryFolder { folder in
            let store = StateStore(path: folder + "/state.json")
            _ = try store.recordSwitch(to: "home", source: .cli)
            _ = try store.recordSwitch(to: "work", source: .cli)
            try store.savePanes(["work": AccountPanes(), "home": AccountPanes()])
            let change = try store.forgetAccount("work")
            #expect(change == StateStore.AccountChange(wasCurrent: true, historyEntries: 1))
            let state = try store.peek().state
            #expect(state.currentAccount == nil)
            #expect(state.switchesPerAccount == ["home": 1])
            #expect(state.panes.map { Set($0.keys) } == ["home"])
            #expect(try store.history.read().count == 2, "the history is kept")
        }
    }
}
