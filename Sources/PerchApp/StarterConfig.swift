/// The config `perch init` writes: every field of format version 1 shown once, as an example
/// to edit (JSON has no comments, so the example is the documentation; "Config" in
/// `docs/files.md` has the rest).
enum StarterConfig {
    static let text = #"""
        {
          "version": 1,
          "accounts": [
            {
              "id": "work",
              "name": "Work",
              "handle": "@you.at.work",
              "group": "Jobs",
              "color": "blue"
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
