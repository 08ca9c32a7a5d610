"""The back-end's sentences in Japanese and Chinese (issue 18, catalog area ``messages``).

A ``Message`` carries a whole-sentence template (marked ``N_``) and its arguments; the app
translates the template where it shows it, in the session's language, and names classes from 1.
These tests check the marking (every raise site gives a catalogued template), the phrasing with
a real catalog, and two messages as the app shows them: a fit error and an import error.
"""

import ast
import pickle
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from playground import DegenerateFitError, Message, make_model, phrase
from playground.link import encode_scene
from playground.scene import PointSet, Scene
from scripts import catalogs
from tests.conftest import clusters
from ui.text import i18n
from ui.widgets.language import PICKER_KEY

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "streamlit_app.py")
# Errors a programmer meets (Python's own, and playground.card's CardError, a TypeError raised at
# import by a method card that breaks a rule), not sentences a person reads in the app.
PROGRAMMER_ERRORS = {"AttributeError", "NotImplementedError", "TypeError", "KeyError", "ValueError", "CardError"}
ENGLISH_WORD = re.compile(r"\b[A-Za-z]{3,}\b")


def _raise_sites():
    """(file:line, first argument) of every ``raise SomethingError(...)`` in playground/."""
    for path in sorted((ROOT / "playground").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            func = node.exc.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name.endswith("Error") and name not in PROGRAMMER_ERRORS and node.exc.args:
                yield f"{path.name}:{node.lineno}", node.exc.args[0]


def test_every_raise_site_gives_a_marked_template_not_text():
    """A literal or an f-string at a raise site would reach the app untranslated (and an f-string
    cannot be catalogued): each error is raised with N_("template") or an existing Message."""
    sites = list(_raise_sites())
    assert len(sites) > 100  # the walk found the back-end's raise sites
    literal = [where for where, arg in sites if isinstance(arg, ast.JoinedStr | ast.Constant)]
    assert literal == []
    marked = [arg for _where, arg in sites if isinstance(arg, ast.Call) and getattr(arg.func, "id", "") == "N_"]
    assert len(marked) > 100


def test_every_template_is_catalogued_and_translated():
    """``scripts.catalogs check`` covers every N_ of playground/ and ui/: each is in a catalog, translated
    in ja and zh with the same placeholders."""
    messages, problems = catalogs.code_messages()
    assert not problems
    ours = {m for m, where in messages.items() if any(w.startswith("playground/") for w in where)}
    assert len(ours) > 250
    for language in ("ja", "zh"):
        entries = catalogs.catalog_entries(language)
        missing = [m for m in ours if not (entries.get(m) and entries[m][0][1])]
        assert missing == [], language
    assert catalogs.check() == []


ENGLISH_FSTRINGS = """\
import logging

import streamlit as st

from playground import Message
from ui.text.i18n import N_, _


def fit_failed(n, name, quick):
    if quick:
        return _("The fit failed.")
    return f"Only {n} points in {name}"  # line 12: reported


def shown(n, name, rows, title, text, x, key):
    raise ValueError(Message(f"Need {n} points"))  # line 16: reported
    st.error(f"Could not read {name}")  # line 17: reported
    st.caption(_("{n} rows").format(n=rows) if rows else f"No rows in {name}")  # line 18: reported
    st.toast(body=f"Saved {name}")  # line 19: reported
    st.info(f"**{title}**\\n\\n{text}")  # translated parts, markup between them: not reported
    st.caption(f"{x:.3g} · {rows}")  # numbers and signs only: not reported
    st.caption(f"a{n} = {x}")  # a symbol, no word: not reported
    st.markdown(f"<div class='pg-row'>{text}</div>")  # markup, not a message sink: not reported
    logging.error(f"fit failed for {name}")  # a log line, not the page: not reported
    st.button(_("Go"), key=f"go_{key}")  # a widget's key: not reported
    return N_("Loaded.")


def key_of(name):
    return f"table_{name}"  # no message returned here: not reported
"""


def test_an_english_f_string_where_a_message_goes_is_reported(tmp_path):
    """An f-string with English words as a Message, the text of st.error/warning/info/success/toast/
    caption, or a return beside marked messages never reaches a catalog: ``messages_in`` reports it
    (so ``catalogs check`` fails on it), and leaves markup, numbers, symbols and keys alone."""
    source = tmp_path / "english.py"
    source.write_text(ENGLISH_FSTRINGS, encoding="utf-8")
    problems = [(line, problem) for msgid, line, problem in catalogs.messages_in(source) if problem]
    assert problems == [(line, "an English f-string where a message goes") for line in (12, 16, 17, 18, 19)]


def test_the_catalog_check_on_the_tree_is_clean():
    """``python -m scripts.catalogs check``: every message catalogued and translated, no English f-string
    where a message goes."""
    done = subprocess.run(
        [sys.executable, "-m", "scripts.catalogs", "check"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "catalogs complete"


def _japanese_class(label):
    return i18n.translations("ja").gettext("class {number}").format(number=int(label) + 1)


def test_a_message_phrased_in_japanese_names_classes_from_one_and_has_no_english():
    X, y = clusters(3, 10)
    X, y = np.vstack([X, [[5.0, 5.0]]]), np.append(y, 3)  # label 3 has a single point
    with pytest.raises(DegenerateFitError) as caught:
        make_model("fisher").fit(X, y)
    err = caught.value
    assert str(err) == "Fisher's discriminant needs at least 2 points in each class; class 3 has one."
    text = phrase(err, _japanese_class, i18n.translations("ja").gettext)
    assert text == "フィッシャーの判別には各クラスに少なくとも 2 個の点が必要ですが、クラス 4 には 1 個しかありません。"
    assert not ENGLISH_WORD.search(text), text
    again = pickle.loads(pickle.dumps(err))  # a cached fit keeps its error whole, still translatable
    assert phrase(again, _japanese_class, i18n.translations("ja").gettext) == text


def test_a_one_versus_rest_note_is_japanese_through_and_through():
    """The issue's example: "class 1 versus the rest: The classes are linearly separable…" stayed
    English in Japanese. The wrapper's prefix, the sub-problems' names and the note all translate."""
    X, y = clusters(3, 20, spread=(0.3, 0.3))
    model = make_model("logistic", multiclass="ovr").fit(X, y)
    note = model.fit_message_
    assert isinstance(note, Message) and "linearly separable" in note
    text = phrase(note, _japanese_class, i18n.translations("ja").gettext)
    assert text.startswith("クラス 1 対その他")
    assert "線形分離可能" in text and "シグモイド" in text
    assert not ENGLISH_WORD.search(text.replace("max_iter", "")), text


def test_a_nested_sub_problem_error_is_chinese():
    X, y = clusters(3, 10)
    X, y = np.vstack([X, [[9.0, 9.0]]]), np.append(y, 5)  # label 5 has a single point
    with pytest.raises(DegenerateFitError) as caught:
        make_model("fisher", multiclass="ovo").fit(X, y)
    zh = i18n.translations("zh").gettext
    text = phrase(caught.value, lambda label: zh("class {number}").format(number=int(label) + 1), zh)
    assert text.startswith("在子问题 类别 1 对 类别 6 中：")
    assert text.endswith("类别 6 只有一个。")
    assert not ENGLISH_WORD.search(text.replace("Fisher", "")), text  # the glossary's "Fisher 判别"


def _linked(query, language):
    at = AppTest.from_file(APP, default_timeout=90)
    for name, value in {**query, "lang": language}.items():
        at.query_params[name] = value
    return at


def test_a_fit_error_shown_in_the_app_in_japanese_is_japanese():
    """One run from a link in ja (see tests/test_i18n_panels_a.py for why one): Fisher's
    discriminant on a class with a single point."""
    X, y = clusters(2, 10)
    points = PointSet.from_arrays(np.vstack([X, [[3.0, 3.0]]]), np.append(y, 2))
    at = _linked(encode_scene(Scene(points=points, method="fisher")), "ja").run()
    assert not at.exception
    warnings = [w.value for w in at.warning]
    expected = "フィッシャーの判別には各クラスに少なくとも 2 個の点が必要ですが、クラス 3 には 1 個しかありません。"
    assert any(expected in text for text in warnings), warnings


def test_an_import_error_of_a_bad_csv_in_chinese_is_chinese():
    """The error is kept as a Message and phrased when the box is drawn: a file refused in English
    reads in Chinese once the visitor picks Chinese (the picker's run is the one run in zh)."""
    at = AppTest.from_file(APP, default_timeout=90).run()
    at.file_uploader[0].upload("bad.csv", b"x1,x2,class\n1,2,1\n3,oops,2\n", "text/csv").run()
    assert not at.exception
    refused = "'\u2068bad.csv\u2069' was not loaded: Line 3, column x2: oops is not a number."  # the name isolated
    assert any(refused in e.value for e in at.error)
    at.selectbox(key=PICKER_KEY).set_value("zh").run()
    assert not at.exception
    errors = [e.value for e in at.error if "bad.csv" in e.value]
    assert len(errors) == 1, [e.value for e in at.error]
    assert "'\u2068bad.csv\u2069' 未载入：第 3 行，x2 列：oops 不是数字。 数据点和设置均未改变。" in errors[0]
    assert not ENGLISH_WORD.search(errors[0].replace("bad.csv", "").replace("oops", "")), errors[0]


def test_text_from_a_link_is_an_argument_never_a_template():
    """A link's text (here braces that look like placeholders) is put into the translated sentence
    as it is: it is never formatted, in English or in Japanese."""
    from playground.link import decode_scene

    _scene, messages = decode_scene({"m": "{source}{0}", "mc": "{name!r}"})
    assert "The link names an unknown method '{source}{0}'" in messages[0]
    ja = i18n.translations("ja").gettext
    texts = [phrase(message, _japanese_class, ja) for message in messages]
    assert texts[0].startswith("リンクが指定する手法 '{source}{0}' は不明なので")
    assert "'{name!r}'" in texts[1] and "無視しました" in texts[1]
