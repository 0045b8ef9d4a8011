// perchkit-planets: a small app on PerchKit's widgets (docs/perchkit.md): a table of the planets
// with a filter typed into a text field, and a list of notes added from another field.

import Glibc
import PerchKit
import PerchKitLoop
import PerchKitPlanetsApp

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--help") || arguments.contains("-h") {
    print(
        """
        usage: perchkit-planets

        A table of the planets and a list of notes, on PerchKit's Table and TextField.
        Planets: ↑ ↓ PgUp PgDn Home End move, / types a filter (Enter keeps it, Esc clears it),
        Enter says how many moons. Notes: type, Enter adds. Keys: 1 2 or Tab for tabs (on
        Notes only Tab, since digits are text there), ? help, Ctrl-C quits (q on Planets too).
        """)
    exit(0)
}
if let first = arguments.first {
    let message = "perchkit-planets: \(first.hasPrefix("-") ? "unknown option" : "unexpected argument") '\(first)' (try --help)\n"
    _ = Array(message.utf8).withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(2)
}
exit(TabAppRunner.runFullScreen { size in planetsApp(size: size) })
