"""BENCHMARKS.md and the closing summary, from the back-end cases and front-end results."""

from . import backend, frontend

FRONTEND_TARGET = 1.3


def _table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cells) + " |" for cells in rows]
    return "\n".join(lines)


def growth_rows(cases):
    from playground import MODELS

    rows = []
    measured = {(c.method, c.k) for c in cases}  # a selection (--methods) has no rows for the others
    for method in MODELS:
        for k in backend.CLASSES:
            if (method, k) not in measured:
                continue
            ours = backend.growth_exponent(cases, method, k, "ours")
            theirs = backend.growth_exponent(cases, method, k, "sklearn")
            rows.append(
                (
                    method,
                    str(k),
                    f"{ours:.2f}" if ours is not None else "—",
                    f"{theirs:.2f}" if theirs is not None else "—",
                )
            )
    return rows


def growth_lines(cases):
    return [f"{m:18} K={k}: ours N^{a}   scikit-learn N^{b}" for m, k, a, b in growth_rows(cases)]


def backend_misses(cases):
    return [c for c in cases if c.verdict in ("MISSED", "n/a")]


def summary_lines(cases, results):
    lines = []
    if cases is not None:
        targeted = [c for c in cases if c.target is not None]
        met = [c for c in targeted if c.verdict == "met"]
        lines.append(f"back-end: {len(met)} of {len(targeted)} targeted cases meet their target")
        for case in backend_misses(cases):
            ratio = f"{case.ratio:.2f}" if case.ratio is not None else "no ratio"
            ours, theirs = backend._ms(case.ours.median_total), backend._ms(case.sklearn.median_total)
            lines.append(
                f"  missed: {case.method} K={case.k} N={case.n:,}: {ratio} (target <= {case.target:.1f}; "
                f"ours {ours} ms, scikit-learn {theirs} ms)"
            )
        problems = [c for c in cases if c.ours.error or c.sklearn.error or c.ours.timed_out or c.sklearn.timed_out]
        for case in problems:
            for side in ("ours", "sklearn"):
                timing = getattr(case, side)
                if timing.error or timing.timed_out:
                    what = timing.error or f"stopped after {timing.timed_out:.0f} s"
                    lines.append(f"  {case.method} K={case.k} N={case.n:,} ({side}): {what}")
    if results is not None:
        for n, floor, median, p90 in frontend.ratios(results):
            verdict = "met" if median <= FRONTEND_TARGET else "MISSED"
            lines.append(
                f"front-end N={n:,}: playground / {floor} {median:.2f} (median), {p90:.2f} (p90): "
                f"target <= {FRONTEND_TARGET} {verdict}"
            )
    return lines


def markdown(description, cases, results, *, quick, elapsed):
    out = [
        "# Benchmarks",
        "",
        "Written by `python -m bench"
        + (" --quick` (a smoke run: few repeats)" if quick else "`")
        + f" in {elapsed:.0f} s.",
        "Rerun it to refresh this file; `--backend-only` / `--frontend-only` run one half, `--quick` a smoke run.",
        "",
        "## Machine",
        "",
        _table(("", ""), description),
        "",
    ]
    if cases is not None:
        out += backend_markdown(cases, quick=quick)
    if results is not None:
        out += frontend_markdown(results)
    out += ["## Summary", ""] + [f"- {line.strip()}" for line in summary_lines(cases, results)] + [""]
    return "\n".join(out)


def backend_markdown(cases, *, quick):
    """The back-end section: the cases' table and the growth of the fit time with N."""
    return [
        "## Back-end: ours against scikit-learn",
        "",
        "Each case fits N points from K overlapping Gaussian clusters, then evaluates on a 200 x 200 grid "
        "(40,000 points) over a window around them: `predict_proba` for the probabilistic methods "
        "(Gaussian generative models, naive Bayes, logistic, softmax and probit regression, Bayesian "
        "logistic regression's predictive distribution), `decision_function` "
        "for the others. *total* = fit + grid evaluation, the median of "
        f"{backend.repeats_for(100, quick)} / {backend.repeats_for(1_000, quick)} / "
        f"{backend.repeats_for(10_000, quick)} repeats at N = 100 / 1,000 / 10,000, after one warm-up run on a "
        "small subset. Both sides run on the same data in one forked worker process limited to one BLAS "
        "thread (threadpoolctl), timed alternately: one run of each side per round, the order swapped "
        "every round (ours, scikit-learn, scikit-learn, ours, ...), so that a drift of the machine's speed "
        "during a case falls on both sides alike. Each side has its own deadline (a case that is too slow "
        "shows `> deadline`, a `*` marks partial repeats; the other side then finishes alone). "
        "*ratio* = ours / scikit-learn on the total; below 1 we are faster.",
        "",
        "scikit-learn counterparts: "
        + "; ".join(f"`{m}`: {name}" for m, name in backend.SKLEARN_NAMES.items())
        + '. Two-class-only methods use our `multiclass="ovr"` for K = 3 (the SVM `"ovo"`, as SVC). '
        "The perceptron runs the same number of epochs on both sides (sklearn's `max_iter` = our `n_epochs_`).",
        "",
        "Targets: ratio <= 1.0 for every closed-form method and logistic/softmax (all N, both K), "
        "<= 1.0 for probit and Bayesian logistic regression at N = 1,000 (issue 17: fit plus the 200 x 200 "
        "predictive no slower than scikit-learn's LogisticRegression with the same grid), "
        "<= 2.0 for the SVM at N = 1,000; the perceptron and the other SVM sizes have none.",
        "",
        _table(backend.HEADER[:-1] + ("verdict",), [backend.row(c) for c in cases]),
        "",
        "### Growth of the fit time with N",
        "",
        "Slope of log(median fit time) on log(N) over N = 100, 1,000, 10,000 (1 = linear). At small N "
        "fixed overheads dominate, so the slopes understate the asymptotic growth.",
        "",
        _table(("method", "K", "ours", "scikit-learn"), growth_rows(cases)),
        "",
    ]


def frontend_markdown(results):
    """The front-end section: click-to-repaint against the floor apps, and the ratios."""
    return [
        "## Front-end: click-to-repaint in headless Chromium",
        "",
        "Time from the `mousedown` of a click on empty space to the canvas marking its root `.pg-canvas` "
        "with the new point count (`data-points`, set right after `Plotly.react` has drawn the figure "
        "with the new point and, in the playground, the re-evaluated regions), measured inside the page. "
        f'The playground is prepared through the sidebar ("Generate Gaussian clusters": 2 classes, N/2 '
        f'points each, "Replace points"), then the method is set to *{frontend.METHOD_LABEL}*: every '
        "click refits by IRLS and evaluates the 200 x 200 posterior grid behind the regions. The floor app "
        "(`bench/floor_app.py`) mounts the same canvas component with a figure holding only the points "
        "(N random ones to start with), echoing each click: no fit, no regions, no sidebar. It runs twice: "
        "*floor* on Streamlit's defaults, as anyone would write it, and *floor, tuned* with the "
        "playground's runtime tuning (`ui/server/runtime.py`: the objects alive after the first run are frozen "
        "out of the full garbage collection Streamlit runs after every script run, which otherwise holds "
        "every click up by 55-60 ms while it walks the heap). Against the tuned floor the ratio measures "
        "the playground's own work alone. "
        "Clicks land on the emptiest spot of the plot, at least "
        f"{frontend.DOUBLE_CLICK_GAP_MS} ms apart, each after the page has been quiet for 500 ms; two "
        "warm-up clicks are not counted. *KiB per click* = websocket frames received from the click "
        "until quiet (median), split into the canvas element (its figure JSON), the other plotly charts "
        "on the page (the open method panel's), and the rest (widgets, text, layout); *reruns* = script "
        "runs per click (the playground's canvas runs alone and draws; its panels run next, after the draw, "
        "and their bytes are counted too). *to canvas ms* = from the click until the new figure reaches "
        "the canvas (the server's run, the transfer and the page's update before the canvas draws); "
        "*Plotly.react ms* = "
        "the canvas's own draw time (medians).",
        "",
        _table(frontend.HEADER, [frontend.row(r) for r in results]),
        "",
        _table(
            (
                "N",
                "against",
                "playground / floor, median",
                "playground / floor, p90",
                f"target <= {FRONTEND_TARGET}",
            ),
            [
                (
                    f"{n:,}",
                    floor,
                    f"{median:.2f}",
                    f"{p90:.2f}",
                    "met" if median <= FRONTEND_TARGET else f"MISSED by {median / FRONTEND_TARGET:.2f}x",
                )
                for n, floor, median, p90 in frontend.ratios(results)
            ],
        ),
        "",
    ]


def _sections(text):
    """The lines of a markdown text grouped under its "## " headings: [(heading, lines)], the
    part before the first heading under ""."""
    sections = [("", [])]
    for line in text.splitlines():
        if line.startswith("## "):
            sections.append((line, []))
        sections[-1][1].append(line)
    return sections


def keep_other_half(text, previous, ran):
    """``text``, written by a run of one half (``ran``: "backend" or "frontend"), with the other
    half's section and summary lines carried over from ``previous``, the file it replaces."""
    kept = "## Front-end" if ran == "backend" else "## Back-end"
    old = _sections(previous)
    kept_sections = [section for section in old if section[0].startswith(kept)]
    if not kept_sections:
        return text
    old_summary = next((lines for heading, lines in old if heading == "## Summary"), [])
    kept_lines = [
        line for line in old_summary if line.startswith("- ") and line.startswith("- front-end") == (ran == "backend")
    ]
    sections = _sections(text)
    headings = [heading for heading, _ in sections]
    at = headings.index("## Summary") if ran == "backend" else headings.index("## Machine") + 1
    sections[at:at] = kept_sections
    out = []
    for heading, lines in sections:
        if heading == "## Summary":
            new_lines = [line for line in lines if line.startswith("- ")]
            both = new_lines + kept_lines if ran == "backend" else kept_lines + new_lines
            lines = ["## Summary", ""] + both + [""]
        out += lines
    # Date the kept half by the run that measured it (an earlier note says so if it was kept before).
    lead = f"The {kept[3:].lower()} section below is kept from the run"
    earlier = [line for line in previous.splitlines() if line.startswith(lead)]
    dates = [line.split("|")[2].strip() for line in previous.splitlines() if line.startswith("| date |")]
    since = earlier[0][len(lead) :].split(";")[0] if earlier else f" of {dates[0]}" if dates else ""
    note = f"{lead}{since}; this run was `--{ran}-only`."
    out.insert(out.index("## Machine") - 1, note)
    return "\n".join(out).rstrip("\n") + "\n"


# ---- the load section (python -m bench --load) ----------------------------------------------------

LOAD_HEADING = "## Load: a class on one server, heavy settings, memory"
INTERACTION_TARGET_MS = 25  # server CPU per interaction at N = 90
SETTLE_TARGET_MS = 300


def _ms(value):
    return "—" if value is None or value != value else f"{value:,.0f}"


def _clicks(row):
    return row.get("during_count", len(row.get("during_ms", [])))


def load_markdown(after, before=None, class_load=None, memory=None, *, quick=False):
    """The load section: CPU per interaction, heavy settings (before / after when ``before`` is
    given), the class-load run and the memory series."""
    out = [
        LOAD_HEADING,
        "",
        "Written by `python -m bench --load" + (" --quick`" if quick else "`") + ". Measured from outside the server: "
        "a light websocket client (`bench/client.py`) speaks Streamlit's protocol as the page does (a click is "
        "the canvas component's event trigger; once the canvas has drawn, the panels are asked to follow), and "
        "the server's CPU time is read from /proc (the Streamlit process and its fitting workers). "
        "The machine is shared: the load average is given with every figure.",
        "",
        "### Server CPU per interaction (N = 90, the default scene)",
        "",
        f"CPU time of the server process tree divided by the number of interactions; *settles* = median time from "
        f"sending the interaction until the last script run it caused has finished (no browser drawing). "
        f"Targets: <= {INTERACTION_TARGET_MS} ms CPU, settled within {SETTLE_TARGET_MS} ms. Load average at start: "
        f"{after.get('load at start', '?')}"
        + (f" (before: {before.get('load at start', '?')})" if before else "")
        + ".",
        "",
    ]
    out += interactions_markdown(after, before)
    if after.get("defaults"):
        out += defaults_markdown(after)
    if after.get("heavy"):
        out += heavy_markdown(after, before)
    if class_load:
        out += class_load_markdown(class_load)
    if memory:
        out += memory_markdown(memory)
    return "\n".join(out)


def interactions_markdown(after, before):
    """The table of server CPU per interaction (with the "before" columns when ``before`` is given)."""
    header = ["interaction"]
    if before:
        header += ["CPU ms before", "settles ms before"]
    header += ["CPU ms", "settles ms", "count", f"CPU <= {INTERACTION_TARGET_MS} ms"]
    rows = []
    for name, (cpu, settle, count) in after["interactions"].items():
        row = [name]
        if before:
            old = before.get("interactions", {}).get(name)
            row += [f"{old[0]:.1f}", _ms(old[1])] if old else ["—", "—"]
        row += [f"{cpu:.1f}", _ms(settle), str(count), "met" if cpu <= INTERACTION_TARGET_MS else "MISSED"]
        rows.append(row)
    return [_table(header, rows), ""]


def defaults_markdown(after):
    """The sidebar's default iterations against the fit budget."""
    return [
        "### The sidebar's default iterations against the budget",
        "",
        "Each iterative method at its default settings (perceptron 100 epochs, IRLS 100 Newton steps, gradient "
        "descent 1,000 steps, SMO up to 100,000 steps, C = 1) on 5,000 points, fitted in one process under "
        "the app's budget (2 s, 50,000 recorded steps); *stopped by* names the limit that ended it, if any.",
        "",
        _table(
            ("method", "classes", "basis", "fit s", "stopped by"),
            [(m, str(k), b, f"{t:.2f}", why) for m, k, b, t, why in after["defaults"]],
        ),
        "",
    ]


def heavy_markdown(after, before):
    """The heavy settings a link can send, before / after, and the page closed mid-fit."""
    out = [
        "### Heavy settings a visitor can send in a link",
        "",
        "Each on a fresh server. A second session (the default scene) clicks on the idle server, then again "
        "and again while the heavy link loads in another session. *wall* = the heavy page from opening "
        "until its runs end; *CPU* = the server tree's CPU time meanwhile; *again* = the same link opened "
        "once more (a reload, a second student). Before: every fit in the server process, `st.cache_data`, "
        "no budget. After: a 2 s budget per fit, fits over 0.15 s in niced worker processes, one task per "
        "scene, a bounded cache.",
        "",
    ]
    before_rows = {row["setting"]: row for row in (before or {}).get("heavy", [])}
    header = ["setting", "wall s", "CPU s", "2nd session idle ms", "2nd session during: median / max ms"]
    header += ["again s", "RSS MB", "load"]
    rows = []
    for row in after["heavy"]:
        for label, data in (("before", before_rows.get(row["setting"])), ("after", row)):
            if data is None:
                continue
            rows.append(
                [
                    f"{row['setting']} — **{label}**",
                    f"{data['wall_s']:.1f}",
                    f"{data['cpu_s']:.1f}",
                    _ms(data["idle_ms"]),
                    f"{_ms(data['during_median'])} / {_ms(data['during_max'])} ({_clicks(data)} clicks)",
                    f"{data['repeat_s']:.1f}",
                    f"{data['rss_mb']:.0f}",
                    data["load"].split(" / ")[0],
                ]
            )
    out += [_table(header, rows), ""]
    for label, data in (("before", before), ("after", after)):
        if data and data.get("closed page"):
            busy, later = data["closed page"]
            out.append(
                f"- Closing the page of issue 19's link mid-fit ({label}): the server tree used {busy:.1f} s of "
                f"CPU in the second before closing and {later:.1f} s in the 5 s from 1 s after."
            )
    out.append("")
    return out


def class_load_markdown(class_load):
    """Many sessions clicking against one server: click-to-repaint percentiles, losses, errors."""
    s = class_load["summary"]
    return [
        f"### {class_load['sessions']} sessions clicking every 2 s for {class_load['duration']:.0f} s",
        "",
        f"{class_load['browsers']} real browser pages (headless Chromium; click-to-repaint measured in the "
        f"page) and {class_load['sessions'] - class_load['browsers']} light websocket clients (click until the "
        "canvas's new figure arrives), all on the default scene (least squares, N = 90 growing by one a click), "
        f"against one server. Load average {class_load['load before']} before, {class_load['load after']} after. "
        "*lost* = clicks whose point never appeared; *foreign points* = points of another session seen; a browser "
        "click aimed at empty space that found a point there (the plot had moved) removes it, as designed, and is "
        "counted apart.",
        "",
        _table(
            (
                "clicks",
                "drawn",
                "p50 ms",
                "p90 ms",
                "p99 ms",
                "max ms",
                "browser p50",
                "light p50",
                "lost",
                "foreign points",
                "errors",
                "browser clicks on a point",
            ),
            [
                (
                    str(s["clicks"]),
                    str(s["repainted"]),
                    _ms(s["p50"]),
                    _ms(s["p90"]),
                    _ms(s["p99"]),
                    _ms(s["max"]),
                    _ms(s["browser p50"]),
                    _ms(s["light p50"]),
                    str(s["lost"]),
                    str(s["foreign"]),
                    str(s["errors"]),
                    str(s.get("hit a point", 0)),
                )
            ],
        ),
        "",
        f"Server CPU during the run: {class_load['cpu_s']:.0f} s; RSS at the end {class_load['rss_mb']:.0f} MB"
        + (f"; errors: {class_load['errors']}" if class_load["errors"] else "")
        + ".",
        "",
    ]


def memory_markdown(memory):
    """Server RSS as sessions open and close, and a large scene's footprint."""
    mb = 2**20
    series = ", ".join(f"{v / mb:.0f}" for v in memory["series"])
    fp = memory["footprint"]
    return [
        "### Memory",
        "",
        f"Server RSS (MB): baseline {memory['baseline'] / mb:.0f} after a first session; after each of 20 "
        f"sessions opened, clicked 3 times and closed in sequence: {series}; {memory['after'] / mb:.0f} once "
        f"Streamlit dropped the closed sessions (it keeps them `server.disconnectedSessionTTL` = "
        f"{memory['ttl']} s for a reconnecting page), "
        f"{memory['after'] / memory['baseline']:.2f} of the baseline (target <= 1.10). "
        + (
            f"Each open session adds {memory['per_open'] / mb:.1f} MB (10 opened at once)."
            if memory["per_open"] > 0.1 * mb
            else "10 sessions opened at once added less than 0.1 MB (the memory the closed ones freed was reused)."
        )
        + f" Load {memory['load']}.",
        "",
        f"A 20,000-point scene in a session: the point set {fp['points'] / mb:.1f} MB, its undo history after "
        f"5 edits {fp['undo history'] / mb:.1f} MB (at most 16 MiB whatever the edits), a logistic fit "
        f"(one-versus-rest, 4 classes) {fp['model'] / mb:.2f} MB in the shared cache (bounded at "
        "`PLAYGROUND_CACHE_MB`, 256 MB by default, entries dropped 10 minutes after their last use).",
        "",
    ]


def with_load_section(text, section):
    """``text`` (BENCHMARKS.md) with its load section replaced by ``section`` (or inserted before
    the summary); every other section is kept."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(LOAD_HEADING)), None)
    if start is not None:
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        lines[start:end] = section.splitlines()
    else:
        at = next((i for i, line in enumerate(lines) if line.startswith("## Summary")), len(lines))
        lines[at:at] = section.splitlines() + [""]
    return "\n".join(lines).rstrip("\n") + "\n"


def load_section_of(text):
    """The load section of an existing BENCHMARKS.md, or None."""
    return markdown_section(text, LOAD_HEADING)


def markdown_section(text, heading):
    """The section of a BENCHMARKS.md ``text`` that starts with ``heading`` (to the next "## "), or None."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(heading)), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "\n".join(lines[start:end]).rstrip("\n")


def with_markdown_section(text, heading, section, before=("## Summary",)):
    """``text`` with its ``heading`` section replaced by ``section``, or, when it has none, with
    ``section`` inserted before the first section starting with one of ``before`` (else at the
    end); every other section is kept."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(heading)), None)
    if start is not None:
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        lines[start:end] = section.splitlines() + [""]
    else:
        at = next((i for i, line in enumerate(lines) if line.startswith(tuple(before))), len(lines))
        lines[at:at] = section.splitlines() + [""]
    return "\n".join(lines).rstrip("\n") + "\n"
