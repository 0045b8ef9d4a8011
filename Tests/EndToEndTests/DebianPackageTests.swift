import Foundation
import PerchTestSupport
import Testing

/// Issue 20: `make deb` builds `perch_VERSION_ARCH.deb`; extracted into a scratch root, it holds
/// the binary, the man page, the three shells' completions, the README and a copyright file, and
/// the binary runs from there. `make test` builds the package first and names it in `PERCH_DEB`;
/// without it the suite is reported as skipped.
@Suite("Debian package", .serialized, .currentBinary)
struct DebianPackageTests {
    /// The package to check: `$PERCH_DEB`, or nil.
    static let package: String? = {
        guard let path = ProcessInfo.processInfo.environment["PERCH_DEB"], !path.isEmpty else { return nil }
        return path
    }()

    /// Why the suite cannot run here, or nil.
    static let missing: String? = {
        guard let package else { return "PERCH_DEB names no package (make test builds one with make deb)" }
        guard FileManager.default.fileExists(atPath: package) else { return "\(package) does not exist" }
        return ShellEndToEndTests.installed("dpkg-deb") ? nil : "dpkg-deb is not installed"
    }()

    static let files = [
        "usr/bin/perch", "usr/share/man/man1/perch.1.gz", "usr/share/bash-completion/completions/perch",
        "usr/share/zsh/vendor-completions/_perch", "usr/share/fish/vendor_completions.d/perch.fish", "usr/share/doc/perch/README.md",
        "usr/share/doc/perch/copyright", "usr/share/doc/perch/changelog.gz", "usr/share/doc/perch/docs/identities.md",
    ]

    @Test(
        "extracted into a scratch root, the package holds every file and its binary runs from there",
        .enabled(if: missing == nil, "\(missing ?? "")"))
    func extractAndRun() throws {
        let package = try #require(Self.package)
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let root = cli.home.appendingPathComponent("root").path
        let extracted = try Spawn.run(["dpkg-deb", "-x", package, root])
        try #require(extracted.status == 0, "\(extracted.stderr)")
        for file in Self.files {
            #expect(FileManager.default.fileExists(atPath: root + "/" + file), "\(file) is not in the package")
        }
        let binary = root + "/usr/bin/perch"
        #expect(FileManager.default.isExecutableFile(atPath: binary))
        let version = try Spawn.run([binary, "--version"], environment: cli.environment)
        #expect(version.status == 0 && version.stdout.hasPrefix("perch "), "\(version.stdout)\(version.stderr)")
        let number = version.stdout.dropFirst("perch ".count).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(URL(fileURLWithPath: package).lastPathComponent.hasPrefix("perch_\(number)_"), "the file is named after the version")
        // The extracted binary, in a scratch HOME with no config, lists the samples as the built one does.
        let list = try Spawn.run([binary, "list"], environment: cli.environment)
        #expect(list.status == 0, "\(list.stderr)")
        let built = try cli.run(["list"]).stdout
        #expect(list.stdout == built, "\(list.stdout)")
        #expect(list.stdout.contains("Side Project"))
        // Its completion script and man page are the ones the package ships.
        let bash = try String(contentsOfFile: root + "/usr/share/bash-completion/completions/perch", encoding: .utf8)
        let script = try Spawn.run([binary, "completion", "bash"]).stdout
        #expect(bash == script)
        let page = try Spawn.run(["sh", "-c", "gzip -dc '\(root)/usr/share/man/man1/perch.1.gz'"])
        let generated = try Spawn.run([binary, "man-page"]).stdout
        #expect(page.stdout.contains(".SH NAME") && page.stdout == generated)
        let copyright = try String(contentsOfFile: root + "/usr/share/doc/perch/copyright", encoding: .utf8)
        #expect(copyright.hasPrefix("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"))
    }

    /// The sections of the ELF file at `path` that only a debugger or a symbolizer reads: the
    /// symbol table (`.symtab`, `.strtab`) and the DWARF sections (`.debug_*`), from `readelf -S`.
    static func symbolSections(_ path: String) throws -> [String] {
        let headers = try Spawn.run(["readelf", "-S", "-W", path])
        try #require(headers.status == 0 && headers.stdout.contains(".text"), "\(headers.stderr)")
        return headers.stdout.split(separator: "\n").compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix(".") }.map(String.init)
        }.filter { $0 == ".symtab" || $0 == ".strtab" || $0.hasPrefix(".debug_") }
    }

    /// Issue 32: the binary was 61 MB stripped, 38 MB of it ICU's data, linked because one file
    /// imported all of Foundation; with `FoundationEssentials` only, no ICU data is linked (its
    /// tables are named `icudt74l_…` and so on), and the packaged binary carries no symbols.
    @Test(
        "the packaged binary is stripped (no symbol table, no debug sections) and holds no ICU data",
        .enabled(if: missing == nil && ShellEndToEndTests.installed("readelf"), "\(missing ?? "readelf is not installed (binutils)")"))
    func strippedWithoutICU() throws {
        let package = try #require(Self.package)
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let root = cli.home.appendingPathComponent("root").path
        let extracted = try Spawn.run(["dpkg-deb", "-x", package, root])
        try #require(extracted.status == 0, "\(extracted.stderr)")
        let binary = root + "/usr/bin/perch"
        let sections = try Self.symbolSections(binary)
        #expect(sections.isEmpty, "\(sections)")
        let file = try Spawn.run(["file", "-b", binary])
        #expect(file.stdout.contains(", stripped"), "\(file.stdout)")
        // grep -c counts the lines (runs between newline bytes) that name ICU's data: 0 for none.
        let icu = try Spawn.run(["grep", "-a", "-c", "icudt", binary])
        #expect(icu.status == 1 && icu.stdout.hasPrefix("0"), "ICU data in the packaged binary: \(icu.stdout)\(icu.stderr)")
    }

    @Test(
        "the control file names the package, its version, the architecture and the packages of the files it reads",
        .enabled(if: missing == nil, "\(missing ?? "")"))
    func control() throws {
        let package = try #require(Self.package)
        let info = try Spawn.run([
            "dpkg-deb", "--field", package, "Package", "Version", "Architecture", "Depends", "Built-Using", "Maintainer",
        ])
        try #require(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("Package: perch\n"))
        let architecture = try Spawn.run(["dpkg", "--print-architecture"]).stdout
        #expect(info.stdout.contains("Architecture: \(architecture)"))
        #expect(info.stdout.contains("libc6 (>= "), "\(info.stdout)")
        // The release binary is statically linked: it needs ncurses' terminfo database, not its
        // shared library (the packages of the files it reads, scripts/build-deb.sh).
        #expect(info.stdout.contains("ncurses-base (>= "), "\(info.stdout)")
        #expect(!info.stdout.contains("libncursesw6"), "\(info.stdout)")
        // … and holds parts of the C library, the C++ runtime and ncurses: their source packages.
        #expect(info.stdout.contains("Built-Using: ") && info.stdout.contains("glibc (= "), "\(info.stdout)")
        #expect(info.stdout.contains("ncurses (= ") && info.stdout.contains("gcc-"), "\(info.stdout)")
        let contents = try Spawn.run(["dpkg-deb", "--contents", package])
        #expect(contents.stdout.contains("root/root"), "files belong to root")
        #expect(!contents.stdout.contains(" ./usr/local/"), "nothing under /usr/local")
    }

    /// Issue 33: the package's Maintainer was the placeholder `perch@example.org`, written into
    /// scripts/build-deb.sh. It is the one line of scripts/debian/maintainer, and the control
    /// file and the changelog's sign-off both say it.
    @Test(
        "the package's Maintainer is the one in scripts/debian/maintainer, not the placeholder perch@example.org",
        .enabled(if: missing == nil, "\(missing ?? "")"))
    func maintainerIsNotThePlaceholder() throws {
        let package = try #require(Self.package)
        let file = ShellEndToEndTests.repository.appendingPathComponent("scripts/debian/maintainer").path
        let maintainer = try #require(
            String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").first.map(String.init),
            "scripts/debian/maintainer is empty")
        #expect(!maintainer.contains("example."), "\(maintainer)")
        #expect(maintainer.wholeMatch(of: /[^<>]+ <[^@<> ]+@[^@<> ]+\.[a-z]+>/) != nil, "\(maintainer) is not Name <address>")
        let field = try Spawn.run(["dpkg-deb", "--field", package, "Maintainer"])
        #expect(field.stdout == maintainer + "\n", "\(field.stdout)\(field.stderr)")
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let root = cli.home.appendingPathComponent("root").path
        try #require(try Spawn.run(["dpkg-deb", "-x", package, root]).status == 0)
        let changelog = try Spawn.run(["sh", "-c", "gzip -dc '\(root)/usr/share/doc/perch/changelog.gz'"])
        #expect(changelog.stdout.contains(" -- \(maintainer)  "), "\(changelog.stdout)")
    }

    @Test(
        "lintian reports no errors",
        .enabled(if: missing == nil && ShellEndToEndTests.installed("lintian"), "lintian or the package is missing"))
    func lintian() throws {
        let package = try #require(Self.package)
        let result = try Spawn.run(["lintian", "--no-tag-display-limit", package])
        let errors = result.stdout.split(separator: "\n").filter { $0.hasPrefix("E: ") }
        #expect(errors.isEmpty, "\(result.stdout)\(result.stderr)")
        print("lintian on \(URL(fileURLWithPath: package).lastPathComponent):\n\(result.stdout)")
    }

    /// The CI failure "make: *** [Makefile:32: deb] Error 141": `scripts/build-deb.sh` ran under
    /// `pipefail` with readers that stop early (`awk '… exit'`, `head -1`), so a writer with a long
    /// listing (`ldconfig -p` on a machine with many libraries) died of SIGPIPE and the script
    /// with it. Here `ldconfig` lists the real libraries and then 20 000 more lines (1 MB, far more than a pipe holds).
    @Test(
        "build-deb.sh survives a long ldconfig listing (CI exit 141, SIGPIPE under pipefail)",
        .enabled(if: missing == nil, "\(missing ?? "")"))
    func longLibraryListing() throws {
        let cli = try PerchCommandLine()
        defer { cli.remove() }
        let fakes = cli.home.appendingPathComponent("fake-bin")
        let out = cli.home.appendingPathComponent("deb")
        try FileManager.default.createDirectory(at: fakes, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let real = try #require(
            ["/usr/sbin/ldconfig", "/sbin/ldconfig"].first { FileManager.default.isExecutableFile(atPath: $0) })
        let fake = fakes.appendingPathComponent("ldconfig")
        writeExecutable(
            """
            #!/bin/sh
            \(real) "$@"
            seq 1 20000 | sed 's|.*|\tlibfiller&.so (libc6,x86-64) => /nonexistent/libfiller&.so|'
            """, to: fake.path)
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = fakes.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let script = ShellEndToEndTests.repository.appendingPathComponent("scripts/build-deb.sh").path
        let built = try Spawn.run([script, TmuxSession.binary, out.path], environment: environment)
        #expect(built.status == 0, "exit \(built.status): \(built.stderr)")
        let package = built.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let depends = try Spawn.run(["dpkg-deb", "--field", package, "Depends"])
        #expect(depends.stdout.contains("libc6 (>= "), "\(depends.stdout)\(depends.stderr)")
    }
}
