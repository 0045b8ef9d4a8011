// perchkit-demo: a two-tab app on PerchKit alone (docs/perchkit.md walks through it).
//
// Hold the Colors tab (press and hold it with the mouse, or hold `1`) and a sheet fitted to its
// list of colours rises; pick one (Enter, or a click) and the Colors pane shows its name.

import Glibc
import PerchKit
import PerchKitDemoApp
import PerchKitLoop

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--help") || arguments.contains("-h") {
    print(
        """
        usage: perchkit-demo [--reduce-motion] [--allow-crash]

        A two-tab app on PerchKit. Hold the Colors tab (mouse, or hold 1) to raise a sheet of
        colours (/ filters them, Esc clears the filter); pick one with Enter or a click; c copies
        its name. Keys: 1 2 tabs, ? help, q quit.

        w starts 20 s of slow work off the UI thread. Quit (q, or SIGTERM) while it runs: the
        terminal is restored at once and the work is cancelled; the program waits for running
        work at most 2 s after that.

        options:
          --reduce-motion  sheets appear and go without sliding
          --allow-crash    ! crashes the demo on purpose (a Swift runtime trap): the terminal is
                           restored, then the runtime's message is printed on standard error
        """)
    exit(0)
}
if let unknown = arguments.first(where: { !["--reduce-motion", "--allow-crash"].contains($0) }) {
    let kind = unknown.hasPrefix("-") ? "unknown option" : "unexpected argument"
    let message = "perchkit-demo: \(kind) '\(unknown)' (try --help)\n"
    _ = Array(message.utf8).withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(2)
}
let reduceMotion = arguments.contains("--reduce-motion")
exit(
    TabAppRunner.runFullScreen { size in demoApp(size: size, reduceMotion: reduceMotion, allowsCrash: arguments.contains("--allow-crash")) }
)
