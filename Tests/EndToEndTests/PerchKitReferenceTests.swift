import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// PerchKit's API reference (`make docs`, a static DocC site) as a reader sees it: served over
/// HTTP on 127.0.0.1 (DocC's pages fetch their content as JSON, which a file:// URL refuses) and
/// opened in headless Chromium, whose DOM, once DocC's scripts have drawn a page, holds its title,
/// its declaration and the summary of its doc comment. `make test` builds the reference first and
/// names it in `PERCHKIT_REFERENCE`; without it, or without Chromium, the suite is reported as
/// skipped.
@Suite("PerchKit's reference in a browser", .serialized)
struct PerchKitReferenceTests {
    /// The reference's folder: `$PERCHKIT_REFERENCE`, or nil.
    static let reference: String? = {
        guard let path = ProcessInfo.processInfo.environment["PERCHKIT_REFERENCE"], !path.isEmpty else { return nil }
        return path
    }()

    /// Why the suite cannot run here, or nil.
    static let missing: String? = {
        guard let reference else { return "PERCHKIT_REFERENCE names no reference (make test builds one with make docs)" }
        guard FileManager.default.fileExists(atPath: reference + "/index.html") else {
            return "\(reference) holds no index.html (make docs builds it)"
        }
        return Loopback.missing(["chromium", "python3", "timeout"])
    }()

    /// A symbol's page: its path under the site's root, and what it must show.
    struct Page: Sendable, CustomTestStringConvertible {
        var path: String
        /// The page's heading.
        var title: String
        /// The start of its declaration.
        var declaration: String
        /// The start of its doc comment's first paragraph (apostrophes plain, links as their text).
        var summary: String
        var testDescription: String { title }
    }

    static let pages = [
        Page(
            path: "documentation/perchkit/tabapp", title: "TabApp", declaration: "struct TabApp",
            summary: "The root of a tab-bar app: the app's model"),
        Page(
            path: "documentation/perchkit/sheet", title: "Sheet", declaration: "struct Sheet",
            summary: "A bottom sheet over a list: at its fit detent it is as tall as its rows"),
        Page(
            path: "documentation/perchkitloop/tabapprunner", title: "TabAppRunner", declaration: "final class TabAppRunner",
            summary: "Runs a TabApp on a TerminalLoop: the work its components ask for runs on threads of its own"),
    ]

    @Test(
        "A type's page, opened in Chromium, shows its name, its declaration and its doc comment's summary",
        .enabled(if: missing == nil, "\(missing ?? "")"), arguments: pages)
    func pageShowsTheType(_ page: Page) throws {
        let reference = try #require(Self.reference)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("perchkit-reference-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let server = try StaticSite.serve(reference, log: scratch + "/http.log")
        defer { server.stop() }

        let dom = try Self.renderedDOM(of: "http://127.0.0.1:\(server.port)/\(page.path)", scratch: scratch)
        let shown = Self.text(dom)
        #expect(
            Self.text(of: "h1", classed: "title", until: "</h1>", in: dom) == page.title,
            "the page's heading; the page shows: \(shown.suffix(1500))")
        let declaration = Self.text(of: "div", classed: "declarations-container", until: "</pre>", in: dom)
        #expect(declaration?.hasPrefix(page.declaration) == true, "the declaration: \(declaration ?? "none")")
        let summary = Self.text(of: "div", classed: "abstract content", until: "</div>", in: dom)
        #expect(summary?.hasPrefix(page.summary) == true, "the summary: \(summary ?? "none")")
    }

    /// The DOM of `url` after Chromium has run its scripts (`--dump-dom`; virtual time lets the
    /// page's fetches and drawing finish before the dump). A dump made before DocC drew the page
    /// (on a busy machine) is made again, until it shows a heading or an error, or 90 s pass.
    static func renderedDOM(of url: String, scratch: String) throws -> String {
        // Chromium's profile, caches and NSS database go to the scratch folder, not the HOME
        // `make test` checks.
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in [("HOME", scratch), ("XDG_CONFIG_HOME", scratch + "/.config"), ("XDG_CACHE_HOME", scratch + "/.cache")] {
            environment[name] = value
        }
        let browser = [
            "timeout", "60", "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--user-data-dir=\(scratch)/profile", "--virtual-time-budget=10000", "--dump-dom", url,
        ]
        var last = Spawn.Result(status: -1, stdout: "", stderr: "")
        let settled = try TmuxSession.eventually(timeout: 90) {
            last = try Spawn.run(browser, environment: environment)
            // A symbol's heading, DocC's own "The page you're looking for can't be found." (its
            // page's JSON is missing), or the server's 404 (the page's HTML is).
            return ["title", "title error-content"].contains { text(of: "h1", classed: $0, until: "</h1>", in: last.stdout) != nil }
                || last.stdout.contains("Error code: 404")
        }
        try #require(
            settled,
            "Chromium showed no heading in 90 s (status \(last.status)): \(text(last.stdout).suffix(1500))\n\(last.stderr.suffix(1500))")
        return last.stdout
    }

    /// The text inside the first `<tag …>` whose class attribute is exactly `classed`, up to the
    /// first `end` after it (`</h1>`, or `</pre>` past nested elements), or nil.
    static func text(of tag: String, classed: String, until end: String, in html: String) -> String? {
        var rest = html[...]
        while let open = rest.range(of: "<" + tag + " ") {
            guard let close = rest[open.upperBound...].firstIndex(of: ">") else { return nil }
            if rest[open.upperBound..<close].contains("class=\"\(classed)\""),
                let stop = rest[close...].range(of: end)
            {
                return text(String(rest[rest.index(after: close)..<stop.lowerBound]))
            }
            rest = rest[close...]
        }
        return nil
    }

    /// `html` as a reader sees it: scripts and styles dropped, tags dropped (DocC breaks long
    /// names with `<wbr>`), the five entities decoded, typographic apostrophes made plain, runs of
    /// white space one space.
    static func text(_ html: String) -> String {
        var html = html
        for element in ["script", "style"] {
            while let open = html.range(of: "<" + element), let close = html[open.upperBound...].range(of: "</" + element + ">") {
                html.removeSubrange(open.lowerBound..<close.upperBound)
            }
        }
        var text = ""
        var inTag = false
        for character in html {
            if character == "<" {
                inTag = true
            } else if character == ">" {
                inTag = false
            } else if !inTag {
                text.append(character)
            }
        }
        for (entity, plain) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&"), ("’", "'")] {
            text = text.replacingOccurrences(of: entity, with: plain)
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

/// `python3 -m http.server` serving a folder on 127.0.0.1, on a port the kernel chose (it binds
/// port 0 and prints the port it got); stopped by the test that started it.
struct StaticSite {
    var pid: pid_t
    var port: Int

    /// Starts the server on `folder`, its output in `log`; waits until it accepts, within 20 s.
    static func serve(_ folder: String, log: String) throws -> StaticSite {
        // It says "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ...".
        let (pid, port) = try Loopback.startServer(
            ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder], output: log,
            what: "python3 -m http.server"
        ) { output in
            let words = output.split(separator: " ")
            return words.firstIndex(of: "port").flatMap { $0 + 1 < words.count ? Int(words[$0 + 1]) : nil }
        }
        return StaticSite(pid: pid, port: port)
    }

    func stop() { Loopback.stop(pid) }
}
