"""The prediction round benchmark's figures and its BENCHMARKS.md section (``bench/room_predict.py``
measures; this computes from what it logged and writes the rows): functions of the run's logs
alone (``figures`` also prints them), tested in ``tests/test_bench_room_predict.py``.
"""

import json
from collections import Counter

from bench import report
from bench.load import loadavg, percentile

TARGETS = {"sent s": 30.0, "count p90 s": 1.0, "overlay ms": 250.0}  # issue 47's
HEADING = "## A prediction round in a hall of 500 (issue 47)"


def draw_times(seen, phase):
    """{answer to frame ms, answer to status ms, lines} of the first answer of ``phase`` (WATCH_JS's log), or None."""
    answer = next((a for a in seen["answers"] if a[0] == phase), None)
    shown = next((p for p in seen["phases"] if p[0] == phase), None)
    if answer is None or shown is None or shown[2] is None:
        return None
    return {"lines": answer[1], "frame ms": round(shown[2] - answer[2], 1), "status ms": round(shown[1] - answer[2], 1)}


def count_delays(acks, counts):
    """For the k-th of ``acks`` (times, sorted), seconds until ``counts`` ([(count, time)] in time
    order) first showed a count >= k, 0 where it already had; None where it never did."""
    delays = []
    for k, acked in enumerate(sorted(acks), 1):
        shown = next((when for count, when in counts if count >= k), None)
        delays.append(None if shown is None else max(0.0, shown - acked))
    return delays


def held(seated, lines):
    """(lost, stale): students' last acknowledged lines missing from the room's ``lines``, and
    lines the room holds that are no student's last (compared as multisets, exactly)."""
    expected = Counter(tuple(s.sends[-1][2]) for s in seated if s.sends)
    kept = Counter(tuple(line) for line in lines)
    return sum((expected - kept).values()), sum((kept - expected).values())


def _ms(values, index):
    picked = sorted(v[index] for v in values or [])
    return round(percentile(picked, 50), 1) if picked else None


def figures(box, got, load_before):
    """The run's figures (printed as JSON, and the row's source)."""
    seated, start = box["seated"], box["start"]
    sends = [send for s in seated for send in s.sends]
    first_acks = [s.sends[0][1] for s in seated if s.sends]
    counts = [(count, when / 1000) for count, when in got["seen"]["counts"]]
    delays = count_delays(first_acks, counts)
    timed = [d for d in delays if d is not None]
    waits = [acked - started for started, acked, _line in sends]
    final = got["final"].get("round") or {}
    lines = final.get("lines") or []
    lost, stale = held(seated, lines)
    elapsed = max(box["sent at"] - start, 1e-9)
    result = {
        "students seated": len(seated),
        "students refused a seat": box["refused seats"],
        "blinking phones": sum(s.blink for s in seated),
        "sends dropped (answer never read)": sum(s.dropped for s in seated),
        "dropped sends kept": sum(s.dropped_kept for s in seated),
        "sends acknowledged": len(sends),
        "students acknowledged": len(first_acks),
        "sends refused": sum(s.refused for s in seated),
        "retries": sum(s.retries for s in seated),
        "retries on 502/504": sum(s.gateway for s in seated),
        "last acknowledgement s after the start": round(max((a for _s, a, _l in sends), default=start) - start, 2),
        "send-to-ack median / p90 / max s": [round(percentile(waits, q), 3) for q in (50, 90, 100)],
        "projector's count at the end": counts[-1][0] if counts else None,
        "lecturer's count": final.get("predictions"),
        "ack-to-count median / p90 / max s": [round(percentile(timed, q), 3) for q in (50, 90, 100)],
        "acknowledged never counted": sum(d is None for d in delays),
        "lines at the reveal": len(lines),
        "lost": lost,
        "stale": stale,
        "own line not the last sent": sum(1 for s in seated if s.sends and s.mine != s.sends[-1][2]),
        "show: answer to frame / to status ms, lines": got["show"],
        "drawLines alone median ms, to the frame ms": [_ms(got["alone"], 0), _ms(got["alone"], 1)],
        "reveal: answer to frame / to status ms, lines": got["reveal"],
        "server cores during the sends": round(got["server cpu"] / elapsed, 2),
        "students' own cores (the simulation)": round(box["client cpu"] / elapsed, 2),
        "load average before / after": f"{load_before} | {loadavg()}",
    }
    print(json.dumps(result, indent=1))
    return result


COLUMNS = (
    "setting",
    "students seated",
    "when (load avg)",
    "sends acknowledged (students; dropped, of them kept; retries, of them 502/504)",
    "last ack after the start s",
    "send-to-ack median / p90 / max s",
    "ack-to-count median / p90 / max s",
    "lost / stale / lines at the reveal",
    "overlay: answer to frame ms (drawLines alone)",
    "server cores",
    "targets 30 s / 1 s / 250 ms",
)


def verdicts(result):
    """Met or missed, for each of issue 47's targets (and none lost)."""
    show = result["show: answer to frame / to status ms, lines"] or {}
    n = result["students acknowledged"]
    checks = [
        result["last acknowledgement s after the start"] <= TARGETS["sent s"],
        result["ack-to-count median / p90 / max s"][1] <= TARGETS["count p90 s"],
        show.get("frame ms", float("inf")) <= TARGETS["overlay ms"] and show.get("lines") == n,
    ]
    words = ["met" if ok else "**missed**" for ok in checks]
    if result["lost"] or result["stale"] or result["lines at the reveal"] != n:
        words.append("**lines lost**")
    return " / ".join(words)


def row(result, setting, when):
    """The markdown row of a run (``COLUMNS``)."""
    show = result["show: answer to frame / to status ms, lines"] or {}
    alone = result["drawLines alone median ms, to the frame ms"][0]
    cells = [
        setting,
        f"{result['students seated']:,}",
        f"{when}, load {_loads(result['load average before / after'])}",
        f"{result['sends acknowledged']:,} ({result['students acknowledged']:,}; "
        f"{result['sends dropped (answer never read)']}, {result['dropped sends kept']} kept; "
        f"{result['retries']}, {result['retries on 502/504']})",
        f"{result['last acknowledgement s after the start']:.1f}",
        " / ".join(f"{v:.3f}" for v in result["send-to-ack median / p90 / max s"]),
        " / ".join(f"{v:.2f}" for v in result["ack-to-count median / p90 / max s"]),
        f"{result['lost']} / {result['stale']} / {result['lines at the reveal']:,}",
        f"{show.get('frame ms', '-')} for {show.get('lines', '-')} lines ({alone})",
        f"{result['server cores during the sends']:.2f}",
        verdicts(result),
    ]
    return "| " + " | ".join(str(c) for c in cells) + " |"


def _loads(text):
    """The 1-minute load averages of "a / b / c | d / e / f" as "a-d" (a table cell holds no "|")."""
    ones = [part.split("/")[0].strip() for part in text.split("|")]
    return "-".join(dict.fromkeys(ones))


def _cells(line):
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def section(rows, described):
    """The section: what it measures, the runs' rows, the machine ``described`` (``machine.describe()``)."""
    head = [
        HEADING,
        "",
        "`python -m bench room --predict --students 500 --seconds 20 [--replicas] --output BENCHMARKS.md`"
        " (`bench/room_predict.py`, on `bench/room.py`'s machinery). The students join, the bench as the lecturer"
        " starts a round, each student sends one line at a random moment within 20 s (retried after 1 s as the"
        " page retries); a fifth of the phones blink (half of them lose their first send's answer, the request"
        " sent and the socket closed, and send again 1 s later; all of them send again 1-5 s after their"
        " acknowledgement, the same line or a moved one); every student polls every 1.5 s. *last ack*: the last"
        " acknowledgement after the round's start (target 30 s). *ack-to-count*: for the k-th student"
        " acknowledged, until the projector's status showed a count >= k (its `data-predictions` changes logged"
        " in the page; target p90 1 s). *lost / stale*: students' last acknowledged lines missing from the"
        " lecturer's state after the reveal / lines held that are no student's last. *overlay*: from the arrival"
        " of the projector's first answer of the show (a wrapped `fetch`) to the frame after its drawing"
        " (`Plotly.react`, `drawLines` of every line, the points), and `drawLines` alone on the projector's root"
        " (median of 5; target 250 ms). *--replicas*: two replicas behind nginx sharing Redis, the one not"
        " serving the lecturer's page killed at half the window (10 s), Redis restarted at three quarters (15 s)."
        " *server cores*: the servers over the sends. Each run writes its row (one per setting and hall size);"
        " rows of fewer than 500 students are the bench's validation runs, not the issue's hall.",
        "",
        "| " + " | ".join(COLUMNS) + " |",
        "|" + "---|" * len(COLUMNS),
    ]
    machine_rows = [f"| {label} | {value} |" for label, value in described]
    tail = ["", "The machine of the last run written:", "", "|  |  |", "|---|---|"]
    return "\n".join(head + rows + tail + machine_rows)


NOTES = "What this says:"  # the section's hand-written part, from this line on: kept by every run


def with_row(text, line, described):
    """``text`` (BENCHMARKS.md) with ``line`` in the section, replacing the row of the same setting
    and hall size, the other rows and the notes (from ``NOTES`` on) kept; the section inserted
    before "## First screen" when new."""
    old = report.markdown_section(text, HEADING) or ""
    key = _cells(line)[:2]
    table, _, notes = old.partition("\n" + NOTES)
    rows = [
        kept
        for kept in table.splitlines()
        if kept.startswith("| ") and len(_cells(kept)) == len(COLUMNS) and _cells(kept)[0] != COLUMNS[0]
    ]
    rows = [kept for kept in rows if _cells(kept)[:2] != key]
    new = section(rows + [line], described) + (f"\n\n{NOTES}{notes}" if notes else "")
    return report.with_markdown_section(text, HEADING, new, before=("## First screen", "## Summary"))
