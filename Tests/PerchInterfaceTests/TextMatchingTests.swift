import Testing

@testable import PerchDomain
@testable import PerchInterface

/// Issue 11 §6: the filter matches text as people read it.
@Suite("Text matching")
struct TextMatchingTests {
    static let precomposed = "Caf\u{E9}"
    static let decomposed = "Cafe\u{301}"

    func matches(_ filter: String, _ text: String) -> Bool {
        FuzzyMatcher.match(FuzzyPattern(filter), in: text) != nil
    }

    @Test(
        "Canonically equivalent text: cafe and café find Café however it is encoded",
        arguments: ["cafe", "caf\u{E9}", "cafe\u{301}", "CAFÉ"])
    func canonicalEquivalence(filter: String) {
        #expect(matches(filter, Self.precomposed), "\(filter.unicodeScalars.map(\.value)) in precomposed")
        #expect(matches(filter, Self.decomposed), "\(filter.unicodeScalars.map(\.value)) in decomposed")
    }

    @Test(
        "Full case folding: STRASSE finds Straße, and the rest of the rule with it",
        arguments: [
            ("STRASSE", "Straße"), ("strasse", "STRAẞE"), ("fi", "ﬁle"), ("ΣΟΦΟΣ", "σοφος"), ("σοφοσ", "ΣΟΦΟΣ"), ("istanbul", "İstanbul"),
            ("ǆ", "Ǆemal"), ("ÅNGSTRÖM", "Ångström"),
        ])
    func fullCaseFolding(filter: String, text: String) {
        #expect(matches(filter, text), "\(filter) in \(text)")
    }

    @Test("ASCII keeps its fast path: its key is its bytes with A–Z lowered")
    func asciiKey() {
        #expect(TextMatching.key("Work @Ada-1") == Array("work @ada-1".utf8))
        #expect(TextMatching.key("") == [])
        #expect(!matches("x", "Work"))
    }

    @Test("The sheet filter finds Café and Straße by cafe and STRASSE, through the index and without it")
    func sheetFilter() {
        let accounts = [
            Account(id: "a", name: Self.precomposed), Account(id: "b", name: Self.decomposed), Account(id: "c", name: "Straße"),
            Account(id: "d", name: "Work"),
        ]
        #expect(AccountsIndex.matches(of: "cafe", in: accounts) == [.account(0), .account(1)])
        #expect(AccountsIndex.matches(of: "STRASSE", in: accounts) == [.account(2)])
        let index = SearchIndex(accounts)
        #expect(index.matches(FuzzyPattern("café"), among: accounts.indices) == [.account(0), .account(1)])
        #expect(index.matches(FuzzyPattern("strasse"), among: accounts.indices) == [.account(2)])
    }

    @Test("Bounded cost: a cluster of a letter and 600,000 combining marks is cut to 32 scalars when the account is made")
    func capPerCluster() {
        let huge = "x" + String(repeating: "\u{301}", count: 600_000) + " y"
        let (capped, wasCapped) = TextMatching.cappingClusters(huge)
        #expect(wasCapped)
        #expect(capped.unicodeScalars.count == TextMatching.maximumScalarsPerCluster + 2)
        #expect(capped.count == 3)
        let account = Account(id: "z", name: huge, handle: "@" + String(repeating: "\u{301}", count: 100))
        #expect(account.name == capped)
        #expect(account.handle!.unicodeScalars.count <= 1 + TextMatching.maximumScalarsPerCluster)
        #expect(TextMatching.cappingClusters("Plain ASCII name").capped == false)
        let family = "👨‍👩‍👧‍👦 Family"
        #expect(TextMatching.cappingClusters(family).text == family, "real clusters are far below the cap")
    }
}
