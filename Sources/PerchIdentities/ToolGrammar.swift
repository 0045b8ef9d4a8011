import PerchDomain
import PerchStore

/// What each tool's file grammar holds as a plain value, in one place: the checks `perch config
/// check` runs on every value before it can reach a tool's file (each adapter's
/// ``ToolAdapter/read(_:)`` calls them), and the quoting used when writing what they let
/// through. A value a grammar cannot hold as data is refused with its reason; it never becomes
/// syntax (docs/security.md, "Every value is valid in the file it goes into"). Tests write
/// hostile values through each writer and ask the real tool to read them back (`ssh -G`,
/// `kubectl config view`).
public enum ToolGrammar {
    // MARK: ssh_config(5)

    /// Why `host` cannot be one pattern of an ssh_config `Match originalhost` list, or nil.
    ///
    /// ssh_config(5) splits a line at whitespace and at `=` (readconf.c, `strdelim`), takes `"`
    /// and `'` as quotes and `#` as a comment, and a pattern list at `,`: a host holding any of
    /// these would be read as other words (`github.com=exec=CMD` became `Match … exec CMD`). A
    /// pattern is ASCII letters, digits and `. - _ * ? ! [ ] : @ %`.
    public static func sshPatternProblem(_ host: String) -> String? {
        if host.isEmpty { return "is empty" }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_*?![]:@%".unicodeScalars)
        guard let bad = host.unicodeScalars.first(where: { !allowed.contains($0) }) else { return nil }
        return "must be one host pattern (letters, digits and . - _ * ? ! [ ] : @ %), not \(described(bad))"
    }

    /// Why `path` cannot be an ssh_config `IdentityFile` or `IdentityAgent` path, or nil.
    ///
    /// ssh_config(5), "TOKENS" and "ENVIRONMENT VARIABLES": ssh expands `%` tokens and `${VAR}`
    /// in these paths, and its tokenizer takes `"`, `'` and `\` as quoting: a path holding them
    /// would name another file. Spaces, `#` and `=` are written inside double quotes
    /// (``sshQuoted(_:)``).
    public static func sshPathProblem(_ path: String) -> String? {
        if path.isEmpty { return "is empty" }
        if let bad = path.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "must be a plain path, without \(described(bad))"
        }
        for (text, why) in [
            ("\"", "a quote"), ("'", "a quote"), ("\\", "a backslash"), ("%", "a % (ssh expands its tokens)"),
            ("${", "${ (ssh expands variables)"),
        ]
        where path.contains(text) {
            return "must be a plain path, without \(why)"
        }
        return nil
    }

    /// `path` as one ssh_config word: as it is when it holds only letters, digits and
    /// `. _ - / ~ + @ , :`, else in double quotes (``sshPathProblem(_:)`` leaves no `"` or `\`
    /// that quoting could not hold).
    public static func sshQuoted(_ path: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/~+@,:".unicodeScalars)
        return path.unicodeScalars.allSatisfy(plain.contains) ? path : "\"\(path)\""
    }

    // MARK: YAML (kubeconfig)

    /// Why `name` cannot be a kubeconfig name Perch writes (a context, a namespace), or nil:
    /// control characters, `"` and `\`, and space at either end are refused; every other name
    /// is written as ``yamlScalar(_:)`` gives it.
    public static func yamlNameProblem(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name.hasPrefix("-") { return "must not begin with '-' (it would read as an option of kubectl)" }
        if let bad = name.unicodeScalars.first(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\"" || $0 == "\\" }) {
            return "must not hold \(described(bad))"
        }
        if name.first?.isWhitespace == true || name.last?.isWhitespace == true { return "must not start or end with a space" }
        return nil
    }

    /// The YAML 1.1 and 1.2 words a plain scalar reads as something other than a string
    /// (YAML 1.1 "Boolean Language-Independent Type", "Null"), lower-cased.
    static let yamlWords: Set<String> = ["y", "n", "yes", "no", "true", "false", "on", "off", "null", "~"]

    /// `text` as a YAML scalar that reads back as the same string in YAML 1.1 and 1.2 (kubectl
    /// reads kubeconfig with a YAML 1.1 reader): plain when it is a letter followed by letters,
    /// digits and `. _ - / @` and is not one of the special words (`yes`, `null`, …); else
    /// double-quoted as a JSON string (YAML 1.2 §7.3.1 takes JSON's escapes). A number (`123`),
    /// an alias (`*x`), a tag (`!x`) or a flow start (`[`) is quoted.
    public static func yamlScalar(_ text: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/@".unicodeScalars)
        if let first = text.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII,
            text.unicodeScalars.allSatisfy(plain.contains), !yamlWords.contains(text.lowercased())
        {
            return text
        }
        return ConfigWriter.jsonString(text)
    }

    // MARK: Plain names

    /// Why `text` cannot be a plain one-line name of a tool's (a gh user or host, an AWS
    /// profile, a docker context), or nil: control characters, quotes, backslashes and
    /// whitespace are refused.
    public static func plainNameProblem(_ text: String) -> String? {
        if text.isEmpty { return "is empty" }
        // Passed to the tool as an argument: a leading '-' would read as an option.
        if text.hasPrefix("-") { return "must not begin with '-' (it would read as an option)" }
        if let bad = text.unicodeScalars.first(where: {
            $0.value < 0x21 || (0x7F...0xA0).contains($0.value) || $0 == "\"" || $0 == "'" || $0 == "\\" || $0 == "`"
        }) {
            return "must not hold \(described(bad))"
        }
        return nil
    }

    /// A character named for a message: printable ones in quotes, others by their code
    /// (`U+001B`), so that the message itself holds no control character.
    static func described(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case " ": return "a space"
        case "\t": return "a tab"
        case "\n", "\r": return "a line break"
        case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "the control character U+" + String(repeating: "0", count: 4 - hex.count) + hex
        default: return "'\(scalar)'"
        }
    }
}
