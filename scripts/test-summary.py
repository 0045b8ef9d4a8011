#!/usr/bin/env python3
"""The last line of `make test`: how many tests passed, failed and were skipped, and whether the
benchmark's smoke run and the HOME check held, in one line.

    test-summary.py RESULTS.xml TESTS-STATUS SMOKE-STATUS GUARD-STATUS

RESULTS.xml is Swift Testing's xUnit report (`swift test --xunit-output`); the statuses are the
exit statuses of `swift test`, `bench.py --smoke` and `home-guard.py check`. Exits 1 when
anything failed, else 0.
"""

import sys
import xml.etree.ElementTree as ElementTree


def main(argv):
    if len(argv) != 5:
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 2
    tests_status, smoke_status, guard_status = (int(a) for a in argv[2:5])
    try:
        suite = ElementTree.parse(argv[1]).getroot().find("testsuite")
        total, failed, skipped = (int(suite.get(k, "0")) for k in ("tests", "failures", "skipped"))
        failed += int(suite.get("errors", "0"))
        counts = f"{total - failed - skipped} passed, {failed} failed, {skipped} skipped"
    except (OSError, ElementTree.ParseError, AttributeError, ValueError):
        failed = 1
        counts = "no test results (the test run did not finish)"
    if tests_status != 0 and failed == 0:
        failed = 1
        counts += " (swift test exited with status %d)" % tests_status
    problems = []
    if smoke_status != 0:
        problems.append("the benchmark's smoke run broke")
    if guard_status != 0:
        problems.append("HOME or tmux's socket folder changed (see above)")
    ok = failed == 0 and not problems
    print(f"make test: {'PASSED' if ok else 'FAILED'}: {counts}" + ("; " + "; ".join(problems) if problems else
          "; bench smoke ran; HOME untouched"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
