import Testing

@testable import PerchDomain

private let accounts = [
    Account(id: "work", name: "Work"), Account(id: "work2", name: "work"), Account(id: "oss", name: "Open Source"),
    Account(id: "side", name: "Side Project"), Account(id: "side2", name: "Side Project"),
]

@Suite("Account lookup")
struct AccountLookupTests {
    @Test("an exact id wins over a name")
    func exactID() {
        #expect(Account.lookup("work", in: accounts) == .found(accounts[0]))
        #expect(Account.lookup("work2", in: accounts) == .found(accounts[1]))
    }

    @Test("a name matches ignoring case when exactly one account has it")
    func name() {
        #expect(Account.lookup("open source", in: accounts) == .found(accounts[2]))
        #expect(Account.lookup("OPEN SOURCE", in: accounts) == .found(accounts[2]))
    }

    @Test("a name two accounts share is ambiguous and lists both")
    func ambiguous() {
        #expect(Account.lookup("side project", in: accounts) == .ambiguous([accounts[3], accounts[4]]))
        #expect(Account.lookup("WORK", in: accounts) == .ambiguous([accounts[0], accounts[1]]))
    }

    @Test("an unknown account lists the near ones, else all")
    func unknown() {
        #expect(Account.lookup("sid", in: accounts) == .unknown(candidates: [accounts[3], accounts[4]]))
        #expect(Account.lookup("zzz", in: accounts) == .unknown(candidates: accounts))
        #expect(Account.lookup("", in: []) == .unknown(candidates: []))
    }

    @Test(
        "ids are a–z, 0–9, '.', '_', '-' and not empty",
        arguments: [("a.b_c-9", true), ("", false), ("A", false), ("a b", false), ("é", false)])
    func validIDs(id: String, valid: Bool) {
        #expect(Account.isValidID(id) == valid)
    }
}
