"""The container image holds everything the app reads at run time.

A file left out of deploy/Dockerfile fails silently in the image (the locale catalogs' absence
shows Japanese and Chinese pages in English), and no test builds the image here: so the copies
are read from the Dockerfile and compared with what the app actually loads from the repository.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "deploy" / "Dockerfile"

# Run in a fresh interpreter: which repository files does importing the app and phrasing a
# Japanese sentence touch? (Modules by their files, catalogs by the i18n module's directory.)
PROBE = """
import sys
from pathlib import Path
root = Path.cwd().resolve()
import streamlit_app  # noqa: F401  (bare mode: no page is drawn)
import ui.page.app, ui.text.i18n
used = {Path(m.__file__).resolve() for m in list(sys.modules.values()) if getattr(m, '__file__', None)}
used |= set(ui.text.i18n.catalog_files('ja')) | set(ui.text.i18n.catalog_files('zh'))
for path in sorted(used):
    if path.is_relative_to(root):
        print(path.relative_to(root).parts[0])
"""


def copied_paths():
    """The sources of the Dockerfile's COPY lines, without trailing slashes."""
    sources = set()
    for line in DOCKERFILE.read_text(encoding="utf-8").splitlines():
        words = line.split()
        if words[:1] == ["COPY"] and not any(word.startswith("--from") for word in words):
            sources.update(word.rstrip("/") for word in words[1:-1])
    return sources


def test_the_image_copies_every_part_of_the_repository_the_app_reads():
    probe = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True
    )
    read = set(probe.stdout.split())
    assert {"playground", "ui", "locale", "streamlit_app.py"} <= read  # the probe sees what it should
    read.discard("tests")
    assert read <= copied_paths(), f"the image lacks {sorted(read - copied_paths())}"


def test_the_image_copies_the_servers_configuration():
    assert ".streamlit" in copied_paths() and (ROOT / ".streamlit" / "config.toml").exists()
