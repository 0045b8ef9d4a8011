// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "Perch",
    products: [
        .executable(name: "perch", targets: ["perch"]),
        .executable(name: "perch-bench", targets: ["PerchBench"]),
        // The terminal toolkit Perch is built on: a tab bar of kept-alive panes, a presentation
        // stack with sheets, long-press by mouse and key hold, ncurses drawing and the event loop.
        .library(name: "PerchKit", targets: ["PerchKit", "PerchKitTerminal", "PerchKitLoop", "TerminalText"]),
        // A test driver for apps on PerchKit: a whole app on a virtual terminal and clock.
        .library(name: "PerchKitTesting", targets: ["PerchKitTesting"]),
        // An app on PerchKit alone (`swift run perchkit-demo`; docs/perchkit.md).
        .executable(name: "perchkit-demo", targets: ["PerchKitDemo"]),
        // A second app on PerchKit alone, on its widgets: Table, TextField, layout (`swift run perchkit-planets`).
        .executable(name: "perchkit-planets", targets: ["PerchKitPlanets"]),
    ],
    targets: [
        // ncurses (wide-character) and the shim for macros Swift cannot import.
        .systemLibrary(
            name: "CNcursesw",
            path: "Sources/CNcursesw"
        ),
        // C library values Swift's Glibc module leaves out (GNU extensions).
        .target(name: "CSystem"),
        // PerchKit, pure: input decoding, gestures, screens and frames, the tab bar, panes, the
        // presentation stack and its layers, the root. No I/O. Names nothing of Perch's.
        // Its targets treat warnings as errors with a setting SwiftPM allows in a
        // dependency (unsafe flags made another package refuse PerchKit).
        .target(name: "PerchKit", dependencies: ["TerminalText"], swiftSettings: [.treatAllWarnings(as: .error)]),
        // How many columns text takes in a terminal, by grapheme cluster, and the form it is
        // drawn in: the one place that decides it, below PerchKit and Perch's domain alike.
        .target(name: "TerminalText", swiftSettings: [.treatAllWarnings(as: .error)]),
        // PerchKit's terminal backends: the only target that imports ncurses.
        .target(
            name: "PerchKitTerminal", dependencies: ["CNcursesw", "PerchKit"], swiftSettings: [.treatAllWarnings(as: .error)]),
        // PerchKit's event loop: the one place with time and I/O (poll(2), signals, worker threads).
        .target(
            name: "PerchKitLoop", dependencies: ["PerchKit", "PerchKitTerminal"], swiftSettings: [.treatAllWarnings(as: .error)]),
        // The test driver (`AppDriver`): keys with press, repeat and release, the mouse, paste,
        // resize and replies at virtual times; the screen as text and styles, snapshot files.
        .target(
            name: "PerchKitTesting", dependencies: ["PerchKit", "PerchKitTerminal", "PerchKitLoop"],
            swiftSettings: [.treatAllWarnings(as: .error)]),
        // An example app on PerchKit alone.
        // Its panes and model, a library of their own so that tests drive them (PerchKitTesting).
        .target(name: "PerchKitDemoApp", dependencies: ["PerchKit"], path: "Examples/PerchKitDemo/App"),
        .executableTarget(
            name: "PerchKitDemo", dependencies: ["PerchKit", "PerchKitTerminal", "PerchKitLoop", "PerchKitDemoApp"],
            path: "Examples/PerchKitDemo", exclude: ["App"],
            linkerSettings: [.linkedLibrary("tinfo", .when(configuration: .release))]),
        .target(name: "PerchKitPlanetsApp", dependencies: ["PerchKit"], path: "Examples/PerchKitPlanets/App"),
        .executableTarget(
            name: "PerchKitPlanets", dependencies: ["PerchKit", "PerchKitTerminal", "PerchKitLoop", "PerchKitPlanetsApp"],
            path: "Examples/PerchKitPlanets", exclude: ["App"],
            linkerSettings: [.linkedLibrary("tinfo", .when(configuration: .release))]),
        // Perch's domain: accounts, settings, state, history, scopes, the fuzzy matcher, git's
        // config and remotes as data. No I/O and no interface: it imports nothing of PerchKit's.
        .target(name: "PerchDomain", dependencies: ["TerminalText"]),
        // Perch's interface on PerchKit: the model, the panes, the layers. No I/O.
        .target(name: "PerchInterface", dependencies: ["PerchDomain", "PerchKit"]),
        // Persistence: config, state, XDG paths, atomic writes, locks. No UI.
        .target(name: "PerchStore", dependencies: ["PerchDomain"]),
        // Tool identities: what a switch applies to git, ssh, kube, gcloud, gh, AWS and the
        // environment, checks, exports per shell, sets up and imports. No UI.
        .target(name: "PerchIdentities", dependencies: ["CSystem", "PerchDomain", "PerchStore"]),
        // Command line and the event loop (the only place with time and I/O).
        .target(
            name: "PerchApp",
            dependencies: ["CSystem", "PerchDomain", "PerchInterface", "PerchStore", "PerchIdentities", "PerchKitTerminal", "PerchKitLoop"]),
        // Linked by lld with packed relative relocations (RELR, glibc 2.36+): the loader reads a
        // few KiB of relocations instead of 0.9 MiB at every start, still position-independent;
        // peak RSS 0.8 MiB lower (DECISIONS.md, 2026-12-01). The functions the hot paths run
        // come first, in the order they run (symbol-order.txt, from `make symbol-order`), so a
        // start touches fewer of the code's pages: peak RSS 3 MiB lower; and its own symbols are
        // not exported (the toolchain asks for -export-dynamic, which nothing here needs): the
        // loader searches a 13 KiB symbol table instead of 440 KiB, 0.3 MiB lower (DECISIONS.md).
        // `make build` links a static executable (`-static-executable` on its command line, with
        // --static-swift-stdlib): no shared library is mapped, relocated and bound at start (the
        // C++ runtime, libm, libgcc_s, ncurses and terminfo, the C library), 3 ms of CPU and
        // 2.5 MiB of peak RSS less a start. The flag is not set here: it links only with
        // --static-swift-stdlib, and a plain `swift build -c release` gives a dynamic binary.
        // Static ncurses needs libtinfo after it (harmless when linked dynamically).
        .executableTarget(
            name: "perch", dependencies: ["PerchApp"], exclude: ["symbol-order.txt"],
            linkerSettings: [
                .unsafeFlags([
                    "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                    "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/perch/symbol-order.txt",
                    "-Xlinker", "--no-warn-symbol-ordering", "-Xlinker", "--no-export-dynamic",
                ]),
                .linkedLibrary("tinfo", .when(configuration: .release)),
            ]),
        // In-process figures for `make bench` (bench/bench.py runs it and prints the table).
        .executableTarget(
            name: "PerchBench",
            dependencies: ["PerchDomain", "PerchInterface", "PerchStore", "PerchIdentities", "PerchKitTerminal", "PerchKitLoop"],
            path: "bench/PerchBench",
            // Linked as perch is (`make bench-build`), so its figures are the shipped binary's.
            linkerSettings: [.linkedLibrary("tinfo", .when(configuration: .release))]),
        // What more than one test target needs (a seeded generator, an executable written
        // safely beside parallel tests), written once.
        .target(name: "PerchTestSupport", path: "Tests/Support"),
        // How the tests of Perch's interface read and drive it, written once.
        .target(
            name: "PerchInterfaceTesting", dependencies: ["PerchDomain", "PerchInterface", "PerchKit"], path: "Tests/InterfaceSupport"),
        .testTarget(
            name: "PerchKitTests",
            dependencies: [
                "PerchKit", "PerchKitTerminal", "PerchKitLoop", "PerchKitTesting", "PerchTestSupport", "PerchKitDemoApp",
                "PerchKitPlanetsApp",
            ],
            exclude: ["Snapshots"]),
        .testTarget(
            name: "PerchInterfaceTests",
            dependencies: ["PerchDomain", "PerchInterface", "PerchKit", "PerchKitLoop", "PerchTestSupport", "PerchInterfaceTesting"],
            exclude: ["Golden"]),
        // The domain alone: nothing of the interface or PerchKit is linked.
        .testTarget(name: "PerchDomainTests", dependencies: ["PerchDomain"]),
        .testTarget(
            name: "PerchStoreTests", dependencies: ["PerchStore", "PerchDomain", "PerchInterface", "PerchIdentities", "PerchTestSupport"]),
        .testTarget(
            name: "PerchIdentitiesTests",
            dependencies: ["PerchIdentities", "PerchStore", "PerchDomain", "PerchInterface", "PerchTestSupport"]),
        .testTarget(
            name: "PerchAppTests",
            dependencies: [
                "PerchApp", "PerchDomain", "PerchInterface", "PerchStore", "PerchKitTerminal", "PerchKitLoop", "PerchTestSupport",
                "PerchInterfaceTesting",
            ]),
        .testTarget(name: "EndToEndTests", dependencies: ["PerchTestSupport"], exclude: ["Golden", "RealTerminal", "MCP"]),
    ]
)
