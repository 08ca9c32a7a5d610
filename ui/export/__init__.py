"""Take the scene home: the current scene as a Jupyter notebook and as a Python script that
reproduce it with numpy (the method as the book writes it) and scikit-learn.

The generator lives in the ui (nbformat is not numpy or the standard library). What must hold:
the notebook's numbers are the app's (the numpy part is checked against ``playground.make_model``
on the same scene, in the book's sign of ``ui.text.convention``); a visitor's text is data, written
with ``repr`` into code and escaped as text into Markdown (``ui.export.cells``); the notebook
needs numpy, scikit-learn and plotly only.
"""

from collections.abc import Mapping
from urllib.parse import quote, urlencode

from playground.scene import Scene
from ui.text.i18n import LANGUAGES, translations

from .cells import scene_cells
from .notebook import notebook_text
from .script import script_text

NOTEBOOK_NAME = "scene.ipynb"
SCRIPT_NAME = "scene.py"


def scene_link(base_url: str, query: Mapping[str, str]) -> str:
    """The app's address with the scene's query: the link back (safe inside Markdown's <...>)."""
    base = quote(str(base_url or "").split("?")[0].split("#")[0], safe=":/%@!$&'*+,;=-._~")
    return f"{base}?{urlencode(query)}"


def export_cells(scene: Scene, language: str, link: str) -> list[tuple[str, str]]:
    """The cells of the notebook of ``scene``, Markdown in ``language``."""
    language = language if language in LANGUAGES else "en"
    gettext = translations(language).gettext

    def class_name(label: int) -> str:
        return scene.class_name_of(label) or gettext("class {number}").format(number=int(label) + 1)

    return scene_cells(scene, gettext, link, class_name)


def scene_notebook(scene: Scene, language: str, link: str) -> str:
    """The notebook as .ipynb text."""
    return notebook_text(export_cells(scene, language, link), language)


def scene_script(scene: Scene, language: str, link: str) -> str:
    """The script as .py text."""
    return script_text(export_cells(scene, language, link))
