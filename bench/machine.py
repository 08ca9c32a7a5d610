"""A description of the machine and the software a benchmark ran on."""

import datetime
import os
import platform
import subprocess
from importlib import metadata


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory_gib():
    try:
        with open("/proc/meminfo") as handle:
            for line in handle:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) / 1024**2
    except (OSError, ValueError):
        pass
    return None


def _version(package):
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def _chromium_version():
    from tests.browser import chromium_path

    try:
        output = subprocess.run([chromium_path(), "--version"], capture_output=True, text=True, timeout=20).stdout
        return output.strip() or "unknown"
    except (OSError, RuntimeError, subprocess.SubprocessError):
        return "not found"


def describe(browser=True):
    """(label, value) pairs."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    memory = _memory_gib()
    rows = [
        ("date", datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")),
        ("CPU", _cpu_model()),
        ("cores available", str(cores)),
        ("memory", f"{memory:.1f} GiB" if memory else "unknown"),
        ("load average at start", " / ".join(f"{v:.1f}" for v in os.getloadavg()) + " (1 / 5 / 15 min)"),
        ("OS", f"{platform.system()} {platform.release()} ({platform.machine()})"),
        ("python", platform.python_version()),
    ]
    for package in ("numpy", "scikit-learn", "scipy", "streamlit", "plotly", "playwright"):
        rows.append((package, _version(package)))
    if browser:
        rows.append(("browser", _chromium_version()))
    return rows
