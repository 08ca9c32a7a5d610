"""``python -m bench``: back-end against scikit-learn, front-end against a floor app; writes BENCHMARKS.md.

Options: ``--quick`` (few repeats, a smoke run), ``--backend-only``, ``--frontend-only``,
``--output PATH`` (default BENCHMARKS.md at the repository root; ``-`` writes nothing). A run of one
half keeps the other half's section of an existing output file.
"""

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import backend, frontend, machine, report  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few repeats and clicks: a smoke run")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--backend-only", action="store_true", help="skip the browser benchmark")
    which.add_argument("--frontend-only", action="store_true", help="skip the scikit-learn comparison")
    parser.add_argument("--output", default=str(ROOT / "BENCHMARKS.md"), help="markdown file to write ('-': none)")
    parser.add_argument("--deadline", type=float, default=None, help="seconds one implementation may spend on one case")
    args = parser.parse_args(argv)

    started = time.monotonic()
    description = machine.describe(browser=not args.backend_only)
    print("Machine:")
    for label, value in description:
        print(f"  {label:16} {value}")

    cases, results = None, None
    if not args.frontend_only:
        print("\nBack-end: fit + 200 x 200 grid evaluation, ours vs scikit-learn (median ms)")
        print(backend.format_header())
        backend_started = time.monotonic()
        cases = backend.run(quick=args.quick, deadline=args.deadline)
        print(f"(back-end run took {time.monotonic() - backend_started:.0f} s)")
        print("\nGrowth of our fit time with N (slope of log time on log N):")
        for line in report.growth_lines(cases):
            print("  " + line)
    if not args.backend_only:
        print("\nFront-end: click on empty space -> new point drawn with the regions updated (headless Chromium)")
        print(frontend.format_header())
        results = frontend.run(quick=args.quick)
        for n, floor, median, p90 in frontend.ratios(results):
            print(f"  N = {n:,}: playground / {floor} = {median:.2f} (median), {p90:.2f} (p90); target <= 1.3")

    elapsed = time.monotonic() - started
    text = report.markdown(description, cases, results, quick=args.quick, elapsed=elapsed)
    print("\nSummary:")
    for line in report.summary_lines(cases, results):
        print("  " + line)
    if args.output != "-":
        output = Path(args.output)
        if output.exists() and (args.backend_only or args.frontend_only):
            text = report.keep_other_half(text, output.read_text(), "backend" if args.backend_only else "frontend")
        output.write_text(text)
        print(f"\nWrote {args.output} ({elapsed:.0f} s in all)")


if __name__ == "__main__":
    main()
