/// The config `perch init` writes: every field of format version 1 shown once, as an example
/// to edit. The file is JSON with Comments ("Config" in `docs/files.md`), so the tool
/// identities are shown too: `env` as it is (it never fails, it only changes a shell with
/// `perch shell-init`), the others commented out, since each names something that must exist
/// first (a git, a key file, a kube context, a gcloud configuration, an AWS profile, a gh user, a
/// docker context) and a switch to an account whose tool fails is refused. The tools' lines are
/// the registry's (``ToolAdapter/configExample``), in its order.
enum StarterConfig {
    static var text: String {
        // The first account's members after its own fields: each tool's example, commented out
        // unless it names nothing that must exist first.
        let examples = ToolLists.adapters.compactMap { $0.configExample.map { ($0.isLeftOn, $0.member) } }
        let lastOn = examples.lastIndex { $0.0 }
        var tools = ["      // Who this account is in your other tools: uncomment what you have."]
        for (index, (on, example)) in examples.enumerated() {
            tools.append(on ? "      " + example + (index == lastOn ? "" : ",") : "      // " + example + ",")
        }
        let fields = #"""
                  "id": "work",
                  "name": "Work",
                  "handle": "@you.at.work",
                  "group": "Jobs",
                  "color": "blue"
            """#
        return #"""
            {
              // JSON with comments. `perch config check` checks it; the manual lists
              // every key (`man perch`, or `perch man-page | man -l -`).
              "version": 1,
              "accounts": [
                {

            """# + fields + (lastOn == nil ? "\n" : ",\n") + tools.map { $0 + "\n" }.joined() + #"""
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
                      "color": "magenta",
                      "onSwitch": "echo \"now $PERCH_ACCOUNT_NAME (was ${PERCH_PREVIOUS_ID:-nobody})\" >&2"
                    }
                  ]
                }

                """#
    }
}
