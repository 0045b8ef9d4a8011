// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Perch",
    products: [
        .executable(name: "perch", targets: ["perch"]),
        .executable(name: "perch-bench", targets: ["PerchBench"]),
    ],
    targets: [
        // ncurses (wide-character) and the shim for macros Swift cannot import.
        .systemLibrary(
            name: "CNcursesw",
            path: "Sources/CNcursesw"
        ),
        // C library values Swift's Glibc module leaves out (GNU extensions).
        .target(name: "CSystem"),
        // Pure core: input decoding, gestures, state, update, layout, rendering. No I/O.
        .target(name: "PerchCore"),
        // Persistence: config, state, XDG paths, atomic writes, locks. No UI.
        .target(name: "PerchStore", dependencies: ["PerchCore"]),
        // Tool identities: what a switch applies to git, ssh, kube, gcloud, gh, AWS and the
        // environment, checks, exports per shell, sets up and imports. No UI.
        .target(name: "PerchIdentities", dependencies: ["CSystem", "PerchCore", "PerchStore"]),
        // The only target that imports ncurses.
        .target(name: "PerchTerminal", dependencies: ["CNcursesw", "PerchCore"]),
        // Command line and the event loop (the only place with time and I/O).
        .target(name: "PerchApp", dependencies: ["CSystem", "PerchCore", "PerchStore", "PerchIdentities", "PerchTerminal"]),
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
            name: "PerchBench", dependencies: ["PerchCore", "PerchStore", "PerchIdentities", "PerchTerminal"], path: "bench/PerchBench",
            // Linked as perch is (`make bench-build`), so its figures are the shipped binary's.
            linkerSettings: [.linkedLibrary("tinfo", .when(configuration: .release))]),
        .testTarget(name: "PerchCoreTests", dependencies: ["PerchCore"], exclude: ["Golden"]),
        .testTarget(name: "PerchStoreTests", dependencies: ["PerchStore", "PerchCore", "PerchIdentities"]),
        .testTarget(name: "PerchIdentitiesTests", dependencies: ["PerchIdentities", "PerchStore", "PerchCore"]),
        .testTarget(name: "PerchAppTests", dependencies: ["PerchApp", "PerchCore", "PerchStore", "PerchTerminal"]),
        .testTarget(name: "EndToEndTests", exclude: ["Golden", "RealTerminal"]),
    ]
)
