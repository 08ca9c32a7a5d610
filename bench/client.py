"""A light Streamlit client: one browser session spoken over the websocket, without a browser.

It speaks the protocol Streamlit's own frontend speaks on ``/_stcore/stream``: it sends
``BackMsg`` protobufs (``rerun_script`` with the URL's query string, the widget states it changed
and, for a fragment, the fragment's id) and reads the ``ForwardMsg`` stream (``new_session``,
``delta``, ``page_info_changed``, ``script_finished``). Like the browser it keeps the address bar's
query string the app writes, and it does what the playground's canvas does in the page: a click
is a ``json_trigger_value`` on the canvas component's event trigger carrying every event not yet
acknowledged, and once a new scene is drawn the panels are asked to follow (the invisible
``follow_canvas`` element's trigger). Thirty of these cost a fraction of thirty browser pages,
which a two-core machine cannot hold.
"""

import asyncio
import base64
import json
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import numpy as np
import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

TRIGGER_PREFIX = "$$STREAMLIT_INTERNAL_KEY_"
CANVAS = "playground_canvas"
FOLLOW = "playground_follow_canvas"


def _decode_array(spec):
    """A plotly typed array ({"dtype", "bdata"}) or a list, as a numpy array."""
    if isinstance(spec, dict) and "bdata" in spec:
        dtype = {"f8": "<f8", "f4": "<f4", "i4": "<i4", "u1": "u1", "i1": "i1", "i2": "<i2", "u2": "<u2", "u4": "<u4"}
        return np.frombuffer(base64.b64decode(spec["bdata"]), dtype=dtype[spec["dtype"]])
    return np.asarray(spec if spec is not None else [], dtype=float)


@dataclass
class Canvas:
    """What the canvas component was last given to draw."""

    element_id: str = ""
    fragment_id: str = ""
    n_points: int = -1
    revision: str = ""
    ack: int = 0
    panels_follow: str | None = None
    figure: str = ""
    received_at: float = 0.0

    def points(self):
        """The (x, y) pairs the figure draws as data points (traces with meta 'points')."""
        figure = json.loads(self.figure) if self.figure else {"data": []}
        pairs = []
        for trace in figure.get("data", []):
            if trace.get("meta") == "points":
                xs, ys = _decode_array(trace.get("x")), _decode_array(trace.get("y"))
                pairs += list(zip(xs.tolist(), ys.tolist()))
        return pairs


@dataclass
class Run:
    """One script run as seen from the client."""

    fragment_id: str
    started: float
    finished: float | None = None
    status: str = ""
    errors: list = field(default_factory=list)


class Session:
    """One Streamlit session. Use ``await Session.open(url, query)``; then ``click``, ``set_widget``…"""

    def __init__(self, url, query=""):
        parts = urlsplit(url)
        base = parts.path.rstrip("/")
        scheme = "wss" if parts.scheme == "https" else "ws"
        self.ws_url = f"{scheme}://{parts.netloc}{base}/_stcore/stream"
        self.query = query
        self.canvas = Canvas()
        self.follow_id, self.follow_fragment = "", ""
        self.widgets = {}  # user key -> (widget id, element kind, proto)
        self.by_label = {}  # label -> the same, for widgets without a key (buttons)
        self.tab_labels = {}  # tab label -> fragment id
        self.runs = []  # script runs the server started (a new_session message each), in order
        self.running = False
        self.requests = 0  # rerun requests sent (the server may fold several into one run)
        self.last_sent = 0.0
        self.errors = []  # st.exception / st.error texts and protocol problems
        self.alerts = []  # texts of the other alerts (st.info, st.warning)
        self.saw_progress = False  # a progress bar was shown (a fit waiting for a worker)
        self.progress_texts = set()  # the texts progress bars showed
        self.messages = 0
        self.bytes_received = 0
        self.nonce = 0
        self.events = []  # canvas events sent and not yet acknowledged
        self._socket = None
        self._reader = None
        self._changed = asyncio.Event()
        self.closed = False
        self.follow_panels = True  # as the page does; False measures the canvas's run alone
        self.session_id = None
        self.cookies = None

    async def connect(self, timeout=120.0, headers=None):
        self._socket = await websockets.connect(
            self.ws_url,
            subprotocols=["streamlit"],
            max_size=None,
            open_timeout=timeout,
            additional_headers=headers or {},
        )
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, url, query="", timeout=120.0, headers=None):
        session = cls(url, query)
        await session.connect(timeout, headers)
        await session.rerun(query_string=query)
        await session.wait_idle(timeout)
        if session.canvas.n_points < 0:
            raise RuntimeError(f"no canvas after the first run; errors: {session.errors}")
        return session

    async def close(self):
        self.closed = True
        if self._socket is not None:
            await self._socket.close()
        if self._reader is not None:
            self._reader.cancel()
            try:
                await self._reader
            except (asyncio.CancelledError, Exception):
                pass

    # ---- sending ------------------------------------------------------------------------------
    async def rerun(self, widgets=(), fragment_id="", query_string=None):
        """Send ``rerun_script`` with these WidgetState protos (the others keep their values)."""
        message = BackMsg()
        state = message.rerun_script
        state.query_string = self.query if query_string is None else query_string
        state.page_script_hash = ""
        state.fragment_id = fragment_id
        for widget in widgets:
            state.widget_states.widgets.add().CopyFrom(widget)
        state.context_info.timezone = "UTC"
        state.context_info.locale = "en-US"
        self.requests += 1
        self.last_sent = time.perf_counter()
        await self._socket.send(message.SerializeToString())

    def _trigger(self, element_id, event, value):
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        widget = WidgetState()
        widget.id = f"{TRIGGER_PREFIX}{element_id}__events"
        widget.json_trigger_value = json.dumps([{"event": event, "value": value}])
        return widget

    async def click(self, x, y):
        """A click on empty space at data coordinates (x, y): the canvas adds a point there."""
        return await self.send_event({"type": "add", "x": float(x), "y": float(y)})

    async def move(self, drag, ids, dx, dy, *, revision, final=False):
        """One move of a drag (as the canvas sends it): the points ``ids`` of the canvas drawn as
        ``revision`` shifted by (dx, dy) since the press; ``final`` on release."""
        event = {"type": "move", "drag": drag, "revision": revision, "ids": list(ids), "dx": dx, "dy": dy}
        return await self.send_event({**event, "final": bool(final)})

    async def send_event(self, event):
        """Send a canvas event with every one not yet acknowledged (a drag's earlier moves are
        replaced by its latest, as in the page); returns its nonce."""
        self.nonce += 1
        event = {**event, "nonce": self.nonce}
        pending = [e for e in self.events if e["nonce"] > self.canvas.ack]
        if event["type"] == "move":
            pending = [e for e in pending if not (e["type"] == "move" and e.get("drag") == event.get("drag"))]
        self.events = pending + [event]
        trigger = self._trigger(self.canvas.element_id, "events", self.events[-100:])
        await self.rerun([trigger], fragment_id=self.canvas.fragment_id)
        return self.nonce

    async def set_widget(self, key, value, *, rerun=True):
        """Set the widget with user key ``key`` as a person would (by its shown option label for
        selections); reruns the app (or the widget's fragment)."""
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        widget_id, kind, proto = self.widgets[key] if key in self.widgets else self.by_label[key]
        widget = WidgetState()
        widget.id = widget_id
        if kind in ("selectbox", "radio"):
            widget.string_value = str(value)
        elif kind == "button":
            widget.trigger_value = True
        elif kind in ("checkbox", "toggle"):
            widget.bool_value = bool(value)
        elif kind == "slider":
            widget.double_array_value.data[:] = [float(value)]
        elif kind in ("button_group", "multiselect"):
            widget.string_array_value.data[:] = [str(v) for v in (value if isinstance(value, list) else [value])]
        elif kind == "tab_container":
            widget.string_value = str(value)
        else:
            widget.string_value = str(value)
        fragment = self._fragments.get(key, "")
        await self.rerun([widget], fragment_id=fragment)

    async def press(self, label):
        """Press the button labelled ``label``."""
        await self.set_widget(label, True)

    def options(self, key):
        _, kind, proto = self.widgets[key]
        return list(getattr(proto, "options", []))

    # ---- receiving ----------------------------------------------------------------------------
    async def _read(self):
        self._fragments = {}
        try:
            async for payload in self._socket:
                self.messages += 1
                self.bytes_received += len(payload)
                message = ForwardMsg()
                message.ParseFromString(payload)
                await self._handle(message)
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = True
            self._changed.set()

    async def _handle(self, message):
        kind = message.WhichOneof("type")
        if kind == "new_session":
            self.runs.append(Run("", time.perf_counter()))
            self.running = True
        elif kind == "delta":
            self._delta(message.delta)
        elif kind == "page_info_changed":
            self.query = message.page_info_changed.query_string
        elif kind == "script_finished":
            if self.runs and self.runs[-1].finished is None:
                self.runs[-1].finished = time.perf_counter()
                self.runs[-1].status = ForwardMsg.ScriptFinishedStatus.Name(message.script_finished)
            self.running = False
            self._changed.set()
        elif kind == "session_status_changed":
            self._changed.set()

    def _delta(self, delta):
        """Keep what a delta tells the page: tabs, widgets, the canvas, errors, alerts, progress."""
        if delta.WhichOneof("type") == "add_block":
            self._block(delta)
            return
        if delta.WhichOneof("type") != "new_element":
            return
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind == "exception":
            self.errors.append(f"exception: {element.exception.type}: {element.exception.message}")
        elif kind == "alert":
            if element.alert.format == element.alert.ERROR:
                self.errors.append(f"error: {element.alert.body}")
            else:
                self.alerts.append(element.alert.body)
        elif kind == "progress":
            self.saw_progress = True
            self.progress_texts.add(element.progress.text)
            self._changed.set()
        elif kind == "bidi_component":
            self._component(element.bidi_component, delta.fragment_id)
        else:
            self._widget(element, kind, delta.fragment_id)

    def _block(self, delta):
        """A tab's label, or a tab container that is a widget (keyed), and their fragments."""
        block = delta.add_block
        if block.WhichOneof("type") == "tab":
            self.tab_labels[block.tab.label] = delta.fragment_id
        if block.WhichOneof("type") == "tab_container" and block.id.startswith("$$ID-"):
            key = block.id.split("-", 2)[2]
            self.widgets[key] = (block.id, "tab_container", block.tab_container)
            self._fragments[key] = delta.fragment_id

    def _component(self, component, fragment_id):
        """The canvas (its point count, revision and the events it has taken in) or the panels'
        follower (whose trigger asks the panels to catch up)."""
        data = self._component_data(component)
        if component.component_name.endswith(CANVAS) and data.get("n_points") is not None:
            self.canvas = Canvas(
                element_id=component.id,
                fragment_id=fragment_id,
                n_points=int(data["n_points"]),
                revision=str(data.get("revision")),
                ack=int(data.get("ack") or 0),
                panels_follow=data.get("panels_follow"),
                figure=data.get("figure", ""),
                received_at=time.perf_counter(),
            )
            self.events = [e for e in self.events if e["nonce"] > self.canvas.ack]
            self._changed.set()
            follow = self.follow_panels and self.canvas.panels_follow and self.follow_id
            if follow and self.canvas.panels_follow != self._followed:
                # What the page does once the canvas has drawn: the panels catch up.
                self._followed = self.canvas.panels_follow
                asyncio.get_running_loop().create_task(self._follow(self.canvas.panels_follow))
        elif component.component_name.endswith(FOLLOW):
            self.follow_id, self.follow_fragment = component.id, fragment_id
            self._followed = data.get("drawn_for")

    def _widget(self, element, kind, fragment_id):
        """A widget, by the key in its id and by its label (what ``set_widget`` and ``press`` look up)."""
        proto = getattr(element, kind, None) if kind else None
        widget_id = getattr(proto, "id", "") if proto is not None else ""
        if widget_id.startswith("$$ID-"):
            key = widget_id.split("-", 2)[2]
            self.widgets[key] = (widget_id, kind, proto)
            self._fragments[key] = fragment_id
            label = getattr(proto, "label", "")
            if label:
                self.by_label[label] = (widget_id, kind, proto)
                self._fragments[label] = fragment_id

    _followed = None

    async def _follow(self, drawn_for):
        try:
            await self.rerun([self._trigger(self.follow_id, "refresh", drawn_for)], fragment_id=self.follow_fragment)
        except websockets.ConnectionClosed:
            pass

    @staticmethod
    def _component_data(component):
        which = component.WhichOneof("data")
        try:
            if which == "bytes":  # the JSON text of the data, as bytes (ui.plot.canvas.component_data)
                return json.loads(component.bytes)
            if which == "json":
                return json.loads(component.json)
            if which == "mixed":
                return json.loads(component.mixed.json)
        except (ValueError, AttributeError):
            return {}
        return {}

    # ---- waiting ------------------------------------------------------------------------------
    async def wait_for(self, predicate, timeout=60.0):
        """Wait until ``predicate(self)`` holds; returns the time it took (s)."""
        started = time.perf_counter()
        deadline = started + timeout
        while not predicate(self):
            if self.closed:
                raise ConnectionError("the server closed the session")
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise TimeoutError(f"waited {timeout:.0f} s")
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.5))
            except TimeoutError:
                pass
        return time.perf_counter() - started

    async def wait_idle(self, timeout=60.0, quiet=0.25):
        """Wait until a script run has started since the last request (every request leads to
        one, though the server may fold several requests into one run), no run is going on, and
        nothing arrived for ``quiet`` seconds."""
        deadline = time.perf_counter() + timeout

        def settled(s):
            started = bool(s.runs) and s.runs[-1].started >= s.last_sent
            return not s.running and (started or time.perf_counter() - s.last_sent > 10.0)

        while True:
            await self.wait_for(settled, deadline - time.perf_counter())
            seen = self.messages
            await asyncio.sleep(quiet)
            if self.messages == seen and settled(self):
                return
            if time.perf_counter() > deadline:
                raise TimeoutError(f"waited {timeout:.0f} s for the session to settle")
