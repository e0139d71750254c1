"""Data Docs that open with no network: the site carries its own stylesheets and scripts.

Great Expectations' pages load jQuery, Bootstrap, Bootstrap Table, Font Awesome and Vega from
CDNs, and the index draws its lists of validations and suites with Bootstrap Table: opened in an
office without internet, it shows two tab buttons and nothing else. The same files (the versions
the pages name, byte for byte where the pages pin a hash) are vendored in assets/, with their
licences (assets/LICENSES.md); this copies them into the site and points every page at the copy.

The URLs are those of the templates of great-expectations 1.24.1 (pinned in pyproject.toml).
A release that loads another one leaves it remote, and tests/quality/test_data_docs.py fails on it.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

ASSETS = Path(__file__).with_name("assets")
VENDOR = "static/vendor"  # where the assets go, relative to the site's root

# Each remote file a page loads -> its copy, relative to the site's root. Bootstrap Table's
# filter-control stylesheet is named at 1.19.0 and 1.19.1 by different pages: the two differ in
# their version comment only. The Great Expectations logo is the site's own copy (static/images,
# which Great Expectations writes); it ships no dark variant, so dark mode shows the same one.
CDNJS = "https://cdnjs.cloudflare.com/ajax/libs"
JSDELIVR = "https://cdn.jsdelivr.net/npm"
TABLE = "https://unpkg.com/bootstrap-table@{}/dist"
FILTER_CONTROL = "extensions/filter-control/bootstrap-table-filter-control"
DATEPICKER = "bootstrap-datepicker"
LOCAL_COPIES = {
    "https://code.jquery.com/jquery-3.7.1.min.js": "jquery/jquery.min.js",
    f"{CDNJS}/popper.js/1.12.9/umd/popper.min.js": "popper.js/popper.min.js",
    "https://maxcdn.bootstrapcdn.com/bootstrap/4.3.1/css/bootstrap.min.css": (
        "bootstrap/css/bootstrap.min.css"
    ),
    "https://stackpath.bootstrapcdn.com/bootstrap/4.3.1/js/bootstrap.min.js": (
        "bootstrap/js/bootstrap.min.js"
    ),
    f"{JSDELIVR}/@forevolve/bootstrap-dark@1.1.0/dist/css/bootstrap-prefers-dark.css": (
        "bootstrap-dark/bootstrap-prefers-dark.min.css"
    ),
    f"{TABLE.format('1.19.1')}/bootstrap-table.min.css": "bootstrap-table/bootstrap-table.min.css",
    f"{TABLE.format('1.19.1')}/bootstrap-table.min.js": "bootstrap-table/bootstrap-table.min.js",
    f"{TABLE.format('1.19.1')}/{FILTER_CONTROL}.min.js": f"bootstrap-table/{FILTER_CONTROL}.min.js",
    f"{TABLE.format('1.19.0')}/{FILTER_CONTROL}.min.css": (
        f"bootstrap-table/{FILTER_CONTROL}.min.css"
    ),
    f"{TABLE.format('1.19.0')}/{FILTER_CONTROL}.css": f"bootstrap-table/{FILTER_CONTROL}.min.css",
    f"{CDNJS}/{DATEPICKER}/1.9.0/css/{DATEPICKER}.min.css": (
        f"{DATEPICKER}/css/{DATEPICKER}.min.css"
    ),
    f"{CDNJS}/{DATEPICKER}/1.9.0/js/{DATEPICKER}.min.js": f"{DATEPICKER}/js/{DATEPICKER}.min.js",
    f"{CDNJS}/font-awesome/6.6.0/css/all.min.css": "font-awesome/css/all.min.css",
    f"{JSDELIVR}/vega@5": "vega/vega.min.js",
    f"{JSDELIVR}/vega-lite@5": "vega-lite/vega-lite.min.js",
    f"{JSDELIVR}/vega-embed@6": "vega-embed/vega-embed.min.js",
}
SITE_COPIES = {
    f"https://great-expectations-web-assets.s3.us-east-2.amazonaws.com/{image}": (
        "static/images/logo-long.png"
    )
    for image in ("logo-long.png", "full_logo_dark.png")
}
SITE_PATHS = {url: f"{VENDOR}/{path}" for url, path in LOCAL_COPIES.items()} | SITE_COPIES

# A tag that loads a file (its src or href), and a stylesheet's url(...).
LOADING_TAG = re.compile(r"<(?:script|link|img)\b[^>]*>", re.IGNORECASE)
TAG_URL = re.compile(r"""\b(src|href)=(["'])(https?://[^"'?#]*)[^"']*\2""", re.IGNORECASE)
CSS_URL = re.compile(r"""url\((["']?)(https?://[^"')?#]*)[^"')]*\1\)""", re.IGNORECASE)
# A copy is no cross-origin fetch: a file:// page that asks for CORS or a hash is refused.
CORS_ATTRIBUTE = re.compile(r"""\s(?:integrity|crossorigin)(?:=(["'])[^"']*\1)?""", re.IGNORECASE)


def local_text(text: str, to_root: str) -> str:
    """The page or stylesheet `text` with each known remote file it loads replaced by its
    copy's path; `to_root` is the relative path from the file's folder to the site's root."""

    def local(url: str) -> str | None:
        path = SITE_PATHS.get(url)
        return None if path is None else f"{to_root}/{path}"

    def tag(match: re.Match) -> str:
        found = TAG_URL.search(match[0])
        path = found and local(found[3])
        if not path:
            return match[0]
        attribute = f"{found[1]}={found[2]}{path}{found[2]}"
        return CORS_ATTRIBUTE.sub(
            "", match[0][: found.start()] + attribute + match[0][found.end() :]
        )

    def css(match: re.Match) -> str:
        path = local(match[2])
        return f"url({match[1]}{path}{match[1]})" if path else match[0]

    return CSS_URL.sub(css, LOADING_TAG.sub(tag, text))


def localise_site(site: Path) -> None:
    """Point every page and stylesheet of the Data Docs site in `site` at local copies of the
    files it loads, and copy the vendored ones (with their licences) into it."""
    for file in sorted([*site.rglob("*.html"), *site.rglob("*.css")]):
        to_root = Path(os.path.relpath(site, file.parent)).as_posix()
        text = file.read_text(encoding="utf-8")
        file.write_text(local_text(text, to_root), encoding="utf-8")
    shutil.copytree(ASSETS, site / VENDOR)
