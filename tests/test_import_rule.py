"""The import rule (docs/methods.md, "The back-end as a library"): the back-end loads numpy and the standard
library only."""

import subprocess
import sys


def test_playground_imports_no_ui_or_oracle_library():
    code = (
        "import sys, playground\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'streamlit', 'plotly', 'scipy', 'sklearn', 'pandas'})\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_every_registered_method_is_importable_and_named():
    from playground import MODELS, make_model

    assert "least_squares" in MODELS
    for name, cls in MODELS.items():
        model = make_model(name)
        assert isinstance(model, cls)
        assert cls.display_name and cls.book_section
