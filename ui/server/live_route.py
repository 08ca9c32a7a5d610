"""The live route: the geometry of a gesture in progress, without a Streamlit rerun.

While a point is dragged (and right after a click) the canvas posts the scene it shows and the
edits not yet committed to ``LIVE_PATH``; this route applies them, fits the same back-end under
the same validation and a short budget, and answers with the figure the canvas draws. It holds
no state (any replica behind the load balancer may answer) and the session learns of the edit
only when the gesture ends, through the canvas's trigger.

Rules that must hold, since the route is public:
- The body arrives through the edge (``ui.server.edge``: at most ``MAX_BODY_BYTES``, within a
  deadline, ``application/json`` from the app's own origin) and is read here under the same cap
  and deadline again, so the route is safe without the edge too.
- Limits come before any work and are keyed on the client's address as the trusted proxies report
  it (``ui.server.clients``), never on a value of the body: ``RATE_PER_SECOND`` tokens a second
  on average (bursts of ``RATE_BURST``; a request costs one and one more per ``BYTES_PER_TOKEN``
  of its body: a 1,000-point scene follows at about 40 frames a second, a 5,000-point one at
  about 20), shared by every replica through Redis when ``PLAYGROUND_REDIS_URL`` is set; one
  computation under way per address and ``CONCURRENT`` in the process (``COMPUTING``): others
  answer 429 at once (a live frame that waits is stale), so one address flooding the route holds
  one slot and never the others'.
- Parsing, validation (``ui.server.live_request``: typed, ranges, 4xx with a sentence) and the
  work run off the event loop, in a worker thread.
- The budget covers the whole answer (``ui.server.live_budget``): a cost estimate before the
  fit, ``LIVE_SECONDS`` for the fit, a deadline between the stages, ``MAX_ANSWER_BYTES`` for the
  encoded answer; over it, a quick 503 with a sentence, and the canvas commits the gesture without
  live updates.
- An error nobody expected is a short 500 with a sentence (``ui.server.visitor_input.guarded``),
  never a traceback.
- The answer is JSON; every text in it (class names in the legend) is escaped as the canvas's
  figure escapes it (``ui.plot.figures``).
"""

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from playground import Classifier, Message, PlaygroundError, Window
from playground.link import decode_scene
from playground.scene import PointSet, Scene
from ui.engine.cache import setting
from ui.engine.fits import OverBudget, fitted_view
from ui.engine.fitview import GRID_RESOLUTION, FitView
from ui.plot.canvas import figure_json
from ui.plot.canvas_protocol import LIVE_PATH, LiveEdit, LiveLine, LiveStatus
from ui.plot.figures import SceneFigure  # at start: its import takes 0.4 s, a whole live budget
from ui.plot.line_scores import line_numbers
from ui.plot.render import render_scene
from ui.plot.theme import with_font
from ui.server.clients import client_address
from ui.server.edge import Refusal as EdgeRefusal
from ui.server.edge import body_deadline, read_body
from ui.server.limits import InFlight, TokenBuckets, shared_buckets
from ui.server.live_budget import MAX_ANSWER_BYTES, TOO_HEAVY, WORK_LIMIT, StageClock, work_estimate
from ui.server.live_request import (
    MAX_BODY_BYTES,
    MAX_EDITS,
    TOO_LARGE,
    LiveFields,
    Refused,
    language_of,
    live_fields,
    parsed_json,
)
from ui.server.visitor_input import guarded
from ui.session.gesture import Gesture, apply_gesture
from ui.text.i18n import N_, _, speaking
from ui.text.names import phrased

LIVE_SECONDS = 0.25  # wall time for one live fit: a frame that takes longer is no live frame
CONCURRENT = 2  # computations at once (the machine's cores); more would only queue stale frames
PER_ADDRESS = 1  # computations one address may have under way (a canvas asks one frame at a time)
RATE_PER_SECOND = setting("PLAYGROUND_LIVE_RATE", 60.0)  # tokens a second; see request_cost
RATE_BURST = setting("PLAYGROUND_LIVE_BURST", 60.0)
BYTES_PER_TOKEN = 16 * 1024  # a big scene's frames cost more: its parsing and decoding alone take ms

RateLimit = TokenBuckets  # the name the class rooms' routes import
RATE_LIMIT: "TokenBuckets | Any" = shared_buckets("live", RATE_PER_SECOND, RATE_BURST)
COMPUTING = InFlight(PER_ADDRESS, CONCURRENT)

__all__ = ["MAX_BODY_BYTES", "MAX_EDITS", "LiveFields", "RateLimit", "Refused", "live_answer", "live_routes"]


class EditedPoints(NamedTuple):
    """The points after a request's edits (``edited_points``), and where each was in its scene."""

    points: PointSet
    origins: NDArray[np.intp]  # (N,) the place in the request's scene, -1 for an added point


def edited_points(points: PointSet, edits: Sequence[LiveEdit], add_as: int, add_test: bool) -> EditedPoints:
    """(points, origins): the points after the edits (validated by ``ui.server.live_request``), in
    order, each applied by ``ui.session.gesture.apply_gesture`` (the session's rule for the same
    gesture), and for each point the place it had in the request's scene (-1 for an added one).
    Edits name points by that place, as the canvas showed them. Coordinates out of the scene's
    bounds or a full scene raise ``PlaygroundError``."""
    origins = np.arange(len(points))
    for edit in edits:
        if edit["type"] == "add":
            points = apply_gesture(points, Gesture("add", edit["x"], edit["y"]), add_as=add_as, add_test=add_test)
            origins = np.append(origins, -1)
        elif edit["type"] == "remove":
            places = _places(origins, edit["ids"])
            points = apply_gesture(points, Gesture("remove"), places)
            origins = np.delete(origins, places)
        else:
            points = apply_gesture(points, Gesture("move", dx=edit["dx"], dy=edit["dy"]), _places(origins, edit["ids"]))
    return EditedPoints(points, origins)


def _places(origins: NDArray[np.intp], ids: Sequence[int]) -> list[int]:
    """Where the points the request's scene had at ``ids`` are now."""
    return np.flatnonzero(np.isin(origins, np.asarray(ids, dtype=np.intp))).tolist()


def _named_by_origin(figure: SceneFigure, origins: NDArray[np.intp]) -> None:
    """The points' markers carry their place in the request's scene (what the canvas's next edit
    names), not in the edited set; added points carry -1 (nothing can name them yet)."""
    for trace in figure["data"]:
        if trace.get("meta") == "points" and trace.get("customdata") is not None:
            trace["customdata"] = origins[np.asarray(trace["customdata"], dtype=int)].astype(np.int32)


def _fitted_view(scene: Scene, clock: StageClock, shared: bool) -> tuple[Classifier | None, FitView]:
    """(model, view) of the scene's training points, under the live budget; when ``shared`` (a
    click's or an erase's scene), through the server's shared cache (``ui.engine.fits``): a fit the
    page or another visitor made is used as it is, and one made here is kept, so the page's rerun
    fits nothing again. A drag's frames, sixty a second and each seen once, skip the cache.

    The edited scene is estimated again before any fit or cache lookup (``live_answer`` estimated
    the request's scene before its edits): up to ``MAX_EDITS`` added points can take a scene over
    the limit."""
    if work_estimate(scene, GRID_RESOLUTION) > WORK_LIMIT:
        raise Refused(503, TOO_HEAVY)
    try:
        fit, view = fitted_view(scene, min(LIVE_SECONDS, clock.left()), shared=shared)
    except OverBudget:
        raise Refused(503, TOO_HEAVY) from None
    if clock.over():
        raise Refused(503, TOO_HEAVY)
    return fit.model, view


def live_answer(body: object, clock: StageClock | None = None) -> str:
    """The response text for a request body already parsed from JSON (raises ``Refused``)."""
    clock = clock or StageClock()
    fields = live_fields(body)
    language = fields.language
    scene = decode_scene(fields.query).scene
    if work_estimate(scene, GRID_RESOLUTION) > WORK_LIMIT:  # before the edits' work (a flood's heavy scenes)
        raise Refused(503, TOO_HEAVY)
    try:
        points, origins = edited_points(scene.points, fields.edits, fields.add_as, fields.add_test)
    except PlaygroundError as err:
        raise Refused(422, err.message) from None
    scene = scene.with_points(points)
    if not isinstance(scene.window, Window):
        scene = replace(scene, window=Window())
    if fields.guess is not None:
        return _line_answer(replace(scene, guess=fields.guess), clock, language, fields.shares)
    with speaking(language, scene.class_names):
        shared = not any(edit["type"] == "move" for edit in fields.edits)  # a click or an erase, not a drag
        model, view = _fitted_view(scene, clock, shared) if len(scene.training.points) else (None, None)
        if view is None:
            raise Refused(422, N_("There are no training points yet."))
        if view.error:
            raise Refused(422, view.error)
        rendered = render_scene(
            scene, model, view, scale=fields.scale, caption=False, painted=fields.painted, shared=shared
        )
        figure = rendered.figure
        figure["layout"] = with_font(figure["layout"], language)
    _named_by_origin(figure, origins)
    status = LiveStatus(  # the render's: a hidden fit's accuracy is None there (predict first)
        n_points=rendered.status.n_points, accuracy=rendered.status.accuracy, wrong=rendered.status.wrong
    )
    text = '{"figure":' + figure_json(figure) + ',"status":' + json.dumps(status) + "}"
    if len(text) > MAX_ANSWER_BYTES or clock.over():
        raise Refused(503, TOO_HEAVY)
    return text


def _line_answer(scene: Scene, clock: StageClock, language: str, shares: bool) -> str:
    """The numbers of the person's line (``LiveLine``) while it moves: the fit is the page's, from
    the shared cache (the points do not change while a line moves), and no figure is drawn."""
    if not len(scene.training.points):
        raise Refused(422, N_("There are no training points yet."))
    with speaking(language, scene.class_names):
        model, view = _fitted_view(scene, clock, shared=True)
        if view.error or model is None:
            raise Refused(422, view.error or N_("There are no training points yet."))
        numbers = line_numbers(scene, model, shares)
        if numbers is None:
            raise Refused(422, N_("Your line is scored for two classes only."))
        line = LiveLine(
            accuracy=numbers.accuracy,
            criterion=numbers.criterion,
            value=numbers.value,
            fit=numbers.fit,
            maximised=numbers.maximised,
            shares=numbers.shares,
        )
    text = '{"line":' + json.dumps(line, allow_nan=False) + "}"
    if len(text) > MAX_ANSWER_BYTES or clock.over():
        raise Refused(503, TOO_HEAVY)
    return text


def said(sentence: Message | str) -> str:
    """A refusal's sentence in the language spoken (a message constant is looked up in the
    catalogs; ``phrased`` shows a plain str as it is)."""
    return _(sentence) if isinstance(sentence, str) else phrased(sentence)


def _refusal(err: Refused, language: str) -> JSONResponse:
    with speaking(language):
        sentence = said(err.sentence)
    return JSONResponse({"error": sentence}, status_code=err.status, headers={"Cache-Control": "no-store"})


def live_response(body: bytes, clock: StageClock) -> tuple[int, str, str]:
    """(status, language, text) for a raw body: parsed, validated and computed (a worker thread's
    job: nothing here runs on the event loop)."""
    language = "en"
    try:
        parsed = parsed_json(body)
        language = language_of(parsed)
        return 200, language, live_answer(parsed, clock)
    except Refused as err:
        with speaking(language):
            return err.status, language, json.dumps({"error": said(err.sentence)})


def request_cost(size: int) -> float:
    """Tokens a request of ``size`` body bytes spends: the work before any refusal grows with it."""
    return 1.0 + size / BYTES_PER_TOKEN


async def _allowed(client: str, cost: float) -> bool:
    """The client's rate limit, off the event loop when it asks Redis."""
    if isinstance(RATE_LIMIT, TokenBuckets):
        return RATE_LIMIT.allow(client, cost)
    return bool(await run_in_threadpool(RATE_LIMIT.allow, client, cost))


async def live(request: Request) -> Response:
    """POST ``LIVE_PATH``: a live figure (see the module's rules)."""
    clock = StageClock()
    client = client_address(request.scope)
    try:  # already read by the edge (ui.server.edge) when it is installed: then this is a copy
        body = await read_body(request.receive, MAX_BODY_BYTES, body_deadline(None, MAX_BODY_BYTES))
    except EdgeRefusal as err:
        return _refusal(Refused(err.status, TOO_LARGE if err.status == 413 else err.sentence), "en")
    if body is None:
        return Response(status_code=400)  # the client went away: nobody reads this
    if not await _allowed(client, request_cost(len(body))):
        return _refusal(Refused(429, N_("Too many live updates; slow down a little.")), "en")
    if not COMPUTING.acquire(client):
        return _refusal(Refused(429, N_("The server is busy; the plot is updated when you let go.")), "en")
    try:
        status, _, text = await run_in_threadpool(live_response, body, clock)
    finally:
        COMPUTING.release(client)
    return Response(text, status_code=status, media_type="application/json", headers={"Cache-Control": "no-store"})


def live_path() -> str:
    """The route's path under the server's base URL path (what the canvas posts to)."""
    from streamlit import config

    base = (config.get_option("server.baseUrlPath") or "").strip("/")
    return f"/{base}{LIVE_PATH}" if base else LIVE_PATH


def live_routes() -> list[Route]:
    """The routes ``st.App`` serves beside the page: the live route at the root and, when the
    server has a base URL path (behind nginx), under it too."""
    paths = {LIVE_PATH, live_path()}
    return [Route(path, guarded(live), methods=["POST"]) for path in sorted(paths)]
