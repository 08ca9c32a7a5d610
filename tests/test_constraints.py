"""constraints.txt pins what the suite runs with: every package the requirement files pull in, at the
version installed here (scripts/test.sh installs with -c constraints.txt, so in CI the two agree
unless a requirement was added or changed without running ``python scripts/pin.py``)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_constraints_txt_is_what_the_installed_versions_write():
    done = subprocess.run(
        [sys.executable, "scripts/pin.py", "--check"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr


def test_every_direct_requirement_is_pinned():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import pin
    finally:
        sys.path.pop(0)
    pinned = {
        pin.canonical(line.split("==")[0])
        for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    }
    for name, _ in pin.top_level():
        assert pin.canonical(name) in pinned, f"{name} is not in constraints.txt"


def test_the_readme_and_the_test_command_install_with_the_constraints():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "pip install -r requirements.txt -c constraints.txt && streamlit run streamlit_app.py" in readme
    assert "-c constraints.txt" in (ROOT / "scripts" / "test.sh").read_text(encoding="utf-8")
    assert "-c constraints.txt" in (ROOT / "deploy" / "Dockerfile").read_text(encoding="utf-8")
