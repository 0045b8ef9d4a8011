import Glibc
import PerchCore

extension IdentitySwitcher {
    // MARK: Checking (perch status, Overview)

    /// What each tool of `account` reports now beside what the account expects, in the order a
    /// switch applies them. Files are read where their format is documented (kubeconfig's
    /// `current-context`, gcloud's `active_config`, gh's `hosts.yml`); git and `ssh -G` are
    /// asked because only they resolve includes. Per-shell tools (aws, env) are compared with
    /// this process's environment only when it was set by `perch env` (`PERCH_ACCOUNT` is set).
    public func check(_ account: Account) -> [IdentityCheck] {
        account.identities.tools.map { check($0, of: account) }
    }

    /// Whether any check of `checks` found a tool that differs from the account (drift).
    public static func hasDrift(_ checks: [IdentityCheck]) -> Bool {
        checks.contains { $0.matches == false }
    }

    /// What `tool` reports now for `account` (see ``check(_:)``); for one row of a list.
    public func check(_ tool: IdentityTool, of account: Account) -> IdentityCheck {
        let identities = account.identities
        switch tool {
        case .git:
            guard let git = identities.git else {
                return IdentityCheck(tool: .git, expected: "", actual: nil, matches: nil, note: "no git identity")
            }
            let expected = identities.expected(.git)
            let run = ProgramRunner.run(
                "git", ["config", "--global", "--includes", "--get-regexp", "^user\\.(name|email|signingkey)$"], in: environment,
                timeout: timeout)
            if case .notFound = run {
                return IdentityCheck(tool: .git, expected: expected, actual: nil, matches: nil, note: "git not found")
            }
            var values: [String: String] = [:]
            // Exit status 1: no such key; the values are then all absent.
            if case .exited(let status, let output, _) = run, status == 0 || status == 1 {
                for line in output.split(whereSeparator: \.isNewline) {
                    let parts = line.split(separator: " ", maxSplits: 1)
                    values[String(parts[0]).lowercased()] = parts.count > 1 ? String(parts[1]) : ""
                }
            } else {
                return IdentityCheck(tool: .git, expected: expected, actual: nil, matches: nil, note: run.failure)
            }
            let actual = ToolIdentities.Git(name: values["user.name"], email: values["user.email"], signingKey: values["user.signingkey"])
            let matches =
                (git.name == nil || git.name == actual.name) && (git.email == nil || git.email == actual.email)
                && (git.signingKey == nil || git.signingKey == actual.signingKey)
            let note = !matches && gitIncludeState() == .notIncluded ? "run `perch setup git`" : nil
            return IdentityCheck(tool: .git, expected: expected, actual: Self.describe(actual), matches: matches, note: note)
        case .ssh:
            guard let ssh = identities.ssh else {
                return IdentityCheck(tool: .ssh, expected: "", actual: nil, matches: nil, note: "no ssh identity")
            }
            let expected = environment.expandingTilde(ssh.identityFile)
            var actuals: [String] = []
            for host in ssh.hosts {
                var arguments = ["-G", host]
                if access(files.userSSHConfig, F_OK) == 0 { arguments = ["-F", files.userSSHConfig] + arguments }
                let run = ProgramRunner.run("ssh", arguments, in: environment, timeout: timeout)
                if case .notFound = run {
                    return IdentityCheck(tool: .ssh, expected: ssh.identityFile, actual: nil, matches: nil, note: "ssh not found")
                }
                guard let output = run.output else {
                    return IdentityCheck(tool: .ssh, expected: ssh.identityFile, actual: nil, matches: nil, note: run.failure)
                }
                actuals.append(ToolReaders.sshIdentityFiles(fromSSHG: output).first.map(environment.expandingTilde) ?? "(none)")
            }
            let matches = actuals.allSatisfy { $0 == expected }
            let note = !matches && !IdentitySetup.sshIncluded(self) ? "run `perch setup ssh`" : nil
            let actual = Array(Set(actuals)).sorted().joined(separator: ", ")
            return IdentityCheck(tool: .ssh, expected: expected, actual: actual, matches: matches, note: note)
        case .kube:
            guard let kube = identities.kube else {
                return IdentityCheck(tool: .kube, expected: "", actual: nil, matches: nil, note: "no kube identity")
            }
            let context = ToolReaders.kubeCurrentContext(environment)
            guard let namespace = kube.namespace else {
                return IdentityCheck(tool: .kube, expected: kube.context, actual: context ?? "(none)", matches: context == kube.context)
            }
            let expected = "\(kube.context), namespace \(namespace)"
            // The namespace sits inside the context's entry: kubectl resolves it.
            let run = ProgramRunner.run(
                "kubectl", ["config", "view", "--minify", "-o", "jsonpath={..context.namespace}"], in: environment, timeout: timeout)
            let actualNamespace = run.output.map { $0.trimmingWhitespace.isEmpty ? "default" : $0.trimmingWhitespace }
            let actual = "\(context ?? "(none)"), namespace \(actualNamespace ?? "?")"
            if actualNamespace == nil, context == kube.context {
                return IdentityCheck(tool: .kube, expected: expected, actual: actual, matches: nil, note: run.failure)
            }
            return IdentityCheck(
                tool: .kube, expected: expected, actual: actual, matches: context == kube.context && actualNamespace == namespace)
        case .gcloud:
            guard let name = identities.gcloud else {
                return IdentityCheck(tool: .gcloud, expected: "", actual: nil, matches: nil, note: "no gcloud identity")
            }
            let actual = ToolReaders.gcloudActiveConfiguration(environment)
            return IdentityCheck(tool: .gcloud, expected: name, actual: actual, matches: actual == name)
        case .gh:
            guard let gh = identities.gh else {
                return IdentityCheck(tool: .gh, expected: "", actual: nil, matches: nil, note: "no gh identity")
            }
            let actual = ToolReaders.ghActiveUser(environment, host: gh.hostname)
            return IdentityCheck(
                tool: .gh, expected: "\(gh.user) on \(gh.hostname)", actual: actual.map { "\($0) on \(gh.hostname)" } ?? "(none)",
                matches: actual == gh.user)
        case .aws, .env:
            let expected = tool == .aws ? identities.aws.map { [EnvironmentEntry(name: "AWS_PROFILE", value: $0)] } ?? [] : identities.env
            let shown = expected.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
            guard environment["PERCH_ACCOUNT"] != nil else {
                return IdentityCheck(
                    tool: tool, expected: shown, actual: nil, matches: nil, note: "per shell: eval \"$(perch env)\" or perch shell-init")
            }
            let actual = expected.map { "\($0.name)=\(environment.variables[$0.name] ?? "(unset)")" }.joined(separator: " ")
            return IdentityCheck(tool: tool, expected: shown, actual: actual, matches: actual == shown)
        }
    }

    static func describe(_ git: ToolIdentities.Git) -> String {
        var parts: [String] = []
        if let name = git.name { parts.append(name) }
        if let email = git.email { parts.append("<\(email)>") }
        if let key = git.signingKey { parts.append("key \(key)") }
        return parts.isEmpty ? "(none)" : parts.joined(separator: " ")
    }

    // MARK: Dry run

    /// What a switch to `account` would change, tool by tool, as lines (`kube: kubectl config
    /// use-context prod (now: dev)`); nothing is changed, and only reading programs are started.
    public func plan(_ account: Account) -> [String] {
        if samplesOnly {
            return account.identities.tools.map { tool in
                tool.isPerShell
                    ? "\(tool.rawValue): per shell: \(describeExports(account, tool))"
                    : "\(tool.rawValue): nothing (sample accounts never change a tool)"
            }
        }
        var lines: [String] = []
        let checks = Dictionary(uniqueKeysWithValues: check(account).map { ($0.tool, $0) })
        for tool in account.identities.tools {
            let now = checks[tool].flatMap { check in check.actual.map { " (now: \($0))" } } ?? ""
            let same = checks[tool]?.matches == true
            let identities = account.identities
            switch tool {
            case .git:
                lines.append("git: write \(files.gitInclude) with \(Self.describe(identities.git!))" + (same ? " (already so)" : now))
            case .ssh:
                let ssh = identities.ssh!
                lines.append(
                    "ssh: write \(files.sshInclude): Host \(ssh.hosts.joined(separator: " ")) IdentityFile \(ssh.identityFile)"
                        + (same ? " (already so)" : now))
            case .kube:
                let kube = identities.kube!
                var text = "kube: kubectl config use-context \(kube.context)"
                if let namespace = kube.namespace { text += "; kubectl config set-context --current --namespace \(namespace)" }
                lines.append(
                    text + (same ? " (already so)" : now) + (environment.which("kubectl") == nil ? " [kubectl not found: skipped]" : ""))
            case .gcloud:
                lines.append(
                    "gcloud: gcloud config configurations activate \(identities.gcloud!)" + (same ? " (already so)" : now)
                        + (environment.which("gcloud") == nil ? " [gcloud not found: skipped]" : ""))
            case .gh:
                let gh = identities.gh!
                lines.append(
                    "gh: gh auth switch --hostname \(gh.hostname) --user \(gh.user)" + (same ? " (already so)" : now)
                        + (environment.which("gh") == nil ? " [gh not found: skipped]" : ""))
            case .aws, .env:
                lines.append("\(tool.rawValue): per shell: \(describeExports(account, tool))")
            }
        }
        return lines
    }

    private func describeExports(_ account: Account, _ tool: IdentityTool) -> String {
        let entries = tool == .aws ? [EnvironmentEntry(name: "AWS_PROFILE", value: account.identities.aws ?? "")] : account.identities.env
        return entries.map { "\($0.name)=\($0.value)" }.joined(separator: " ") + " (perch env)"
    }
}
