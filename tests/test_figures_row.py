"""ui.panels.figures_row: a row of figures drawn as one element, its texts shown as text."""

from streamlit.testing.v1 import AppTest


def _row_app():
    from ui.panels import figures_row

    figures_row(
        [
            ("lowest y₁(x) in view", "−1.36", None),
            ("<b>bold</b> & *stars* $x$", "62%", 'help with "quotes" & <i>tags</i>'),
        ]
    )


def test_a_row_is_one_element_with_every_label_value_and_help_as_text():
    at = AppTest.from_function(_row_app).run()
    assert not at.exception
    (row,) = at.markdown
    html = row.value
    assert html.count('class="pg-figure"') == 2 and html.count('class="pg-figure-value"') == 2
    assert "lowest y₁(x) in view" in html and "−1.36" in html and "62%" in html
    # Markup in a label or a help text is shown, not obeyed; a dollar sign is no math.
    assert "<b>" not in html and "&lt;b&gt;bold&lt;/b&gt; &amp; *stars* &#36;x&#36;" in html
    assert "<i>" not in html and 'title="help with &quot;quotes&quot; &amp; &lt;i&gt;tags&lt;/i&gt;"' in html
    assert html.count("pg-figure-help") == 1  # only the figure with a help text has the hint
