"""The translation catalogs' upkeep: find the messages in the code, write and check the ``.po`` files.

A development tool (the app itself only reads catalogs, in ``ui.text.i18n``)::

    python -m scripts.catalogs update AREA FILE...   # locale/*/LC_MESSAGES/AREA.po from these files
    python -m scripts.catalogs update AREA           # again, from the files its header lists
    python -m scripts.catalogs update --all          # every area
    python -m scripts.catalogs check                 # what is missing, unused or inconsistent

A message is the literal argument of ``_("...")``, ``N_("...")`` or ``ngettext("...", "...", n)``.
An f-string with words of its own where a message goes (see ``english_fstrings``) is reported: it
would reach the page in English whatever the language.
Each area's catalog lists exactly the messages of its files, with the translations it already had;
an English catalog's translations stay empty (gettext shows the message itself). The same message
may be in two areas' catalogs, with the same translation.
"""

import ast
import re
import sys
from pathlib import Path

from ui.text.i18n import LANGUAGES, LOCALE_DIR, parse_po

ROOT = LOCALE_DIR.parent
MARKERS = {"_": 1, "N_": 1, "ngettext": 2}
PLURAL_FORMS = {"en": "nplurals=2; plural=(n != 1);", "ja": "nplurals=1; plural=0;", "zh": "nplurals=1; plural=0;"}
SOURCES = "# Sources:"
PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)?(?:[:!][^{}]*)?\}(?!\})")


def messages_in(path):
    """[(msgid, line, problem)] for each marked message in a Python file; msgid is ``s\\0p`` for a
    plural. ``problem`` names a call whose argument is not a literal (it cannot be catalogued), or
    an English f-string where a message goes (``english_fstrings``)."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"), filename=str(path))
    found = [(None, line, "an English f-string where a message goes") for line in english_fstrings(tree)]
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKERS):
            continue
        args = node.args[: MARKERS[node.func.id]]
        literal = len(args) == MARKERS[node.func.id] and all(
            isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args
        )
        if literal:
            found.append(("\0".join(a.value for a in args), node.lineno, None))
        elif node.func.id != "_" or (args and isinstance(args[0], ast.JoinedStr)):
            # _(variable) translates a message marked elsewhere with N_; an f-string never matches.
            found.append((None, node.lineno, f"{node.func.id}() of a non-literal"))
    return found


# Streamlit's calls whose first argument is a sentence on the page (``st.markdown`` is left out: it
# is also given HTML and formulas built with f-strings).
MESSAGE_SINKS = {"error", "warning", "info", "success", "toast", "caption"}
# Words of the f-string's own text: two Latin letters in a row (a lone "x" or "a" is a symbol).
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")


def english_fstrings(tree):
    """The lines of f-strings with English words of their own (``f"{n} points left"``, not
    ``f"{x:.3g}"`` or ``f"a{i}"``) where a message goes: an argument of ``Message(...)``, the text of
    ``st.error``, ``st.warning``, ``st.info``, ``st.success``, ``st.toast`` or ``st.caption``, or the
    value a function returns when its other returns are marked messages (``_``, ``N_``,
    ``ngettext``, ``Message``). Such text is never looked up in a catalog."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            shown = _message_arguments(node)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            returned = [r.value for r in _returns(node) if r.value is not None]
            shown = returned if any(_marked(branch) for value in returned for branch in _branches(value)) else []
        else:
            continue
        lines += [branch.lineno for value in shown for branch in _branches(value) if _english(branch)]
    return sorted(set(lines))


def _message_arguments(call):
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    if name == "Message":
        return [*call.args, *(keyword.value for keyword in call.keywords)]
    if name in MESSAGE_SINKS and isinstance(func.value, ast.Name) and func.value.id == "st":
        return call.args[:1] + [keyword.value for keyword in call.keywords if keyword.arg == "body"]
    return []


def _returns(function):
    """The function's own return statements (not those of functions defined inside it)."""
    stack = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            stack.extend(ast.iter_child_nodes(node))


def _branches(node):
    """The values an expression may take: both sides of ``a if c else b``, else itself."""
    if isinstance(node, ast.IfExp):
        return [*_branches(node.body), *_branches(node.orelse)]
    return [node]


def _marked(node):
    """A marked message: ``_("...")``, ``N_``, ``ngettext``, ``Message(...)``, or one of them ``.format``-ted."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr == "format":
        return _marked(func.value)
    return isinstance(func, ast.Name) and (func.id in MARKERS or func.id == "Message")


def _english(node):
    return isinstance(node, ast.JoinedStr) and any(
        isinstance(part, ast.Constant) and ENGLISH_WORD.search(part.value) for part in node.values
    )


def _quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def _header(language, area, sources):
    return "\n".join(
        [
            f"# {LANGUAGES[language]} messages of the {area} area.",
            f"{SOURCES} {' '.join(sources)}",
            'msgid ""',
            'msgstr ""',
            f'"Language: {language}\\n"',
            '"MIME-Version: 1.0\\n"',
            '"Content-Type: text/plain; charset=UTF-8\\n"',
            '"Content-Transfer-Encoding: 8bit\\n"',
            f'"Plural-Forms: {PLURAL_FORMS[language]}\\n"',
            "",
        ]
    )


def catalog_path(language, area):
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{area}.po"


def area_sources(area):
    """The source files an area's catalog was made from (its English header)."""
    path = catalog_path("en", area)
    for line in path.read_text(encoding="utf-8").splitlines() if path.exists() else ():
        if line.startswith(SOURCES):
            return line[len(SOURCES) :].split()
    return []


def areas():
    return sorted(path.stem for path in (LOCALE_DIR / "en" / "LC_MESSAGES").glob("*.po"))


def update(area, sources):
    """Rewrite the area's catalog in every language from the messages now in ``sources``."""
    sources = sorted(set(sources))
    where = {}
    for source in sources:
        for msgid, line, _problem in messages_in(ROOT / source):
            if msgid is not None:
                where.setdefault(msgid, []).append(f"{source}:{line}")
    for language in LANGUAGES:
        path = catalog_path(language, area)
        # A message another area has translated already keeps that translation here (areas may
        # share files and messages, and check() wants one translation per message).
        old = {msgid: found[0][1] for msgid, found in catalog_entries(language).items() if msgid and found[0][1]}
        if path.exists():
            mine = {msgid: msgstr for msgid, msgstr, _fuzzy in parse_po(path.read_text(encoding="utf-8")) if msgid}
            old.update({msgid: msgstr for msgid, msgstr in mine.items() if msgstr})
        nplurals = 2 if language == "en" else 1
        blocks = [_header(language, area, sources)]
        for msgid in sorted(where, key=lambda m: where[m][0]):
            lines = [f"#: {' '.join(where[msgid])}"]
            singular, _sep, plural = msgid.partition("\0")
            translation = "" if language == "en" else old.get(msgid, "")
            lines.append(f"msgid {_quote(singular)}")
            if plural:
                lines.append(f"msgid_plural {_quote(plural)}")
                forms = translation.split("\0") if translation else [""] * nplurals
                forms = (forms + [""] * nplurals)[:nplurals]
                lines += [f"msgstr[{i}] {_quote(form)}" for i, form in enumerate(forms)]
            else:
                lines.append(f"msgstr {_quote(translation)}")
            blocks.append("\n".join(lines) + "\n")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(blocks), encoding="utf-8")
    return len(where)


def code_messages(paths=None):
    """({msgid: [where]}, [problems]) over the app's code (``ui/``, ``playground/``, the entry)."""
    if paths is None:
        paths = sorted((ROOT / "ui").rglob("*.py")) + sorted((ROOT / "playground").rglob("*.py"))
        paths.append(ROOT / "streamlit_app.py")
    messages, problems = {}, []
    for path in paths:
        if path.name == "catalogs.py":
            continue
        relative = path.relative_to(ROOT)
        for msgid, line, problem in messages_in(path):
            if problem:
                problems.append(f"{relative}:{line}: {problem}")
            else:
                messages.setdefault(msgid, []).append(f"{relative}:{line}")
    return messages, problems


def catalog_entries(language):
    """{msgid: [(area, msgstr)]} of every catalog of a language (the header left out)."""
    entries = {}
    for area in areas():
        path = catalog_path(language, area)
        if not path.exists():
            entries.setdefault(None, []).append((area, "missing file"))
            continue
        for msgid, msgstr, fuzzy in parse_po(path.read_text(encoding="utf-8")):
            if msgid:
                entries.setdefault(msgid, []).append((area, None if fuzzy else msgstr))
    return entries


def placeholders(text):
    return sorted(match.group(1) or "" for match in PLACEHOLDER.finditer(text))


def check():
    """The catalogs' problems, one line each (empty when all is well)."""
    messages, report = code_messages()
    for language in LANGUAGES:
        entries = catalog_entries(language)
        for area, _why in entries.pop(None, []):
            report.append(f"{language}: the {area} catalog is missing")
        for msgid in messages:
            if msgid not in entries:
                report.append(f"{language}: not in any catalog: {msgid!r} ({messages[msgid][0]})")
        for msgid, found in entries.items():
            if msgid not in messages:
                report.append(f"{language}: no longer used: {msgid!r} ({found[0][0]})")
                continue
            translations = {msgstr for _area, msgstr in found}
            if len(translations) > 1:
                report.append(f"{language}: translated differently in {[a for a, _t in found]}: {msgid!r}")
            if language == "en":
                continue
            msgstr = found[0][1]
            if not msgstr or not all(msgstr.split("\0")):
                report.append(f"{language}: not translated: {msgid!r} ({found[0][0]})")
                continue
            for form in msgstr.split("\0"):
                for source in msgid.split("\0")[:1]:
                    if placeholders(form) != placeholders(source) and set(placeholders(form)) != set(
                        placeholders(source)
                    ):
                        report.append(f"{language}: placeholders differ: {msgid!r} -> {form!r}")
                if form.count("$") % 2 or form.count("$") != msgid.split("\0")[0].count("$"):
                    report.append(f"{language}: $...$ formulas differ: {msgid!r} -> {form!r}")
    return report


def main(argv):
    if argv[:1] == ["update"] and argv[1:2] == ["--all"]:
        for area in areas():
            print(area, update(area, area_sources(area)))
    elif argv[:1] == ["update"] and len(argv) >= 2:
        area, sources = argv[1], argv[2:] or area_sources(argv[1])
        if not sources:
            sys.exit(f"no source files for {area}: give them")
        print(area, update(area, sources), "messages")
    elif argv[:1] == ["check"]:
        report = check()
        print("\n".join(report) or "catalogs complete")
        sys.exit(1 if report else 0)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
