"""Write constraints.txt: the exact versions, installed here, of everything the requirement files
pull in (their dependencies' dependencies too).

Run it in the environment the whole suite has just passed in (``bash scripts/test.sh``):

    python scripts/pin.py

The README's two commands and scripts/test.sh install with ``-c constraints.txt``, so a fresh machine
gets the versions the suite passed with; requirements.txt keeps the ranges for whoever uses the
back-end as a library. ``--check`` exits non-zero when constraints.txt is not what this would write
(a test runs it).
"""

import argparse
import re
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REQUIREMENT_FILES = ("requirements.txt", "requirements-test.txt")
OUTPUT = ROOT / "constraints.txt"
HEADER = (
    "# The versions the whole test suite passed with (python scripts/pin.py writes this file from the\n"
    "# environment it ran in). Installed with -c by the README's commands and scripts/test.sh.\n"
)
NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?")


def canonical(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def top_level(files=REQUIREMENT_FILES):
    """The names (with extras) the requirement files ask for, following their -r includes."""
    wanted = []
    for file_name in files:
        for line in (ROOT / file_name).read_text(encoding="utf-8").splitlines():
            line = line.split("#", 1)[0].strip()
            if not line or line.startswith("-r"):
                continue
            match = NAME.match(line)
            if match:
                extras = {e.strip() for e in (match.group(2) or "[]")[1:-1].split(",") if e.strip()}
                wanted.append((match.group(1), extras))
    return wanted


def _requirements(distribution, extras):
    """(name, extras) of what ``distribution`` needs here, with ``extras``, on this platform."""
    from packaging.requirements import Requirement

    for text in distribution.requires or ():
        requirement = Requirement(text)
        environments = [{"extra": extra} for extra in extras] or [{"extra": ""}]
        if requirement.marker and not any(requirement.marker.evaluate(env) for env in environments):
            continue
        yield requirement.name, set(requirement.extras)


def closure(wanted):
    """name -> installed version of everything ``wanted`` pulls in."""
    pinned, stack = {}, list(wanted)
    while stack:
        name, extras = stack.pop()
        try:
            distribution = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            sys.exit(f"{name} is required but not installed here: install the requirement files first.")
        key = canonical(distribution.metadata["Name"])
        first = key not in pinned
        pinned[key] = distribution.version
        if first or extras:
            stack.extend(_requirements(distribution, extras))
    return pinned


def text(pinned):
    return HEADER + "".join(f"{name}=={version}\n" for name, version in sorted(pinned.items()))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if constraints.txt is not up to date")
    args = parser.parse_args(argv)
    wanted = text(closure(top_level()))
    if args.check:
        if not OUTPUT.exists() or OUTPUT.read_text(encoding="utf-8") != wanted:
            print("constraints.txt differs from the installed versions: run python scripts/pin.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(wanted, encoding="utf-8")
    print(f"wrote {OUTPUT.name}: {wanted.count(chr(10)) - 2} packages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
