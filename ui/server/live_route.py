"""The live route: the geometry of a gesture in progress, without a Streamlit rerun.

While a point is dragged (and right after a click) the canvas posts the scene it shows and the
edits not yet committed to ``LIVE_PATH``; this route applies them, fits the same back-end under
the same validation and a short budget, and answers with the figure the canvas draws. It holds
no state (any replica behind the load balancer may answer) and the session learns of the edit
only when the gesture ends, through the canvas's trigger.

Rules that must hold, since the route is public:
- The body is read up to ``MAX_BODY_BYTES`` and parsed as JSON; the scene goes through the link
  decoder (``playground.link.decode_scene``), which bounds every field; edits are at most
  ``MAX_EDITS`` and each field is checked (``ui.plot.canvas_protocol.number`` / ``indices``).
- The fit runs under ``LIVE_SECONDS`` of processor time and ``MAX_RECORDED_STEPS`` steps; a scene
  too heavy for that answers 503 with a sentence, and the canvas commits the gesture without
  live updates.
- At most ``CONCURRENT`` computations run at once in the process (others answer 429 at once: a
  live frame that waits is stale anyway), and each client may ask ``RATE_PER_SECOND`` times a
  second on average (bursts of ``RATE_BURST``).
- The answer is JSON; every text in it (class names in the legend) is escaped as the canvas's
  figure escapes it (``ui.plot.figures``).
"""

import json
import threading
import time
from collections import OrderedDict
from dataclasses import replace

import numpy as np
from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from playground import PlaygroundError, Window
from playground.budget import limited
from playground.link import decode_scene
from ui.plot.canvas import figure_json
from ui.plot.canvas_protocol import LIVE_PATH, LiveStatus, indices, number
from ui.plot.fitview import evaluate_view, shown_model
from ui.plot.theme import with_font
from ui.session.compute import GRID_RESOLUTION, MAX_RECORDED_STEPS
from ui.session.workers import fit_scene
from ui.text.i18n import LANGUAGES, N_, speaking
from ui.text.names import phrased

MAX_BODY_BYTES = 512 * 1024  # a link's points (5,000 at most) and a gesture's edits fit well within
MAX_EDITS = 100
LIVE_SECONDS = 0.25  # processor time for one live fit: a frame that takes longer is no live frame
CONCURRENT = 2  # computations at once (the machine's cores); more would only queue stale frames
RATE_PER_SECOND = 60.0
RATE_BURST = 60.0
MAX_CLIENTS = 4096  # clients remembered by the rate limit (the least recent are forgotten)
MIN_SCALE, MAX_SCALE = 0.5, 3.0

_RUNNING = threading.BoundedSemaphore(CONCURRENT)


class RateLimit:
    """A token bucket per client: ``rate`` requests a second on average, ``burst`` at once."""

    def __init__(self, rate=RATE_PER_SECOND, burst=RATE_BURST, max_clients=MAX_CLIENTS, clock=time.monotonic):
        self.rate, self.burst, self.max_clients, self.clock = rate, burst, max_clients, clock
        self._buckets = OrderedDict()  # client -> (tokens, time)
        self._lock = threading.Lock()

    def allow(self, client):
        with self._lock:
            now = self.clock()
            tokens, then = self._buckets.pop(client, (self.burst, now))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            allowed = tokens >= 1.0
            self._buckets[client] = (tokens - 1.0 if allowed else tokens, now)
            while len(self._buckets) > self.max_clients:
                self._buckets.popitem(last=False)
            return allowed


RATE_LIMIT = RateLimit()


class Refused(Exception):
    """A request the route will not compute: ``status`` and a sentence (a ``Message`` or text)."""

    def __init__(self, status, sentence):
        super().__init__(sentence)
        self.status, self.sentence = status, sentence


def _text(value, limit):
    return value[:limit] if isinstance(value, str) else ""


def _request_fields(body):
    """The request's fields, checked: (query, edits, add_as, add_test, scale, language, painted)."""
    if not isinstance(body, dict):
        raise Refused(400, N_("The live update was not understood."))
    query = body.get("scene")
    if not isinstance(query, dict) or len(query) > 30:
        raise Refused(400, N_("The live update was not understood."))
    query = {str(k)[:20]: v for k, v in query.items() if isinstance(v, str)}
    edits = body.get("edits")
    if not isinstance(edits, list) or len(edits) > MAX_EDITS:
        raise Refused(400, N_("The live update was not understood."))
    add_as = number(body.get("add_as"), 0)
    add_as = int(add_as) if add_as == int(add_as) and 0 <= add_as < 6 else 0
    scale = min(max(number(body.get("scale"), 1.0), MIN_SCALE), MAX_SCALE)
    language = body.get("language") if body.get("language") in LANGUAGES else "en"
    return query, edits, add_as, body.get("add_test") is True, scale, language, body.get("painted") is True


def edited_points(points, edits, add_as, add_test):
    """(points, origins): the points after the edits, in order, and for each the place it had in
    the request's scene (-1 for an added one). Edits name points by that place, as the canvas
    showed them; a bad edit refuses the request (nothing is guessed)."""
    origins = np.arange(len(points))
    for edit in edits:
        kind = edit.get("type") if isinstance(edit, dict) else None
        if kind == "add":
            x, y = number(edit.get("x")), number(edit.get("y"))
            if x is None or y is None:
                raise Refused(400, N_("The live update was not understood."))
            points = points.added(x, y, add_as, test=add_test)  # bounds and limits: InvalidDataError
            origins = np.append(origins, -1)
        elif kind == "remove":
            places = _places(origins, edit.get("ids"))
            points = points.removed(places)
            origins = np.delete(origins, places)
        elif kind == "move":
            dx, dy = number(edit.get("dx")), number(edit.get("dy"))
            if dx is None or dy is None:
                raise Refused(400, N_("The live update was not understood."))
            points = points.moved(_places(origins, edit.get("ids")), dx, dy)
        else:
            raise Refused(400, N_("The live update was not understood."))
    return points, origins


def _places(origins, ids):
    """Where the points the request's scene had at ``ids`` are now."""
    wanted = np.asarray(indices(ids), dtype=int)
    return np.flatnonzero(np.isin(origins, wanted[wanted >= 0])).tolist()


def _named_by_origin(figure, origins):
    """The points' markers carry their place in the request's scene (what the canvas's next edit
    names), not in the edited set; added points carry -1 (nothing can name them yet)."""
    for trace in figure["data"]:
        if trace.get("meta") == "points" and trace.get("customdata") is not None:
            trace["customdata"] = origins[np.asarray(trace["customdata"], dtype=int)].astype(np.int32)


def _fitted_view(scene):
    """(model, view) of the scene's training points, under the live budget."""
    training = scene.training
    points = training.points
    with limited(LIVE_SECONDS, MAX_RECORDED_STEPS, clock=time.thread_time) as budget:
        result = fit_scene(
            points.X, points.y, scene.method, scene.params, scene.multiclass, scene.basis, scene.basis_params
        )
    if "time" in budget.reasons:
        raise Refused(503, N_("This scene is too heavy to follow the pointer live; it is updated when you let go."))
    view = evaluate_view(result, points.X, points.y, scene.window, scene.step, GRID_RESOLUTION)
    return result[0], view


def _test_predicted(model, scene):
    points = scene.points
    if model is None or not points.test:
        return None
    try:
        return shown_model(model, scene.step).predict(points.testing.X).astype(int)
    except PlaygroundError:
        return None


def live_answer(body):
    """The response text for a request body already parsed from JSON (raises ``Refused``)."""
    from ui.plot.figures import scene_figure

    query, edits, add_as, add_test, scale, language, painted = _request_fields(body)
    scene, _messages = decode_scene(query)
    try:
        points, origins = edited_points(scene.points, edits, add_as, add_test)
    except PlaygroundError as err:
        raise Refused(422, err.message) from None
    scene = scene.with_points(points)
    if not isinstance(scene.window, Window):
        scene = replace(scene, window=Window())
    with speaking(language, scene.class_names):
        model, view = _fitted_view(scene) if len(scene.training.points) else (None, None)
        if view is None or view.error:
            raise Refused(422, view.error if view is not None else N_("There are no training points yet."))
        test_predicted = _test_predicted(model, scene)
        figure = scene_figure(
            scene.points,
            view,
            scene.window,
            scene.view_revision,
            scale=scale,
            test_predicted=test_predicted,
            painted=painted,
        )
        figure["layout"] = with_font(figure["layout"], language)
    _named_by_origin(figure, origins)
    wrong = int((view.predicted != scene.training.points.y).sum()) if view.predicted is not None else 0
    status = LiveStatus(n_points=len(scene.points), accuracy=view.accuracy, wrong=wrong)
    return '{"figure":' + figure_json(figure) + ',"status":' + json.dumps(status) + "}"


def _refusal(err, language):
    with speaking(language):
        sentence = phrased(err.sentence)
    return JSONResponse({"error": sentence}, status_code=err.status)


async def live(request):
    """POST ``LIVE_PATH``: a live figure (see the module's rules)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            return _refusal(Refused(413, N_("The live update was too large.")), "en")
    try:
        parsed = json.loads(body)
    except (ValueError, RecursionError):
        return _refusal(Refused(400, N_("The live update was not understood.")), "en")
    language = parsed.get("language") if isinstance(parsed, dict) and parsed.get("language") in LANGUAGES else "en"
    client = _text(parsed.get("client") if isinstance(parsed, dict) else None, 64) or "?"
    host = request.client.host if request.client else "?"
    if not RATE_LIMIT.allow(f"{host}/{client}"):
        return _refusal(Refused(429, N_("Too many live updates; slow down a little.")), language)
    if not _RUNNING.acquire(blocking=False):
        return _refusal(Refused(429, N_("The server is busy; the plot is updated when you let go.")), language)
    try:
        text = await run_in_threadpool(live_answer, parsed)
    except Refused as err:
        return _refusal(err, language)
    finally:
        _RUNNING.release()
    return Response(text, media_type="application/json", headers={"Cache-Control": "no-store"})


def live_path():
    """The route's path under the server's base URL path (what the canvas posts to)."""
    from streamlit import config

    base = (config.get_option("server.baseUrlPath") or "").strip("/")
    return f"/{base}{LIVE_PATH}" if base else LIVE_PATH


def live_routes():
    """The routes ``st.App`` serves beside the page: the live route at the root and, when the
    server has a base URL path (behind nginx), under it too."""
    paths = {LIVE_PATH, live_path()}
    return [Route(path, live, methods=["POST"]) for path in sorted(paths)]
