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
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numpy.typing import NDArray
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from playground import Classifier, Message, PlaygroundError, Window
from playground.budget import limited
from playground.link import decode_scene
from playground.scene import PointSet, Scene
from ui.plot.canvas import figure_json
from ui.plot.canvas_protocol import LIVE_PATH, LiveStatus, indices, number
from ui.plot.fitview import FitView, evaluate_view, shown_model
from ui.plot.theme import with_font
from ui.session.compute import GRID_RESOLUTION, MAX_RECORDED_STEPS
from ui.session.workers import fit_scene
from ui.text.i18n import LANGUAGES, N_, speaking
from ui.text.names import phrased

if TYPE_CHECKING:  # imported where it is used: see live_answer
    from ui.plot.figures import SceneFigure

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

    def __init__(
        self,
        rate: float = RATE_PER_SECOND,
        burst: float = RATE_BURST,
        max_clients: int = MAX_CLIENTS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate, self.burst, self.max_clients, self.clock = rate, burst, max_clients, clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # client -> (tokens, time)
        self._lock = threading.Lock()

    def allow(self, client: str) -> bool:
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

    def __init__(self, status: int, sentence: Message | str) -> None:
        super().__init__(sentence)
        self.status, self.sentence = status, sentence


def _language(value: object) -> str:
    """``value`` when it is one of ``LANGUAGES``, else "en" (a list or an object too: JSON's
    unhashable values cannot be looked up in a dict)."""
    return value if isinstance(value, str) and value in LANGUAGES else "en"


def _text(value: object, limit: int) -> str:
    return value[:limit] if isinstance(value, str) else ""


class LiveFields(NamedTuple):
    """A live request's fields as validated (``_request_fields``; the wire format is
    ``ui.plot.canvas_protocol.LiveRequest``). The edits are checked one by one as they are applied
    (``edited_points``)."""

    query: dict[str, str]  # the scene's link query, for ``playground.link.decode_scene``
    edits: list[Any]  # at most MAX_EDITS
    add_as: int  # 0-5
    add_test: bool
    scale: float  # MIN_SCALE..MAX_SCALE
    language: str  # a key of LANGUAGES
    painted: bool


def _request_fields(body: object) -> LiveFields:
    """The request's fields, checked."""
    if not isinstance(body, dict):
        raise Refused(400, N_("The live update was not understood."))
    query = body.get("scene")
    if not isinstance(query, dict) or len(query) > 30:
        raise Refused(400, N_("The live update was not understood."))
    query = {str(k)[:20]: v for k, v in query.items() if isinstance(v, str)}
    edits = body.get("edits")
    if not isinstance(edits, list) or len(edits) > MAX_EDITS:
        raise Refused(400, N_("The live update was not understood."))
    class_number = number(body.get("add_as"), 0)
    add_as = int(class_number) if class_number == int(class_number) and 0 <= class_number < 6 else 0
    scale = min(max(number(body.get("scale"), 1.0), MIN_SCALE), MAX_SCALE)
    language = _language(body.get("language"))
    return LiveFields(query, edits, add_as, body.get("add_test") is True, scale, language, body.get("painted") is True)


class EditedPoints(NamedTuple):
    """The points after a request's edits (``edited_points``), and where each was in its scene."""

    points: PointSet
    origins: NDArray[np.intp]  # (N,) the place in the request's scene, -1 for an added point


def edited_points(points: PointSet, edits: Sequence[object], add_as: int, add_test: bool) -> EditedPoints:
    """(points, origins): the points after the edits, in order, and for each the place it had in
    the request's scene (-1 for an added one). Edits name points by that place, as the canvas
    showed them; a bad edit refuses the request (nothing is guessed)."""
    origins = np.arange(len(points))
    for edit in edits:
        if not isinstance(edit, dict):
            raise Refused(400, N_("The live update was not understood."))
        kind = edit.get("type")
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
    return EditedPoints(points, origins)


def _places(origins: NDArray[np.intp], ids: object) -> list[int]:
    """Where the points the request's scene had at ``ids`` are now."""
    wanted = np.asarray(indices(ids), dtype=int)
    return np.flatnonzero(np.isin(origins, wanted[wanted >= 0])).tolist()


def _named_by_origin(figure: "SceneFigure", origins: NDArray[np.intp]) -> None:
    """The points' markers carry their place in the request's scene (what the canvas's next edit
    names), not in the edited set; added points carry -1 (nothing can name them yet)."""
    for trace in figure["data"]:
        if trace.get("meta") == "points" and trace.get("customdata") is not None:
            trace["customdata"] = origins[np.asarray(trace["customdata"], dtype=int)].astype(np.int32)


def _fitted_view(scene: Scene) -> tuple[Classifier | None, FitView]:
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


def _test_predicted(model: Classifier | None, scene: Scene) -> NDArray[Any] | None:
    points = scene.points
    if model is None or not points.test:
        return None
    try:
        return shown_model(model, scene.step).predict(points.testing.X).astype(int)
    except PlaygroundError:
        return None


def live_answer(body: object) -> str:
    """The response text for a request body already parsed from JSON (raises ``Refused``)."""
    from ui.plot.figures import scene_figure

    fields = _request_fields(body)
    language = fields.language
    scene = decode_scene(fields.query).scene
    try:
        points, origins = edited_points(scene.points, fields.edits, fields.add_as, fields.add_test)
    except PlaygroundError as err:
        raise Refused(422, err.message) from None
    scene = scene.with_points(points)
    if not isinstance(scene.window, Window):
        scene = replace(scene, window=Window())
    with speaking(language, scene.class_names):
        model, view = _fitted_view(scene) if len(scene.training.points) else (None, None)
        if view is None:
            raise Refused(422, N_("There are no training points yet."))
        if view.error:
            raise Refused(422, view.error)
        test_predicted = _test_predicted(model, scene)
        figure = scene_figure(
            scene.points,
            view,
            scene.window,
            scene.view_revision,
            scale=fields.scale,
            test_predicted=test_predicted,
            painted=fields.painted,
        )
        figure["layout"] = with_font(figure["layout"], language)
    _named_by_origin(figure, origins)
    wrong = int((view.predicted != scene.training.points.y).sum()) if view.predicted is not None else 0
    status = LiveStatus(n_points=len(scene.points), accuracy=view.accuracy, wrong=wrong)
    return '{"figure":' + figure_json(figure) + ',"status":' + json.dumps(status) + "}"


def _refusal(err: Refused, language: str) -> JSONResponse:
    with speaking(language):
        sentence = phrased(err.sentence)
    return JSONResponse({"error": sentence}, status_code=err.status)


async def live(request: Request) -> Response:
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
    language = _language(parsed.get("language")) if isinstance(parsed, dict) else "en"
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


def live_path() -> str:
    """The route's path under the server's base URL path (what the canvas posts to)."""
    from streamlit import config

    base = (config.get_option("server.baseUrlPath") or "").strip("/")
    return f"/{base}{LIVE_PATH}" if base else LIVE_PATH


def live_routes() -> list[Route]:
    """The routes ``st.App`` serves beside the page: the live route at the root and, when the
    server has a base URL path (behind nginx), under it too."""
    paths = {LIVE_PATH, live_path()}
    return [Route(path, live, methods=["POST"]) for path in sorted(paths)]
