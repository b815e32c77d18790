"""The one error the server answers a client with: `Refused`, an HTTP status and words the client may see.

Every part of the server raises it (the seats, the store's calls, the game's turn, the accounts); the API turns it
into ``{"detail": ...}`` in the reader's language, the WebSocket into ``{"type": "error", "status", "detail"}``.
"""

from __future__ import annotations

from splendor.i18n import Message


class Refused(Exception):
    """A request the server refuses, with the HTTP status and a message the client may see; ``retry_after``, in
    seconds, where the client may try again after a wait (a 429), sent as ``Retry-After`` so that a page can hold
    its next try that long rather than send it to be refused again."""

    def __init__(self, status: int, message: Message | str, retry_after: int | None = None) -> None:
        super().__init__(str(message))
        self.status = status
        self.message = message
        self.retry_after = retry_after
