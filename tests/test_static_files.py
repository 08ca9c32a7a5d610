"""The canvas's JavaScript files are written to static/ on a fresh server's first runs.

The first visitors of a freshly started server arrive together (a class opening the link), and
each session runs in its own thread: the files must come out whole, with no session's run failing.
"""

import pytest

from tests.conftest import at_once
from ui.plot import canvas


@pytest.fixture
def fresh_static_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(canvas, "STATIC_DIR", tmp_path / "static")
    canvas._copy_plotly_js.cache_clear()
    canvas._write_static_module.cache_clear()
    yield tmp_path / "static"
    canvas._copy_plotly_js.cache_clear()
    canvas._write_static_module.cache_clear()


def test_sessions_starting_together_all_get_plotly_js_whole(fresh_static_dir):
    _, errors = at_once(canvas._copy_plotly_js)
    assert errors == []
    source, size = canvas._plotly_source()
    written = fresh_static_dir / canvas.PLOTLY_JS
    assert written.read_bytes() == source.read_bytes() and written.stat().st_size == size
    assert sorted(path.name for path in fresh_static_dir.iterdir()) == [canvas.PLOTLY_JS]  # no leftovers
    assert written.stat().st_mode & 0o444 == 0o444  # readable by whoever serves it


def test_sessions_starting_together_all_get_the_canvas_module_whole(fresh_static_dir):
    source = "export default function () { return 'canvas'; }\n" * 2000
    names = []
    _, errors = at_once(lambda: names.append(canvas._write_static_module("canvas", source)))
    assert errors == [] and len(set(names)) == 1
    assert (fresh_static_dir / names[0]).read_text(encoding="utf-8") == source
    assert [path.name for path in fresh_static_dir.iterdir()] == names[:1]


def test_a_stale_copy_of_plotly_js_is_replaced(fresh_static_dir):
    fresh_static_dir.mkdir()
    (fresh_static_dir / canvas.PLOTLY_JS).write_text("truncated")
    canvas._copy_plotly_js()
    assert (fresh_static_dir / canvas.PLOTLY_JS).stat().st_size == canvas._plotly_source()[1]
