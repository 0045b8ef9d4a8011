/// The tool descriptions Perch ships (docs/tools.md), in the format a user's own files use:
/// Claude Code, Codex CLI, Azure CLI, flyctl, Terraform and npm. Each names only what the
/// tool's own documentation (its `documentation` key) says it reads; a user's file of the
/// same name (`~/.config/perch/tools/az.json`) takes its place. `perch tools` lists them with
/// the other tools; `perch tools show NAME` prints one, to copy into that folder and edit.
public enum ShippedToolDescriptions {
    /// The origin of a shipped description.
    public static let origin = "shipped"

    /// Each description's name and JSON text, in the order the tools are listed.
    public static let all: [(name: String, text: String)] = [
        ("claude", claude), ("codex", codex), ("az", az), ("fly", fly), ("terraform", terraform), ("npm", npm),
    ]

    static let claude = #"""
        {
          "version": 1,
          "tool": "claude",
          "title": "Claude Code",
          "program": "claude",
          "documentation": "https://docs.anthropic.com/en/docs/claude-code/settings#environment-variables",
          "settings": {
            "configDir": {"kind": "folder", "variable": "CLAUDE_CONFIG_DIR", "required": true},
            "email": {"kind": "identity"}
          },
          "overrides": [
            {"variable": "ANTHROPIC_API_KEY", "reason": "Claude Code uses an API key in the environment instead of the signed-in account"},
            {"variable": "ANTHROPIC_AUTH_TOKEN", "reason": "Claude Code sends this token instead of the signed-in account's"},
            {"variable": "CLAUDE_CODE_OAUTH_TOKEN", "reason": "Claude Code uses this token instead of the signed-in account's"}
          ],
          "whoami": {"file": "{configDir}/.claude.json", "json": "oauthAccount.emailAddress", "expect": "email"},
          "secrets": ["{configDir}/.credentials.json"]
        }
        """#

    static let codex = #"""
        {
          "version": 1,
          "tool": "codex",
          "title": "Codex CLI",
          "program": "codex",
          "documentation": "https://github.com/openai/codex/blob/main/docs/config.md",
          "settings": {
            "home": {"kind": "folder", "variable": "CODEX_HOME", "required": true, "default": "~/.codex"},
            "login": {"kind": "identity"}
          },
          "overrides": [
            {"variable": "OPENAI_API_KEY", "reason": "Codex CLI can use an API key in the environment instead of the signed-in account"}
          ],
          "whoami": {"command": ["codex", "login", "status"], "pattern": "Logged in using (ChatGPT|an API key)", "expect": "login"},
          "secrets": ["{home}/auth.json"]
        }
        """#

    static let az = #"""
        {
          "version": 1,
          "tool": "az",
          "title": "Azure CLI",
          "program": "az",
          "documentation": "https://learn.microsoft.com/cli/azure/azure-cli-configuration",
          "settings": {
            "configDir": {"kind": "folder", "variable": "AZURE_CONFIG_DIR", "required": true, "default": "~/.azure"},
            "user": {"kind": "identity"}
          },
          "whoami": {"command": ["az", "account", "show", "--output", "json"], "json": "user.name", "expect": "user"},
          "secrets": ["{configDir}/msal_token_cache.json", "{configDir}/service_principal_entries.json", "{configDir}/accessTokens.json"]
        }
        """#

    static let fly = #"""
        {
          "version": 1,
          "tool": "fly",
          "title": "flyctl",
          "program": "fly",
          "documentation": "https://fly.io/docs/flyctl/",
          "settings": {
            "configDir": {"kind": "folder", "variable": "FLY_CONFIG_DIR", "required": true, "default": "~/.fly"},
            "email": {"kind": "identity"}
          },
          "overrides": [
            {"variable": "FLY_API_TOKEN", "reason": "flyctl uses FLY_API_TOKEN instead of the token in its config"},
            {"variable": "FLY_ACCESS_TOKEN", "reason": "flyctl uses FLY_ACCESS_TOKEN instead of the token in its config"}
          ],
          "server": {"command": ["fly", "auth", "whoami", "--json"], "json": "email", "expect": "email"},
          "secrets": ["{configDir}/config.yml"]
        }
        """#

    static let terraform = #"""
        {
          "version": 1,
          "tool": "terraform",
          "title": "Terraform CLI",
          "program": "terraform",
          "documentation": "https://developer.hashicorp.com/terraform/cli/config/config-file",
          "settings": {
            "cliConfigFile": {"kind": "file", "variable": "TF_CLI_CONFIG_FILE", "required": true, "default": "~/.terraformrc"}
          },
          "overrides": [
            {"variable": "TF_TOKEN_app_terraform_io", "reason": "Terraform uses a TF_TOKEN_ variable instead of the config's credentials for its host"}
          ],
          "secrets": ["{cliConfigFile}", "~/.terraform.d/credentials.tfrc.json"]
        }
        """#

    static let npm = #"""
        {
          "version": 1,
          "tool": "npm",
          "title": "npm",
          "program": "npm",
          "documentation": "https://docs.npmjs.com/cli/v10/using-npm/config#userconfig",
          "settings": {
            "userconfig": {"kind": "file", "variable": "NPM_CONFIG_USERCONFIG", "required": true, "default": "~/.npmrc"},
            "user": {"kind": "identity"}
          },
          "server": {"command": ["npm", "whoami"], "expect": "user"},
          "secrets": ["{userconfig}"]
        }
        """#
}
