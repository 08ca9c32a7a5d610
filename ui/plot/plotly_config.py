"""What every plotly config of the app holds: no upload anywhere.

plotly.js 4 shows a "Share chart…" button by default (``showSendToCloud``), which sends the figure
to Plotly Cloud (``plotlyServerURL``); the app promises that nothing is uploaded. Every plotly.js
call in the browser passes its config through ``offline`` in ui/plot/plotly_shared.js, which adds
the same; the configs sent from Python carry it too (``offline`` here), so that each one reads
what the page gets.
"""

from typing import Any, Final

# The mode bar's buttons that upload the figure or open it elsewhere, by plotly.js's names (the
# first is plotly.js 4's, the others earlier versions').
UPLOAD_BUTTONS: Final = ("sendChartToCloud", "sendDataToCloud", "editInChartStudio")
NO_UPLOAD: Final = {"showSendToCloud": False, "showEditInChartStudio": False, "plotlyServerURL": ""}


def offline(config: dict[str, Any]) -> dict[str, Any]:
    """``config`` with no upload: ``NO_UPLOAD``'s settings and every ``UPLOAD_BUTTONS`` removed."""
    removed = [b for b in config.get("modeBarButtonsToRemove", []) if b not in UPLOAD_BUTTONS]
    return {**config, **NO_UPLOAD, "modeBarButtonsToRemove": [*removed, *UPLOAD_BUTTONS]}
