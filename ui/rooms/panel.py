"""The lecturer's side of a room, on the Streamlit page: open it from the share area, show it on
the projector (the plot following the room, the join code, link and QR code), and run it.

Rules that must hold:
- The control token lives in this session's state only (``ROOM_KEY``); the join link and the QR
  code carry the code alone. Every control goes through ``ui.rooms.model.control`` with the
  token, as the control route does.
- The projector follows the room by itself (``projector.js`` polls the state route): no rerun
  of this page per student's point. The controls are one fragment: a control reruns only it.
- Students' nicknames are shown as text (``st.text`` / escaped options), never as Markdown.
- Opening goes through ``ui.rooms.routes.open_room`` as the open route does: an open token this
  session mints, and one of the opens of the session's address (as the trusted proxies report it).
- The join link breaks only at "/" or "?", never inside the host or the port; a loopback host
  (phones cannot reach it) is said so, and the lecturer may give the address phones use
  (``clean_host``: host[:port] only), which the link and the QR code then follow.
- Closing a room that holds points asks first (and offers to freeze it into the scene).
"""

import io
import secrets
import time
from typing import Any, Final
from urllib.parse import urlsplit

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from playground import MODELS
from playground.link import encode_scene
from playground.scene import Scene
from ui.base.visitor import visitor, widget_values
from ui.plot.browser_modules import module_url
from ui.plot.canvas import MODULE_LOADER_JS, component_data, ensure_plotly_js, shared_texts
from ui.plot.theme import DARK_SWAPS
from ui.server.clients import client_address
from ui.session import loading
from ui.text.i18n import N_, _, current_language
from ui.text.labels import method_label
from ui.text.names import class_label, isolated, phrased

from . import guard, model, round_panel
from .joinlink import clean_host, is_loopback, link_html
from .protocol import API, MAX_PER_STUDENT, ROOM_PAGE
from .routes import _base, open_room
from .store import room_store
from .store_base import UNREACHABLE

LARGE_QR: Final = "room_large_qr"
ROOM_KEY: Final = "class_room"  # {"code", "token", "shown"} of the room this session opened
_CSS = (
    ".pg-projector { width: 100%; } .pg-projector-status { font-size: 1.1rem; opacity: 0.8; margin: 4px 0; }"
    " .pg-projector-results { display: flex; flex-wrap: wrap; gap: 24px; }"
    " .pg-round-histogram { margin: 0; width: 260px; } .pg-round-histogram svg { width: 100%; fill: currentColor; }"
    " .pg-round-histogram figcaption { font-size: 0.95rem; opacity: 0.8; }"
)
_projector = st.components.v2.component(
    "playground_room_projector", js=MODULE_LOADER_JS, css=_CSS, isolate_styles=False
)
# After a freeze the page starts again at its top (the bar, the plot, its caption), not scrolled
# down to where the room's controls were; held there while the scene's panels arrive, until the
# lecturer scrolls or presses a key (at most 3 s).
_SCROLL_TOP_JS = """
export default function ({data, parentElement}) {
  if (parentElement.__pgTop === data) return;
  parentElement.__pgTop = data;
  const top = () => {
    const main = document.querySelector('[data-testid="stMain"]');
    if (main) main.scrollTop = 0;
    window.scrollTo(0, 0);
  };
  let left = 30;
  const timer = setInterval(() => { top(); if (--left <= 0) stop(); }, 100);
  const stop = () => {
    clearInterval(timer);
    for (const name of ['wheel', 'touchstart', 'keydown', 'mousedown']) removeEventListener(name, stop, true);
  };
  for (const name of ['wheel', 'touchstart', 'keydown', 'mousedown']) addEventListener(name, stop, true);
  top();
}
"""
_scroll_top = st.components.v2.component("playground_room_scroll_top", js=_SCROLL_TOP_JS, isolate_styles=False)
SCROLL_TOP: Final = "room_scroll_top"  # set by a freeze: the next run starts the page at its top
SOURCE = N_("the class room")
CONTROLS_EVERY = 5  # seconds: the controls fragment looks at the room again (new students)
CODE_STYLE = "font-size: 2.2rem; font-weight: 700; letter-spacing: 0.08em; text-align: center; white-space: nowrap"
HOST_KEY: Final = "room_phone_host"  # the address phones use, as the lecturer typed it
CONFIRM_CLOSE: Final = "room_confirm_close"
CONFIRM_CLEAR: Final = "room_confirm_clear"


def is_open() -> bool:
    """Whether this session shows its room on the projector (instead of the canvas)."""
    room = visitor().get(ROOM_KEY)
    return bool(room and room.get("shown"))


def open_room_button(scene: Scene, where: Any = None, key: str = "room_share") -> None:
    """A button in ``where`` (the share area, the presenter bar): open a room of ``scene``, go back
    to the room this session opened, or from the projector back to the scene."""
    where = where or st
    nonce = visitor().pop(SCROLL_TOP, None)
    if nonce:
        with where:
            _scroll_top(data=nonce, key=f"{key}_scroll_top", height=0)
    room = visitor().get(ROOM_KEY)
    if room and room.get("shown"):
        if where.button(_("Back to my scene"), key=f"{key}_hide"):
            room["shown"] = False
            st.rerun()
    elif room:
        if where.button(_("Back to the class room {code}").format(code=room["code"]), key=f"{key}_back"):
            room["shown"] = True
            st.rerun()
    elif where.button(
        _("Open a class room"),
        key=f"{key}_open",
        help=_("Students join from their phones with a code or a QR code and add points to this plot, live."),
    ):
        _open(scene)


def session_client() -> str:
    """This session's address key for the limits, as the trusted proxies report it."""
    forwarded = st.context.headers.get("X-Forwarded-For") or ""
    scope = {"client": (st.context.ip_address or "", 0), "headers": [(b"x-forwarded-for", forwarded.encode())]}
    return guard.address_key(client_address(scope))


def _open(scene):
    try:
        code, token = open_room(encode_scene(scene), session_client(), guard.open_token(), time.time())
    except model.RoomError as err:
        st.error(phrased(err.sentence))
        return
    except UNREACHABLE:
        st.error(_("The room is not reachable just now; trying again."))
        return
    visitor()[ROOM_KEY] = {"code": code, "token": token, "shown": True}
    st.rerun()


def join_origin() -> tuple[str, str]:
    """(scheme, netloc) the students' link uses: the address the lecturer gave, else this page's."""
    parts = urlsplit(st.context.url or "")
    given = clean_host(visitor().get(HOST_KEY, ""))
    if given:
        return given[0] or parts.scheme or "http", given[1]
    return parts.scheme, parts.netloc


def join_link(code: str) -> str:
    """The students' link: this page's address (or the one phones use) with the student page's path
    and the code alone."""
    scheme, netloc = join_origin()
    origin = f"{scheme}://{netloc}" if netloc else ""
    return f"{origin}{_base()}{ROOM_PAGE}?c={code}"


def _phone_address(link):
    """A warning when phones cannot reach the link's host, and the field for the address they use."""
    hostname = urlsplit(link).hostname
    given = visitor().get(HOST_KEY, "")
    if is_loopback(hostname):
        st.warning(
            _("Phones cannot reach {host} (this computer's own name): give the address they use below.").format(
                host=hostname
            )
        )
    if given or is_loopback(hostname):
        st.text_input(
            _("Address phones use (host or host:port)"),
            key=HOST_KEY,
            placeholder="192.168.1.20:8501",
            help=_("The join link and the QR code use this address instead of this page's."),
        )
        if given and clean_host(given) is None:
            st.error(_("That is not a host or host:port (for example 192.168.1.20:8501 or class.example.org)."))


def qr_png(link: str) -> bytes:
    import segno

    buffer = io.BytesIO()
    segno.make(link, error="m").save(buffer, kind="png", scale=12, border=2)
    return buffer.getvalue()


def projector_texts() -> dict[str, str]:
    return {
        **shared_texts(),
        "students": _("Students: {n} · points: {points}"),
        "locked": _("adding is paused"),
        "hidden": _("the boundary is hidden"),
        "offline": _("Connection lost; trying again…"),
        "round_count": _("{n} of {students} students answered"),
        "round_predict": _("Predict the boundary: {count}"),
        "round_predict_again": _("Predict again: {count}"),
        "round_show": _("The class's lines, without the fit: {count}"),
        "round_spread": _("half the lines are within {apart} of their mean direction"),
        "round_reveal": _("The fit over the class's lines: {count}"),
        "round_accuracy": _("median accuracy {accuracy}"),
        "round_angle": _("median angle to the fit {angle}"),
        "round_moved": _("the class moved: median angle {before} → {after}"),
        "round_accuracy_chart": _("Accuracy of the class's lines (share of the points on their class's side)"),
        "round_angle_chart": _("Angle between each line and the fit (0-90°)"),
        "round_save": _("Download the plot with the class's lines (PNG)"),
        "round_lines": _("the class's lines"),
        "round_first_lines": _("the first round's lines"),
    }


def projector_view(scale: float = 1.0, in_bar: bool = False) -> None:
    """The room on the projector: its plot (following by itself; markers and type enlarged by
    ``scale`` in presentation mode), how to join, the controls (``in_bar``: those the presenter
    bar holds, ``bar_controls``, are left out below)."""
    info = visitor()[ROOM_KEY]
    code = info["code"]
    # The QR code as large as half the page, for the back of a lecture hall, or a quarter of it.
    left, right = st.columns([1, 1] if visitor().get(LARGE_QR) else [3, 1], gap="medium")
    with left:
        data = {
            "module": module_url("rooms/projector.js"),
            "plotly_url": ensure_plotly_js(),
            "api": _base() + API,
            "code": code,
            "token": info["token"],  # this lecturer's page only (see projector.js)
            "lang": current_language(),
            "scale": scale,
            "height": 540,
            "dark_swaps": DARK_SWAPS,
            "texts": projector_texts(),
        }
        _projector(data=component_data(data), key="room_projector", height="content")
    with right:
        link = join_link(code)
        st.markdown(_("**Join the class room**"))
        st.image(qr_png(link), width="stretch", alt=_("QR code of the join link {link}").format(link=link))
        # The code is CODE_ALPHABET's letters and digits only (``model.clean_code``): no markup possible.
        st.markdown(f"<div style='{CODE_STYLE}'>{model.clean_code(code)}</div>", unsafe_allow_html=True)
        st.markdown(
            link_html(link, _base() + ROOM_PAGE), unsafe_allow_html=True
        )  # escaped: its host may be the browser's Host
        _phone_address(link)
        st.toggle(_("Large QR code"), key=LARGE_QR)
    controls(code, info["token"], in_bar)


def _act(code, token, action, value=None, sid=None, question=None):
    try:
        room_store().update(code, lambda room: model.control(room, token, action, value, sid, time.time(), question))
    except model.RoomError as err:
        st.error(phrased(err.sentence))
    except UNREACHABLE:
        st.error(_("The room is not reachable just now; trying again."))


def _widget(kind, label, key, current, code, token, action, convert=lambda v: v, sid=None, **options):
    """A control widget showing the room's ``current`` value; changing it acts on the room (in its
    callback, so the change is made before this run reads the room again)."""
    if widget_values().get(key) != current:  # the room changed otherwise (the widget's own change is in it)
        widget_values()[key] = current
    return kind(
        label,
        key=key,
        on_change=lambda: _act(code, token, action, convert(widget_values()[key]), sid),
        **options,
    )


def bar_controls(row: DeltaGenerator) -> None:
    """In presentation, the presenter bar's controls while the room is on the projector: the
    room's method, the class the students add, pause and hide, the prediction round, and a *Room*
    menu with the students and the room's actions (remove, clear, freeze, close), acting on the
    room. (The bar's scene controls would change the lecturer's own scene, out of sight behind the
    projector.) ``controls`` then leaves these out, so each is in one place."""
    info = visitor()[ROOM_KEY]
    code, token = info["code"], info["token"]
    try:
        room = room_store().get(code)
    except UNREACHABLE:  # the controls below say so
        return
    if room is None:
        return
    settings = model.settings(room)
    with row:
        _method_and_everyone(code, token, settings, on_bar=True)
        _pause_and_hide(code, token, settings, on_bar=True)
        round_panel.round_controls(code, token, room, _act, room_store(), on_bar=True)
        # The students and the room's own actions, reachable from the bar without scrolling (each
        # in one place: ``controls`` leaves them out below while the bar holds them).
        with row.popover(_("Room"), icon=":material/groups:"):
            _bar_room_menu(code, token)


@st.fragment(run_every=CONTROLS_EVERY)
def _bar_room_menu(code: str, token: str) -> None:
    """The bar's *Room* menu: the students (looked at again every ``CONTROLS_EVERY`` seconds, for
    those who joined since) and the room's actions, with their confirmations."""
    try:
        room = room_store().get(code)
    except UNREACHABLE:
        st.warning(_("The room is not reachable just now; trying again."))
        return
    if room is None:
        return
    _room_actions(code, token, room, stacked=True)  # first: within a projector's first screen
    _students(code, token, room)


def _bar_class_label(k):
    if k == CHOOSE:
        return _("Students choose their class")
    return _("Students add {name}").format(name=class_label(k))


@st.fragment(run_every=CONTROLS_EVERY)
def controls(code: str, token: str, in_bar: bool = False) -> None:
    """The lecturer's controls: one fragment (a control reruns it alone; it also looks at the
    room every ``CONTROLS_EVERY`` seconds, for the students who joined). ``in_bar``: the method,
    the students' class, pause and hide are on the presenter bar (``bar_controls``), not here."""
    try:
        room = room_store().get(code)
    except UNREACHABLE:  # Redis restarting: the next look (CONTROLS_EVERY) finds it again
        st.warning(_("The room is not reachable just now; trying again."))
        return
    if room is None:
        st.warning(_("There is no room with this code (it may have closed)."))
        if st.button(_("Leave the room"), key="room_leave_gone"):
            visitor().pop(ROOM_KEY, None)
            st.rerun()
        return
    settings = model.settings(room)
    first, second, third = st.columns(3)
    with first:
        if not in_bar:
            _pause_and_hide(code, token, settings)
        _class_counts(code, token, settings)
    with second:
        if not in_bar:
            _method_and_everyone(code, token, settings)
    with third:
        if not in_bar:
            _students(code, token, room)
    if not in_bar:
        round_panel.round_controls(code, token, room, _act, room_store())
        _room_actions(code, token, room)


def _method_and_everyone(code, token, settings, on_bar=False):
    """The room's method and the class every student adds; ``on_bar``: the presenter bar's own
    widgets (their keys), labels folded away, the choices saying what they are."""
    prefix, bar = ("pbr", dict(label_visibility="collapsed")) if on_bar else ("room", {})
    _widget(
        st.selectbox,
        _("Method"),
        f"{prefix}_method",
        settings["method"],
        code,
        token,
        "method",
        options=list(MODELS),
        format_func=method_label,
        **bar,
        **({"width": 330} if on_bar else {}),
    )
    _widget(
        st.selectbox,
        _("Class the students add"),
        f"{prefix}_everyone",
        _option(settings["everyone"]),
        code,
        token,
        "assign",
        convert=_unoption,
        options=[CHOOSE, *range(settings["classes"])],
        format_func=_bar_class_label if on_bar else _class_or(_("each student chooses")),
        **bar,
        **({"width": 260} if on_bar else {}),
    )


def _pause_and_hide(code, token, settings, on_bar=False):
    """Pause adding points, and hide the boundary (predict, then reveal); ``on_bar``: the bar's own."""
    prefix = "pbr" if on_bar else "room"
    _widget(st.toggle, _("Pause adding points"), f"{prefix}_lock", settings["locked"], code, token, "lock")
    if not on_bar:
        _widget(
            st.toggle, _("Close the door to new students"), "room_door", settings["door_closed"], code, token, "door"
        )
    label = _("Hide the boundary") if on_bar else _("Hide the boundary (predict, then reveal)")
    _widget(st.toggle, label, f"{prefix}_hide", settings["hidden"], code, token, "hide")


def _class_counts(code, token, settings):
    act = (code, token)
    _widget(
        st.number_input,
        _("Classes to choose from"),
        "room_classes",
        settings["classes"],
        *act,
        "classes",
        convert=int,
        min_value=1,
        max_value=6,
    )
    _widget(
        st.number_input,
        _("Points per student"),
        "room_limit",
        settings["limit"],
        *act,
        "limit",
        convert=int,
        min_value=0,
        max_value=MAX_PER_STUDENT,
    )


CHOOSE = -1  # the option "the student chooses" (a selectbox shows None as no choice at all)


def _option(label):
    return CHOOSE if label is None else label


def _unoption(value):
    return None if value == CHOOSE else int(value)


def _class_or(choose_text):
    return lambda k: choose_text if k == CHOOSE else class_label(k)


def _students(code, token, room):
    roster = model.roster(room)
    if not roster:
        st.caption(_("No student has joined yet."))
        return
    # Nicknames are visitors' text: option labels are plain text in Streamlit (no Markdown).
    # Isolated (``ui.text.names.isolated``): a right-to-left nickname keeps its count after it.
    labels = {sid: f"{isolated(nick) or '–'} ({count})" for sid, nick, count in roster}
    sid = st.selectbox(_("Student"), list(labels), format_func=labels.__getitem__, key="room_student")
    # Callbacks act before the run reads the room, so the run shows the room as it became.
    st.button(
        _("Remove this student's points"),
        key="room_remove_student",
        on_click=_act,
        args=(code, token, "remove_student"),
        kwargs={"sid": sid},
    )
    with_points = st.checkbox(_("and their points"), key="room_expel_points")
    st.button(
        _("Remove this student from the room"),
        key="room_expel",
        on_click=_act,
        args=(code, token, "expel", with_points),
        kwargs={"sid": sid},
        help=_("Their page can no longer add points; with the door open they may join again as a new student."),
    )
    options = [CHOOSE, *range(room["classes"])]
    assigned = _option(room["students"].get(sid, {}).get("class"))
    _widget(
        st.selectbox,
        _("This student's class"),
        f"room_assign_{sid}",
        assigned if assigned in options else CHOOSE,
        code,
        token,
        "assign",
        convert=_unoption,
        sid=sid,
        options=options,
        format_func=_class_or(_("their choice")),
    )


def _room_actions(code, token, room, stacked=False):
    """Clear, freeze, close (``stacked``: one under another, as the bar's narrow menu holds them)."""
    first, second, third = [st.container()] * 3 if stacked else st.columns(3)
    with first:
        if st.button(_("Clear the room's points"), key="room_clear", disabled=not room["points"]):
            visitor()[CONFIRM_CLEAR] = True
    with second:
        if st.button(_("Freeze into a scene and link"), key="room_freeze", type="primary"):
            _freeze(code, room, token)
    with third:
        if st.button(_("Close the room"), key="room_close"):
            if room["points"]:
                visitor()[CONFIRM_CLOSE] = True
            else:
                _close(code)
    if visitor().get(CONFIRM_CLOSE):
        _confirm_close(code, token, room)
    if visitor().get(CONFIRM_CLEAR) and room["points"]:
        _confirm_clear(code, token, room)


def _confirm_clear(code, token, room):
    """Clearing takes every student's points with it, for good: ask first."""
    with st.container(border=True, key="room_clear_confirm"):
        st.warning(
            _("Clear all {n} points of the room, the students' too? This cannot be undone.").format(
                n=len(room["points"])
            )
        )
        first, second = st.columns(2)
        with first:
            st.button(_("Clear them"), key="room_clear_yes", type="primary", on_click=_clear_now, args=(code, token))
        with second:
            st.button(_("Keep them"), key="room_clear_no", on_click=_keep_points)


def _keep_points() -> None:
    visitor().pop(CONFIRM_CLEAR, None)


def _clear_now(code, token):
    visitor().pop(CONFIRM_CLEAR, None)
    _act(code, token, "clear")


def _cancel_close() -> None:
    """The lecturer keeps the room open: the confirmation goes away."""
    visitor().pop(CONFIRM_CLOSE, None)


def _freeze(code, room, token, then_close=False):
    """The room's points (all of them, exactly) become this session's scene, with its link."""
    try:  # the frozen link is kept in the room too: its students are shown it once it closes
        model.check_token(room, token)
        room_store().update(code, lambda fresh: model.freeze(fresh, time.time()))
    except model.RoomError as err:
        st.error(phrased(err.sentence))
        return
    except UNREACHABLE:
        st.error(_("The room is not reachable just now; trying again."))
        return
    loading.load_scene(model.scene_of(room), [], source=SOURCE)
    visitor()[ROOM_KEY]["shown"] = False
    visitor()[SCROLL_TOP] = secrets.token_hex(4)
    if then_close:
        _close(code)
    st.rerun(scope="app")


def _close(code):
    """The room stays, closed and emptied, until it expires: its students are told (and shown the
    frozen link, if the lecturer froze it)."""
    visitor().pop(CONFIRM_CLOSE, None)
    try:
        room_store().update(code, lambda fresh: model.close(fresh, time.time()))
    except model.RoomError:
        pass  # gone already
    except UNREACHABLE:
        st.error(_("The room is not reachable just now; trying again."))
        return
    visitor().pop(ROOM_KEY, None)
    st.rerun(scope="app")


def _confirm_close(code, token, room):
    """Closing a room with points loses them unless frozen first: ask, and offer to freeze."""
    with st.container(border=True, key="room_close_confirm"):
        st.warning(
            _("The room holds {n} points. Closing it loses them unless you freeze it into a scene first.").format(
                n=len(room["points"])
            )
        )
        first, second, third = st.columns(3)
        with first:
            if st.button(_("Freeze, then close"), key="room_close_freeze", type="primary"):
                _freeze(code, room, token, then_close=True)
        with second:
            if st.button(_("Close without freezing"), key="room_close_anyway"):
                _close(code)
        with third:
            st.button(
                _("Keep the room open"),
                key="room_close_cancel",
                on_click=_cancel_close,
            )
