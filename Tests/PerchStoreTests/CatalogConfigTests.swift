import Foundation
import PerchDomain
import PerchInterface
import Testing

@testable import PerchStore

/// An account's `catalog` object in the config.
@Suite("Config: an account's catalog commands")
struct CatalogConfigTests {
    func parse(_ catalog: String) throws(ConfigError) -> ConfigLoader.Parsed {
        try ConfigLoader.parse(Array(#"{"accounts": [{"id": "gh", "name": "GitHub", "catalog": \#(catalog)}]}"#.utf8), path: "c.json")
    }

    @Test("command, preview and open are read; each is optional; null is no catalog")
    func read() throws {
        let parsed = try parse(#"{"command": "gh repo list", "preview": "gh repo view \"$PERCH_ITEM_ID\"", "open": "gh browse"}"#)
        #expect(
            parsed.accounts[0].catalog
                == CatalogCommands(command: "gh repo list", preview: #"gh repo view "$PERCH_ITEM_ID""#, open: "gh browse"))
        #expect(try parse(#"{"preview": "cat"}"#).accounts[0].catalog == CatalogCommands(preview: "cat"))
        #expect(try parse("null").accounts[0].catalog == nil)
        #expect(parsed.accounts[0].runsCommands)
    }

    @Test(
        "a catalog that is not an object, a command that is not a string or is blank, is refused with its place",
        arguments: [
            ("\"gh repo list\"", #"accounts[0].catalog: expected an object like {"command": "gh repo list"}"#),
            (#"{"command": 3}"#, "accounts[0].catalog.command: expected a string"),
            (#"{"open": "  "}"#, "accounts[0].catalog.open: must not be empty (leave the key out instead)"),
        ])
    func refused(_ catalog: String, _ message: String) {
        do {
            _ = try parse(catalog)
            Issue.record("accepted \(catalog)")
        } catch {
            guard case .invalid(_, let problems) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(problems.map(withoutPosition) == [message])
        }
    }

    @Test("an unknown key in catalog is a warning with a guess")
    func unknownKey() throws {
        let parsed = try ConfigLoader.parse(
            Array(#"{"accounts": [{"id": "gh", "name": "GitHub", "catalog": {"comand": "ls"}}]}"#.utf8), path: "c.json",
            reportUnknownKeys: true)
        #expect(parsed.warnings.map(withoutPosition) == [#"accounts[0].catalog.comand: unknown key, ignored (did you mean "command"?)"#])
    }
}
