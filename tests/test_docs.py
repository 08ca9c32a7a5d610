"""The README and the pages in docs/ (issue 45): the README stays a newcomer's page (what the
playground is, its two commands, a tour, where to read on) and links the reference in docs/; every
relative link and image in them names a file of the repository, and every anchor a heading of the
page it points into (as the repository host renders it)."""

import re
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]

# [text](target) and ![alt](target), the target up to the first space or closing parenthesis;
# links inside fenced code blocks are code, not links, and are skipped.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*_]", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    result = set()
    for heading in HEADING.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.add(base if count == 0 else f"{base}-{count}")
    return result


def links(page: Path) -> list[str]:
    return LINK.findall(FENCE.sub("", page.read_text(encoding="utf-8")))


def test_the_slug_is_the_hosts():
    assert slug("Making points: clusters, undo, the table, typing") == "making-points-clusters-undo-the-table-typing"
    assert slug("The book's conventions") == "the-books-conventions"
    assert slug("Take the scene home: a notebook and a script") == "take-the-scene-home-a-notebook-and-a-script"


def test_every_relative_link_and_image_resolves():
    broken = []
    checked = 0
    for page in PAGES:
        for target in links(page):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...: not a file here
                continue
            path, _, anchor = target.partition("#")
            file = (page.parent / unquote(path)).resolve() if path else page
            checked += 1
            if not file.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and file.suffix == ".md" and anchor not in anchors(file):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert checked > 20, "the link pattern found almost no links: it no longer reads the pages"
    assert not broken, "\n".join(broken)


def test_the_readme_links_every_docs_page_and_the_index_lists_them_all():
    readme_targets = {target.partition("#")[0] for target in links(ROOT / "README.md")}
    index_targets = {target.partition("#")[0] for target in links(DOCS / "README.md")}
    for page in DOCS.glob("*.md"):
        assert f"docs/{page.name}" in readme_targets, f"the README does not link docs/{page.name}"
        if page.name != "README.md":
            assert page.name in index_targets, f"docs/README.md does not list {page.name}"


def test_the_readme_shows_the_tour_pictures():
    images = re.findall(r"!\[[^\]]+\]\((assets/[^)]+)\)", (ROOT / "README.md").read_text(encoding="utf-8"))
    assert set(images) == {str(p.relative_to(ROOT)) for p in (ROOT / "assets").glob("*.png")}


def test_the_readme_has_the_two_commands_and_ci_runs_the_second():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"^```bash\n(.*?)\n```", readme, re.M | re.S)
    assert commands == [
        "pip install -r requirements.txt -c constraints.txt && streamlit run streamlit_app.py",
        "bash scripts/test.sh",
    ]
    assert "bash scripts/test.sh" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_readme_stays_a_newcomers_page():
    # The target: what it is, two commands, a tour and where to read on, under about 10 KB;
    # the reference goes to docs/.
    assert len((ROOT / "README.md").read_bytes()) < 12_000
    headings = iter(HEADING.findall((ROOT / "README.md").read_text(encoding="utf-8")))
    for section in ["Linear classification playground", "Set up", "A tour", "Read on"]:
        assert section in headings, f"the README has no section {section!r} (in this order)"
