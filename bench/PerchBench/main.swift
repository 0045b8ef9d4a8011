// perch-bench: the in-process figures of `make bench`, written as JSON for bench/bench.py.
//
//   perch-bench core   --out PATH --scratch DIR [--smoke] [--only filter]   no terminal needed
//   perch-bench frames --out PATH [--smoke] [--runs N] [--only SCREEN]   on a terminal (bench.py gives it a pty);
//     SCREEN is a screen's name (overview, stats, …), cursor_move or source_cursor_move
//   perch-bench instructions --out PATH [--runs N] [--only SCREEN] [--after-overview]   under callgrind,
//     on a terminal (bench.py runs it so; see FrameBench.countInstructions); --after-overview draws
//     each screen after Overview rather than after the screen a person reaches it from
//
// Times are in milliseconds from CLOCK_MONOTONIC; --smoke makes one quick run of each figure.
import FoundationEssentials
import Glibc
import PerchDomain
import PerchIdentities
import PerchInterface
import PerchKitTerminal
import PerchStore

// The tools the config may name, before any config is read.
let adaptersInstalled: Void = ToolAdapters.install()

struct Arguments {
    var mode = ""
    var out = ""
    var scratch = "/tmp"
    var smoke = false
    /// Runs of each frame figure instead of the default (for profiling under callgrind).
    var runs: Int?
    /// Only the frame figure of this screen (for profiling).
    var only: String?
    /// Each screen drawn after Overview, as frames were defined before 2026-12-03 (for comparison).
    var afterOverview = false

    init(_ arguments: [String]) {
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--out":
                index += 1
                out = arguments[index]
            case "--scratch":
                index += 1
                scratch = arguments[index]
            case "--smoke": smoke = true
            case "--after-overview": afterOverview = true
            case "--runs":
                index += 1
                runs = Int(arguments[index])
            case "--only":
                index += 1
                only = arguments[index]
            default: mode = arguments[index]
            }
            index += 1
        }
    }
}

/// Writes `message` and a newline to standard error.
func printError(_ message: String) {
    let bytes = Array((message + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

let arguments = Arguments(Array(CommandLine.arguments.dropFirst()))
let figures: [Figure]
switch arguments.mode {
case "core": figures = CoreBench(smoke: arguments.smoke, scratch: arguments.scratch, onlyFilter: arguments.only == "filter").run()
case "frames":
    figures = FrameBench(smoke: arguments.smoke, runs: arguments.runs, only: arguments.only, afterOverview: arguments.afterOverview).run()
case "instructions":
    figures = FrameBench(smoke: arguments.smoke, runs: arguments.runs, only: arguments.only, afterOverview: arguments.afterOverview)
        .countInstructions()
default:
    printError("usage: perch-bench core|frames|instructions --out PATH [--scratch DIR] [--smoke] [--runs N] [--only NAME]")
    exit(2)
}
let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
let data = try encoder.encode(figures)
guard let file = fopen(arguments.out, "w") else {
    printError("perch-bench: cannot write \(arguments.out)")
    exit(1)
}
_ = Array(data).withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
fclose(file)
