/// The config `perch init` writes: every field of format version 1 shown once, as an example
/// to edit. The file is JSON with Comments ("Config" in `docs/files.md`), so the tool
/// identities are shown too: `env` as it is (it never fails, it only changes a shell with
/// `perch shell-init`), the others commented out, since each names something that must exist
/// first (a git, a key file, a kube context, a gcloud configuration, an AWS profile, a gh user, a
/// docker context) and a switch to an account whose tool fails is refused.
enum StarterConfig {
    static let text = #"""
        {
          // JSON with comments. `perch config check` checks it; docs/files.md and
          // docs/identities.md (or `man perch`) list every key.
          "version": 1,
          "accounts": [
            {
              "id": "work",
              "name": "Work",
              "handle": "@you.at.work",
              "group": "Jobs",
              "color": "blue",
              // Who this account is in your other tools: uncomment what you have.
              // "git": { "name": "Your Name", "email": "you@work.example" },
              // "ssh": { "host": "github.com", "identityFile": "~/.ssh/id_work" },
              // "kube": { "context": "work-prod", "namespace": "web" },
              // "gcloud": "work",
              // "aws": "work-admin",
              // "gh": { "user": "you-at-work" },
              // "docker": "work",
              "env": { "TEAM": "web" }
            },
            {
              "id": "personal",
              "name": "Personal",
              "handle": "@you",
              "color": "green"
            },
            {
              "id": "oss",
              "name": "Open Source",
              "handle": "@you-oss",
              "group": "Jobs",
              "onSwitch": "echo \"now $PERCH_ACCOUNT_NAME (was ${PERCH_PREVIOUS_ID:-nobody})\" >&2"
            }
          ]
        }

        """#
}
