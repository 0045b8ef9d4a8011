import Foundation
import PerchDomain
import PerchInterface
import PerchStore
import Testing

@testable import PerchIdentities

/// Issue 19: scopes give one process or shell an account through variables only; leaving one
/// gives back exactly what was there; the real tools use what the scope says.
@Suite("Identity scopes")
struct IdentityScopeTests {
    let work = Account.with(
        "work",
        ToolIdentities.make(
            git: GitAdapter.Setting(name: "Ada Work", email: "ada@work.example"),
            kube: KubeAdapter.Setting(context: "prod", namespace: "api"),
            gcloud: "work", aws: "work-admin", docker: "remote", env: [EnvironmentEntry(name: "TEAM", value: "core")]))
    let personal = Account.with("personal", ToolIdentities.make(aws: "home", env: [EnvironmentEntry(name: "MOOD", value: "calm")]))

    func scratch() throws -> ScratchHome {
        let scratch = try ScratchHome(fakes: [])
        try scratch.writeKubeconfig()
        try scratch.write("[core]\naccount = ada@work.example\n", to: "gcloud/configurations/config_work")
        return scratch
    }

    @Test("a scope sets every tool's variable, and leaving it gives back exactly the environment before")
    func scopeAndBack() throws {
        let scratch = try scratch()
        var before = scratch.environment.variables
        before["AWS_DEFAULT_PROFILE"] = "beats-aws-profile"
        before["GIT_AUTHOR_EMAIL"] = "beats@git.example"
        before["KUBECONFIG"] = scratch.kubeconfig
        let context = ToolContext(environment: IdentityEnvironment(variables: before, statePath: scratch.environment.statePath))
        let scoped = IdentityScope.scoped(work, kind: .pinned, over: before, in: context)
        #expect(scoped.failures.isEmpty, "\(scoped.failures)")
        let after = scoped.variables
        #expect(after["PERCH_ACCOUNT"] == "work" && after["PERCH_SCOPE"] == "pinned")
        #expect(after["AWS_PROFILE"] == "work-admin" && after["AWS_DEFAULT_PROFILE"] == nil)
        #expect(after["GIT_AUTHOR_EMAIL"] == nil)
        #expect(after["CLOUDSDK_ACTIVE_CONFIG_NAME"] == "work" && after["DOCKER_CONTEXT"] == "remote" && after["TEAM"] == "core")
        let files = IdentityFiles(context.environment)
        #expect(after["KUBECONFIG"] == files.scopes + "/work.kubeconfig:" + scratch.kubeconfig)
        #expect(after["GIT_CONFIG_COUNT"] == "2")
        // Pinned again to another account: built on what was there before the first scope.
        let again = IdentityScope.scoped(personal, kind: .pinned, over: after, in: context)
        // kube, which personal names nothing for, is sealed on the user's own context (when kubectl is installed).
        let sealed = ScratchHome.installed("kubectl") ? files.scopes + "/personal.kubeconfig:" : ""
        #expect(again.variables["KUBECONFIG"] == sealed + scratch.kubeconfig && again.variables["GIT_CONFIG_COUNT"] == nil)
        #expect(again.variables["AWS_PROFILE"] == "home" && again.variables["TEAM"] == nil && again.variables["MOOD"] == "calm")
        // Unscoped: byte for byte the environment before.
        #expect(IdentityScope.unscoped(again.variables) == before)
        #expect(IdentityScope.unscoped(after) == before)
    }

    @Test("the shell text turns one environment into the other in bash, zsh and fish")
    func scriptRoundTrip() throws {
        let scratch = try scratch()
        let before = scratch.environment.variables
        let context = ToolContext(environment: scratch.environment)
        let scoped = IdentityScope.scoped(work, kind: .pinned, over: before, in: context)
        let text = IdentityScope.script(from: before, to: scoped, shell: .bash)
        #expect(text.contains("export PERCH_SCOPE='pinned'\n") && text.contains("export GIT_CONFIG_KEY_0='user.name'\n"))
        #expect(!text.contains("export HOME"), "only what differs is written")
        let fish = IdentityScope.script(from: before, to: scoped, shell: .fish)
        #expect(fish.contains("set -gx AWS_PROFILE 'work-admin'"))
        let back = IdentityScope.script(from: scoped.variables, to: IdentityScope.following(nil, over: scoped.variables), shell: .bash)
        #expect(back.contains("unset PERCH_SCOPE\n") && back.contains("unset AWS_PROFILE\n") && back.contains("unset GIT_CONFIG_COUNT\n"))
        #expect(back.contains("export KUBECONFIG='\(scratch.kubeconfig)'\n"), "the user's own list back")
    }

    @Test("a following shell's scope drops the global account's exports (PERCH_ENV_NAMES) and gets them back after")
    func followingExportsLeave() throws {
        let scratch = try scratch()
        var following = scratch.environment.variables
        following["AWS_PROFILE"] = "home"
        following["MOOD"] = "calm"
        following["PERCH_ACCOUNT"] = "personal"
        following["PERCH_ENV_NAMES"] = "AWS_PROFILE MOOD"
        let bare = Account.with("bare", .none)
        let scoped = IdentityScope.scoped(bare, kind: .exec, over: following, in: ToolContext(environment: scratch.environment))
        #expect(scoped.variables["AWS_PROFILE"] == nil && scoped.variables["MOOD"] == nil && scoped.variables["PERCH_ACCOUNT"] == "bare")
        #expect(IdentityScope.unscoped(scoped.variables) == following)
    }

    // Bug: leaving a bound folder gave back every saved variable, so an .envrc's AWS_PROFILE
    // that direnv had already taken back came back under the global account's prompt.
    @Test("leaving a scope gives back only the variables that still have the scope's value; one changed since stays")
    func givesBackOnlyItsOwn() throws {
        let scratch = try scratch()
        var before = scratch.environment.variables
        before["AWS_PROFILE"] = "mine"
        before["TEAM"] = "own-team"
        let scoped = IdentityScope.scoped(work, kind: .directory, over: before, in: ToolContext(environment: scratch.environment))
        let set = try #require(scoped.variables[IdentityScope.setVariable].flatMap(IdentityScope.decode))
        #expect(set["AWS_PROFILE"] == .some("work-admin") && set["TEAM"] == .some("core") && set["PERCH_SCOPE"] == nil)
        var changed = scoped.variables
        changed["AWS_PROFILE"] = "client-dev"  // someone else's (an .envrc's) since
        changed.removeValue(forKey: "TEAM")  // removed by hand
        let back = IdentityScope.unscoped(changed)
        #expect(back["AWS_PROFILE"] == "client-dev" && back["TEAM"] == nil, "theirs stays")
        #expect(back["KUBECONFIG"] == before["KUBECONFIG"] && back["PERCH_ACCOUNT"] == nil, "its own is given back")
        #expect(back[IdentityScope.setVariable] == nil && back[IdentityScope.savedVariable] == nil)
        // A scope made before PERCH_SCOPE_SET existed gives back everything it saved.
        changed.removeValue(forKey: IdentityScope.setVariable)
        #expect(IdentityScope.unscoped(changed)["AWS_PROFILE"] == "mine")
    }

    // Bug: a shell following the global account undid the variables of the account it followed
    // unconditionally: after perch switch to an account without AWS_PROFILE, the hook removed the
    // one an .envrc had set in its folder, and direnv, on leaving, gave back the previous
    // account's AWS_PROFILE under the new account (the same with the new account's own value).
    @Test(
        "bug: a following shell undid the previous account's variables unconditionally; now it changes only what it set, and takes back what direnv gives back"
    )
    func followingChangesOnlyItsOwn() throws {
        ToolAdapters.installShipped()
        let personal = Account.with("personal", .make(aws: "personal"))
        for work in [
            Account.with("work", .make(env: [EnvironmentEntry(name: "TEAM", value: "core")])),
            Account.with("work", .make(aws: "work-admin")),
        ] {
            let wanted = work.identities.exports.first { $0.name == "AWS_PROFILE" }?.value
            // 1. The shell follows personal: the hook exports its AWS_PROFILE, and records it.
            var shell = IdentityScope.following(personal, over: ["HOME": "/home/ada", "PWD": "/home/ada"]).variables
            #expect(shell["AWS_PROFILE"] == "personal" && shell["PERCH_ENV_NAMES"] == "AWS_PROFILE")
            #expect(shell[ShellExports.setVariable].flatMap(IdentityScope.decode) == ["AWS_PROFILE": "personal"])
            // 2. cd into a folder whose .envrc sets AWS_PROFILE=client: direnv's value.
            shell["AWS_PROFILE"] = "client"
            shell["PWD"] = "/home/ada/client"
            // 3. perch switch work: direnv's value stays, watched; Perch's value is remembered.
            let switched = IdentityScope.following(work, over: shell)
            #expect(switched.variables["AWS_PROFILE"] == "client", "direnv's, not Perch's")
            #expect(switched.variables["PERCH_ACCOUNT"] == "work" && switched.variables["TEAM"] == (wanted == nil ? "core" : nil))
            #expect(switched.held == ["AWS_PROFILE": "client"])
            #expect(switched.variables[ShellExports.setVariable].flatMap(IdentityScope.decode)?["AWS_PROFILE"] == .some("personal"))
            // 4. cd ..: direnv gives back personal, which Perch recognises as its own and puts right.
            shell = switched.variables
            shell["AWS_PROFILE"] = "personal"
            shell["PWD"] = "/home/ada"
            let back = IdentityScope.following(work, over: shell)
            #expect(back.variables["AWS_PROFILE"] == wanted, "work's: \(wanted ?? "unset")")
            #expect(back.held.isEmpty)
            #expect(back.variables[ShellExports.setVariable].flatMap(IdentityScope.decode)?["AWS_PROFILE"] == wanted.map { .some($0) })
            // Every next prompt leaves it so.
            #expect(IdentityScope.following(work, over: back.variables).variables == back.variables)
        }
        // A value someone else set where Perch never set one stays theirs.
        let own = IdentityScope.following(personal, over: ["AWS_PROFILE": "mine"])
        #expect(own.variables["AWS_PROFILE"] == "mine" && own.held == ["AWS_PROFILE": "mine"])
        // A shell from before the record (PERCH_ENV_NAMES only): every name listed is Perch's, as then.
        let older = ["AWS_PROFILE": "client", "PERCH_ACCOUNT": "personal", "PERCH_ENV_NAMES": "AWS_PROFILE"]
        let work = Account.with("work", .make(aws: "work-admin"))
        #expect(IdentityScope.following(work, over: older).variables["AWS_PROFILE"] == "work-admin")
        #expect(IdentityScope.following(nil, over: older).variables["AWS_PROFILE"] == nil)
    }

    @Test(
        "real git in a scope: git var GIT_AUTHOR_IDENT and git config --show-origin give the account's",
        .enabled(if: ScratchHome.installed("git")))
    func realGit() throws {
        let scratch = try scratch()
        try scratch.write("[user]\n\tname = Own Self\n\temail = own@self.example\n", to: ".gitconfig")
        let context = ToolContext(environment: scratch.environment)
        var variables = IdentityScope.scoped(work, kind: .exec, over: scratch.environment.variables, in: context).variables
        let environment = IdentityEnvironment(variables: variables)
        let ident = ProgramRunner.run("git", ["var", "GIT_AUTHOR_IDENT"], in: environment).output ?? ""
        #expect(ident.hasPrefix("Ada Work <ada@work.example> "), "\(ident)")
        let origin = ProgramRunner.run("git", ["config", "--show-origin", "user.email"], in: environment).output ?? ""
        #expect(origin == "command line:\tada@work.example\n", "\(origin)")
        // An account with no git identity, while Perch's file names another: the user's own.
        try FileSystem.writeAtomically(
            Array("[user]\n\temail = global@account.example\n".utf8), to: IdentityFiles(scratch.environment).gitInclude)
        try scratch.write(
            "[user]\n\tname = Own Self\n\temail = own@self.example\n[include]\n\tpath = \(IdentityFiles(scratch.environment).gitInclude)\n",
            to: ".gitconfig")
        #expect(ProgramRunner.run("git", ["config", "user.email"], in: scratch.environment).output == "global@account.example\n")
        variables = IdentityScope.scoped(personal, kind: .exec, over: scratch.environment.variables, in: context).variables
        let own = ProgramRunner.run("git", ["config", "user.email"], in: IdentityEnvironment(variables: variables)).output
        #expect(own == "own@self.example\n", "\(own ?? "nil")")
    }

    @Test(
        "real kubectl in a scope: the account's context and namespace; the user's kubeconfig is never written",
        .enabled(if: ScratchHome.installed("kubectl")))
    func realKubectl() throws {
        let scratch = try scratch()
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.kubeconfig))
        let scoped = IdentityScope.scoped(
            work, kind: .exec, over: scratch.environment.variables, in: ToolContext(environment: scratch.environment))
        let environment = IdentityEnvironment(variables: scoped.variables)
        #expect(ProgramRunner.run("kubectl", ["config", "current-context"], in: environment).output == "prod\n")
        let namespace = ProgramRunner.run("kubectl", ["config", "view", "--minify", "-o", "jsonpath={..namespace}"], in: environment).output
        #expect(namespace == "api", "\(namespace ?? "nil")")
        #expect(ProgramRunner.run("kubectl", ["config", "current-context"], in: scratch.environment).output == "dev\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.kubeconfig)) == before)
        let overlay = IdentityFiles(scratch.environment).scopes + "/work.kubeconfig"
        var info = stat()
        #expect(stat(overlay, &info) == 0 && info.st_mode & 0o077 == 0, "the overlay is the user's only")
    }

    @Test("a context that does not exist, or a gcloud configuration that does not, fails the scope with the reason")
    func failures() throws {
        let scratch = try scratch()
        let wrong = Account.with("wrong", ToolIdentities.make(kube: KubeAdapter.Setting(context: "nowhere"), gcloud: "absent"))
        let scoped = IdentityScope.scoped(
            wrong, kind: .exec, over: scratch.environment.variables, in: ToolContext(environment: scratch.environment))
        #expect(scoped.failures.map(\.tool) == [.kube, .gcloud])
        #expect(scoped.failures.first?.why.contains("no context \"nowhere\"") == true)
    }

    @Test("gh's token comes from gh auth token and is given to gh only: a function in the shell, never an export")
    func ghToken() throws {
        let scratch = try ScratchHome(fakes: [])
        try scratch.install("gh", #"echo "$*" >> "$HOME/calls/gh.log"; [ "$1 $2" = "auth token" ] && echo "tok-$6""#)
        let ada = Account.with("ada", ToolIdentities.make(gh: GitHubAdapter.Setting(user: "ada")))
        let scoped = IdentityScope.scoped(
            ada, kind: .pinned, over: scratch.environment.variables, in: ToolContext(environment: scratch.environment))
        #expect(scratch.calls("gh") == ["auth token --hostname github.com --user ada"])
        #expect(scoped.variables["GH_TOKEN"] == nil && scoped.variablesWithSecrets["GH_TOKEN"] == "tok-ada")
        // Bug (trust issue): the function held the token's text (`type gh`, `declare -f` and
        // `set -x` showed it); it now asks gh for it each time it is called.
        let text = IdentityScope.script(from: scratch.environment.variables, to: scoped, shell: .bash)
        #expect(
            text.contains(#"gh() { GH_TOKEN="$(command 'gh' 'auth' 'token' '--hostname' 'github.com' '--user' 'ada')" command gh "$@"; }"#),
            "\(text)")
        #expect(!text.contains("tok-ada") && !text.contains("export GH_TOKEN"), "\(text)")
        let fish = IdentityScope.script(from: scratch.environment.variables, to: scoped, shell: .fish)
        #expect(
            fish.contains(
                "function gh --wraps gh; set -lx GH_TOKEN (command 'gh' 'auth' 'token' '--hostname' 'github.com' '--user' 'ada'); command gh $argv; end"
            ), "\(fish)")
        #expect(!fish.contains("tok-ada"))
        // The function, run by bash, gives gh the token: a stand-in gh prints what it got.
        try scratch.install("gh", #"[ "$1 $2" = "auth token" ] && echo "tok-$6" || echo "gh got $GH_TOKEN""#)
        let run = ToolGrammarTests.run(["bash", "--norc", "-c", text + "gh api user"], environment: scratch.environment.variables)
        #expect(run.stdout == "gh got tok-ada\n", "\(run)")
        let back = IdentityScope.script(from: scoped.variables, to: IdentityScope.following(nil, over: scoped.variables), shell: .fish)
        #expect(back.contains("functions -e gh"))
    }

    // Bug (trust issue): perch use and perch exec kept every variable they changed in
    // PERCH_SCOPE_SAVED, your own AWS_SECRET_ACCESS_KEY and GH_TOKEN included, and every child
    // got them under another name; GITHUB_TOKEN stayed set beside the account's token.
    @Test("a scope keeps the secrets it removes in a 0600 file, never in a variable, and gives them back when it ends")
    func savedSecretsStayOutOfTheEnvironment() throws {
        let scratch = try ScratchHome(fakes: [])
        try scratch.install("gh", #"[ "$1 $2" = "auth token" ] && echo "tok-$6""#)
        let ada = Account.with("ada", ToolIdentities.make(gh: GitHubAdapter.Setting(user: "ada")))
        var own = scratch.environment.variables
        own["GITHUB_TOKEN"] = "ghp_ownOwnOwnOwnOwnOwnOwnOwnOwnOwn0001"
        own["GH_TOKEN"] = "ghp_ownOwnOwnOwnOwnOwnOwnOwnOwnOwn0002"
        own["XDG_RUNTIME_DIR"] = scratch.home + "/run"
        try FileManager.default.createDirectory(atPath: scratch.home + "/run", withIntermediateDirectories: true)
        chmod(scratch.home + "/run", 0o700)
        var environment = scratch.environment
        environment.variables = own
        for kind in [ScopeKind.exec, .pinned] {
            let scoped = IdentityScope.scoped(ada, kind: kind, over: own, in: ToolContext(environment: environment))
            let given = kind == .exec ? scoped.variablesWithSecrets : scoped.variables
            #expect(given["GITHUB_TOKEN"] == nil, "GITHUB_TOKEN is treated as GH_TOKEN is")
            let text = given.map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
            #expect(!text.contains("ownOwnOwn"), "no child gets your own tokens: \(text)")
            let file = try #require(given[IdentityScope.secretsVariable])
            #expect(file.hasPrefix(scratch.home + "/run/perch/secrets/"))
            var info = stat()
            #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o600)
            let back = IdentityScope.unscoped(given)
            #expect(back["GITHUB_TOKEN"] == own["GITHUB_TOKEN"] && back["GH_TOKEN"] == own["GH_TOKEN"], "given back on leaving")
        }
    }
}

extension IdentityScopeTests {
    // Bug: `perch exec work -- perch exec personal -- gh` still gave gh work's token: the outer
    // scope's GH_TOKEN was not saved as replaced, so the inner scope kept it.
    @Test("a scope inside perch exec drops the outer command's gh token")
    func innerScopeDropsToken() throws {
        let scratch = try ScratchHome(fakes: [])
        try scratch.install("gh", #"[ "$1 $2" = "auth token" ] && echo "tok-$6""#)
        let ada = Account.with("ada", ToolIdentities.make(gh: GitHubAdapter.Setting(user: "ada")))
        let context = ToolContext(environment: scratch.environment)
        let outer = IdentityScope.scoped(ada, kind: .exec, over: scratch.environment.variables, in: context).variablesWithSecrets
        #expect(outer["GH_TOKEN"] == "tok-ada")
        let inner = IdentityScope.scoped(personal, kind: .exec, over: outer, in: context)
        #expect(inner.variablesWithSecrets["GH_TOKEN"] == nil, "\(inner.variables)")
        #expect(IdentityScope.unscoped(outer) == scratch.environment.variables)
    }

    // Bug: an account with no git identity got an empty user.signingkey in its scope, so
    // `git commit -S` asked gpg for no key at all. Sealed, it gets git's own default instead.
    @Test(
        "an account with no git identity gets your own identity and git's default signing key (Name <email>), never an empty one",
        .enabled(if: ScratchHome.installed("git")))
    func noEmptySigningKey() throws {
        let scratch = try scratch()
        let files = IdentityFiles(scratch.environment)
        try FileSystem.writeAtomically(Array("[user]\n\temail = global@account.example\n".utf8), to: files.gitInclude)
        try scratch.write(
            "[user]\n\tname = Own Self\n\temail = own@self.example\n[include]\n\tpath = \(files.gitInclude)\n", to: ".gitconfig")
        let variables = IdentityScope.scoped(
            personal, kind: .exec, over: scratch.environment.variables, in: ToolContext(environment: scratch.environment)
        )
        .variables
        let keys = (0..<(Int(variables["GIT_CONFIG_COUNT"] ?? "0") ?? 0)).map { variables["GIT_CONFIG_KEY_\($0)"] ?? "" }
        #expect(keys.sorted() == ["commit.gpgsign", "gpg.format", "tag.gpgsign", "user.email", "user.name", "user.signingkey"], "\(keys)")
        let key = ProgramRunner.run("git", ["config", "user.signingkey"], in: IdentityEnvironment(variables: variables))
        #expect(key.output == "Own Self <own@self.example>\n", "git's default for openpgp, not an empty key")
        let ident = ProgramRunner.run("git", ["var", "GIT_AUTHOR_IDENT"], in: IdentityEnvironment(variables: variables))
        #expect(ident.output?.hasPrefix("Own Self <own@self.example> ") == true, "\(ident)")
    }
}

/// Issue 19: which account a folder is bound to.
@Suite("Directory rules")
struct DirectoryRulesTests {
    let accounts = [
        Account(id: "work", name: "Work", identities: ToolIdentities([], directories: ["~/work", "/srv/acme/"])),
        Account(id: "oss", name: "OSS", identities: ToolIdentities([], directories: ["~/work/oss"])),
    ]

    @Test("the deepest bound folder wins; a folder binds what is below it, not a name that only begins the same")
    func deepestWins() {
        let rules = DirectoryRules.rules(accounts, home: "/home/ada")
        #expect(DirectoryRules.match("/home/ada/work/api", in: rules)?.account == "work")
        #expect(DirectoryRules.match("/home/ada/work/oss/lib", in: rules)?.account == "oss")
        #expect(DirectoryRules.match("/home/ada/work", in: rules)?.account == "work")
        #expect(DirectoryRules.match("/home/ada/workshop", in: rules) == nil)
        #expect(DirectoryRules.match("/srv/acme", in: rules)?.written == "/srv/acme/")
        #expect(rules.map(\.folder) == ["/srv/acme", "/home/ada/work", "/home/ada/work/oss"])
    }

    @Test("a relative folder, / and a line break are refused with the reason")
    func problems() {
        #expect(DirectoryRules.problem("work")?.contains("not an absolute path") == true)
        #expect(DirectoryRules.problem("/")?.contains("every folder") == true)
        #expect(DirectoryRules.problem("~/a\nb")?.contains("line break") == true)
        #expect(DirectoryRules.problem("~/work") == nil)
    }

    @Test("git follows the bound folders through Perch's includeIf rules, the deepest last", .enabled(if: ScratchHome.installed("git")))
    func gitRules() throws {
        let scratch = try ScratchHome(fakes: [])
        let files = IdentityFiles(scratch.environment)
        let accounts = [
            Account(
                id: "work", name: "Work",
                identities: ToolIdentities([GitAdapter.setting(.init(email: "ada@work.example"))], directories: ["~/work"])),
            Account(
                id: "oss", name: "OSS",
                identities: ToolIdentities([GitAdapter.setting(.init(email: "ada@oss.example"))], directories: ["~/work/oss"])),
            Account(id: "plain", name: "Plain", identities: ToolIdentities([], directories: ["~/work/plain"])),
            Account(
                id: "glob", name: "Glob",
                identities: ToolIdentities([GitAdapter.setting(.init(email: "ada@glob.example"))], directories: ["~/br[1]"])),
        ]
        try FileSystem.writeAtomically(Array(GitAdapter.ownText(files).utf8), to: files.gitInclude)
        try scratch.write("[user]\n\temail = own@self.example\n[include]\n\tpath = \(files.gitInclude)\n", to: ".gitconfig")
        try GitDirectoryRules.write(accounts, in: ToolContext(environment: scratch.environment))
        #expect(GitDirectoryRules.isCurrent(accounts, in: ToolContext(environment: scratch.environment)))
        for (folder, email) in [
            ("work/api", "ada@work.example"), ("work/oss/lib", "ada@oss.example"), ("elsewhere", "own@self.example"),
            // Bug: a folder of an account with no git identity had no rule, so git kept the enclosing one's.
            ("work/plain/x", "own@self.example"),
            // Bug: glob characters in a bound folder were not escaped, so git matched other folders.
            ("br[1]/x", "ada@glob.example"), ("br1/x", "own@self.example"),
        ] {
            let path = scratch.home + "/" + folder
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            _ = ProgramRunner.run("git", ["init", "-q", path], in: scratch.environment)
            let used = ProgramRunner.run("git", ["config", "user.email"], in: scratch.environment, folder: path).output
            #expect(used == email + "\n", "\(folder): \(used ?? "nil")")
        }
    }

    // Bug: in perch exec (and perch use) of an account naming no ssh, git's ssh still followed
    // Perch's include, which names the global account's key for its hosts.
    @Test(
        "Perch's ssh include applies outside a scope only: real ssh -G under sh, bash, zsh and fish as the user's shell",
        .enabled(
            if: ProgramRunner.run("ssh", ["-V"], in: IdentityEnvironment(variables: ProcessInfo.processInfo.environment)).output != nil),
        arguments: ["/bin/sh", "/bin/bash", "/usr/bin/zsh", "/usr/bin/fish"])
    func sshIncludeSkippedInScopes(shell: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: shell), "\(shell) is not installed (make test-deps installs it)")
        let scratch = try ScratchHome(fakes: [])
        let include = scratch.root + "/perch-ssh"
        let config = scratch.root + "/ssh_config"
        let account = Account.with("work", ToolIdentities())
        let text = SSHAdapter.includeText(.init(hosts: ["github.com", "*.work.example"], identityFile: "~/.ssh/id_work"), account: account)
        try text.write(toFile: include, atomically: true, encoding: .utf8)
        try "Include \(include)\nHost *\n\tIdentityFile ~/.ssh/id_own\n".write(toFile: config, atomically: true, encoding: .utf8)
        func first(_ host: String, scope: String?) -> String? {
            var variables = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "SHELL": shell, "HOME": scratch.root]
            variables["PERCH_SCOPE"] = scope
            let output = ProgramRunner.run("ssh", ["-F", config, "-G", host], in: IdentityEnvironment(variables: variables)).output ?? ""
            return output.split(separator: "\n").first { $0.hasPrefix("identityfile ") }.map { String($0.dropFirst(13)) }
        }
        #expect(first("github.com", scope: nil) == "~/.ssh/id_work")
        #expect(first("api.work.example", scope: nil) == "~/.ssh/id_work")
        #expect(first("gitlab.com", scope: nil) == "~/.ssh/id_own")
        for scope in ScopeKind.allCases.map(\.rawValue) {
            #expect(first("github.com", scope: scope) == "~/.ssh/id_own", "PERCH_SCOPE=\(scope)")
        }
        #expect(SSHAdapter().describe(ToolState(["exists": "1", "file": text])) == "~/.ssh/id_work for github.com, *.work.example")
        // As written before scopes were guarded.
        let old = "# Written by Perch\nHost github.com gitlab.com\n\tIdentityFile ~/.ssh/id_work\n\tIdentitiesOnly yes\n"
        #expect(SSHAdapter().describe(ToolState(["exists": "1", "file": old])) == "~/.ssh/id_work for github.com, gitlab.com")
    }

    @Test(
        "an ssh scope's marker is a variable name every shell takes, one per account id",
        arguments: [
            ("work", "PERCH_SSH_SCOPE_work"), ("my-team", "PERCH_SSH_SCOPE_my_hteam"), ("a.b", "PERCH_SSH_SCOPE_a_db"),
            ("a_h", "PERCH_SSH_SCOPE_a__h"), ("a-", "PERCH_SSH_SCOPE_a_h"),
        ])
    func sshScopeMarker(id: String, name: String) {
        #expect(SSHAdapter.scopeMarker(id) == name)
        #expect(name.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x5F })
    }

    @Test("a scope removes the ssh markers of other accounts it inherits, and keeps none of its own to remove")
    func sshScopeRemovesOtherMarkers() {
        let environment = ["PERCH_SSH_SCOPE_work": "1", "PERCH_SSH_SCOPE_a_db": "1", "PATH": "/bin"]
        #expect(
            SSHAdapter.otherMarkers(in: environment, besides: "personal")
                == [ScopeVariable("PERCH_SSH_SCOPE_a_db", nil), ScopeVariable("PERCH_SSH_SCOPE_work", nil)])
        #expect(SSHAdapter.otherMarkers(in: environment, besides: "work") == [ScopeVariable("PERCH_SSH_SCOPE_a_db", nil)])
    }

}
