import PerchDomain
import PerchInterface
import Testing

@testable import PerchStore

/// What parsing a config gave: its accounts, or its problems without their positions.
private enum Outcome: Equatable {
    case accounts([Account])
    case problems([String])
}

private func outcome(_ json: String) -> Outcome {
    do throws(ConfigError) {
        return .accounts(try ConfigLoader.parse(Array(json.utf8), path: "accounts.json").accounts)
    } catch {
        guard case .invalid(path: _, let problems) = error else { return .problems(["\(error)"]) }
        return .problems(problems.map(withoutPosition))
    }
}

@Suite("Config reading: accounts read from their bytes")
struct ConfigReadingTests {
    /// Fields of one account (JSON text after `"id": …, `), each near a rule the byte path
    /// checks; most pass it, the others must leave it for the general path.
    static let fields = [
        #""name": "Work""#, #""name": "W", "handle": "@w", "group": "Jobs", "color": "blue", "onSwitch": "true""#,
        #""name": "-w""#, #""name": " w""#, #""name": "w ""#, #""name": """#, #""name": "   ""#, #""name": "Zoë""#,
        #""name": "w", "handle": " ""#, #""name": "w", "handle": " x ""#, #""name": "w", "handle": """#,
        #""name": "w", "group": "  ""#, #""name": "w", "color": "mauve""#, #""name": "w", "color": """#,
        #""name": "w", "onSwitch": """#, #""name": "w", "onSwitch": " ""#, #""name": "w\u0041""#, #""name": null"#,
        #""name": 1"#, #""name": "w", "handle": null"#, #""name": "w", "nickname": "x""#, #""name": "w\u007f""#,
        #""name": "w", "git": {"email": "w@example.com"}"#, #""name": "w", "directories": ["~/w"]"#,
    ]

    static let ids = [#""w""#, #""a-b.c_9""#, #""-w""#, #""W""#, #""""#, #""w/x""#, #""w:""#, "null", "7"]

    @Test(
        "an account gives the same account or problems with a key written with an escape (the general path)",
        arguments: ids, fields)
    func sameAsGeneralPath(id: String, fields: String) {
        let plain = #"{"accounts": [{"id": \#(id), \#(fields)}, {"id": "other", "name": "Other"}]}"#
        let general = #"{"accounts": [{"\u0069d": \#(id), \#(fields)}, {"\u0069d": "other", "name": "Other"}]}"#
        #expect(outcome(plain) == outcome(general))
    }

    @Test("a repeated id is found between accounts read from their bytes and the others")
    func duplicateAcrossPaths() {
        let json = #"{"accounts": [{"id": "w", "name": "W"}, {"\u0069d": "w", "name": "W2"}, {"id": "w", "name": "W3"}]}"#
        #expect(
            outcome(json)
                == .problems([
                    #"accounts[1].id: duplicate id "w" (first at accounts[0])"#,
                    #"accounts[2].id: duplicate id "w" (first at accounts[0])"#,
                ]))
    }
}
