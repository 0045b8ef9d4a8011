/// What `perch COMMAND --help` and the man page say of each command beyond its summary,
/// read by each command's ``PerchCommand/details``.
enum CommandDetails {
    static let list =
        "Prints one account per line: id, name and handle, with a * before the current one\n"
        + "on a terminal and after it otherwise (so the first column is always the id).\n"
        + "--format ids prints the ids, one per line. --format tsv prints id, name, handle,\n"
        + "group, color and current (true or false), tab-separated, empty where there is none.\n"
        + "--json (--format json) prints [{\"id\", \"name\", \"handle\", \"group\", \"color\",\n"
        + "\"onSwitch\", \"current\", \"identities\"}, …], null where there is nothing; identities\n"
        + "holds the tools the account names, as in the config ({\"kube\": {\"context\": \"prod\"}})."

    static let current =
        "Prints `id: Name (handle)`; with --field only that field, for prompts:\n"
        + "  PS1='[$(perch current --field name 2>/dev/null)] \\$ '\n"
        + "The field is any key of the account, dotted for a tool's: kube.context, git.email,\n"
        + "aws.profile, env.TEAM; an empty line when the account has none. --json prints\n"
        + "every field and the identities, as perch list --json does. In a shell with an\n"
        + "account of its own (perch use, a bound folder, perch exec), that account; --global\n"
        + "gives the global one.\n"
        + "It never waits: while a switch is under way (or a killed one still finishing) it\n"
        + "prints the account last recorded, marked (switching to ID) (on stderr with\n"
        + "--field; --json adds \"switching\": {\"to\", \"interrupted\"}); --field switching\n"
        + "prints the account being switched to, an empty line when none.\n"
        + "Exit status 1 when no account has been chosen yet (--json then prints null)."

    /// The tools named from the registry (``ToolLists``).
    static var switchAccount: String {
        "The account is its exact id, or its name when exactly one name matches it\n"
            + "(ignoring case); - is the account that was current before (two in a row swap).\n"
            + "With no account, on a terminal, the account sheet is drawn below the prompt to\n"
            + "pick from (type to filter, arrows, Enter, the mouse; Esc exits 1, Ctrl-C 130).\n"
            + ("The account's tool identities are applied (\(ToolLists.toolNames)), "
            + "then the switch is saved and its onSwitch hook runs with its output passed through. "
            + "A failed tool exits 3 and saves nothing (every tool it changed is put back; "
            + "--keep-going saves the switch without it); a failed hook exits 3 after the switch "
            + "is saved. A closed output pipe ends only the printing: the hook still runs, then the "
            + "exit status is 141.").wrapped(toColumns: 80) + "\n"
            + "--dry-run prints what would change, tool by tool, and changes nothing; --force\n"
            + "applies the identities again when the account is already current.\n"
            + "Exit status 1 for an unknown or ambiguous account (with the nearest ones\n"
            + "suggested, never switched to) or no previous account."
    }

    static let history =
        "Prints `time  source  previous → account`, newest first (at most 10000 are kept).\n"
        + "--json prints [{\"account\", \"previous\", \"time\", \"source\"}, …]."

    static let report =
        "Time in an account runs from a switch to it until the next switch (or now).\n"
        + "Dates are local (TZ, else the system's zone), shown with the zone; --since is the\n"
        + "first day (default: 29 days before today), --until the last day, included\n"
        + "(default: today). --csv prints id,name,minutes,hours; --json an object with\n"
        + "since, until, timeZone, utcOffset, accounts [{id, name, seconds}] and totalSeconds."

    static let initConfig =
        "Writes an example config to the config path (see perch config path), with every\n"
        + "field shown once. Exit status 1 when a config is already there."

    static let configEdit =
        "Opens a copy of the config in $VISUAL, $EDITOR or vi (the starter config when\n"
        + "there is none). A valid copy replaces the config atomically, the old one kept as\n"
        + "<config>.bak. An invalid one is reported with line and column; on a terminal\n"
        + "Perch asks (e)dit again, (d)iscard, (k)eep anyway?; otherwise it is discarded\n"
        + "and the exit status is 2."

    static let pick =
        "Draws the account sheet below the prompt, as perch switch with no account does,\n"
        + "and prints the chosen account's id without switching, for\n"
        + "  kubectl --context \"$(perch pick)\" …\n"
        + "Exit status 1 when nothing was picked; 2 when standard input or output is not\n"
        + "a terminal (the picker is drawn on standard error's terminal when stdout is not)."

    static let completion =
        "Load it with, for bash:  source <(perch completion bash)\n"
        + "  zsh:  source <(perch completion zsh)    fish:  perch completion fish | source\n"
        + "Completes commands, options, and the account ids and names of the config in use."

    static let manPage =
        "Prints perch(1) in man(7) format:  perch man-page | man -l -"

    static let doctor =
        "Prints, one per line with how each was found: TERM and terminfo, colours, SGR mouse,\n"
        + "bracketed paste, the kitty keyboard protocol and the key-hold mode, OSC 52, the\n"
        + "locale's UTF-8, and the config and state paths with their permissions. On a\n"
        + "terminal it then asks you to hold the 1 key for 2 seconds and reports the repeat\n"
        + "delay and rate, and whether the hold would be recognised with --long-press-ms."

    static let tools =
        "Prints one line per tool this run knows: its name, its title, where it comes from\n"
        + "(built in; shipped, a description Perch carries; or the description's file), per\n"
        + "shell or global, and the variables that carry an account to one process. A tool\n"
        + "described as data is read from $XDG_CONFIG_HOME/perch/tools/NAME.json (default\n"
        + "~/.config/perch/tools); a file named for a shipped tool takes its place (see\n"
        + "docs/tools.md). --json prints [{\"name\", \"title\", \"source\", \"file\", \"program\",\n"
        + "\"perShell\", \"variables\"}, …]. show NAME prints the JSON text of NAME's\n"
        + "description, to copy to that folder and edit. Exit status 1 for an unknown or\n"
        + "built-in NAME; 2 when a description was refused or is faulty (each problem on\n"
        + "stderr, after the output)."

    static let status =
        "For each tool the current account names, what the tool uses here: ✓ when it is the\n"
        + "account's, ✗ when it failed when applied (with the error), changed since (drift:\n"
        + "kubectl config use-context by hand, a variable such as AWS_DEFAULT_PROFILE that beats\n"
        + "the selection) or not in effect (the last switch did not set it: skipped, or named in\n"
        + "the config after it), – when it cannot be checked here or a rule of yours (git's\n"
        + "includeIf) wins in this folder. Then the results of the last switch. Exit status 1\n"
        + "when a tool drifted or failed or no account is current. --files lists the files Perch\n"
        + "writes for tools instead. --json prints {\"account\", \"checks\", \"lastSwitch\"}."

    static let verify =
        "Asks each tool the account names what it will really use here, in this folder and in\n"
        + "this shell's scope, never reading Perch's own files: git var GIT_AUTHOR_IDENT and\n"
        + "GIT_COMMITTER_IDENT (and user.signingkey), ssh -G HOST (and ssh-add -l when\n"
        + "IdentitiesOnly is off), git credential fill for gh's host (the user name only), gh\n"
        + "config get user, kubectl config view --minify, gcloud's active configuration, aws\n"
        + "configure list, docker context show, and the env values. The account is ID, else\n"
        + "the one that owns this place: perch exec's or perch use's, a bound folder's, a\n"
        + "repository remote's (\"remotes\"), else the global one. One line per tool: ✓ agrees,\n"
        + "✗ disagrees (with the reason and the command that puts it right), – cannot tell or\n"
        + "not installed. The tools are asked at once, each for at most --timeout MS (5000).\n"
        + "--online also asks the servers: ssh -T git@HOST (BatchMode, no host key accepted),\n"
        + "gh api user, aws sts get-caller-identity, kubectl auth whoami, judged against the\n"
        + "account's \"expect\" ({\"ssh\": \"ada-work\", \"aws\": \"123456789012\"}; gh: gh.user);\n"
        + "a server not reached is –. A per-shell tool (env, aws) in a shell with none of\n"
        + "Perch's variables (no perch env, shell-init or scope) is – with what applies it.\n"
        + "--as-exec verifies in the environment perch exec ID would give a command, for CI\n"
        + "jobs and editors. Nothing prompts, no file is written, no secret is printed.\n"
        + "Exit status 0 when every answer agrees, 3 when one disagrees.\n"
        + "--json prints {\"account\", \"chosenBy\", \"folder\", \"online\", \"agrees\", \"answers\"}."

    static let mcp =
        "A Model Context Protocol server on stdin and stdout (JSON-RPC 2.0, one message a\n"
        + "line; revisions 2024-11-05 to 2025-11-25) for coding agents to ask who they are.\n"
        + "Its tools only read: whoami (each tool's identity here, as perch verify sees it,\n"
        + "with the account and how it was chosen), verify (online: ask the servers too;\n"
        + "account: another account) and list_accounts (ids, names, tools). Nothing switches,\n"
        + "writes or prints a secret; a message over 1 MiB is skipped with an error. Add it to\n"
        + "an agent's MCP configuration: {\"mcpServers\": {\"perch\": {\"command\": \"perch\",\n"
        + "\"args\": [\"mcp\"]}}}. Exit status 0 when stdin ends."

    static let guardHooks =
        "install makes git's global core.hooksPath Perch's own hooks folder (through Perch's\n"
        + "git include: run perch setup git first). Every commit that would enter a branch or\n"
        + "HEAD (commit, merge, pull, revert, cherry-pick, rebase, am, amend, update-ref) is\n"
        + "checked by git's reference-transaction hook before any ref moves: its committer, and\n"
        + "its author unless it is someone else's kept author, must be the account owning the\n"
        + "repository (its perch exec or perch use account, a bound folder's, a remote's, else\n"
        + "the global one). Before each push, the credentials (the key ssh -G resolves, the\n"
        + "user git credential fill names) and each commit the remote does not have. Each\n"
        + "refusal names the commit or key, why, the fix and what to run after it, and exits 3.\n"
        + "When the guard cannot tell (a config that does not load, Perch gone from the path\n"
        + "recorded at install and from PATH, git failing) it refuses too. PERCH_GUARD=off\n"
        + "before a git command skips it once (--no-verify does not skip reference-transaction).\n"
        + "The repository's own hooks (.git/hooks), a core.hooksPath set before, and hooks\n"
        + "another program wrote into the guard's folder still run after the check.\n"
        + "status says whether each of the guard's hooks runs in the repository here and why\n"
        + "not (a local core.hooksPath such as husky's, a replaced hook): exit 0, 3 where it does\n"
        + "not run, 1 when not installed. check is the pre-commit check for a hook manager's\n"
        + "config (husky, lefthook, the pre-commit framework); check-refs and check-push REMOTE\n"
        + "URL are what the hooks run. --undo removes Perch's files only."

    static let audit =
        "Reads the files of the tools the accounts name and reports each secret kept in plain\n"
        + "text or open to others: ~/.git-credentials and any file a credential.helper \"store\n"
        + "--file PATH\" names (asked of git config), ~/.netrc (or NETRC), a token or password in\n"
        + "a remote URL or an url.<base>.insteadOf rule (here, in this repository), ~/.npmrc (or\n"
        + "NPM_CONFIG_USERCONFIG), AWS's cli/cache and sso/cache open to others, an oauth_token\n"
        + "in gh's hosts.yml, docker config.json auths with no credsStore or credHelpers,\n"
        + "long-lived AWS keys (AKIA…) of a profile an account names, kubeconfig users with an\n"
        + "inline token, password or client-key-data (as kubectl config view reads them), the\n"
        + "accounts' ssh keys without a passphrase (ssh-keygen -y -P \"\"), any of these readable\n"
        + "by group or others, and Perch's own files with a wider mode than it writes them with.\n"
        + "Each finding gives the file, what is in it (never the secret: its kind and at most its\n"
        + "last 4 characters), the accounts that depend on it, a severity (high, medium, low) and\n"
        + "the tool's own fix. A file that cannot be read, a line that cannot, and a file over 1\n"
        + "MiB (only its first 1 MiB is read) are said on standard error; a symbolic link is\n"
        + "followed once. Exit status 0 with no findings, 3 with any. --json prints {\"accounts\",\n"
        + "\"clean\", \"findings\": [{\"file\", \"target\", \"kind\", \"what\", \"last4\", \"accounts\",\n"
        + "\"severity\", \"fix\"}], \"notes\": [{\"file\", \"line\", \"message\"}]}."

    static let env =
        "Prints export lines for PERCH_ACCOUNT, AWS_PROFILE and the account's env values,\n"
        + "and unset lines for the variables of the account this shell had before. With no\n"
        + "ACCOUNT, the current one. In bash or zsh: eval \"$(perch env)\"; in fish:\n"
        + "perch env --shell fish | source."

    static let shellInit =
        "SHELL is bash, zsh or fish.\n"
        + "Add to ~/.bashrc:  eval \"$(perch shell-init bash)\"\n"
        + "        ~/.zshrc:   eval \"$(perch shell-init zsh)\"\n"
        + "        config.fish: perch shell-init fish | source\n"
        + "Then, in that shell: perch use ID makes it that account's (perch use --global\n"
        + "follows the global one again); a switch made anywhere reaches it at the next prompt;\n"
        + "and in a folder of an account's \"directories\" it is that account's (one line says\n"
        + "so; PERCH_DIRECTORY_NOTICE=0 turns it off). When nothing changed, the prompt hook\n"
        + "compares file times and starts no process. PERCH_SCOPE is pinned, directory or\n"
        + "exec when the shell has its own account, unset when it follows the global one."

    static let exec =
        "Runs COMMAND with the account's whole identity given to it and its children only:\n"
        + "git's author (GIT_CONFIG_COUNT entries), git's ssh key (GIT_SSH_COMMAND), a\n"
        + "kubeconfig of Perch's first in KUBECONFIG, CLOUDSDK_ACTIVE_CONFIG_NAME, AWS_PROFILE,\n"
        + "DOCKER_CONTEXT, gh's token (GH_TOKEN, from gh auth token), the account's env values,\n"
        + "PERCH_ACCOUNT and PERCH_SCOPE=exec. Nothing global changes. Perch then becomes\n"
        + "COMMAND (execve): its exit status, signals and standard streams are COMMAND's.\n"
        + "Exit status 1 for an unknown account, 3 when a tool's part cannot be made (nothing\n"
        + "is run; --keep-going runs it without that tool's), 126 when COMMAND cannot be run,\n"
        + "127 when it is not found.\n\n"
        + "--agent is for a coding agent: git's author and committer fixed (GIT_AUTHOR_*,\n"
        + "GIT_COMMITTER_*; the account must name git's name and email), your global git\n"
        + "config read through a copy of Perch's (git config --global inside writes there),\n"
        + "signing only as the account says, and every tool the account names nothing for\n"
        + "closed (empty configs of Perch's) instead of left on your own. It fails closed: a\n"
        + "tool that cannot be given the account, a missing ssh key or an ended session\n"
        + "refuses COMMAND (exit status 3) whatever --keep-going says. --json prints, on\n"
        + "stderr before COMMAND starts, one line saying what each tool was given (no secret)."

    static let use =
        "Gives this shell the account's identity as perch exec gives a command, until\n"
        + "perch use --global; a switch made elsewhere leaves it alone, and it beats the\n"
        + "account of a bound folder. Works through perch shell-init, which evaluates what\n"
        + "this prints; run by hand, eval \"$(perch use ID)\" does the same. On a terminal\n"
        + "without shell-init it says how to set that up (exit status 2)."

    static let shellHook =
        "Prints the shell text that brings this shell up to date: the scope it is pinned to,\n"
        + "the account of the bound folder it is in, or the global account; then touches\n"
        + "this shell's marker (PID) so the prompt hook starts no process until the state\n"
        + "or the config changes again. shell-init's hook runs it; not meant to be typed."

    static let setup =
        "TOOL is git or ssh. git: puts [include] path = Perch's git file in your global git\n"
        + "config after your own [user] and before your includeIf rules, so they still win in\n"
        + "their folders (run it again to put it back there after git appended a [user]).\n"
        + "ssh: adds an Include line for Perch's ssh file at the top of ~/.ssh/config. Shows\n"
        + "the change and asks first on a terminal; --yes gives consent without asking.\n"
        + "--undo removes it again; --undo with no TOOL is perch reset. Nothing else of your\n"
        + "config is changed."

    static let renew =
        "Runs the tool's own login for the current account (this shell's own in a scope;\n"
        + "--global: the global one), in the foreground on this terminal: aws sso login\n"
        + "--profile P for an SSO profile, gcloud auth login into the account's gcloud\n"
        + "configuration. For kube, and for AWS profiles no login renews (an assumed role,\n"
        + "plain keys), it says what does. TOOL is aws, gcloud or kube; without it, each of\n"
        + "these the account names. Exit status: the login's when it fails; 1 when the\n"
        + "account names no such tool or none is chosen."

    static let importAccounts =
        "Looks at git identities (the global config and its includeIf files), ssh keys\n"
        + "(~/.ssh/*.pub and the Host blocks of ~/.ssh/config), kube contexts, gcloud\n"
        + "configurations, gh hosts and users, and AWS profiles. What belongs to one person\n"
        + "becomes one account: the same whole address first (an ssh key whose comment is a git\n"
        + "email), then a word shared across tools (kube work-prod, gcloud work, aws work-admin\n"
        + "and git ada@work.example make an account work). Identities an account already names\n"
        + "are left out; what belongs with them is proposed as an addition to that account.\n"
        + "--scan DIR also proposes \"directories\" (a folder whose clones are all one account's)\n"
        + "and \"remotes\" from the git clones under DIR. --json prints the proposals for scripts\n"
        + "({id, name, handle, group, identities, directories, remotes, adds}). On a terminal it\n"
        + "shows each proposal and asks: y adds it, n skips it, i and e edit its id or name (an\n"
        + "id of yours adds to that account), q stops. --write adds them all without asking;\n"
        + "elsewhere it prints them as a config fragment and changes nothing. Accounts are added\n"
        + "through the config writer (the previous file kept as .bak); with no config of your\n"
        + "own, the new file holds only the imported accounts."

    static let registry =
        "A registry is a git repository holding perch-registry.json: accounts in the shape of\n"
        + "accounts.json, shared by a team (docs/registries.md). add and update show, account by\n"
        + "account and field by field, what would change and apply only on yes (or --yes); the\n"
        + "commit used is recorded and moves only on update. A fetch that fails changes nothing\n"
        + "and exits 1; update applies every registry or none. Code (onSwitch, catalog commands,\n"
        + "env a shell acts on) stays inert until perch registry trust NAME, for that code only:\n"
        + "a commit that changes it needs trust again, and --yes never grants it. Your own\n"
        + "accounts.json wins field by field: an entry with a registry account's id names only\n"
        + "what it overrides. Two registries that set a field differently are a conflict (exit 1).\n"
        + "Registry files live beside the state file; your own files are never rewritten."

    static let bind =
        "Binds the repository you stand in (or the one at PATH) to ACCOUNT by its remote:\n"
        + "the narrowest pattern of its first remote (origin first), HOST/OWNER/REPO, with an\n"
        + "ssh host alias named by the host it resolves to; git then uses the account in every\n"
        + "clone of it, wherever it is (after perch setup git). --folder binds the\n"
        + "repository's folder instead (or, outside a repository, the folder itself). Shows\n"
        + "what it binds and asks on a terminal; --yes agrees for scripts. The config is\n"
        + "written through the config writer (comments kept, the previous file as .bak)\n"
        + "and git's rules follow at once. perch unbind ACCOUNT [PATH] undoes it.\n"
        + "Exit 1: not a repository, no remote, another account binds it, no consent."

    static let unbind =
        "Takes off ACCOUNT exactly what perch bind would add for the repository at PATH (the\n"
        + "folder you stand in by default): its remote pattern, or with --folder its folder.\n"
        + "A broader pattern that also matches (github.com/acme/*) is left as it is. Exit 1\n"
        + "when the account does not list it."

    static let undo =
        "Switches back to the account before the last switch and gives each tool the state\n"
        + "it had then (recorded when the switch was made). It is a switch itself, so a second\n"
        + "perch undo redoes. Exit status 1 when there is nothing to undo, 3 when a tool fails\n"
        + "(every tool is then left as it was). It first says which switch it undoes; only\n"
        + "switches are undone (an account removed since stays removed)."

    static let reset =
        "The first time Perch changes a tool it records what the tool had (its baseline):\n"
        + "gcloud's configuration, kube's context, gh's user, docker's context. perch reset gives\n"
        + "each one back, empties Perch's own git and ssh files and removes the includes\n"
        + "perch setup added. It is a switch session of its own: journalled, each tool checked,\n"
        + "all or nothing. A tool that fails puts every tool back, keeps the baseline and the\n"
        + "account, and exits 3. Asks first on a terminal; --yes gives consent without asking."

    /// What every account command says of the config writer.
    static let writerNote =
        "The config is changed as text: its comments, key order and trailing commas stay,\n"
        + "the previous file is kept as <config>.bak, and a change that would leave a config\n"
        + "that does not load (or a key it would ignore) is refused with the reason (exit 2).\n"
        + "With no config yet, one is written holding the sample accounts and the change."

    static let addAccount =
        "ID is a–z, 0–9, '.', '_' and '-', not beginning with '-', and not used yet.\n"
        + "  perch add client --name 'Client Work' --handle @ada --group Jobs\n" + writerNote

    /// The paths named from the registry (``ToolLists``).
    static var setField: String {
        ("PATH is a key of the account, dotted for a tool's key: " + ToolLists.settablePaths.joined(separator: ", ")
            + ". VALUE is written as a string, or as it is when it is a").wrapped(toColumns: 86) + "\n"
            + "JSON list or object ('[\"github.com\", \"gitlab.com\"]'). It is checked as\n"
            + "perch config check checks it: a key it does not know is refused with the paths\n"
            + "there are, and a field that cannot stand without another (kube.namespace without\n"
            + "kube.context) with the object form to set them together. ssh.host is optional\n"
            + "(github.com). The id is changed with perch rename.\n" + writerNote
    }

    static let unsetField =
        "Removes the key at PATH (as for perch set); a tool's object left empty goes too.\n"
        + "The id and name cannot be removed.\n" + writerNote

    static let renameAccount =
        "NEW follows the rules of an id. The current and previous account, the switch\n"
        + "history, the switch counts, the pane state and Perch's identity files follow the\n"
        + "new id, so perch current, perch - and perch history go on as before.\n" + writerNote

    static let removeAccount =
        "Asks first on a terminal; --yes removes without asking (needed without a\n"
        + "terminal). The history keeps the account's entries (perch history lists them);\n"
        + "its switch count and pane state go. When it is current, each tool it names first\n"
        + "gets back what it has without Perch (git your own identity, the others what they\n"
        + "had before Perch first changed them), all or nothing as in a switch, and then no\n"
        + "account is current. A tool that fails puts every tool back and removes nothing\n"
        + "(exit status 3); an interrupted switch still finishing removes nothing (exit 1).\n" + writerNote
}
