"""The HTML report of a run: answers with evidence cards, verification summaries, number chips.

One self-contained file (styles and script inlined, no network), written by `groundwork report`
and by every publication beside answers.md. It is a pure function of the run's tables
(`data.report_tables` reads them, `render.report_html` writes the page), so a test can change a
table and render again.
"""
