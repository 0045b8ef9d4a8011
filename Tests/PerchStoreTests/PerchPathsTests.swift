import Testing

@testable import PerchStore

/// An environment made of the given variables only.
private func environment(_ variables: [String: String]) -> (String) -> String? {
    { variables[$0] }
}

@Suite("PerchPaths")
struct PerchPathsTests {
    @Test("XDG variables set to absolute paths are used")
    func xdgSet() {
        let paths = PerchPaths(lookup: environment(["HOME": "/home/ada", "XDG_CONFIG_HOME": "/cfg", "XDG_STATE_HOME": "/st"]))
        #expect(paths.config == "/cfg/perch/accounts.json")
        #expect(paths.state == "/st/perch/state.json")
        #expect(paths.configIsExplicit == false)
    }

    // Bug: HOME=/ gave //.config/perch/accounts.json.
    @Test(
        "a HOME of / or with a trailing slash gives clean paths",
        arguments: [("/", "/.config"), ("/home/ada/", "/home/ada/.config"), ("/home/ada//", "/home/ada/.config")])
    func homeSlashes(home: String, config: String) {
        #expect(PerchPaths(lookup: environment(["HOME": home])).config == config + "/perch/accounts.json")
    }

    @Test("unset XDG variables fall back to ~/.config and ~/.local/state")
    func xdgUnset() {
        let paths = PerchPaths(lookup: environment(["HOME": "/home/ada"]))
        #expect(paths.config == "/home/ada/.config/perch/accounts.json")
        #expect(paths.state == "/home/ada/.local/state/perch/state.json")
    }

    @Test("empty or relative XDG variables are ignored", arguments: ["", "relative/dir", "./here", "~/cfg"])
    func xdgIgnored(_ value: String) {
        let paths = PerchPaths(lookup: environment(["HOME": "/home/ada", "XDG_CONFIG_HOME": value, "XDG_STATE_HOME": value]))
        #expect(paths.config == "/home/ada/.config/perch/accounts.json")
        #expect(paths.state == "/home/ada/.local/state/perch/state.json")
    }

    @Test("the two variables are independent")
    func independent() {
        let paths = PerchPaths(lookup: environment(["HOME": "/h", "XDG_STATE_HOME": "/st", "XDG_CONFIG_HOME": "rel"]))
        #expect(paths.config == "/h/.config/perch/accounts.json")
        #expect(paths.state == "/st/perch/state.json")
    }

    @Test("explicit paths win over the environment")
    func explicit() {
        let paths = PerchPaths(
            config: "my.json", state: "/tmp/s.json",
            lookup: environment(["HOME": "/h", "XDG_CONFIG_HOME": "/cfg", "XDG_STATE_HOME": "/st"]))
        #expect(paths.config == "my.json")
        #expect(paths.configIsExplicit)
        #expect(paths.state == "/tmp/s.json")
    }

    @Test("an explicit state path alone does not make the config explicit")
    func explicitStateOnly() {
        let paths = PerchPaths(state: "/tmp/s.json", lookup: environment(["HOME": "/h"]))
        #expect(paths.configIsExplicit == false)
        #expect(paths.config == "/h/.config/perch/accounts.json")
    }

    @Test("without HOME the password database's home is used", arguments: [[:], ["HOME": ""]] as [[String: String]])
    func noHome(_ variables: [String: String]) {
        let paths = PerchPaths(lookup: environment(variables))
        #expect(paths.config.hasPrefix("/"))
        #expect(paths.config.hasSuffix("/.config/perch/accounts.json"))
        #expect(paths.state.hasSuffix("/.local/state/perch/state.json"))
        #expect(!paths.config.hasPrefix("/.config"), "an empty HOME must not give /.config: \(paths.config)")
    }
}
