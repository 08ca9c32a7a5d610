"""The browser code served as ES modules, as it is in the source tree.

Rules that hold:

- Every JavaScript file under ``ui/`` is served from ``static/pg-ui-<digest>/`` in ``ui/``'s own
  layout (``plot/canvas.js``, ``rooms/projector.js``, ...), so a module's relative ``import`` resolves
  in the browser exactly as it does for TypeScript's checker over the source (tsconfig.json). No
  Python joins files: an element's loader (module_loader.js) imports its entry module by URL and the
  browser fetches what that imports.
- The digest is over every file's path and text: a changed file is a new directory, never a stale
  module from a browser's cache, and the modules of one page always come from one version.
- The tree is written once per process, atomically: the first visitors of a fresh server arrive
  together, and each reader sees either no directory or a whole one.
"""

import functools
import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import streamlit as st

UI_DIR = Path(__file__).resolve().parents[1]
STATIC_DIR = UI_DIR.parent / "static"


def static_url(filename: str) -> str:
    """The URL Streamlit serves ``static/<filename>`` at (under the server's base path)."""
    base = st.get_option("server.baseUrlPath").strip("/")
    return f"/{base}/app/static/{filename}" if base else f"/app/static/{filename}"


def module_url(relative: str) -> str:
    """The URL of the module ``ui/<relative>`` (e.g. ``"plot/canvas.js"``), written on first use."""
    return static_url(f"{write_module_tree()}/{_checked(relative)}")


@functools.lru_cache(maxsize=64)
def _checked(relative: str) -> str:
    # Once per module and process: the canvas asks on every click, and a look at the disk costs
    # system calls (the names are the code's own constants, a handful).
    path = (UI_DIR / relative).resolve()
    if not path.is_file() or path.suffix != ".js" or not path.is_relative_to(UI_DIR):
        raise ValueError(f"no browser module ui/{relative}")
    return relative


def _sources() -> dict[str, str]:
    return {path.relative_to(UI_DIR).as_posix(): path.read_text(encoding="utf-8") for path in UI_DIR.rglob("*.js")}


@functools.lru_cache(maxsize=1)
def write_module_tree() -> str:
    """Write the modules to ``static/pg-ui-<digest>/`` (once per process); return that directory's name."""
    sources = _sources()
    digest = hashlib.blake2b(digest_size=8)
    for relative in sorted(sources):
        digest.update(relative.encode() + b"\0" + sources[relative].encode() + b"\0")
    name = f"pg-ui-{digest.hexdigest()}"
    target = STATIC_DIR / name
    if not target.is_dir():
        STATIC_DIR.mkdir(exist_ok=True)
        temporary = Path(tempfile.mkdtemp(dir=STATIC_DIR, prefix=f".{name}.", suffix=".tmp"))
        try:
            for relative, text in sources.items():
                path = temporary / relative
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
                path.chmod(0o644)
            for folder in [temporary, *(p for p in temporary.rglob("*") if p.is_dir())]:
                folder.chmod(0o755)  # mkdtemp's directory is private; a served one is not
            try:
                temporary.rename(target)
            except OSError:
                if not target.is_dir():  # not another session's whole tree: a real failure
                    raise
        finally:
            shutil.rmtree(temporary, ignore_errors=True)
    return name


def write_atomically(target: Path, write: Callable[[Path], object]) -> None:
    """Write ``target`` through a temporary file of its own, then rename it into place.

    The first visitors of a fresh server arrive together: every session thread (and any other
    server process) writes its own temporary file, so none renames away another's, and a reader
    sees either no file or a whole one. (A cache does not stop the race: ``functools.cache`` runs
    concurrent first calls side by side.)
    """
    STATIC_DIR.mkdir(exist_ok=True)
    handle, name = tempfile.mkstemp(dir=STATIC_DIR, prefix=f".{target.name}.", suffix=".tmp")
    os.close(handle)
    temporary = Path(name)
    try:
        write(temporary)
        temporary.chmod(0o644)  # mkstemp's file is private; a served file is not
        temporary.replace(target)
    finally:
        temporary.unlink(missing_ok=True)
