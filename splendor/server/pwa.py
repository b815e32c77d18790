"""The installable web app: the manifest (``/manifest.webmanifest``) and the service worker (``/sw.js``).

The service worker is served from the root, so that its scope is the whole site, and never from a cache
(``no-cache``): a browser checks it at each visit and installs a new one as soon as it changes. Its cache is named
after the package's version and a digest of the pages' files, so an upgrade (or any change of a file) makes a new
cache and the old one is deleted. It keeps only the pages' own files; the game state (every ``/api/`` request, the
WebSockets) always goes to the network (``web/sw.js``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import Response

from splendor import __version__

WEB = Path(__file__).parent / "web"
THEME = "#3c2f1e"  # the pages' header (app.css)
BACKGROUND = "#f6f2e8"  # the pages' background (app.css: --bg)
MANIFEST = "/manifest.webmanifest"


def manifest() -> dict[str, object]:
    """What a browser reads to install the site as an app: its names, where it starts, how it looks."""
    icons: list[dict[str, str]] = [
        {"src": "/static/icons/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
    ]
    for size in (192, 512):
        for purpose in ("any", "maskable"):  # the icon is drawn full-bleed, its gem within the safe circle
            icons.append(
                {
                    "src": f"/static/icons/icon-{size}.png",
                    "sizes": f"{size}x{size}",
                    "type": "image/png",
                    "purpose": purpose,
                }
            )
    return {
        "name": "splendor",
        "short_name": "splendor",
        "description": "The Splendor family of board games: play people and bots, live or by the day.",
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": icons,
    }


def cached_files() -> list[str]:
    """The pages' own files, as the service worker fetches and keeps them: every file of ``web/`` but itself, and
    the manifest."""
    files = sorted(
        f"/static/{p.relative_to(WEB).as_posix()}" for p in WEB.rglob("*") if p.is_file() and p.name != "sw.js"
    )
    return [*files, MANIFEST]


def service_worker() -> str:
    """``web/sw.js`` with its cache's name (the version and a digest of the files) and the files it keeps."""
    files = cached_files()
    digest = hashlib.sha256()
    for path in files[:-1]:
        digest.update(path.encode() + b"\0" + (WEB / path.removeprefix("/static/")).read_bytes())
    digest.update(json.dumps(manifest()).encode())
    cache = f"splendor-{__version__}-{digest.hexdigest()[:12]}"
    source = (WEB / "sw.js").read_text(encoding="utf-8")
    return source.replace('"__CACHE__"', json.dumps(cache)).replace("__FILES__", json.dumps(files))


def pwa_router() -> APIRouter:
    """The manifest and the service worker, at the site's root."""
    router = APIRouter()
    worker = service_worker()  # the files ship with the package: read once
    body = json.dumps(manifest(), indent=1)

    @router.get(MANIFEST, include_in_schema=False)
    async def get_manifest() -> Response:
        return Response(body, media_type="application/manifest+json", headers={"cache-control": "no-cache"})

    @router.get("/sw.js", include_in_schema=False)
    async def get_service_worker() -> Response:
        return Response(
            worker,
            media_type="text/javascript",
            headers={"cache-control": "no-cache", "service-worker-allowed": "/"},
        )

    return router
