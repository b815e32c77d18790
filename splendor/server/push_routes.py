"""The routes of Web Push (`splendor.server.push`): the server's public key, and a signed-in account's browsers
subscribing and unsubscribing. While the operator has not configured push the key is null and the subscription
routes answer 404."""

from __future__ import annotations

import binascii
from base64 import urlsafe_b64decode
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from splendor.i18n import _
from splendor.server.accounts import signed_in
from splendor.server.deadline import in_store_time
from splendor.server.errors import Refused
from splendor.server.push import TurnPushes, allowed_endpoint
from splendor.server.schemas import refusals
from splendor.server.settings import Settings
from splendor.store.accounts import SignedIn
from splendor.store.push import TooManySubscriptions


def _base64url(size: int, what: str) -> Any:
    """A base64url text that decodes to ``size`` bytes (a browser's subscription writes its keys so)."""

    def check(value: str) -> str:
        try:
            raw = urlsafe_b64decode(value + "=" * (-len(value) % 4))
        except (binascii.Error, ValueError):
            raise ValueError(f"{what} is not base64url") from None
        if len(raw) != size or value.strip("=") != value.rstrip("="):
            raise ValueError(f"{what} must be {size} bytes, in base64url")
        return value

    return AfterValidator(check)


def _point(value: str) -> str:
    """A P-256 public key (an uncompressed point on the curve), as the browser's ``p256dh``."""
    from cryptography.hazmat.primitives.asymmetric import ec

    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), urlsafe_b64decode(value + "=" * (-len(value) % 4)))
    except ValueError:
        raise ValueError("p256dh is not a P-256 public key") from None
    return value


class SubscriptionKeys(BaseModel):
    """The keys a message to the browser is encrypted for."""

    model_config = ConfigDict(extra="forbid")
    p256dh: Annotated[
        str,
        Field(min_length=86, max_length=88, pattern=r"^[A-Za-z0-9_-]+=*$"),
        _base64url(65, "p256dh"),
        AfterValidator(_point),
    ]
    auth: Annotated[str, Field(min_length=22, max_length=24, pattern=r"^[A-Za-z0-9_-]+=*$"), _base64url(16, "auth")]


class PushSubscriptionIn(BaseModel):
    """A browser's push subscription, as ``PushSubscription.toJSON()`` writes it."""

    model_config = ConfigDict(extra="forbid")
    endpoint: str = Field(min_length=10, max_length=500, description="the push service's address for this browser")
    # the browser's spelling, kept so that its subscription's JSON is taken as it is written
    expirationTime: float | None = Field(
        default=None, allow_inf_nan=False, description="ignored: the push service says when it is gone"
    )
    keys: SubscriptionKeys


class PushEndpoint(BaseModel):
    """Which subscription of the signed-in account to forget."""

    model_config = ConfigDict(extra="forbid")
    endpoint: str = Field(min_length=10, max_length=500)


def push_router(settings: Settings) -> APIRouter:
    """The routes of Web Push."""
    router = APIRouter()

    def pushes(request: Request) -> TurnPushes:
        p: TurnPushes = request.app.state.manager.pushes
        if not p.enabled:
            raise Refused(404, _("push notifications are not configured on this server"))
        return p

    async def account(request: Request) -> SignedIn:
        who = await signed_in(request)
        if who is None:
            raise Refused(401, _("sign in to be told of your turn when the page is closed"))
        return who

    @router.get("/api/push/key", responses=refusals())
    async def key(request: Request) -> dict[str, Any]:
        """The server's public VAPID key, which a browser subscribes with (``applicationServerKey``), base64url;
        null when the operator has not configured push (the default). Every page asks it, so a server without
        push answers it plainly, not with an error each browser's console shows."""
        p: TurnPushes = request.app.state.manager.pushes
        return {"key": p.key if p.enabled else None}

    @router.post(
        "/api/push/subscriptions", status_code=204, response_class=Response, responses=refusals(400, 401, 404, 409)
    )
    async def subscribe(body: PushSubscriptionIn, request: Request) -> Response:
        """Tell the signed-in account of its turns in this browser while its pages are closed: the browser's
        subscription, kept until it unsubscribes or its push service says it is gone (the same browser signed in
        as another account moves to that account). 400 for a push service the server does not send to; 409 when
        the account has its most browsers subscribed already."""
        p = pushes(request)
        who = await account(request)
        if not allowed_endpoint(body.endpoint, settings.push_services):
            raise Refused(400, _("this server does not send to that push service"))
        most = settings.push_subscriptions_per_account
        try:
            await in_store_time(
                lambda: p.subscriptions.add(who.id, body.endpoint, body.keys.p256dh, body.keys.auth, most),
                settings.store_seconds,
            )
        except TooManySubscriptions:
            raise Refused(
                409, _("{count} browsers are told of your turns already, the most: turn one off first", count=most)
            ) from None
        return Response(status_code=204)

    @router.delete("/api/push/subscriptions", status_code=204, response_class=Response, responses=refusals(401, 404))
    async def unsubscribe(body: PushEndpoint, request: Request) -> Response:
        """Stop telling the signed-in account of its turns in the browser of ``endpoint``. 404 when the account
        has no subscription there."""
        p = pushes(request)
        who = await account(request)
        if not await in_store_time(lambda: p.subscriptions.remove(who.id, body.endpoint), settings.store_seconds):
            raise Refused(404, _("this browser is not told of your turns"))
        return Response(status_code=204)

    return router
