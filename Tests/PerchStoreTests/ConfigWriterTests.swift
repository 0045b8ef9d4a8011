import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
import Testing

@testable import PerchStore

/// ConfigLoader's verdict on one account with this id and name: nil when it loads, else the
/// message after the JSON path.
private func loaderVerdict(id: String, name: String) -> [String] {
    let json = "{\"accounts\": [{\"id\": \(ConfigWriter.json(id)), \"name\": \(ConfigWriter.json(name))}]}"
    do {
        _ = try ConfigLoader.parse(Array(json.utf8), path: "c")
        return []
    } catch {
        return error.lines
    }
}

@Suite("Adding an account to the config")
struct ConfigWriterTests {
    @Test(
        "the loader and the form reach the same verdict with the same words",
        arguments: [
            ("work", "Work"), ("", "Work"), ("Work", "Work"), ("a b", "Work"), ("a.b_c-9", "Work"), ("ok", ""), ("ok", "  "),
            ("ok", "\u{200B}"), ("ok", "Ünïcode"), ("é", "x"), ("-rf", "x"), ("--help", "x"),
        ])
    func sharedVerdict(_ id: String, _ name: String) {
        let loader = loaderVerdict(id: id, name: name)
        let form = AccountValidation.problems(id: id, name: name, existingIDs: [])
        #expect(loader.isEmpty == form.isEmpty)
        for (field, problem) in form {
            let column = field == .id ? 22 : 32 + ConfigWriter.json(id).count
            #expect(loader.contains("config c: line 1, column \(column): accounts[0].\(field.rawValue): \(problem.message)"), "\(loader)")
        }
        #expect(loader.count == form.count)
    }

    @Test("bug: an account's directories and remotes were left out when it was written (perch import --scan --write lost them)")
    func writesBindings() throws {
        let account = Account(
            id: "w", name: "W",
            identities: ToolIdentities(directories: ["~/src/one"], remotes: ["github.com/acme/site", "github.com/a\"b/*"]))
        let json = ConfigWriter.json(account)
        #expect(
            json == #"{"id": "w", "name": "W", "directories": ["~/src/one"], "remotes": ["github.com/acme/site", "github.com/a\"b/*"]}"#)
        let parsed = try ConfigLoader.parse(Array("{\"accounts\": [\(json)]}".utf8), path: "c", reportUnknownKeys: true)
        #expect(parsed.accounts == [account])
    }

    @Test("several edits and new accounts are made in one write, with one .bak of the file before them all")
    func editsInOneWrite() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/accounts.json"
        let original = "// mine\n{\"accounts\": [\n  {\"id\": \"a\", \"name\": \"A\"} // kept\n]}\n"
        try FileSystem.writeAtomically(Array(original.utf8), to: path, mode: 0o600)
        let outcome = try ConfigWriter.apply(
            [.set(id: "a", path: ["handle"], json: "\"@a\""), .set(id: "a", path: ["remotes"], json: "[\"github.com/a/b\"]")],
            appending: [Account(id: "n", name: "N")], to: path)
        #expect(outcome.accounts.map(\.id) == ["a", "n"])
        #expect(outcome.accounts[0].identities.remotes == ["github.com/a/b"])
        #expect(try FileSystem.read(path + ".bak") == Array(original.utf8))
        let text = String(decoding: try FileSystem.read(path), as: UTF8.self)
        #expect(text.hasPrefix("// mine\n") && text.contains("// kept"), "\(text)")
        #expect(throws: ConfigWriteError.self) { try ConfigWriter.apply([], appending: [Account(id: "a", name: "again")], to: path) }
    }

    @Test("appends to the file as text, keeps a .bak of the previous bytes and the file's mode")
    func appends() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/accounts.json"
        let original =
            "{\n  \"version\": 1,\n  \"x-note\": \"kept\",\n  \"accounts\": [\n    {\"id\": \"a\", \"name\": \"A\"},\n    {\n      \"id\": \"b\", \"name\": \"B ]\"\n    }\n  ]\n}\n"
        try FileSystem.writeAtomically(Array(original.utf8), to: path, mode: 0o640)
        let outcome = try ConfigWriter.append(Account(id: "c", name: "C \"q\"", handle: "@c"), to: path)
        let text = String(decoding: try FileSystem.read(path), as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"version\": 1,\n  \"x-note\": \"kept\",\n"))
        // Laid out over lines as the last account is (issue 33), its members one a line.
        #expect(
            text.contains(
                "    },\n    {\n      \"id\": \"c\",\n      \"name\": \"C \\\"q\\\"\",\n      \"handle\": \"@c\"\n    }\n  ]\n}\n"),
            "\(text)")
        #expect(outcome.accounts.map(\.id) == ["a", "b", "c"])
        #expect(try FileSystem.read(path + ".bak") == Array(original.utf8))
        #expect(try FileSystem.readContents(path).mode == 0o640)
        #expect(try FileSystem.readContents(path + ".bak").mode == 0o640)
        #expect(try ConfigLoader.parse(FileSystem.read(path), path: path).accounts.last?.name == "C \"q\"")
    }

    @Test(
        "comments stay where they are; a trailing comma and a comment after the last account are kept",
        arguments: [
            // (config, what it must become)
            (
                "{\n  // mine\n  \"accounts\": [\n    {\"id\": \"a\", \"name\": \"A\"} // first\n  ]\n}\n",
                "{\n  // mine\n  \"accounts\": [\n    {\"id\": \"a\", \"name\": \"A\"}, // first\n    {\"id\": \"n\", \"name\": \"N\"}\n  ]\n}\n"
            ),
            (
                "{\"accounts\": [\n  {\"id\": \"a\", \"name\": \"A\"}, /* first */\n],}\n",
                "{\"accounts\": [\n  {\"id\": \"a\", \"name\": \"A\"}, /* first */\n  {\"id\": \"n\", \"name\": \"N\"},\n],}\n"
            ),
            (
                "{\"accounts\": [\r\n  {\"id\": \"a\", \"name\": \"A\"}\r\n]}\r\n",
                "{\"accounts\": [\r\n  {\"id\": \"a\", \"name\": \"A\"},\r\n  {\"id\": \"n\", \"name\": \"N\"}\r\n]}\r\n"
            ),
            (
                "{\"accounts\": [{\"id\": \"a\", \"name\": \"A\"} /* x */], \"z\": [1]}",
                "{\"accounts\": [{\"id\": \"a\", \"name\": \"A\"}, {\"id\": \"n\", \"name\": \"N\"} /* x */], \"z\": [1]}"
            ),
            (
                "{\"accounts\": [\n  {\"id\": \"a\", \"name\": \"A\"} /* runs on\n  */\n]}",
                "{\"accounts\": [\n  {\"id\": \"a\", \"name\": \"A\"},\n  {\"id\": \"n\", \"name\": \"N\"} /* runs on\n  */\n]}"
            ),
            ("{\"accounts\": [ /* none yet */ ]}", "{\"accounts\": [{\"id\": \"n\", \"name\": \"N\"} /* none yet */ ]}"),
            // A comment between the last account and its trailing comma stays before the comma.
            (
                "{\"accounts\": [\n  {\"id\": \"a\", \"name\": \"A\"} /* a */ ,\n]}",
                "{\"accounts\": [\n  {\"id\": \"a\", \"name\": \"A\"} /* a */ ,\n  {\"id\": \"n\", \"name\": \"N\"},\n]}"
            ),
        ])
    func keepsComments(_ c: (String, String)) throws {
        let result = try #require(ConfigWriter.inserting(Account(id: "n", name: "N"), into: Array(c.0.utf8)))
        #expect(String(decoding: result, as: UTF8.self) == c.1)
    }

    @Test("without a config file, a new one holds the sample accounts and the new one")
    func newFile() throws {
        ToolAdapters.installShipped()  // the samples' env identity is read by its adapter
        let folder = try TemporaryFolder()
        let path = folder.path + "/perch/accounts.json"
        let outcome = try ConfigWriter.append(Account(id: "new", name: "New"), to: path)
        #expect(outcome.backupPath == nil)
        let parsed = try ConfigLoader.parse(FileSystem.read(path), path: path)
        #expect(
            parsed.accounts == Account.samples.map { sample in
                var written = sample
                written.catalog = nil  // the sample entries are not written: the file's accounts list their config fields
                return written
            } + [Account(id: "new", name: "New")])
        #expect(try FileSystem.readContents(path).mode == 0o600)
        // Bug: the accounts handed back were the samples in memory, with their embedded Catalog
        // entries, so the interface listed those until a restart.
        #expect(outcome.accounts == parsed.accounts, "what is handed back is what the file holds")
        #expect(outcome.accounts.allSatisfy { $0.catalog?.samples != true })
    }

    @Test("a failure leaves the file untouched: a duplicate id, a broken file, a read-only folder")
    func failures() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/accounts.json"
        let original = Array("{\"accounts\": [{\"id\": \"a\", \"name\": \"A\"}]}".utf8)
        try FileSystem.writeAtomically(original, to: path)
        #expect(throws: ConfigWriteError.duplicate(id: "a", path: path)) { try ConfigWriter.append(Account(id: "a", name: "X"), to: path) }
        #expect(try FileSystem.read(path) == original)
        let broken = folder.path + "/broken.json"
        try FileSystem.writeAtomically(Array("{\"accounts\": [".utf8), to: broken)
        #expect(throws: ConfigWriteError.self) { try ConfigWriter.append(Account(id: "b", name: "B"), to: broken) }
        #expect(try FileSystem.read(broken) == Array("{\"accounts\": [".utf8))
        if getuid() != 0 {
            chmod(folder.path, 0o500)
            defer { chmod(folder.path, 0o700) }
            #expect(throws: ConfigWriteError.self) { try ConfigWriter.append(Account(id: "b", name: "B"), to: path) }
            #expect(try FileSystem.read(path) == original)
        }
    }
}

/// A fresh temporary folder, removed when the value goes away.
private final class TemporaryFolder {
    let path: String

    init() throws {
        var template = Array("/tmp/perch-writer-tests-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw FileError(path: "/tmp", code: errno, operation: "mkdtemp")
        }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        chmod(path, 0o700)
        _ = try? withTemporaryFolderRemoval(path)
    }
}

/// Removes `path` and what it holds.
private func withTemporaryFolderRemoval(_ path: String) throws {
    var status: Int32 = 0
    var pid: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/rm"), strdup("-rf"), strdup(path), nil]
    defer { for pointer in argv { free(pointer) } }
    if posix_spawn(&pid, "/bin/rm", nil, nil, argv, environ) == 0 { waitpid(pid, &status, 0) }
}

@Suite("File errors in words")
struct FileErrorWordingTests {
    // Bug: a failed atomic write said "DIR: cannot create a temporary file in: REASON", a
    // sentence that stopped after "in".
    @Test("a temporary file that cannot be made names its folder and reads as a sentence")
    func temporaryFileInIt() throws {
        try withTemporaryFolder { folder in
            // The file's name fits (250 bytes), but its temporary sibling's does not (mkstemp: ENAMETOOLONG).
            let path = folder + "/" + String(repeating: "a", count: 250)
            do throws(FileError) {
                try FileSystem.writeAtomically(Array("{}".utf8), to: path)
                Issue.record("the write should have failed")
            } catch {
                #expect(error.code == ENAMETOOLONG)
                #expect(error.description == "\(folder): cannot create a temporary file in it: File name too long")
            }
        }
    }
}
