"""The canvas's JavaScript files are written to static/ on a fresh server's first runs.

The first visitors of a freshly started server arrive together (a class opening the link), and
each session runs in its own thread: the files must come out whole, with no session's run failing.
"""

import re

import pytest

from tests.conftest import at_once
from ui.plot import browser_modules, canvas


@pytest.fixture
def fresh_static_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(browser_modules, "STATIC_DIR", tmp_path / "static")
    canvas._copy_plotly_js.cache_clear()
    browser_modules.write_module_tree.cache_clear()
    yield tmp_path / "static"
    canvas._copy_plotly_js.cache_clear()
    browser_modules.write_module_tree.cache_clear()


def test_sessions_starting_together_all_get_plotly_js_whole(fresh_static_dir):
    _, errors = at_once(canvas._copy_plotly_js)
    assert errors == []
    source, size = canvas._plotly_source()
    written = fresh_static_dir / canvas.PLOTLY_JS
    assert written.read_bytes() == source.read_bytes() and written.stat().st_size == size
    assert sorted(path.name for path in fresh_static_dir.iterdir()) == [canvas.PLOTLY_JS]  # no leftovers
    assert written.stat().st_mode & 0o444 == 0o444  # readable by whoever serves it


def test_sessions_starting_together_all_get_the_browser_modules_whole(fresh_static_dir):
    names = []

    def first_run():
        browser_modules.write_module_tree.cache_clear()  # every session as if it were the first
        names.append(browser_modules.write_module_tree())

    _, errors = at_once(first_run)
    assert errors == [] and len(set(names)) == 1
    assert [path.name for path in fresh_static_dir.iterdir()] == names[:1]  # no leftovers
    tree = fresh_static_dir / names[0]
    for source in browser_modules.UI_DIR.rglob("*.js"):  # ui/'s layout: relative imports resolve
        served = tree / source.relative_to(browser_modules.UI_DIR)
        assert served.read_text(encoding="utf-8") == source.read_text(encoding="utf-8")
        assert served.stat().st_mode & 0o444 == 0o444


def test_every_import_of_a_served_module_is_served_beside_it(fresh_static_dir):
    tree = fresh_static_dir / browser_modules.write_module_tree()
    for module in tree.rglob("*.js"):
        for target in re.findall(r"^import .* from '(\.{1,2}/[^']+)';$", module.read_text(encoding="utf-8"), re.M):
            assert (module.parent / target).resolve().is_file(), (module, target)


def test_a_changed_module_is_served_from_a_new_directory(fresh_static_dir, monkeypatch):
    first = browser_modules.write_module_tree()
    sources = browser_modules._sources()
    changed = {**sources, "plot/chart.js": sources["plot/chart.js"] + "\n// changed\n"}
    monkeypatch.setattr(browser_modules, "_sources", lambda: changed)
    browser_modules.write_module_tree.cache_clear()
    second = browser_modules.write_module_tree()
    assert second != first and (fresh_static_dir / second / "plot" / "chart.js").read_text().endswith("// changed\n")


def test_only_a_module_of_ui_has_a_url(fresh_static_dir):
    assert browser_modules.module_url("plot/canvas.js").endswith(
        f"/app/static/{browser_modules.write_module_tree()}/plot/canvas.js"
    )
    for wrong in ("plot/missing.js", "../streamlit_app.py", "plot/canvas.css"):
        with pytest.raises(ValueError):
            browser_modules.module_url(wrong)


def test_a_stale_copy_of_plotly_js_is_replaced(fresh_static_dir):
    fresh_static_dir.mkdir()
    (fresh_static_dir / canvas.PLOTLY_JS).write_text("truncated")
    canvas._copy_plotly_js()
    assert (fresh_static_dir / canvas.PLOTLY_JS).stat().st_size == canvas._plotly_source()[1]
