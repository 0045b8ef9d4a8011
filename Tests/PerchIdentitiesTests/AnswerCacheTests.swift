import Foundation
import PerchDomain
import PerchInterface
import PerchStore
import Testing

@testable import PerchIdentities

/// `perch exec ACCOUNT -- true` took 86.8 ms over `true` for an account with a kube namespace:
/// each run asked `kubectl config view` (and git twice) what the user's files say. The answers
/// are kept (``AnswerCache``) while the question and every file it read are as they were.
struct AnswerCacheTests {
    /// Far enough after every file's times that the racy window is over.
    static let later = CurrentAccountCache.realTimeNanoseconds() + 3_600_000_000_000

    /// A scratch home with `tool`, which prints its config file's first line and counts its runs.
    func home() throws -> ScratchHome {
        let home = try ScratchHome(fakes: [])
        try home.install(
            "tool", #"echo run >> "$HOME/calls/tool.log"; head -n 1 "$HOME/tool.conf"; [ -z "$FAIL" ] || { echo oops >&2; exit 3; }"#)
        try home.write("one\n", to: "tool.conf")
        return home
    }

    func question(_ home: ScratchHome, also: [String] = [], accepted: Set<Int32> = [0]) -> AnswerCache.Question {
        AnswerCache.Question(
            program: "tool", arguments: ["read"], variables: ["FAIL", "TOOL_*"], files: [home.home + "/tool.conf"], alsoRead: { _ in also },
            accepted: accepted)
    }

    @Test("an answer is kept, used while nothing changed, and asked again when a file, a variable or the question changes")
    func keptWhileUnchanged() throws {
        let home = try home()
        let context = ToolContext(environment: home.environment)
        #expect(AnswerCache.ask(question(home), in: context, now: { Self.later }).output == "one\n")
        #expect(AnswerCache.ask(question(home), in: context, now: { Self.later }).output == "one\n")
        #expect(home.calls("tool").count == 1, "the second answer was the kept one")
        // The file rewritten in place (same inode): asked again.
        let handle = try #require(FileHandle(forWritingAtPath: home.home + "/tool.conf"))
        handle.write(Data("two\n".utf8))
        try handle.close()
        #expect(AnswerCache.ask(question(home), in: context, now: { Self.later }).output == "two\n")
        #expect(home.calls("tool").count == 2)
        // A variable the question names: asked again; one it does not name: kept.
        var other = context
        other.environment.variables["TOOL_PROFILE"] = "b"
        _ = AnswerCache.ask(question(home), in: other, now: { Self.later })
        #expect(home.calls("tool").count == 3)
        other.environment.variables["UNRELATED"] = "x"
        _ = AnswerCache.ask(question(home), in: other, now: { Self.later })
        #expect(home.calls("tool").count == 3)
        // Other arguments are another question.
        var second = question(home)
        second.arguments = ["read", "again"]
        _ = AnswerCache.ask(second, in: context, now: { Self.later })
        #expect(home.calls("tool").count == 4)
    }

    @Test("a file the answer names (an include) is watched too, and one that did not exist must still not exist")
    func alsoReadAndMissing() throws {
        let home = try home()
        let context = ToolContext(environment: home.environment)
        let included = home.home + "/included.conf"
        _ = AnswerCache.ask(question(home, also: [included]), in: context, now: { Self.later })
        _ = AnswerCache.ask(question(home, also: [included]), in: context, now: { Self.later })
        #expect(home.calls("tool").count == 1)
        try home.write("x\n", to: "included.conf")
        _ = AnswerCache.ask(question(home, also: [included]), in: context, now: { Self.later })
        #expect(home.calls("tool").count == 2, "the included file appeared")
    }

    @Test("nothing is kept from a file changed within the racy window, nor an exit status the question does not accept")
    func notKept() throws {
        let home = try home()
        let context = ToolContext(environment: home.environment)
        _ = AnswerCache.ask(question(home), in: context)
        _ = AnswerCache.ask(question(home), in: context)
        #expect(home.calls("tool").count == 2, "the file was written just now")
        var failing = context
        failing.environment.variables["FAIL"] = "1"
        let first = AnswerCache.ask(question(home), in: failing, now: { Self.later })
        #expect(first.failure?.contains("oops") == true)
        _ = AnswerCache.ask(question(home), in: failing, now: { Self.later })
        #expect(home.calls("tool").count == 4, "a failure is asked again")
        // A status the files decide is kept, with its stderr.
        _ = AnswerCache.ask(question(home, accepted: [0, 3]), in: failing, now: { Self.later })
        let kept = AnswerCache.ask(question(home, accepted: [0, 3]), in: failing, now: { Self.later })
        #expect(home.calls("tool").count == 5)
        #expect(kept == .exited(status: 3, stdout: "one\n", stderr: "oops\n"))
    }

    @Test("the answers' folder and files are the user's alone (0700, 0600)")
    func modes() throws {
        let home = try home()
        let context = ToolContext(environment: home.environment)
        _ = AnswerCache.ask(question(home), in: context, now: { Self.later })
        let folder = context.files.answers
        let attributes = try FileManager.default.attributesOfItem(atPath: folder)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(files.count == 1)
        let file = try FileManager.default.attributesOfItem(atPath: folder + "/" + files[0])
        #expect((file[.posixPermissions] as? Int) == 0o600)
    }
}
