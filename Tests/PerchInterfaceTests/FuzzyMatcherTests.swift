import PerchInterfaceTesting
import PerchKit
import Testing

@testable import PerchDomain
@testable import PerchInterface

/// Issue 20: the filter is a fuzzy match as fzf's (`wk` finds Work), scored for word starts,
/// consecutive letters and case, and keeps the match keys' NFD and case folding.
@Suite("Fuzzy matcher")
struct FuzzyMatcherTests {
    @Test(
        "the typed letters in order, wherever they are, and which characters they took",
        arguments: [
            // Bug: the filter was a substring match, so `wk` found nothing where fzf finds Work.
            ("Work", "wk", [0, 3]),
            ("Open Source", "os", [0, 5]),
            ("Side Project", "sp", [0, 5]),
            ("@ada-oss", "oss", [5, 6, 7]),
            ("Network", "wk", [3, 6]),
            ("Account 12", "a12", [0, 8, 9]),
            ("Café", "cafe", [0, 1, 2, 3]),
            ("Cafe\u{301}", "café", [0, 1, 2, 3]),
            ("Straße", "STRASSE", [0, 1, 2, 3, 4, 5]),
            ("Zoë Ångström", "zas", [0, 4, 7]),
            ("ﬁle", "fi", [0]),
            ("日本語 Work", "本w", [1, 4]),
        ] as [(String, String, [Int])])
    func matchedCharacters(text: String, filter: String, expected: [Int]) {
        let match = FuzzyMatcher.match(FuzzyPattern(filter), in: text)
        #expect(match?.characters == expected, "\(filter) in \(text)")
    }

    @Test(
        "letters out of order, or missing, do not match",
        arguments: [("Work", "kw"), ("Work", "wx"), ("ab", "abc"), ("", "a"), ("Work", "w k"), ("Café", "cafée")])
    func noMatch(text: String, filter: String) {
        #expect(FuzzyMatcher.match(FuzzyPattern(filter), in: text) == nil, "\(filter) in \(text)")
    }

    @Test("an empty filter matches everything with score 0 and marks nothing")
    func emptyPattern() {
        #expect(FuzzyMatcher.match(FuzzyPattern(""), in: "Work") == FuzzyMatcher.Match(score: 0, characters: []))
    }

    @Test(
        "scores rank word starts, consecutive letters and typed case first",
        arguments: [
            ("wk", "Work", "Network"),  // a word start beats the middle of a word
            ("os", "Open Source", "Boss"),  // two word starts beat two letters in a row mid-word
            ("abc", "abc xyz", "a b c"),  // consecutive letters beat word starts with gaps
            ("sp", "side-project", "sleep"),  // after a delimiter beats the middle of a word
            ("pr", "MyProject", "myproject"),  // a camel-case hump is a word start
            ("W", "Work", "work"),  // an upper-case letter typed prefers upper case
            ("a12", "Account 12", "Account 1x2"),  // a run of digits together
            ("work", "Work", "W-o-r-k"),  // the whole word in one run
        ])
    func ranking(filter: String, better: String, worse: String) throws {
        let pattern = FuzzyPattern(filter)
        let high = try #require(FuzzyMatcher.score(pattern, in: better))
        let low = try #require(FuzzyMatcher.score(pattern, in: worse))
        #expect(high > low, "\(filter): \(better) \(high), \(worse) \(low)")
    }

    @Test("a lower-case letter typed scores both cases alike (case folded, not preferred)")
    func lowerCaseIsInsensitive() {
        let pattern = FuzzyPattern("w")
        #expect(FuzzyMatcher.score(pattern, in: "Work") == FuzzyMatcher.score(pattern, in: "work"))
    }

    @Test(
        "scores follow fzf's constants",
        arguments: [
            // a word start at the beginning: (16 + 10 × 2); then a gap of 2 (−3 −1) and k mid-word (16)
            ("Work", "wk", 36 + 12),
            // one letter mid-word
            ("Network", "t", 16),
            // W typed in upper case on an upper-case W
            ("Work", "W", 36 + 2),
            // o at the start, r and k each consecutive (16 + the run's first bonus, 10)
            ("ork", "ork", 36 + 26 + 26),
        ] as [(String, String, Int)])
    func exactScores(text: String, filter: String, expected: Int) {
        #expect(FuzzyMatcher.score(FuzzyPattern(filter), in: text) == expected)
    }

    @Test("the search index ranks best first, equal scores in config order, and agrees with one text at a time")
    func indexRanking() {
        let accounts = [
            Account(id: "n", name: "Network"), Account(id: "w", name: "Work"), Account(id: "x", name: "Personal", handle: "@wk"),
            Account(id: "y", name: "Work two"), Account(id: "z", name: "Nothing"),
        ]
        let pattern = FuzzyPattern("wk")
        let rows = SearchIndex(accounts).matches(pattern, among: accounts.indices)
        let scores = rows.map { row -> Int in
            guard case .account(let i) = row else { return -1 }
            return max(
                FuzzyMatcher.score(pattern, in: accounts[i].name) ?? -1,
                accounts[i].handle.flatMap { FuzzyMatcher.score(pattern, in: $0) } ?? -1)
        }
        #expect(rows.count == 4, "Nothing has no w")
        #expect(scores == scores.sorted(by: >), "\(rows) \(scores)")
        #expect(rows.last == .account(0), "Network, mid-word, is last")
        #expect(rows.firstIndex(of: .account(1))! < rows.firstIndex(of: .account(3))!, "Work and Work two score alike: config order")
        #expect(rows == AccountsIndex.matches(of: "wk", in: accounts))
    }

    @Test("ranking is a stable sort by descending score, then ascending length, then config order")
    func rankedRowsIsStable() {
        let indices: [Int32] = [0, 1, 2, 3, 4, 5, 6]
        let sameLength = [UInt8](repeating: 4, count: 7)
        let wide: [Int32] = [5, 9, 5, 1, 9, 70_000, 5]
        #expect(
            SearchIndex.rankedRows(scores: wide, lengths: sameLength, indices: indices) == [5, 1, 4, 0, 2, 6, 3].map { .account($0) },
            "wide range: sorted")
        let narrow: [Int32] = [5, 9, 5, 1, 9, 7, 5]
        #expect(
            SearchIndex.rankedRows(scores: narrow, lengths: sameLength, indices: indices) == [1, 4, 5, 0, 2, 6, 3].map { .account($0) },
            "counting sort")
        let lengths: [UInt8] = [9, 3, 2, 1, 3, 1, 255]
        #expect(
            SearchIndex.rankedRows(scores: narrow, lengths: lengths, indices: indices) == [1, 4, 5, 2, 0, 6, 3].map { .account($0) },
            "shorter first among equal scores")
        #expect(
            SearchIndex.rankedRows(scores: wide, lengths: lengths, indices: indices) == [5, 1, 4, 2, 0, 6, 3].map { .account($0) },
            "the sorted path agrees")
        let middle: [Int32] = [5, 9, 5, 1, 9, 3_000, 5]
        #expect(
            SearchIndex.rankedRows(scores: middle, lengths: lengths, indices: indices) == [5, 1, 4, 2, 0, 6, 3].map { .account($0) },
            "the two counting sorts agree (a range too wide for one)")
    }

    @Test("equal scores put the shorter text first, as fzf's --tiebreak=length: /WOR lists Work before Mixed Work")
    func lengthTiebreak() {
        let accounts = [Account(id: "x", name: "Mixed Work"), Account(id: "w", name: "Work")]
        let pattern = FuzzyPattern("WOR")
        #expect(FuzzyMatcher.score(pattern, in: "Work") == FuzzyMatcher.score(pattern, in: "Mixed Work"))
        #expect(SearchIndex(accounts).matches(pattern, among: accounts.indices) == [.account(1), .account(0)])
    }
}

@Suite("Sheet filter highlight")
struct SheetFilterHighlightTests {
    /// The sheet with `filter` typed, rendered at 80×24.
    func screen(_ filter: String, accounts: [Account] = Account.samples) -> (Screen, TabApp) {
        var state = TabApp.perch(accounts: accounts, size: Size(width: 80, height: 24))
        state.info.background = .dark  // the marks' green is drawn once the background is known
        _ = state.update(.key(.char("a")))
        _ = state.update(.key(.char("/")))
        for c in filter { _ = state.update(.key(.char(c))) }
        return (state.render(), state)
    }

    /// Row and column where `text` starts on `screen`, looking from the bottom (the sheet).
    func find(_ text: String, on screen: Screen) -> (row: Int, column: Int)? {
        for (row, line) in screen.lines.enumerated().reversed() {
            if let range = line.range(of: text) { return (row, line.distance(from: line.startIndex, to: range.lowerBound)) }
        }
        return nil
    }

    @Test("`wk` lists Work with its W and k marked, and the other letters plain")
    func marksMatchedLetters() throws {
        let (screen, _) = screen("wk")
        let (row, column) = try #require(find("Work", on: screen), "\(screen.text)")
        #expect(screen[column, row].style == .filterMatch, "W")
        #expect(screen[column + 1, row].style == .plain, "o")
        #expect(screen[column + 2, row].style == .plain, "r")
        #expect(screen[column + 3, row].style == .filterMatch, "k")
        #expect(screen.text.contains("/ wk"))
    }

    @Test("a match in the handle marks the handle's letters and leaves the name plain")
    func marksHandle() throws {
        let accounts = [Account(id: "a", name: "Personal", handle: "@xyz")]
        let (screen, _) = screen("xz", accounts: accounts)
        let (row, column) = try #require(find("@xyz", on: screen), "\(screen.text)")
        #expect(screen[column + 1, row].style == .filterMatch, "x")
        #expect(screen[column + 2, row].style == .dim, "y keeps the handle's dim")
        #expect(screen[column + 3, row].style == .filterMatch, "z")
        let name = try #require(find("Personal", on: screen))
        #expect((0..<8).allSatisfy { screen[name.column + $0, name.row].style == .plain })
    }

    @Test("without a filter nothing is marked")
    func noFilterNoMarks() {
        var state = TabApp.perch(accounts: Account.samples, size: Size(width: 80, height: 24))
        state.info.background = .dark  // the marks' green is drawn once the background is known
        _ = state.update(.key(.char("a")))
        let screen = state.render()
        #expect(!screen.cells.contains { $0.style == .filterMatch })
    }

    @Test("the best match is listed first: `os` puts Open Source above accounts with o and s mid-word")
    func bestFirst() throws {
        let accounts = [Account(id: "b", name: "Boss"), Account(id: "o", name: "Open Source"), Account(id: "c", name: "Cost")]
        let (screen, state) = screen("os", accounts: accounts)
        #expect(state.sheet?.rows?.first == .account(1))
        let open = try #require(find("Open Source", on: screen))
        let boss = try #require(find("Boss", on: screen))
        #expect(open.row < boss.row)
        #expect(screen.text.contains("3 of 3"))
    }

    @Test("a name cut with … marks only the letters shown")
    func cutName() throws {
        let long = "Alpha " + String(repeating: "x", count: 200) + "z"
        let (screen, _) = screen("az", accounts: [Account(id: "a", name: long)])
        let (row, column) = try #require(find("Alpha", on: screen), "\(screen.text)")
        #expect(screen[column, row].style == .filterMatch)
        let line = screen.lines[row]
        let ellipsis = try #require(line.firstIndex(of: "…"))
        let at = line.distance(from: line.startIndex, to: ellipsis)
        #expect(screen[at, row].style == .plain, "the … stands for the hidden z, unmarked")
    }

    @Test(
        "bug: two long names alike but for their end read the same in the sheet (cut at 32 columns); they get the width there is, and a middle cut where still alike"
    )
    func longNamesAlikeAtTheStart() throws {
        let accounts = [
            Account(id: "w", name: "Platform Engineering — Europe West", handle: "@pe-west"),
            Account(id: "n", name: "Platform Engineering — Europe North", handle: "@pe-north"),
            Account(id: "l", name: "Long name unlike any other in this list", handle: "@long"),
        ]
        func sheet(width: Int) -> Screen {
            var state = TabApp.perch(accounts: accounts, size: Size(width: width, height: 24))
            state.info.background = .dark  // the marks' green is drawn once the background is known
            _ = state.update(.key(.char("a")))
            return state.render()
        }
        let wide = sheet(width: 100).text
        #expect(wide.contains("Platform Engineering — Europe West  ") && wide.contains("Platform Engineering — Europe North "), "\(wide)")
        let narrow = sheet(width: 40)
        let west = try #require(narrow.lines.first { $0.contains("West") }, "\(narrow.text)")
        let north = try #require(narrow.lines.first { $0.contains("North") }, "\(narrow.text)")
        #expect(west.contains("Platform") && west.contains("…") && north.contains("Platform") && north.contains("…"))
        // The name that starts like no other is cut at its end, as any other cut name.
        let long = try #require(narrow.lines.first { $0.contains("Long name") }, "\(narrow.text)")
        #expect(long.contains("…") && !long.contains("list"), "\(long)")
    }

    @Test("a filter's marks follow a middle cut: the end's letters are marked where they are drawn, the … never")
    func marksAfterMiddleCut() throws {
        let accounts = [
            Account(id: "w", name: "Platform Engineering — Europe West"), Account(id: "n", name: "Platform Engineering — Europe North"),
        ]
        var state = TabApp.perch(accounts: accounts, size: Size(width: 30, height: 24))
        state.info.background = .dark  // the marks' green is drawn once the background is known
        _ = state.update(.key(.char("a")))
        _ = state.update(.key(.char("/")))
        for c in "north" { _ = state.update(.key(.char(c))) }
        let screen = state.render()
        let row = try #require(screen.lines.firstIndex { $0.contains("North") }, "\(screen.text)")
        let line = screen.lines[row]
        let north = line.distance(from: line.startIndex, to: try #require(line.range(of: "North")).lowerBound)
        let ellipsis = line.distance(from: line.startIndex, to: try #require(line.firstIndex(of: "…")))
        #expect((0..<5).allSatisfy { screen[north + $0, row].style == .filterMatch }, "North")
        #expect(screen[ellipsis, row].style != .filterMatch)
        #expect(AccountSheet.shownMarks([0, 30, 31], of: "Platform Engineering — Europe North", as: "Platform…ope North") == [0, 13, 14])
        // A name holding a … of its own before the cut.
        #expect(AccountSheet.shownMarks([0, 2, 9], of: "A…bcdefghij", as: "A…bc…ij") == [0, 2, 5])
    }

    @Test("the search's two-row score equals the full alignment's on 20,000 random texts and patterns, ASCII and not")
    func fastScoreAgrees() {
        var random = SeededRandom(0x5EED_F11E)
        func next(_ bound: Int) -> Int { random.next(bound) }
        let alphabet: [Character] = Array("aAbBcwWkK01 -_/.@:éÉßΩ日x") + ["e\u{301}", "👍🏽"]
        var compared = 0
        for _ in 0..<20_000 {
            let text = String((0..<next(24)).map { _ in alphabet[next(alphabet.count)] })
            // Half the patterns are picked from the text (they match), half at random.
            let source = next(2) == 0 && !text.isEmpty ? Array(text) : alphabet
            let filter = String((0..<(1 + next(4))).map { _ in source[next(source.count)] })
            let pattern = FuzzyPattern(filter)
            var bytes: [UInt8] = []
            var classes: [UInt8] = []
            TextMatching.appendKey(of: text, to: &bytes, classes: &classes)
            let scratch = FuzzyMatcher.Scratch(pattern)
            let fast = bytes.withUnsafeBufferPointer { b in
                classes.withUnsafeBufferPointer { c in FuzzyMatcher.score(b, c, 0, b.count, scratch) }
            }
            let full = FuzzyMatcher.score(pattern, in: text)
            #expect(fast.map(Int.init) == full, "\(filter) in \(text)")
            if full != nil { compared += 1 }
        }
        #expect(compared > 5_000, "enough of them match to compare scores")
    }

    @Test(
        "the search's sweep scores as the full alignment on 6,000 long texts mid-buffer, for patterns of 2 to 10 characters with repeats, ASCII and not"
    )
    func sweepAgreesOnLongPatterns() {
        var random = SeededRandom(0x5EED_5EE9)
        func next(_ bound: Int) -> Int { random.next(bound) }
        let alphabet: [Character] = Array("aaAbbBcC1 -_/.@:éΩ日ßk") + ["e\u{301}"]
        func text(_ count: Int) -> String { String((0..<count).map { _ in alphabet[next(alphabet.count)] }) }
        var compared = 0
        for _ in 0..<6_000 {
            // The text sits after another one in the buffer, as in the search index.
            let before = text(next(6))
            let characters = Array(text(next(48)))
            let length = 2 + next(9)
            let filter: String
            if next(3) != 0 && characters.count >= length {
                // Characters of the text, in order: the pattern matches, often in several ways.
                let picked = (0..<characters.count).shuffled(using: &random).prefix(length).sorted()
                filter = String(picked.map { characters[$0] })
            } else {
                filter = text(length)
            }
            let pattern = FuzzyPattern(filter)
            var bytes: [UInt8] = []
            var classes: [UInt8] = []
            TextMatching.appendKey(of: before, to: &bytes, classes: &classes)
            let start = bytes.count
            TextMatching.appendKey(of: String(characters), to: &bytes, classes: &classes)
            let (sweep, full) = bytes.withUnsafeBufferPointer { b in
                classes.withUnsafeBufferPointer { c in
                    (
                        FuzzyMatcher.score(b, c, start, b.count, FuzzyMatcher.Scratch(pattern)),
                        FuzzyMatcher.align(b, c, start, b.count, FuzzyMatcher.Scratch(pattern))
                    )
                }
            }
            #expect(sweep == full, "\(filter) in \(String(characters)) after \(before)")
            if full != nil { compared += 1 }
        }
        #expect(compared > 3_000, "enough of them match to compare scores")
        // A pattern of more than 64 characters takes the full table, through the same entry.
        let long = String(repeating: "ab", count: 40)
        let text = "x " + long + " y"
        var bytes: [UInt8] = []
        var classes: [UInt8] = []
        TextMatching.appendKey(of: text, to: &bytes, classes: &classes)
        let fast = bytes.withUnsafeBufferPointer { b in
            classes.withUnsafeBufferPointer { c in FuzzyMatcher.score(b, c, 0, b.count, FuzzyMatcher.Scratch(FuzzyPattern(long))) }
        }
        #expect(fast != nil)
        #expect(fast.map(Int.init) == FuzzyMatcher.score(FuzzyPattern(long), in: text))
    }

    @Test("the search index ranks 300 random accounts as scoring each name and handle alone does, for 300 patterns")
    func indexAgreesWithReference() {
        var random = SeededRandom(0xACC0_0475)
        func next(_ bound: Int) -> Int { random.next(bound) }
        let alphabet: [Character] = Array("aAbBwWkK017 -@.éßΩ")
        func text() -> String { String((0..<(1 + next(14))).map { _ in alphabet[next(alphabet.count)] }) }
        let accounts = (0..<300).map { Account(id: "a\($0)", name: text(), handle: next(3) == 0 ? nil : text()) }
        let index = SearchIndex(accounts)
        func keyLength(_ text: String) -> Int {
            var bytes: [UInt8] = []
            TextMatching.appendKey(of: text, to: &bytes)
            return min(255, bytes.count)
        }
        var matched = 0
        for _ in 0..<300 {
            let filter = String((0..<(1 + next(3))).map { _ in alphabet[next(alphabet.count)] })
            let pattern = FuzzyPattern(filter)
            var reference: [(score: Int, length: Int, index: Int)] = []
            for (i, account) in accounts.enumerated() {
                let name = FuzzyMatcher.score(pattern, in: account.name)
                let handle = account.handle.flatMap { FuzzyMatcher.score(pattern, in: $0) }
                guard name != nil || handle != nil else { continue }
                let byHandle = (handle ?? -1) > (name ?? -1)
                reference.append((byHandle ? handle! : name!, keyLength(byHandle ? account.handle! : account.name), i))
            }
            reference.sort { ($0.score, -$0.length, -$0.index) > ($1.score, -$1.length, -$1.index) }
            matched += reference.count
            #expect(index.matches(pattern, among: accounts.indices) == reference.map { .account($0.index) }, "\(filter)")
        }
        #expect(matched > 3_000, "the patterns match enough accounts to rank")
    }
}

/// A seeded linear congruential generator, so random cases are the same on every run.
struct SeededRandom: RandomNumberGenerator {
    var seed: UInt64
    init(_ seed: UInt64) { self.seed = seed }

    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((seed >> 33) % UInt64(bound))
    }

    /// 64 random bits (for `shuffled(using:)`).
    mutating func next() -> UInt64 {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return seed
    }
}
