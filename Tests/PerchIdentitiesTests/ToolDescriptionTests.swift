import Foundation
import PerchDomain
import PerchInterface
import PerchStore
import Testing

@testable import PerchIdentities

/// Tools described as data (docs/tools.md): the format's checks, the trust rule, and how a
/// described tool reads its account's member and the tool's answers.
@Suite("Tools described as data")
struct ToolDescriptionTests {
    static let builtIn = ToolAdapters.builtIn.map(\.tool.rawValue)

    /// A description of a tool `acme` with `members` added to (or replacing) a minimal valid one.
    static func text(_ members: String = "", tool: String = "acme") -> String {
        """
        {"version": 1, "tool": "\(tool)", "program": "acmectl",
         "settings": {"home": {"kind": "folder", "variable": "ACME_HOME", "required": true}, "user": {"kind": "identity"}}\(members.isEmpty ? "" : ", " + members)}
        """
    }

    static func problems(_ text: String, origin: String = "/x/acme.json") -> [String] {
        ToolDescription.parse(Array(text.utf8), origin: origin, builtIn: builtIn).1
    }

    @Test("every shipped description reads without a problem, names its documentation and carries its own variables")
    func shippedDescriptions() {
        let loaded = ToolDescriptions.load(folder: "", home: "/", builtIn: Self.builtIn)
        #expect(loaded.problems == [])
        #expect(loaded.adapters.map(\.description.tool) == ["claude", "codex", "az", "fly", "terraform", "npm"])
        for adapter in loaded.adapters {
            #expect(adapter.description.documentation?.hasPrefix("https://") == true, "\(adapter.description.tool)")
            #expect(!adapter.description.variables.isEmpty)
        }
        // Read at every start without compiling their patterns: compiled here.
        for (name, text) in ShippedToolDescriptions.all {
            #expect(ToolDescription.parse(Array(text.utf8), origin: "shipped", builtIn: Self.builtIn).1 == [], "\(name)")
        }
        let az = loaded.adapters.first { $0.description.tool == "az" }
        #expect(az?.description.variables == ["AZURE_CONFIG_DIR"])
        #expect(az?.isPerShell == true)
    }

    @Test("a minimal description reads; its paths, keys and exports follow the settings")
    func minimal() throws {
        let (description, problems) = ToolDescription.parse(Array(Self.text().utf8), origin: "/x/acme.json", builtIn: Self.builtIn)
        #expect(problems == [])
        let adapter = DescribedToolAdapter(try #require(description))
        #expect(adapter.fieldPaths == ["acme.home", "acme.user"])
        #expect(adapter.exportedNames == ["ACME_HOME"])
        let setting = adapter.setting([ToolField("user", "ada"), ToolField("home", "~/.acme-work")], home: "/h")
        #expect(setting.exports == [EnvironmentEntry(name: "ACME_HOME", value: "/h/.acme-work")])
        #expect(setting.fields.map(\.name) == ["home", "user"], "in the description's order")
        #expect(adapter.json(setting) == #"{"home": "~/.acme-work", "user": "ada"}"#, "written back as the user wrote it")
    }

    @Test(
        "faults are refused with their JSON path",
        arguments: [
            (#"{"tool": "acme", "settings": {}}"#, "version: missing (required)"),
            (text().replacingOccurrences(of: #""version": 1"#, with: #""version": 2"#), "version: this Perch reads version 1 only"),
            (text(tool: "kube"), #"tool: "kube" is a tool Perch has built in"#),
            (text(tool: "Acme"), #"tool: "Acme" is not a tool name"#),
            (text(tool: "other"), "must be the file's name (other.json), not acme.json"),
            (text(#""whoami": {"command": ["sh", "-c", "id"]}"#), "whoami.command[0]: sh runs its arguments as code"),
            (text(#""whoami": {"command": ["/tmp/x"]}"#), #"whoami.command[0]: "/tmp/x" is not a program's name"#),
            (text(#""whoami": {"command": ["acmectl", "{nope}"]}"#), "whoami.command[1]: {nope} names no setting"),
            (text(#""whoami": {"command": ["acmectl"], "pattern": "("}"#), "whoami.pattern: not a regular expression"),
            (text(#""whoami": {"command": ["acmectl"], "expect": "home"}"#), #"whoami.expect: "home" is not an identity setting"#),
            (text(#""secrets": ["{home}/../../etc/shadow"]"#), "secrets[0]: \"{home}/../../etc/shadow\" must not hold a .. component"),
            (text(#""secrets": ["relative/file"]"#), "secrets[0]: \"relative/file\" must start with ~/, / or a folder setting"),
            (
                text(#""global": {"command": ["acmectl", "use", "x"], "current": {"command": ["acmectl", "current"]}, "setting": "home"}"#),
                "global.command: never gives {home}"
            ),
            (text(#""global": {"command": ["acmectl", "use", "{home}"], "setting": "home"}"#), "global.current: missing (required)"),
            (
                text(
                    #""global": {"command": ["acmectl", "use", "{home}", "{user}"], "current": {"command": ["acmectl"]}, "setting": "home"}"#
                ),
                "global.command: gives {user}"
            ),
            (
                text(#""global": {"file": "~/.acme/current", "setting": "user"}"#),
                #"global.setting: "user" is not a folder, file or value setting"#
            ),
            (text(#""expiry": {"file": "{home}/s.json", "json": "a", "format": "unix"}"#), #"expiry.format: "unix" is not a format"#),
            (text(#""colour": 1"#), "colour: unknown key"),
            (text(#""title": "a", "title": "b""#), #"duplicate key "title""#),
            (
                text().replacingOccurrences(
                    of: #""user": {"kind": "identity"}"#,
                    with: #""user": {"kind": "identity"}, "x": {"kind": "folder", "variable": "ACME_HOME"}"#),
                "settings.x.variable: ACME_HOME is carried by another setting too"
            ),
        ])
    func faults(text: String, expected: String) {
        let problems = Self.problems(text)
        #expect(problems.contains { $0.contains(expected) }, "\(problems)")
    }

    @Test(
        "a setting's variable may not be Perch's, a built-in tool's, or one a shell, a loader or git acts on",
        arguments: [
            "PERCH_SCOPE", "AWS_PROFILE", "KUBECONFIG", "LD_PRELOAD", "BASH_ENV", "GIT_SSH_COMMAND", "PROMPT_COMMAND", "PATH", "1X",
        ])
    func refusedVariables(name: String) {
        let text = Self.text().replacingOccurrences(of: "ACME_HOME", with: name)
        #expect(Self.problems(text).contains { $0.hasPrefix("settings.home.variable:") }, "\(name)")
    }

    @Test("two tools may not carry one variable")
    func oneToolPerVariable() throws {
        try withTemporaryFolder { folder in
            let clash = Self.text(tool: "other").replacingOccurrences(of: "ACME_HOME", with: "AZURE_CONFIG_DIR")
            try clash.write(toFile: folder + "/other.json", atomically: true, encoding: .utf8)
            let loaded = ToolDescriptions.load(folder: folder, home: folder, builtIn: Self.builtIn)
            let problems = loaded.problems
            #expect(problems.contains { $0.contains("AZURE_CONFIG_DIR is carried by az too") }, "\(problems)")
        }
    }

    // The trust rule: a description names programs Perch runs (docs/security.md).
    @Test("a description others can write, or in a folder others can write up to the home, is refused; the user's own is used")
    func trust() throws {
        try withTemporaryFolder { home in
            chmod(home, 0o700)
            let tools = home + "/.config/perch/tools"
            try FileManager.default.createDirectory(atPath: tools, withIntermediateDirectories: true)
            for folder in [home + "/.config", home + "/.config/perch", tools] { chmod(folder, 0o755) }
            let file = tools + "/acme.json"
            try Self.text().write(toFile: file, atomically: true, encoding: .utf8)
            chmod(file, 0o644)
            let builtIn = Self.builtIn
            func load() -> ToolDescriptions.Loaded { ToolDescriptions.load(folder: tools, home: home, builtIn: builtIn) }
            #expect(load().problems == [])
            #expect(load().adapters.contains { $0.description.tool == "acme" })

            chmod(file, 0o646)
            #expect(load().problems.contains { $0.contains("the file can be written by others (mode 646)") }, "\(load().problems)")
            #expect(!load().adapters.contains { $0.description.tool == "acme" })
            chmod(file, 0o644)

            chmod(home + "/.config", 0o757)
            #expect(load().problems.contains { $0.contains("the folder ~/.config can be written by others") }, "\(load().problems)")
            chmod(home + "/.config", 0o755)

            // Owned by someone else. As root, the file is given to another user; as anyone else, the
            // check is asked for another user (root's own files are trusted, as by OpenSSH).
            let refusal: String?
            if getuid() == 0 {
                chown(file, 4242, 4242)
                refusal = ToolDescriptions.trustRefusal(file, home: home)
                #expect(load().problems.contains { $0.contains("belongs to another user (uid 4242)") })
                chown(file, 0, 0)
            } else {
                refusal = ToolDescriptions.trustRefusal(file, home: home, user: getuid() + 1)
            }
            #expect(refusal?.contains("belongs to another user") == true)
            #expect(ToolDescriptions.trustRefusal(file, home: home) == nil)
        }
    }

    @Test("an account's member is checked as the description says")
    func accountMember() throws {
        let description = try #require(ToolDescription.parse(Array(Self.text().utf8), origin: "/x/acme.json", builtIn: Self.builtIn).0)
        let adapter = DescribedToolAdapter(description)
        func read(_ value: JSONValue) -> ToolMemberReader {
            var reader = ToolMemberReader(value: value, place: "accounts[0].acme", reportUnknownKeys: true)
            _ = adapter.read(&reader)
            return reader
        }
        #expect(read(.object([("user", .string("ada"))])).problems == ["accounts[0].acme.home: missing (required)"])
        #expect(read(.object([("home", .string("rel/dir"))])).problems.first?.contains("must start with ~/ or /") == true)
        #expect(read(.string("x")).problems.first?.contains("expected an object") == true)
        let unknown = read(.object([("home", .string("~/a")), ("hom", .string("x"))]))
        #expect(unknown.problems == [] && unknown.warnings.count == 1)
    }

    @Test("a value that would read as an option is refused before it reaches a command")
    func valueAsOption() throws {
        let text = Self.text(
            #""global": {"command": ["acmectl", "use", "{profile}"], "current": {"command": ["acmectl", "current"]}, "setting": "profile"}"#
        )
        .replacingOccurrences(
            of: #""user": {"kind": "identity"}"#,
            with: #""user": {"kind": "identity"}, "profile": {"kind": "value", "variable": "ACME_PROFILE"}"#)
        let description = try #require(ToolDescription.parse(Array(text.utf8), origin: "/x/acme.json", builtIn: Self.builtIn).0)
        var reader = ToolMemberReader(
            value: .object([("home", .string("~/a")), ("profile", .string("--exec=evil"))]), place: "accounts[0].acme",
            reportUnknownKeys: true)
        _ = DescribedToolAdapter(description).read(&reader)
        #expect(reader.problems.first?.contains("must not begin with '-'") == true, "\(reader.problems)")
    }

    @Test("answers are read by JSON path, pattern or text; what is shown has no control character, is cut, and a secret is masked")
    func answers() {
        let json = #"{"user": {"name": "ada@acme"}, "accounts": [{"id": 7}, {"id": "b"}]}"#
        #expect(DescribedToolAdapter.read(json, .json(["user", "name"])) == "ada@acme")
        #expect(DescribedToolAdapter.read(json, .json(ToolDescription.jsonPath("accounts[1].id")!)) == "b")
        #expect(DescribedToolAdapter.read(json, .json(ToolDescription.jsonPath("accounts[0].id")!)) == "7")
        #expect(DescribedToolAdapter.read(json, .json(["missing"])) == nil)
        #expect(DescribedToolAdapter.read("Logged in using ChatGPT\n", .pattern("Logged in using (ChatGPT|an API key)")) == "ChatGPT")
        #expect(DescribedToolAdapter.read("  ada  \nmore", .text) == "ada")
        #expect(DescribedToolAdapter.shown("ada\u{1B}]52;c;aGk=\u{07}\u{1B}[2J") == "ada]52;c;aGk=[2J")
        #expect(DescribedToolAdapter.shown(String(repeating: "a b ", count: 100)).count == DescribedToolAdapter.answerLimit + 1)
        let token = "ghp_" + String(repeating: "x", count: 36) + "WXYZ"
        #expect(DescribedToolAdapter.shown(token) == "…WXYZ")
        #expect(ToolDescription.jsonPath("a..b") == nil && ToolDescription.jsonPath("a[x]") == nil)
    }

    @Test("placeholders are filled with the values given and nothing else")
    func fill() {
        #expect(DescribedToolAdapter.fill("{home}/x-{user}", ["home": "/h", "user": "$(id)"]) == "/h/x-$(id)")
        #expect(DescribedToolAdapter.fill("{home}/x", [:]) == "{home}/x", "a key without a value stays, and is then not asked")
    }
}

/// What a hostile review of tools described as data found, each refused now.
@Suite("Tools described as data: the review's findings")
struct ToolDescriptionReviewTests {
    static func problems(_ text: String) -> [String] { ToolDescriptionTests.problems(text) }

    // Bug (review): an override could name any variable, and scopes (agents' too) removed it.
    @Test(
        "an override may not name PATH, HOME, SSH_AUTH_SOCK, a built-in tool's or another described tool's variable",
        arguments: ["PATH", "HOME", "SSH_AUTH_SOCK", "AWS_PROFILE", "GIT_CONFIG_GLOBAL", "LD_PRELOAD"])
    func overrides(name: String) {
        let text = ToolDescriptionTests.text(#""overrides": [{"variable": "\#(name)", "reason": "x"}]"#)
        #expect(Self.problems(text).contains { $0.hasPrefix("overrides[0].variable:") }, "\(name)")
    }

    @Test("an override naming a variable another described tool carries is refused when the tools are loaded")
    func overrideOfAnotherTool() throws {
        try withTemporaryFolder { folder in
            try ToolDescriptionTests.text(#""overrides": [{"variable": "CLAUDE_CONFIG_DIR", "reason": "x"}]"#)
                .write(toFile: folder + "/acme.json", atomically: true, encoding: .utf8)
            chmod(folder + "/acme.json", 0o600)
            let loaded = ToolDescriptions.load(folder: folder, home: folder, builtIn: ToolDescriptionTests.builtIn)
            #expect(loaded.problems.contains { $0.contains("overrides CLAUDE_CONFIG_DIR, which claude carries") }, "\(loaded.problems)")
        }
    }

    // Bug (review): these made git or python run code from an account's folder.
    @Test(
        "a variable an interpreter, git or a built-in tool reads code or config from is refused; npm's user config is not",
        arguments: ["PYTHONPATH", "NODE_OPTIONS", "XDG_CONFIG_HOME", "AWS_CONFIG_FILE", "GH_CONFIG_DIR", "PERL5OPT", "HISTFILE"])
    func codeBearingVariables(name: String) {
        let text = ToolDescriptionTests.text().replacingOccurrences(of: "ACME_HOME", with: name)
        #expect(Self.problems(text).contains { $0.hasPrefix("settings.home.variable:") }, "\(name)")
        let npm = ToolDescriptionTests.text().replacingOccurrences(of: "ACME_HOME", with: "NPM_CONFIG_USERCONFIG")
        #expect(Self.problems(npm) == [])
    }

    // Bug (review): each of these ran code from a description's arguments.
    @Test(
        "programs that run their arguments as code are refused, whatever their version suffix",
        arguments: ["perl5.36.0", "nodejs", "rbash", "setsid", "stdbuf", "flock", "git", "Python3", "npx", "make"])
    func programs(program: String) {
        let text = ToolDescriptionTests.text(#""whoami": {"command": ["\#(program)", "x"]}"#)
        #expect(Self.problems(text).contains { $0.hasPrefix("whoami.command[0]:") }, "\(program)")
    }

    // Bug (review): an identity (`/etc/shadow`) began a path, and audit offered to chmod it.
    @Test("only a folder's or a file's placeholder stands in a path; the global current file takes none")
    func pathPlaceholders() {
        #expect(
            Self.problems(ToolDescriptionTests.text(#""secrets": ["{user}"]"#)).contains {
                $0.contains("{user} is not a folder or file setting")
            })
        #expect(
            Self.problems(ToolDescriptionTests.text(#""whoami": {"file": "{user}/x"}"#)).contains {
                $0.contains("{user} is not a folder or file setting")
            })
        let current = ToolDescriptionTests.text(
            #""global": {"command": ["acmectl", "use", "{home}"], "current": {"file": "{home}/current"}, "setting": "home"}"#)
        #expect(Self.problems(current).contains { $0.contains("global.current.file: reads the tool's own state") })
    }

    // Bug (review): a token inside an answer was printed whole.
    @Test("a token or a password inside an answer is masked, the rest of the line kept")
    func tokensInsideAnswers() {
        let token = "gho_" + String(repeating: "a1", count: 18)
        #expect(DescribedToolAdapter.shown("Token: \(token)") == "Token: …" + String(token.suffix(4)))
        #expect(DescribedToolAdapter.shown("password: hunter2hunter2 for ada") == "password: …ter2 for ada")
        #expect(DescribedToolAdapter.shown("Logged in as ada@acme.example") == "Logged in as ada@acme.example")
    }

    // Bug (review): a group-writable description (the user's own group) was trusted.
    @Test("a description its group can write is refused, as OpenSSH's StrictModes refuses it")
    func groupWritable() throws {
        try withTemporaryFolder { home in
            chmod(home, 0o700)
            let file = home + "/acme.json"
            try ToolDescriptionTests.text().write(toFile: file, atomically: true, encoding: .utf8)
            chmod(file, 0o660)
            #expect(ToolDescriptions.trustRefusal(file, home: home)?.contains("can be written by its group (mode 660)") == true)
            chmod(file, 0o600)
            #expect(ToolDescriptions.trustRefusal(file, home: home) == nil)
        }
    }

    @Test("an account's identity that begins with '-', or a folder with a .. component, is refused")
    func accountValues() throws {
        let description = try #require(
            ToolDescription.parse(Array(ToolDescriptionTests.text().utf8), origin: "/x/acme.json", builtIn: ToolDescriptionTests.builtIn).0)
        for (key, value, expected) in [
            ("user", "--output=/tmp/x", "must not begin with '-'"), ("home", "~/../../etc", "must not hold a .. component"),
        ] {
            var reader = ToolMemberReader(
                value: .object([("home", .string(key == "home" ? value : "~/a")), (key, .string(value))]), place: "a.acme",
                reportUnknownKeys: true)
            _ = DescribedToolAdapter(description).read(&reader)
            #expect(reader.problems.contains { $0.contains(expected) }, "\(reader.problems)")
        }
    }

    // Bug (review): `Int64(Double)` trapped on "inf" in a tool's session file.
    @Test("a session end that is not a number or a time is said, never a crash", arguments: ["inf", "nan", "1e300", "-1e30", "soon"])
    func expiryValues(value: String) throws {
        try withTemporaryFolder { folder in
            let text = ToolDescriptionTests.text(#""expiry": {"file": "{home}/s.json", "json": "end", "format": "epoch-ms"}"#)
            let description = try #require(
                ToolDescription.parse(Array(text.utf8), origin: "/x/acme.json", builtIn: ToolDescriptionTests.builtIn).0)
            let adapter = DescribedToolAdapter(description)
            try #"{"end": "\#(value)"}"#.write(toFile: folder + "/s.json", atomically: true, encoding: .utf8)
            let setting = adapter.setting([ToolField("home", folder)], home: folder)
            var inputs: [String] = []
            let context = ToolContext(environment: IdentityEnvironment(variables: ["HOME": folder], statePath: folder + "/state.json"))
            guard case .failure(let failure) = adapter.readSessionEnd(setting, in: context, inputs: &inputs) else {
                Issue.record("\(value) was read as an end")
                return
            }
            #expect(failure.description.contains("is not epoch-ms"))
            #expect(
                adapter.agentRefusals(setting, in: context, now: 0).contains { $0.contains("is not epoch-ms") }, "an agent fails closed")
        }
    }
}

extension ToolDescriptionReviewTests {
    // Bug (review): a switch's plan, status and list --json showed such a value whole.
    @Test("a value a secret's variable carries is shown masked; the process still gets it whole")
    func secretValues() throws {
        let text = ToolDescriptionTests.text().replacingOccurrences(
            of: #""user": {"kind": "identity"}"#,
            with: #""user": {"kind": "identity"}, "key": {"kind": "value", "variable": "ACME_API_KEY"}"#)
        let description = try #require(
            ToolDescription.parse(Array(text.utf8), origin: "/x/acme.json", builtIn: ToolDescriptionTests.builtIn).0)
        let setting = DescribedToolAdapter(description).setting(
            [ToolField("home", "~/a"), ToolField("key", "sk-ant-abcdef123456")], home: "/h")
        #expect(setting.summary == "~/a, …3456")
        #expect(!setting.fields.contains { $0.value.contains("abcdef") })
        #expect(setting.exports.contains(EnvironmentEntry(name: "ACME_API_KEY", value: "sk-ant-abcdef123456")))
        #expect(DescribedToolAdapter(description).json(setting).contains("sk-ant-abcdef123456"), "the config keeps what the user wrote")
    }
}

/// The second review: ways around the first review's fixes.
@Suite("Tools described as data: the second review's findings")
struct ToolDescriptionSecondReviewTests {
    // Bug (review): tokens after `=`, `:` or a quote, or parted by a tab, were printed whole, and
    // a long answer was cut before it was masked, showing a token's start.
    @Test(
        "a secret is masked whatever separates it from the word naming it",
        arguments: [
            ("password=hunter2hunter2", "password=…ter2"), ("api_key: s3cr3tvalue99", "api_key: …ue99"),
            (#""token":"hunter2hunter2""#, #""token":"…ter2""#), ("Authorization: Bearer opaqueToken1234", "Authorization: Bearer …1234"),
            ("Token:\tgho_abcdefghijklmnopqrstu", "Token: …rstu"), ("signed in as ada", "signed in as ada"),
        ])
    func masking(answer: String, shown: String) {
        #expect(DescribedToolAdapter.shown(answer) == shown)
    }

    @Test("a token at the end of a long answer is masked before the answer is cut")
    func maskedBeforeCut() {
        let token = "ghp_" + String(repeating: "Ab1", count: 12)
        let shown = DescribedToolAdapter.shown(String(repeating: "word ", count: 38) + token)
        #expect(!shown.contains("ghp_"), "\(shown)")
    }

    @Test(
        "a default with a .. component, and programs named like a shell or a launcher, are refused",
        arguments: [
            (#""default": "~/../../etc""#, "settings.home.default: must not hold a .. component")
        ])
    func defaults(member: String, expected: String) {
        let text = ToolDescriptionTests.text().replacingOccurrences(of: #""required": true"#, with: #""required": true, \#(member)"#)
        #expect(ToolDescriptionTests.problems(text).contains { $0.contains(expected) }, "\(ToolDescriptionTests.problems(text))")
    }

    @Test(
        "programs named like a shell, an awk or a launcher are refused",
        arguments: ["bash5", "bash-static", "x86_64", "nawk", "vim.basic", "java", "time"])
    func programVariants(program: String) {
        let text = ToolDescriptionTests.text(#""whoami": {"command": ["\#(program)", "x"]}"#)
        #expect(ToolDescriptionTests.problems(text).contains { $0.hasPrefix("whoami.command[0]:") }, "\(program)")
    }

    // Bug (review): a global folder setting without a variable could not be closed for an agent,
    // and the agent was not refused.
    @Test("a global tool an agent cannot close says so: its global setting a value, or without a variable")
    func cannotClose() throws {
        for settings in [
            #""dir": {"kind": "folder"}, "home": {"kind": "folder", "variable": "ACME_HOME"}"#,
            #""dir": {"kind": "value", "variable": "ACME_DIR"}, "home": {"kind": "folder", "variable": "ACME_HOME"}"#,
        ] {
            let text =
                #"{"version": 1, "tool": "acme", "settings": {\#(settings)}, "global": {"file": "~/.acme/active", "setting": "dir"}}"#
            let parsed = ToolDescription.parse(Array(text.utf8), origin: "/x/acme.json", builtIn: ToolDescriptionTests.builtIn)
            let description = try #require(parsed.0, "\(parsed.1)")
            #expect(DescribedToolAdapter(description).cannotClose?.contains("an agent's account names it") == true)
        }
    }

    // Bug (review): a session file that was not JSON, or held no number or time at its path,
    // let an agent start.
    @Test(
        "a session file that is there but says no end fails an agent closed; one without the key means no session",
        arguments: [
            (#"{"end": {"n": 1}}"#, true), (#"{"end": 1000,}"#, true), ("[1000]", false), (#"{"other": 1}"#, false), ("not json", true),
        ])
    func unreadableEnds(text: String, refused: Bool) throws {
        try withTemporaryFolder { folder in
            let description = try #require(
                ToolDescription.parse(
                    Array(ToolDescriptionTests.text(#""expiry": {"file": "{home}/s.json", "json": "end", "format": "epoch-s"}"#).utf8),
                    origin: "/x/acme.json", builtIn: ToolDescriptionTests.builtIn
                ).0)
            let adapter = DescribedToolAdapter(description)
            try text.write(toFile: folder + "/s.json", atomically: true, encoding: .utf8)
            let setting = adapter.setting([ToolField("home", folder)], home: folder)
            let context = ToolContext(environment: IdentityEnvironment(variables: ["HOME": folder], statePath: folder + "/state.json"))
            #expect(!adapter.agentRefusals(setting, in: context, now: 0).isEmpty == refused, "\(text)")
        }
    }
}
