"""The lecturer's side of a room, on the Streamlit page: open it from the share area, show it on
the projector (the plot following the room, the join code, link and QR code), and run it.

Rules that must hold:
- The control token lives in this session's state only (``ROOM_KEY``); the join link and the QR
  code carry the code alone. Every control goes through ``ui.rooms.model.control`` with the
  token, as the control route does.
- The projector follows the room by itself (``projector.js`` polls the state route): no rerun
  of this page per student's point. The controls are one fragment: a control reruns only it.
- Students' nicknames are shown as text (``st.text`` / escaped options), never as Markdown.
"""

import io
import time
from pathlib import Path
from urllib.parse import urlsplit

import streamlit as st

from playground import MODELS
from playground.link import decode_scene, encode_scene
from ui.plot.canvas import MODULE_LOADER_JS, component_data, ensure_plotly_js, shared_texts, static_module
from ui.plot.theme import DARK_SWAPS
from ui.session import loading
from ui.text.i18n import N_, _, current_language
from ui.text.names import class_label
from ui.widgets.controls import method_label

from . import model
from .protocol import API, MAX_PER_STUDENT, ROOM_PAGE
from .routes import _base
from .store import UNREACHABLE, room_store

LARGE_QR = "room_large_qr"
ROOM_KEY = "class_room"  # {"code", "token", "shown"} of the room this session opened
_HERE = Path(__file__).resolve().parent
_JS = (_HERE.parent / "plot" / "plotly_shared.js").read_text(encoding="utf-8") + (_HERE / "projector.js").read_text(
    encoding="utf-8"
)
_CSS = ".pg-projector { width: 100%; } .pg-projector-status { font-size: 1.1rem; opacity: 0.8; margin: 4px 0; }"
_projector = st.components.v2.component(
    "playground_room_projector", js=MODULE_LOADER_JS, css=_CSS, isolate_styles=False
)
SOURCE = N_("the class room")
CONTROLS_EVERY = 5  # seconds: the controls fragment looks at the room again (new students)
CODE_STYLE = "font-size: 2.2rem; font-weight: 700; letter-spacing: 0.08em; text-align: center; white-space: nowrap"


def is_open():
    """Whether this session shows its room on the projector (instead of the canvas)."""
    room = st.session_state.get(ROOM_KEY)
    return bool(room and room.get("shown"))


def open_room_button(scene, where=None, key="room_share"):
    """A button in ``where`` (the share area, the presenter bar): open a room of ``scene``, go back
    to the room this session opened, or from the projector back to the scene."""
    where = where or st
    room = st.session_state.get(ROOM_KEY)
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


def _open(scene):
    try:
        opened, token = model.new_room(encode_scene(scene), time.time())
        code = room_store().create(opened)
    except model.RoomError as err:
        st.error(_(err.sentence))
        return
    except UNREACHABLE:
        st.error(_("The room is not reachable just now; trying again."))
        return
    st.session_state[ROOM_KEY] = {"code": code, "token": token, "shown": True}
    st.rerun()


def join_link(code):
    """The students' link: this page's address with the student page's path and the code alone."""
    parts = urlsplit(st.context.url or "")
    origin = f"{parts.scheme}://{parts.netloc}" if parts.netloc else ""
    return f"{origin}{_base()}{ROOM_PAGE}?c={code}"


def qr_png(link):
    import segno

    buffer = io.BytesIO()
    segno.make(link, error="m").save(buffer, kind="png", scale=12, border=2)
    return buffer.getvalue()


def projector_texts():
    return {
        **shared_texts(),
        "students": _("Students: {n} · points: {points}"),
        "locked": _("adding is paused"),
        "hidden": _("the boundary is hidden"),
        "offline": _("Connection lost; trying again…"),
    }


def projector_view(scale=1.0, in_bar=False):
    """The room on the projector: its plot (following by itself; markers and type enlarged by
    ``scale`` in presentation mode), how to join, the controls (``in_bar``: those the presenter
    bar holds, ``bar_controls``, are left out below)."""
    info = st.session_state[ROOM_KEY]
    code = info["code"]
    # The QR code as large as half the page, for the back of a lecture hall, or a quarter of it.
    left, right = st.columns([1, 1] if st.session_state.get(LARGE_QR) else [3, 1], gap="medium")
    with left:
        data = {
            "module": static_module("room_projector", _JS),
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
        st.code(link, language=None, wrap_lines=True)
        st.toggle(_("Large QR code"), key=LARGE_QR)
    controls(code, info["token"], in_bar)


def _act(code, token, action, value=None, sid=None):
    try:
        room_store().update(code, lambda room: model.control(room, token, action, value, sid, time.time()))
    except model.RoomError as err:
        st.error(_(err.sentence))
    except UNREACHABLE:
        st.error(_("The room is not reachable just now; trying again."))


def _widget(kind, label, key, current, code, token, action, convert=lambda v: v, sid=None, **options):
    """A control widget showing the room's ``current`` value; changing it acts on the room (in its
    callback, so the change is made before this run reads the room again)."""
    if st.session_state.get(key) != current:  # the room changed otherwise (the widget's own change is in it)
        st.session_state[key] = current
    return kind(
        label,
        key=key,
        on_change=lambda: _act(code, token, action, convert(st.session_state[key]), sid),
        **options,
    )


def bar_controls(row):
    """In presentation, the presenter bar's controls while the room is on the projector: the
    room's method, the class the students add, pause and hide, acting on the room. (The bar's
    scene controls would change the lecturer's own scene, out of sight behind the projector.)
    ``controls`` then leaves these four out, so each is in one place."""
    info = st.session_state[ROOM_KEY]
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


def _bar_class_label(k):
    if k == CHOOSE:
        return _("Students choose their class")
    return _("Students add {name}").format(name=class_label(k))


@st.fragment(run_every=CONTROLS_EVERY)
def controls(code, token, in_bar=False):
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
            st.session_state.pop(ROOM_KEY, None)
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
        _students(code, token, room)
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
    labels = {sid: f"{nick or '–'} ({count})" for sid, nick, count in roster}
    sid = st.selectbox(_("Student"), list(labels), format_func=labels.get, key="room_student")
    # Callbacks act before the run reads the room, so the run shows the room as it became.
    st.button(
        _("Remove this student's points"),
        key="room_remove_student",
        on_click=_act,
        args=(code, token, "remove_student"),
        kwargs={"sid": sid},
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


def _room_actions(code, token, room):
    first, second, third = st.columns(3)
    with first:
        st.button(_("Clear the room's points"), key="room_clear", on_click=_act, args=(code, token, "clear"))
    with second:
        if st.button(_("Freeze into a scene and link"), key="room_freeze", type="primary"):
            try:  # the frozen link is kept in the room: its students are shown it once it closes
                model.check_token(room, token)
                query = room_store().update(code, lambda fresh: model.freeze(fresh, time.time()))
            except model.RoomError as err:
                st.error(_(err.sentence))
                return
            scene, messages = decode_scene(query)
            loading.load_scene(scene, messages, source=SOURCE)
            st.session_state[ROOM_KEY]["shown"] = False
            st.rerun()
    with third:
        if st.button(_("Close the room"), key="room_close"):
            try:  # the room stays, closed, so its students are told (and shown a frozen link)
                room_store().update(code, lambda fresh: model.close(fresh, time.time()))
            except (model.RoomError, *UNREACHABLE):
                pass  # gone already, or Redis away: it expires
            st.session_state.pop(ROOM_KEY, None)
            st.rerun()
