"""After a click, the open panel follows with its live section alone (issue 15, cost per click).

The default scene's panel (least-squares outputs) puts its chart and figures in a live section: the
canvas's follow-up reruns that section, not the tabs, pickers, buttons and explanations around it.
Checked on the wire, with the light client ``python -m bench --load`` uses (it speaks the page's
protocol): what the follow-up run sends, and that what it shows is what a whole run of the page
shows for the same points. With the points table open, the whole panel follows (the table lists
the new point).
"""

import asyncio

import pytest

from bench.client import Session
from bench.load import click_spot
from bench.server import streamlit

pytestmark = pytest.mark.browser

AROUND_THE_OUTPUTS = ("block:tab_container", "block:tab", "element:button_group", "element:button", "block:expandable")
TABLE = "element:dataframe"  # the points table's editor


class RecordingSession(Session):
    """A session that keeps, for each script run, the kinds of elements and blocks it sent."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.sent = []  # one list per run: "block:<kind>" / "element:<kind>"
        self.metrics = []  # one list per run: its rows of figures (ui.panels.figures_row)
        self.components = []  # one list per run: the bidi components' names
        self.expander = None  # (id, fragment id) of the last expander with a key

    async def _handle(self, message):
        kind = message.WhichOneof("type")
        if kind == "new_session":
            self.sent.append([])
            self.metrics.append([])
            self.components.append([])
        elif kind == "delta" and self.sent:
            delta = message.delta
            which = delta.WhichOneof("type")
            if which == "add_block":
                block_kind = delta.add_block.WhichOneof("type")
                self.sent[-1].append(f"block:{block_kind}")
                if block_kind == "expandable" and delta.add_block.expandable.id:
                    self.expander = (delta.add_block.expandable.id, delta.fragment_id)
            elif which == "new_element":
                element = delta.new_element
                element_kind = element.WhichOneof("type")
                self.sent[-1].append(f"element:{element_kind}")
                if element_kind == "markdown" and element.markdown.body.startswith('<div class="pg-figures"'):
                    self.metrics[-1].append(element.markdown.body)  # the outputs' row of figures
                if element_kind == "bidi_component":
                    self.components[-1].append(element.bidi_component.component_name.rsplit(".", 1)[-1])
        await super()._handle(message)


async def _click_and_follow(session, k):
    runs = len(session.sent)
    expected = session.canvas.n_points + 1
    await session.click(*click_spot(1, k))
    await session.wait_for(lambda s: s.canvas.n_points >= expected, 60)
    await session.wait_idle(60, quiet=0.4)
    return session.sent[runs:], session.metrics[runs:], session.components[runs:]


async def _live_section(url):
    session = await RecordingSession.open(url, timeout=300)
    try:
        first_metrics = [m for run in session.metrics for m in run]
        assert len(first_metrics) == 1 and first_metrics[0].count("pg-figure-value") == 3, first_metrics
        await _click_and_follow(session, 0)  # the first edit enables undo: the whole page runs
        for k in range(1, 4):
            sent, metrics, components = await _click_and_follow(session, k)
            assert len(sent) == 2, f"a click ran {len(sent)} scripts: {sent}"  # the canvas, then the follow-up
            canvas_run, follow_run = sent
            assert "element:bidi_component" in canvas_run
            assert any(name.endswith("playground_chart") for name in components[1]), components[1]
            assert len(metrics[1]) == 1  # lowest, highest, outside [0, 1]
            # Nothing around the outputs is sent again: no tabs, pickers, buttons or points table.
            for kind in AROUND_THE_OUTPUTS:
                assert kind not in follow_run, f"the follow-up sent {kind}: {follow_run}"
            assert len(follow_run) <= 10, follow_run
        followed = metrics[1]
        # A whole run of the page for the same points (the link the page now has) shows the same figures.
        fresh = await RecordingSession.open(url, session.query, timeout=300)
        try:
            whole = [m for run in fresh.metrics for m in run]
            assert fresh.canvas.n_points == session.canvas.n_points
            assert whole == followed, (whole, followed)
        finally:
            await fresh.close()
        assert not session.errors, session.errors
    finally:
        await session.close()


async def _table_open(url):
    session = await RecordingSession.open(url, timeout=300)
    try:
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        expander_id, fragment = session.expander  # the points table's expander
        state = WidgetState()
        state.id, state.bool_value = expander_id, True  # opened, as a person would
        await session.rerun([state], fragment_id=fragment)
        await session.wait_idle(60, quiet=0.4)
        assert TABLE in session.sent[-1], session.sent[-1]
        sent, _metrics, _components = await _click_and_follow(session, 5)
        follow_run = sent[-1]
        # The table follows the points too: the whole panel fragment reran, table and tabs included.
        assert "block:expandable" in follow_run and "block:tab_container" in follow_run, follow_run
        assert TABLE in follow_run, follow_run
        assert not session.errors, session.errors
    finally:
        await session.close()


def test_a_click_is_followed_by_the_panels_live_section_alone_showing_what_a_whole_run_shows():
    with streamlit() as server:
        asyncio.run(_live_section(server.url))


def test_with_the_points_table_open_the_whole_panel_follows_a_click():
    with streamlit() as server:
        asyncio.run(_table_open(server.url))
