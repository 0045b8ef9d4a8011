import Glibc
import PerchStore

/// Answers to tools' read-only questions (`git config --global --get-regexp …`, `git var
/// GIT_COMMITTER_IDENT`, `kubectl config view -o jsonpath=…`), kept in Perch's own folder beside
/// the state (``IdentityFiles/answers``, mode 0700, one JSON file per question, mode 0600), so
/// that `perch exec`, which an agent may start thousands of times, does not start each tool
/// each time.
///
/// A kept answer is given only for the same question (the program's path and its file's
/// identity, the arguments, the folder, the variables the question names, and any other text
/// it depends on) while every file the answer was read from is as it was: device, inode, size,
/// modification and status-change times in nanoseconds (``KeptFiles``), a file that did not
/// exist still missing. Nothing is kept when one of those files changed within
/// ``CurrentAccountCache/racyWindowNanoseconds`` or during the question, or when the tool
/// exited with a status the question does not accept (or timed out, or did not start). The answers hold
/// names and settings of the user's configs (never a credential: the questions ask for none).
public enum AnswerCache {
    static let version = 1

    /// One question to a tool: what it runs, what its answer depends on.
    struct Question {
        var program: String
        var arguments: [String]
        var folder: String?
        /// The variables the answer depends on: names, or prefixes ending in `*` (`GIT_*`).
        var variables: [String]
        /// The files the answer is read from, known before asking.
        var files: [String]
        /// The files the answer names as read too (an include's target), from its output.
        var alsoRead: (String) -> [String] = { _ in [] }
        /// Other text the answer depends on (the host's name).
        var other: String = ""
        /// The exit statuses whose answer (standard output and error) is kept: those the files
        /// decide (git config's 1, no such key; git var's 128, no email to guess).
        var accepted: Set<Int32> = [0]
    }

    /// The answer to `question` in `context`: kept when the question and its files are as they
    /// were, else asked of the tool (``ToolContext/run(_:_:in:)``) and kept for next time.
    static func ask(_ question: Question, in context: ToolContext, now: () -> Int64 = CurrentAccountCache.realTimeNanoseconds)
        -> ProgramResult
    {
        guard let key = key(question, context.environment) else {
            return context.run(question.program, question.arguments, in: question.folder)
        }
        let path = context.files.answers + "/" + ScopeSecrets.hexadecimal(ScopeSecrets.fnv1a(Array(key.utf8))) + ".json"
        if let kept = kept(at: path, key: key, base: question.files) { return kept }
        let before = question.files.map(KeptFiles.identity)
        let result = context.run(question.program, question.arguments, in: question.folder)
        guard case .exited(let status, let output, let errors) = result, question.accepted.contains(status),
            question.files.map(KeptFiles.identity) == before,
            let rows = KeptFiles.json(question.files + question.alsoRead(output), now: now())
        else { return result }
        let text =
            "{\"version\": \(version), \"key\": \(ConfigWriter.json(key)), \"status\": \(status), \"output\": \(ConfigWriter.json(output)),\n \"errors\": \(ConfigWriter.json(errors)), \"files\": "
            + rows + "}\n"
        do {
            try FileSystem.createDirectory(context.files.answers)
            try FileSystem.writeAtomically(Array(text.utf8), to: path, mode: 0o600)
        } catch {}  // Not kept: asked again next time.
        return result
    }

    /// What identifies `question` in `environment`; nil when its program is not on `PATH` (asked, so that the tool's own failure is said).
    static func key(_ question: Question, _ environment: IdentityEnvironment) -> String? {
        guard let program = environment.which(question.program), let identity = KeptFiles.identity(program) else { return nil }
        var names: [String] = []
        for name in question.variables {
            if name.hasSuffix("*") {
                names += environment.variables.keys.filter { $0.hasPrefix(name.dropLast()) }.sorted()
            } else {
                names.append(name)
            }
        }
        let variables = names.map { name in environment.variables[name].map { name + "=" + $0 } ?? name }
        let parts = [
            program, identity.map(String.init).joined(separator: " "), question.arguments.joined(separator: "\u{1E}"),
            question.folder ?? "",
        ]
        return (parts + [variables.joined(separator: "\u{1E}"), question.other]).joined(separator: "\u{1F}")
    }

    /// The kept answer at `path` for `key`, when its files begin with `base` and each is as it was.
    static func kept(at path: String, key: String, base: [String]) -> ProgramResult? {
        guard let bytes = try? FileSystem.read(path, limit: 1 << 20), let document = try? JSONReader.read(bytes),
            document.kind(document.root) == .object
        else { return nil }
        let root = document.root
        guard document.value(of: root, forKey: "version").flatMap(document.integer) == version,
            document.value(of: root, forKey: "key").flatMap(document.string) == key,
            let status = document.value(of: root, forKey: "status").flatMap(document.integer),
            let output = document.value(of: root, forKey: "output").flatMap(document.string),
            let errors = document.value(of: root, forKey: "errors").flatMap(document.string),
            let files = document.value(of: root, forKey: "files"), let paths = KeptFiles.unchanged(files, in: document),
            paths.count >= base.count, Array(paths.prefix(base.count)) == base
        else { return nil }
        return .exited(status: Int32(clamping: status), stdout: output, stderr: errors)
    }
}
