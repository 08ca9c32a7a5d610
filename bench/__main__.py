"""``python -m bench``: back-end against scikit-learn, front-end against a floor app; writes BENCHMARKS.md.

Options: ``--quick`` (few repeats, a smoke run), ``--backend-only``, ``--frontend-only``,
``--output PATH`` (default BENCHMARKS.md at the repository root; ``-`` writes nothing). A run of one
half keeps the other half's section of an existing output file.

``--backend-only --methods probit,bayesian_logistic --sizes 1000 [--classes 2]`` measures those
back-end cases alone and prints them (a part of the table is never written over the whole).

``--drag-only`` runs only the live-drag benchmark (``bench/drag.py``: the live route alone, and
boundary updates per second and long tasks while a point is dragged in a real page, N = 90 and
1,000), which a full run includes, and replaces only its section of the output; with
``--compare-with ROOT`` it first runs ROOT's own drag benchmark (the "before" columns, same run).

``--clicks-only`` runs only the clicks benchmark (``bench/clicks.py``: 20 clicks 150 ms apart, 10
runs idle and 10 with two CPU burners, and click-to-boundary), which a full run includes, and
replaces only its section; with ``--compare-with ROOT`` ROOT is measured after this checkout, in a
quick run (3 runs each way).

``--load`` runs the load benchmarks instead (``bench/load.py``: server CPU per interaction, heavy
settings, 30 sessions clicking for 2 minutes, memory; about 15 minutes) and replaces only the load
section of the output. ``--compare-with ROOT`` also measures the interactions and the heavy settings
on another checkout (the "before" columns; ``--before-json`` reuses such figures saved earlier).
``--load --interactions [--compare-with ROOT]`` prints the server CPU per interaction alone (about
a minute per checkout and round).

``python -m bench crowd [--points N] [--pages P] [--root CHECKOUT]`` runs the crowd benchmark
(``bench/crowd.py``: P pages opening one heavy link at once, fits counted, a clicking page's
redraws meanwhile) and prints it.

``python -m bench room [--students N] [--seconds S] [--replicas]`` runs the class room benchmark
(``bench/room.py``: N simulated students adding a point every 5 s, the lecturer's projector in
Chromium; tap-to-projector, lost points, server CPU) and prints it; with ``--predict`` a prediction
round (``bench/room_predict.py``: N students' lines, the projector's count and overlay, none lost),
its row written into BENCHMARKS.md with ``--output BENCHMARKS.md``.

``python -m bench firstscreen [--rounds N] [--compare-with CHECKOUT]`` times the first screen
(``bench/firstscreen.py``: opening the default link to the drawn plot, against a bare Streamlit
page drawing the same points with the same plotly.js) and prints it.
``python -m bench edge [--uploads N] [--seconds S] [--compare-with COMMIT] [--output PATH]`` runs the
HTTP edge benchmark (``bench/edge.py``: half-sent uploads, the heavy live scene, one address
flooding while another draws, the hostile set's 5xx), on COMMIT first when given, and prints it.
``python -m bench line [--quick]`` runs the Your line benchmark (``bench/line_drag.py``: a handle
dragged through the live route, in the page and alone, and the criterion's landscape against a
floor) and writes its section of BENCHMARKS.md.
"""

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import backend, clicks, crowd, drag, edge, firstscreen, frontend, line_drag, machine, report, room  # noqa: E402


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["crowd"]:
        return crowd.main(argv[1:])
    if argv[:1] == ["room"]:
        return room.main(argv[1:])
    if argv[:1] == ["firstscreen"]:
        return firstscreen.main(argv[1:])
    if argv[:1] == ["edge"]:
        return edge.main(argv[1:])
    if argv[:1] == ["line"]:
        return line_drag.main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    selected = args.methods or args.sizes or args.classes
    if selected and not args.backend_only:
        parser.error("--methods, --sizes and --classes select back-end cases: add --backend-only")
    if selected:
        args.output = "-"  # a part of the table never replaces the whole one in BENCHMARKS.md
    if args.load:
        return load_main(args)
    if args.drag_only:
        return drag_main(args)
    if args.clicks_only:
        return clicks_main(args)
    return full_main(args)


def build_parser():
    """The options of ``python -m bench`` (the sub-commands crowd, room and edge parse their own)."""
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few repeats and clicks: a smoke run")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--backend-only", action="store_true", help="skip the browser benchmark")
    which.add_argument("--frontend-only", action="store_true", help="skip the scikit-learn comparison")
    parser.add_argument("--output", default=str(ROOT / "BENCHMARKS.md"), help="markdown file to write ('-': none)")
    parser.add_argument("--deadline", type=float, default=None, help="seconds one implementation may spend on one case")
    which.add_argument("--drag-only", action="store_true", help="the live-drag benchmark (bench/drag.py) only")
    which.add_argument("--clicks-only", action="store_true", help="the clicks benchmark (bench/clicks.py) only")
    parser.add_argument("--load", action="store_true", help="the load benchmarks (bench/load.py) only")
    parser.add_argument(
        "--compare-with", default=None, help="with --load, --drag-only or --clicks-only: another checkout as 'before'"
    )
    parser.add_argument("--before-json", default=None, help="with --load: 'before' figures saved by an earlier run")
    parser.add_argument("--skip-heavy", action="store_true", help="with --load: leave out the heavy settings")
    parser.add_argument(
        "--interactions",
        action="store_true",
        help="with --load: only the server CPU per interaction, printed (nothing written); with --compare-with, "
        "the two checkouts measured in turn, twice",
    )
    parser.add_argument(
        "--before-only", action="store_true", help="with --compare-with: measure and save 'before' only"
    )
    parser.add_argument(
        "--rerun",
        choices=("after", "class", "memory"),
        action="append",
        help="with --load: rerun only these stages, the others from test-artifacts/load-after.json",
    )
    parser.add_argument(
        "--methods",
        type=_choices(backend_methods(), str),
        default=None,
        help="with --backend-only: only these methods, comma-separated (printed; nothing written)",
    )
    parser.add_argument(
        "--sizes",
        type=_choices(backend.SIZES, int),
        default=None,
        help="with --backend-only: only these N, comma-separated, e.g. 1000 (printed; nothing written)",
    )
    parser.add_argument(
        "--classes",
        type=_choices(backend.CLASSES, int),
        default=None,
        help="with --backend-only: only these K, comma-separated (printed; nothing written)",
    )
    return parser


def full_main(args):
    """The back-end and front-end benchmarks (either alone with --backend-only / --frontend-only),
    then the live-drag and clicks ones, printed and written into the output file."""
    started = time.monotonic()
    description = machine.describe(browser=not args.backend_only)
    print("Machine:")
    for label, value in description:
        print(f"  {label:16} {value}")
    cases = None if args.frontend_only else run_backend(args)
    results = None if args.backend_only else run_frontend(args)
    drags, click_results = None, None
    if not args.backend_only:
        drags = run_drag(args)
        click_results = run_clicks(args)

    elapsed = time.monotonic() - started
    text = report.markdown(description, cases, results, quick=args.quick, elapsed=elapsed)
    print("\nSummary:")
    for line in (
        report.summary_lines(cases, results)
        + drag.summary_lines(drags or [])
        + clicks.summary_lines(click_results or [])
    ):
        print("  " + line)
    if args.output != "-":
        Path(args.output).write_text(merged_with_output(text, args, drags, click_results))
        print(f"\nWrote {args.output} ({elapsed:.0f} s in all)")


def run_backend(args):
    print("\nBack-end: fit + 200 x 200 grid evaluation, ours vs scikit-learn (median ms)")
    print(backend.format_header())
    backend_started = time.monotonic()
    cases = backend.run(
        quick=args.quick, deadline=args.deadline, methods=args.methods, sizes=args.sizes, classes=args.classes
    )
    print(f"(back-end run took {time.monotonic() - backend_started:.0f} s)")
    print("\nGrowth of our fit time with N (slope of log time on log N):")
    for line in report.growth_lines(cases):
        print("  " + line)
    return cases


def run_frontend(args):
    print("\nFront-end: click on empty space -> new point drawn with the regions updated (headless Chromium)")
    print(frontend.format_header())
    results = frontend.run(quick=args.quick)
    for n, floor, median, p90 in frontend.ratios(results):
        print(f"  N = {n:,}: playground / {floor} = {median:.2f} (median), {p90:.2f} (p90); target <= 1.3")
    return results


def merged_with_output(text, args, drags, click_results):
    """``text`` (a full run's BENCHMARKS.md) with the sections this run did not measure kept from
    the existing output file: the other half after a one-half run, the load and crowd sections
    (their own commands write them), and the drag and clicks sections after a --backend-only run."""
    output = Path(args.output)
    if output.exists() and (args.backend_only or args.frontend_only):
        text = report.keep_other_half(text, output.read_text(), "backend" if args.backend_only else "frontend")
    if output.exists():  # the load section is written by --load runs only: keep it
        kept = report.load_section_of(output.read_text())
        if kept:
            text = report.with_load_section(text, kept)
    kept = drag.markdown(drags, quick=args.quick) if drags else None
    if kept is None and output.exists():
        kept = drag.section_of(output.read_text())
    if kept:
        text = drag.with_section(text, kept)
    kept = clicks.markdown(click_results, quick=args.quick) if click_results else None
    if kept is None and output.exists():
        kept = clicks.section_of(output.read_text())
    if kept:
        text = clicks.with_section(text, kept)
    line_section = line_drag.section_of(output.read_text()) if output.exists() else None
    if line_section:  # written from python -m bench line runs: kept
        text = line_drag.with_section(text, line_section)
    crowd_section = crowd.section_of(output.read_text()) if output.exists() else None
    if crowd_section:  # written from python -m bench crowd runs: kept
        text = crowd.with_section(text, crowd_section)
    return text


def backend_methods():
    from playground import MODELS

    return tuple(MODELS)


def _choices(allowed, kind):
    """An argparse type: comma-separated values of ``kind``, each one of ``allowed``."""

    def parse(text):
        try:
            values = tuple(kind(part.strip()) for part in text.split(","))
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a list of {kind.__name__}: {text!r}") from None
        unknown = [v for v in values if v not in allowed]
        if unknown:
            raise argparse.ArgumentTypeError(f"{unknown} not among {', '.join(map(str, allowed))}")
        return values

    return parse


def run_drag(args):
    before = None
    if args.compare_with and args.drag_only:
        before = drag.compare_with(args.compare_with, quick=args.quick)
    print("\nLive drag: the live route alone (HTTP client) and boundary updates while a point is dragged in a page")
    print(drag.format_header())
    results = drag.run(quick=args.quick)
    for result in results:
        result.before = (before or {}).get((result.method, result.n))
    return results


def drag_main(args):
    results = run_drag(args)
    print("\nSummary:")
    for line in drag.summary_lines(results):
        print("  " + line)
    if args.output != "-":
        output = Path(args.output)
        text = output.read_text() if output.exists() else "# Benchmarks\n\n## Summary\n"
        section = drag.markdown(results, quick=args.quick, before_root=args.compare_with)
        output.write_text(drag.with_section(text, section))
        print(f"\nWrote the drag section of {args.output}")


def run_clicks(args):
    print("\nClicks: 20 clicks 150 ms apart (idle, 2 CPU burners) and click-to-boundary (headless Chromium)")
    results = [clicks.run(quick=args.quick, label="this tree")]
    if args.compare_with and args.clicks_only:
        # The tree before in a quick run (3 runs each way, 8 isolated clicks): the run stays within minutes.
        results.append(clicks.run(args.compare_with, quick=True, label=f"before ({args.compare_with})"))
    return results


def clicks_main(args):
    results = run_clicks(args)
    print("\nSummary:")
    for line in clicks.summary_lines(results):
        print("  " + line)
    if args.output != "-":
        output = Path(args.output)
        text = output.read_text() if output.exists() else "# Benchmarks\n\n## Summary\n"
        output.write_text(clicks.with_section(text, clicks.markdown(results, quick=args.quick)))
        print(f"\nWrote the clicks section of {args.output}")


def load_main(args):
    from bench import load

    if args.interactions:
        return interactions_main(args, load)
    started = time.monotonic()
    print(f"Load benchmarks (load average {load.loadavg()})")
    before = None
    if args.before_json:
        before = json.loads(Path(args.before_json).read_text())
    elif args.compare_with:
        print(f"Before: {args.compare_with}")
        before = load.run_all(args.compare_with, quick=args.quick, skip_heavy=args.skip_heavy)
        saved = ROOT / "test-artifacts" / "load-before.json"
        saved.parent.mkdir(exist_ok=True)
        saved.write_text(json.dumps(before, default=str))
        print(f"  (saved in {saved})")
        if args.before_only:
            return
    print("After: this checkout")
    saved = ROOT / "test-artifacts" / "load-after.json"
    saved.parent.mkdir(exist_ok=True)
    results = {}

    def keep(name, value):  # saved as it comes: a later stage failing loses nothing
        results[name] = value
        saved.write_text(json.dumps(results, default=str))
        return value

    if args.rerun and saved.exists():
        results.update(json.loads(saved.read_text()))

    def stage(name, run):
        return results[name] if args.rerun and name not in args.rerun and name in results else keep(name, run())

    after = stage("after", lambda: load.run_all(quick=args.quick, skip_heavy=args.skip_heavy))
    class_load = stage("class", lambda: load.run_class(quick=args.quick))
    memory = stage("memory", lambda: load.run_memory(quick=args.quick))
    section = report.load_markdown(after, before, class_load, memory, quick=args.quick)
    if args.output != "-":
        output = Path(args.output)
        text = output.read_text() if output.exists() else "# Benchmarks\n\n## Summary\n"
        output.write_text(report.with_load_section(text, section))
        print(f"\nWrote the load section of {args.output} ({time.monotonic() - started:.0f} s)")


def interactions_main(args, load):
    """Server CPU per interaction at N = 90 (bench/load.py), this checkout and ``--compare-with``
    in turn: on a busy machine CPU times drift, so the two are measured alternately."""
    roots = [("this checkout", ROOT)] + ([("before", Path(args.compare_with))] if args.compare_with else [])
    rounds = 1 if args.quick or not args.compare_with else 2
    for index in range(rounds):
        for label, root in roots:
            print(f"{label} ({root}), round {index + 1}, load {load.loadavg()}")
            results, errors = load.interactions(root, repeats=8 if args.quick else 30)
            for name, (cpu, settle, count) in results.items():
                print(f"  {name:16} {cpu:6.1f} ms CPU   settles in {settle:5.0f} ms (median of {count})")
            if errors:
                print(f"  errors: {errors}")


if __name__ == "__main__":
    main()
