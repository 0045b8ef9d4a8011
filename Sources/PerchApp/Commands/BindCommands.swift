import Glibc
import PerchDomain
import PerchIdentities
import PerchStore

/// The options `bind` and `unbind` share.
enum BindOption {
    /// `--folder`: the repository's folder (or the folder itself), not its remote.
    static let folder = OptionDefinition.flag(
        "--folder", help: "bind the repository's folder (or this folder) instead of its remote")
}

extension CommandLineTool {
    /// The account, the resolved folder and what binds it, or nil after saying why (the
    /// exit status to return with it).
    func bindTarget(_ id: String, _ path: String?, folder: Bool, command: String) -> (
        config: LoadedConfig, account: Account, target: RepositoryBinding.Target, environment: IdentityEnvironment, place: String
    )? {
        guard let config = loadConfig() else { return nil }
        guard config.path != nil else {
            console.error("\(command): the accounts are the embedded samples; perch init writes a config of your own first")
            return nil
        }
        guard let account = lookupAccount(id, in: config, command: command) else { return nil }
        let environment = IdentityEnvironment.current(statePath: paths.state)
        let given = environment.expandingTilde(path ?? ".")
        guard let resolved = realpath(given, nil) else {
            console.error(shown("\(command): \(path ?? "."): no such folder"))
            return nil
        }
        let place = String(cString: resolved)
        free(resolved)
        var info = stat()
        guard stat(place, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            console.error(shown("\(command): \(path ?? "."): not a folder"))
            return nil
        }
        let aliases = folder ? [:] : SSHAliases.resolve(in: ToolContext(environment: environment))
        do {
            let target = try RepositoryBinding.target(place, folder: folder, aliases: aliases, in: environment)
            if case .folder(let written) = target, written == "~" || written == "/" {
                console.error("\(command): \(written) would bind every folder below it; bind a folder of its own")
                return nil
            }
            return (config, account, target, environment, place)
        } catch {
            console.error(shown("\(command): \(error)"))
            return nil
        }
    }

    /// `the remote github.com/acme/site (origin)` or `the folder ~/src/site`.
    func describe(_ target: RepositoryBinding.Target) -> String {
        switch target {
        case .remote(let pattern, let remote): "the remote \(pattern) (\(remote))"
        case .folder(let folder): "the folder \(folder)"
        }
    }
}
