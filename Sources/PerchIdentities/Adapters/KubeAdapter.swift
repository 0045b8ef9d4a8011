import Glibc
import PerchDomain
import PerchStore

extension IdentityTool {
    public static let kube = IdentityTool("kube")
}

/// `kube`: a context of the kubeconfig, and optionally its namespace. The current context is a
/// top-level key of a documented file (kubeconfig, "current-context"), so it is written there
/// directly, changing that one line and nothing else (kubectl is started only for a namespace,
/// which sits inside the context's entry). Checked the way kubectl reads it: the first file of
/// `$KUBECONFIG` that sets `current-context`.
public struct KubeAdapter: ToolAdapter {
    /// `"kube": {"context": "prod", "namespace": "web"}`.
    public struct Setting: Hashable, Sendable {
        public var context: String
        public var namespace: String?
        public init(context: String, namespace: String? = nil) {
            self.context = context
            self.namespace = namespace
        }
    }

    public init() {}
    public var tool: IdentityTool { .kube }
    /// How a scope carries it (the man page's SCOPES).
    public var scopeCarrier: String? { "a kubeconfig of Perch's, first in KUBECONFIG" }
    /// Its member in the starter config, commented out.
    public var configExample: ToolConfigExample? { ToolConfigExample("\"kube\": { \"context\": \"work-prod\", \"namespace\": \"web\" }") }
    /// Its proof asks the server whom the key or token belongs to: `expect` may name it.
    public var acceptsExpectation: Bool { true }
    public var title: String { "kubectl" }
    public var fieldPaths: [String] { ["kube.context", "kube.namespace"] }
    public var program: String? { "kubectl" }

    public static func setting(_ value: Setting) -> ToolSetting {
        ToolSetting(
            tool: .kube, summary: value.namespace.map { "\(value.context), namespace \($0)" } ?? value.context,
            fields: [ToolField("context", value.context)] + (value.namespace.map { [ToolField("namespace", $0)] } ?? []), value: value)
    }

    public func read(_ reader: inout ToolMemberReader) -> ToolSetting? {
        guard reader.expectObject(#"{"context": "prod", "namespace": "web"}"#) else { return nil }
        let context = reader.string("context", required: true)
        let namespace = reader.string("namespace")
        for (key, name) in [("context", context), ("namespace", namespace)] {
            if let name, let problem = ToolGrammar.yamlNameProblem(name) { reader.problems.append("\(reader.place).\(key): \(problem)") }
        }
        reader.finish(known: ["context", "namespace"])
        return context.map { Self.setting(Setting(context: $0, namespace: namespace)) }
    }

    public func json(_ setting: ToolSetting) -> String {
        let kube = setting.value(as: Setting.self)
        return IdentityConfig.object([("context", kube?.context), ("namespace", kube?.namespace)])
    }

    public func wanted(_ setting: ToolSetting?, account: Account, in context: ToolContext) -> ToolState? {
        guard let kube = setting?.value(as: Setting.self) else { return nil }
        var state = ToolState(["context": kube.context])
        if let namespace = kube.namespace { state["namespace"] = namespace }
        return state
    }

    /// The current context, its namespace, and every context's namespace (`ns:NAME` keys), so a
    /// switch that changed another context's namespace can put it back.
    public func current(in context: ToolContext) -> Result<ToolState, ToolFailure> {
        // Without kubectl there is nothing to switch for (and no namespace could be set): a skip.
        guard context.environment.which("kubectl") != nil else { return .failure(ToolFailure("kubectl not found")) }
        let name = ToolReaders.kubeCurrentContext(context.environment) ?? ""
        var state = ToolState(["context": name, "namespace": ""])
        // The line as the user wrote it (quotes, a comment), so a give-back writes it as it was.
        if let line = Self.currentContextLine(context.environment) { state["line"] = line }
        do {
            // The namespaces sit inside the contexts' entries: kubectl resolves them.
            let run = context.run(
                "kubectl", ["config", "view", "-o", #"jsonpath={range .contexts[*]}{.name}{"\t"}{.context.namespace}{"\n"}{end}"#])
            for line in (run.output ?? "").split(separator: "\n") {
                let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
                guard let first = parts.first, !first.isEmpty else { continue }
                state["ns:" + first] = parts.count > 1 ? String(parts[1]) : ""
            }
            state["namespace"] = state["ns:" + name] ?? ""
        }
        return .success(state)
    }

    /// The text of the kubeconfig's `current-context` line, without its line end; nil when it has none.
    static func currentContextLine(_ environment: IdentityEnvironment) -> String? {
        guard let found = currentContextFile(environment), let index = found.index else { return nil }
        return String(found.lines.text(index))
    }

    public func isMet(_ wanted: ToolState, by now: ToolState) -> Bool {
        // A context without a namespace uses `default`.
        var now = now
        if now["namespace"] == "", wanted["namespace"] == "default" { now["namespace"] = "default" }
        return wanted.isMet(by: now)
    }

    public func apply(_ state: ToolState, in context: ToolContext) -> ToolStep {
        guard case .success(let now) = current(in: context) else { return .skipped("kubectl not found") }
        return apply(state, over: now, in: context)
    }

    /// Writes `current-context`, sets the namespaces that differ from `now` (the current
    /// context's when asked, and any other a before-state names), then verifies: the file for the
    /// context, kubectl for namespaces only when one was set.
    public func apply(_ state: ToolState, over now: ToolState, in context: ToolContext) -> ToolStep {
        let name = state["context"] ?? ""
        // Checked, written and read back under kubectl's own lock: kubectl writes the file in
        // place (not by rename), so a read beside it could see it half written, and a write
        // beside it would lose one of the two.
        var after = now
        do {
            let lock = try Self.currentContextFile(context.environment).map { file throws(FileError) in
                try KubeconfigLock.acquire(file.path)
            }
            defer { lock?.release() }
            if !name.isEmpty, !ToolReaders.kubeContexts(context.environment).contains(name) {
                return .failed("no context \"\(name)\" in the kubeconfig (kubectl config get-contexts lists them)")
            }
            try Self.writeCurrentContext(name, line: state["line"], context.environment)
            after["context"] = ToolReaders.kubeCurrentContext(context.environment) ?? ""
            after["line"] = Self.currentContextLine(context.environment)
        } catch {
            return .failed("\(error)")
        }
        var namespaces: [(String, String)] = []
        if let namespace = state["namespace"], !name.isEmpty { namespaces.append((name, namespace)) }
        for (key, value) in state.values.sorted(by: { $0.key < $1.key }) where key.hasPrefix("ns:") && String(key.dropFirst(3)) != name {
            namespaces.append((String(key.dropFirst(3)), value))
        }
        var setOne = false
        for (contextName, namespace) in namespaces where now["ns:" + contextName].map({ $0 != namespace }) ?? true {
            let run =
                namespace.isEmpty
                ? context.run("kubectl", ["config", "unset", "contexts.\(contextName).namespace"])
                : context.run("kubectl", ["config", "set-context", contextName, "--namespace", namespace])
            if let failure = run.failure { return .failed("kubectl config set-context: \(failure)") }
            setOne = true
        }
        after["namespace"] = now["ns:" + (after["context"] ?? "")] ?? ""
        if setOne {
            guard case .success(let read) = current(in: context) else { return .failed("kubectl could not be asked after the change") }
            after = read
        }
        guard isMet(state, by: after) else {
            return .failed("kubectl reports \(describe(after)) after the change")
        }
        return .applied(describe(after))
    }

    public func describe(_ state: ToolState) -> String {
        let name = state["context"] ?? ""
        guard !name.isEmpty else { return "(no current context)" }
        let namespace = state["namespace"] ?? ""
        return namespace.isEmpty ? name : "\(name), namespace \(namespace)"
    }

    /// The kubeconfig file kubectl would change for the current context (the first of
    /// `$KUBECONFIG` that sets one, else the first), its contents (nil: no such file), its
    /// lines, and the index of its top-level `current-context` line, if any.
    static func currentContextFile(_ environment: IdentityEnvironment) -> (
        path: String, contents: FileContents?, lines: FileLines, index: Int?
    )? {
        let files = ToolReaders.kubeconfigFiles(environment)
        guard !files.isEmpty else { return nil }
        var found: (path: String, contents: FileContents?, lines: FileLines, index: Int?)?
        for file in files {
            let read = try? FileSystem.readContents(file)
            let lines = FileLines(read?.bytes ?? [])
            let index = lines.texts.firstIndex { $0.hasPrefix("current-context:") }
            if let index, !ToolReaders.unquoted(lines.text(index).dropFirst(16)).isEmpty { return (file, read, lines, index) }
            if found == nil { found = (file, read, lines, index) }
        }
        return found
    }

    /// Sets the top-level `current-context` of the kubeconfig file kubectl would change
    /// (``currentContextFile(_:)``), rewriting that line only and atomically; `""` removes the
    /// line. `line`, the line as the user had it (from a before-state), is written as it was
    /// when it names `name`, so a give-back returns the file byte for byte; every other byte
    /// always stays as it was.
    static func writeCurrentContext(_ name: String, line: String? = nil, _ environment: IdentityEnvironment) throws(FileError) {
        // The caller holds kubectl's lock on the file (``KubeconfigLock``).
        guard let found = currentContextFile(environment) else { return }
        var lines = found.lines
        // Bug (trust issue): a context named `123` was written plain, and kubectl could not load the file.
        let value = name.isEmpty ? "" : ToolGrammar.yamlScalar(name)
        let own = line.flatMap { ToolReaders.unquoted($0.dropFirst(16)) == name && $0.hasPrefix("current-context:") ? $0 : nil }
        let text = own ?? "current-context: \(value)"
        if let index = found.index {
            if name.isEmpty, own == nil { lines.remove([index]) } else { lines.replace(index, with: text) }
        } else if !name.isEmpty || own != nil {
            lines.insert([text], at: lines.endIndex)
        }
        guard lines != found.lines else { return }
        try FileSystem.writeAtomically(lines.bytes, to: found.path, mode: mode_t(found.contents?.mode ?? 0o600))
    }

    /// The context alone: another namespace of a context an account names is the same identity.
    public func importIdentity(_ setting: ToolSetting, in environment: IdentityEnvironment) -> String {
        setting.value(as: Setting.self)?.context ?? setting.summary
    }

    public func importCandidates(in context: ToolContext) -> [ImportCandidate] {
        ToolReaders.kubeContexts(context.environment).map {
            ImportCandidate(idBase: "kube-" + $0, name: $0, group: "Kubernetes", setting: Self.setting(Setting(context: $0)))
        }
    }

    // MARK: Scope

    /// A kubeconfig of Perch's own for the account (``IdentityFiles/scopes``, `ID.kubeconfig`,
    /// mode 0600) put first in `KUBECONFIG`, before the user's own list, as kubie does: it sets
    /// `current-context` and, for a namespace, the context's entry again with it (kubeconfig
    /// merging: the first file to set a value or a map key wins). The user's files are never
    /// written. With no kube setting the process keeps the user's own list (a scope seals it
    /// instead, see ``sealed(_:account:over:in:)``).
    public func scope(_ setting: ToolSetting?, account: Account, over environment: [String: String], in context: ToolContext)
        -> Result<ToolScope, ToolFailure>
    {
        let own = Self.ownFiles(context)
        guard let kube = setting?.value(as: Setting.self) else {
            let restored = own.joined(separator: ":")
            return .success(
                ToolScope(variables: environment["KUBECONFIG"].map { $0 == restored ? [] : [ScopeVariable("KUBECONFIG", restored)] } ?? []))
        }
        var user = context.environment
        user.variables["KUBECONFIG"] = own.joined(separator: ":")
        guard ToolReaders.kubeContexts(user).contains(kube.context) else {
            return .failure(ToolFailure("no context \"\(kube.context)\" in the kubeconfig (kubectl config get-contexts lists them)"))
        }
        return overlay(kube.context, namespace: kube.namespace, entry: kube.namespace != nil, account: account, in: context)
    }

    /// The user's own context (`own`: their baseline, else the kubeconfig's now) in a kubeconfig
    /// of Perch's put first, as ``scope(_:account:over:in:)`` does for an account's: its
    /// `current-context`, and the context's entry again with its namespace or none, so that
    /// neither a global switch's `current-context` nor its namespace reaches the process. With
    /// no context of the user's own, the file names `(none)`, a context no kubeconfig has:
    /// kubectl then says the context was not found instead of using the global account's.
    public func sealed(_ own: ToolState, account: Account, over environment: [String: String], in context: ToolContext)
        -> Result<ToolScope, ToolFailure>
    {
        let name = own["context"] ?? ""
        guard !name.isEmpty else { return overlay(Self.noContext, namespace: nil, entry: false, account: account, in: context) }
        let namespace = own["ns:" + name] ?? own["namespace"] ?? ""
        // A context gone from the kubeconfig is named all the same: kubectl says so, as without Perch.
        var user = context.environment
        user.variables["KUBECONFIG"] = Self.ownFiles(context).joined(separator: ":")
        let listed = ToolReaders.kubeContexts(user).contains(name)
        return overlay(name, namespace: namespace.isEmpty ? nil : namespace, entry: listed, account: account, in: context)
    }

    /// The user's own context as a setting, for `perch status` in a scope; nil with none.
    public func ownSetting(_ own: ToolState, over environment: [String: String]) -> ToolSetting? {
        let name = own["context"] ?? ""
        guard !name.isEmpty else { return nil }
        let namespace = own["ns:" + name] ?? own["namespace"] ?? ""
        return Self.setting(Setting(context: name, namespace: namespace.isEmpty ? nil : namespace))
    }

    /// The context a sealed scope names when the user has no current context of their own.
    static let noContext = "(none)"

    /// The user's own kubeconfig list, without any kubeconfig of Perch's from an enclosing scope.
    static func ownFiles(_ context: ToolContext) -> [String] {
        ToolReaders.kubeconfigFiles(context.environment).filter { !$0.hasPrefix(context.files.scopes + "/") }
    }

    /// Writes the scope's kubeconfig (``scope(_:account:over:in:)``) naming `name` as the current
    /// context and, with `entry`, the context's entry again (its cluster and user as kubectl
    /// merges the user's files) with `namespace` or none; returns `KUBECONFIG` with it first.
    func overlay(_ name: String, namespace: String?, entry: Bool, account: Account, in context: ToolContext)
        -> Result<ToolScope, ToolFailure>
    {
        let path = context.files.scopes + "/" + account.id + ".kubeconfig"
        let own = Self.ownFiles(context)
        var text =
            "# Written by Perch for `perch exec` and `perch use` of the account \"\(account.id)\"; your kubeconfig is never written.\n"
        text += "apiVersion: v1\nkind: Config\ncurrent-context: \(Self.yamlQuoted(name))\n"
        if entry {
            // The context's cluster and user, from the user's files as kubectl merges them.
            var reader = context
            reader.environment.variables["KUBECONFIG"] = own.joined(separator: ":")
            // Kept (``AnswerCache``) while the kubeconfig files are as they were: a kubeconfig
            // includes no other file.
            let question = AnswerCache.Question(
                program: "kubectl",
                arguments: [
                    "config", "view", "-o",
                    #"jsonpath={range .contexts[*]}{.name}{"\t"}{.context.cluster}{"\t"}{.context.user}{"\n"}{end}"#,
                ],
                variables: ["KUBECONFIG", "HOME"], files: own.isEmpty ? [context.environment.home + "/.kube/config"] : own)
            let run = AnswerCache.ask(question, in: reader)
            guard let output = run.output else { return .failure(ToolFailure("kubectl config view: \(run.failure ?? "failed")")) }
            let found = output.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }.first {
                $0.first.map(String.init) == name
            }
            guard let found, found.count >= 3 else { return .failure(ToolFailure("kubectl does not list the context \"\(name)\"")) }
            text += "contexts:\n- name: \(Self.yamlQuoted(name))\n  context:\n"
            text += "    cluster: \(Self.yamlQuoted(String(found[1])))\n    user: \(Self.yamlQuoted(String(found[2])))\n"
            if let namespace { text += "    namespace: \(Self.yamlQuoted(namespace))\n" }
        }
        do {
            if (try? FileSystem.read(path)).map({ String(decoding: $0, as: UTF8.self) }) != text {
                try FileSystem.createDirectory(context.files.scopes)
                try FileSystem.writeAtomically(Array(text.utf8), to: path, mode: 0o600)
            }
        } catch {
            return .failure(ToolFailure("\(error)"))
        }
        return .success(ToolScope(variables: [ScopeVariable("KUBECONFIG", ([path] + own).joined(separator: ":"))]))
    }

    /// `text` as a YAML double-quoted scalar: a JSON string (YAML 1.2 §7.3.1 takes JSON's escapes).
    static func yamlQuoted(_ text: String) -> String { ConfigWriter.jsonString(text) }
}

// MARK: - Verify

extension KubeAdapter {
    static let minifyFormat =
        #"{.current-context}{"\t"}{.contexts[0].context.cluster}{"\t"}{.contexts[0].context.user}{"\t"}{.contexts[0].context.namespace}"#

    /// kubectl itself: `kubectl config view --minify` (the context kubectl uses here, with its
    /// cluster, user and namespace, `$KUBECONFIG` merged as kubectl merges it).
    public func ask(_ setting: ToolSetting, in context: ProofContext) -> [ToolAnswer] {
        guard let kube = setting.value(as: Setting.self) else { return [] }
        let expected = kube.context + (kube.namespace.map { ", namespace \($0)" } ?? "")
        let asked = "kubectl config view --minify"
        let run = context.run("kubectl", ["config", "view", "--minify", "-o", "jsonpath=" + Self.minifyFormat])
        if case .notFound = run { return [.unknown("kube", kind: .kube, expected: expected, reason: "kubectl not found", asked: asked)] }
        if case .timedOut = run {
            return [.unknown("kube", kind: .kube, expected: expected, reason: run.failure ?? "timed out", asked: asked)]
        }
        guard let output = run.output else {
            return [
                ToolAnswer(
                    tool: "kube", kind: .kube, expected: expected, answer: "(no current context)", verdict: .disagrees,
                    reason: run.failure ?? "kubectl has no current context", fix: "perch switch \(context.account.id)", asked: asked)
            ]
        }
        let fields = output.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        let name = fields.first ?? ""
        let namespace = fields.count > 3 && !fields[3].isEmpty ? fields[3] : "default"
        var answer = name.isEmpty ? "(no current context)" : name
        if fields.count > 2 { answer += ", namespace \(namespace), cluster \(fields[1]), user \(fields[2])" }
        let agrees = name == kube.context && (kube.namespace.map { $0 == namespace } ?? true)
        let beaten = context.tool.environment["KUBECONFIG"].map { " (KUBECONFIG=\($0))" } ?? ""
        return [
            ToolAnswer(
                tool: "kube", kind: .kube, expected: expected, answer: answer, verdict: agrees ? .agrees : .disagrees,
                reason: agrees
                    ? nil
                    : "kubectl uses \(name.isEmpty ? "no context" : name)\(name == kube.context ? ", namespace \(namespace)" : "")\(beaten)",
                fix: agrees ? nil : "perch switch \(context.account.id)", asked: asked)
        ]
    }

    /// `kubectl auth whoami`: the user the API server authenticates (the account's
    /// `expect.kube` names who it should be).
    public func askServer(_ setting: ToolSetting, in context: ProofContext) -> [ToolAnswer] {
        let expected = context.account.identities.expect["kube"] ?? ""
        let seconds = max(1, (context.tool.timeout + 999) / 1000)
        let asked = "kubectl auth whoami"
        let run = context.run("kubectl", ["auth", "whoami", "--request-timeout=\(seconds)s", "-o", "jsonpath={.status.userInfo.username}"])
        switch run {
        case .notFound:
            return [.unknown("kube (server)", kind: .kube, expected: expected, reason: "kubectl not found", asked: asked, online: true)]
        case .exited(0, let stdout, _) where !stdout.trimmingWhitespace.isEmpty:
            let user = stdout.trimmingWhitespace
            return [
                .judged(
                    "kube (server)", kind: .kube, expected: expected, answer: user, reason: "the API server knows you as \(user)",
                    fix: "kubectl config view --minify (the credentials of the context's user)", asked: asked, online: true)
            ]
        default:
            return [
                .unknown(
                    "kube (server)", kind: .kube, expected: expected,
                    reason: "could not reach the API server: \(run.failure ?? "no answer")",
                    asked: asked, online: true)
            ]
        }
    }
}

/// kubectl's lock on a kubeconfig (client-go's clientcmd `lockFile`: `FILE.lock` created with
/// `O_CREAT|O_EXCL`, removed when the write is done). Perch takes it the same way, waiting a
/// bounded time for a kubectl that holds it; a lock still there after that is reported with its
/// age, never written around (a kubectl killed mid-write leaves one, which stops kubectl too).
/// Perch writes `perch PID` into its own lock (kubectl's are empty), so that a lock left by a
/// Perch that was killed is known as such and taken over by the next command's recovery.
struct KubeconfigLock {
    let path: String

    /// How long to wait for the lock, in milliseconds.
    static let waitMilliseconds: Int64 = 2000

    /// Takes the lock of `kubeconfig`, waiting up to ``waitMilliseconds``.
    /// - Throws: ``FileError`` naming the lock and its age when it stays held, or why it could not be made.
    static func acquire(_ kubeconfig: String, waitMilliseconds: Int64 = waitMilliseconds) throws(FileError) -> KubeconfigLock {
        let lock = kubeconfig + ".lock"
        let deadline = ProcessSpawn.now() + waitMilliseconds
        while true {
            let fd = open(lock, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
            if fd >= 0 {
                let mark = Array("perch \(getpid())\n".utf8)
                _ = mark.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
                return KubeconfigLock(path: lock)
            }
            guard errno == EEXIST else { throw FileError(path: lock, code: errno, operation: "create the kubeconfig's lock") }
            if leftByDeadPerch(lock) {
                unlink(lock)
                continue
            }
            if ProcessSpawn.now() >= deadline { break }
            usleep(20_000)
        }
        let age = FileStatus.of(lock).map { max(0, Int64(time(nil)) - $0.modifiedSeconds) } ?? 0
        throw FileError(
            path: kubeconfig, code: EBUSY, operation: "lock",
            reason:
                "locked by \(lock) (\(age) s old): a kubectl is writing it, or one was killed and left the lock; when no kubectl runs, remove \(lock)"
        )
    }

    func release() { unlink(path) }

    /// Whether `lock` says `perch PID` for a process that no longer exists.
    static func leftByDeadPerch(_ lock: String) -> Bool {
        guard let bytes = try? FileSystem.read(lock), bytes.count < 64 else { return false }
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace
        guard text.hasPrefix("perch "), let pid = pid_t(text.dropFirst(6)), pid > 0, pid != getpid() else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }
}

// MARK: - Agents

extension KubeAdapter {
    /// A kubeconfig of Perch's naming no cluster, user or context.
    public func closed(in folder: String) throws(ToolFailure) -> [ScopeVariable] {
        [ScopeVariable("KUBECONFIG", try closedFile("kubeconfig", in: folder, text: "apiVersion: v1\nkind: Config\n"))]
            + ["KUBERNETES_SERVICE_HOST", "KUBERNETES_SERVICE_PORT"].map { ScopeVariable($0, nil) }
    }
}
