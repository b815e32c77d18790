"""Accounts and names against someone who means harm (issue #30): an account's Pokédex is its own, a stranger's
wrong passwords lock out the stranger and not the owner, a name the schema takes is never a 500, names that look
alike are one name, and profile claims can neither squat names nor be made without bound."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from argon2 import PasswordHasher
from sqlalchemy import create_engine, text

from splendor.store import Pokedex, open_store
from splendor.store.accounts import FREE_FAILURES, Accounts
from splendor.store.database import Store
from splendor.store.names import name_key
from tests.server.conftest import Server, create
from tests.server.test_accounts import sign_up

STRANGER, OWNER = "203.0.113.9", "198.51.100.7"


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[Server]:
    """A server behind a trusted proxy (the test): ``X-Forwarded-For`` says which address each request is from."""
    s = Server(f"sqlite:///{tmp_path}/server.db", tmp_path / "server.log", "--forwarded-allow-ips", "127.0.0.1").start()
    try:
        yield s
    finally:
        s.stop()


def _from(address: str) -> dict[str, str]:
    return {"x-forwarded-for": address}


# ----------------------------------------------------------------- 1. an account's Pokédex is the account's


def test_an_accounts_pokedex_cannot_be_claimed_by_anyone_else(server: Server) -> None:
    with sign_up(server, "misty") as misty, server.client() as stranger:
        for spelling in ("misty", "Misty", " MISTY "):
            r = stranger.post("/api/profiles", json={"name": spelling})
            assert r.status_code == 409 and "Pokédex of an account" in r.json()["detail"], r.text
            assert r.json()["detail"].startswith("the name "), r.text  # never the name typed first: capitalised
        # and no secret marks it: a stranger's seat that names it is refused
        r = stranger.post(
            "/api/games",
            json={
                "game": "pokemon",
                "seats": [{"kind": "human", "profile": "misty", "profile_secret": "guess"}, {"kind": "bot"}],
            },
        )
        assert r.status_code == 403
        game = create(misty, "pokemon", [{"kind": "human", "mine": True}, {"kind": "bot"}])
        assert game["seats"][0]["profile"] == "misty"  # the account's own seat still marks it


def test_an_adopted_profiles_old_secret_marks_it_no_more(store: Store) -> None:
    """Once a profile is an account's, only the account's seats mark it: the secret it was claimed with is void."""
    dex = Pokedex(store)
    secret = dex.claim("misty")
    dex.mark("misty", ["Mew"], secret)
    Accounts(store).sign_up("misty", "correct horse", pokedex_secret=secret)
    assert not dex.owns("misty", secret)
    from splendor.store.pokedex import NotYourProfile

    with pytest.raises(NotYourProfile):
        dex.mark("misty", ["Abra"], secret)
    assert dex.page("misty").marked == {"Mew": 1}


# ----------------------------------------------------------------- 5. nobody keeps an account locked for good


def test_wrong_passwords_from_one_address_do_not_lock_the_owner_out_at_another(store: Store) -> None:
    accounts = Accounts(store)
    accounts.sign_up("ann", "correct horse")
    for _ in range(FREE_FAILURES):
        with pytest.raises(ValueError, match="wrong name or password"):
            accounts.sign_in("ann", "wrong guess", STRANGER)
    with pytest.raises(ValueError, match="too many wrong passwords") as locked:
        accounts.sign_in("ann", "correct horse", STRANGER)  # the stranger's address is locked out
    assert getattr(locked.value, "status", None) == 429
    signed, _ = accounts.sign_in("ann", "correct horse", OWNER)  # the owner's is not
    assert signed.name == "ann"
    for _ in range(3):  # nor is it while the stranger goes on
        with pytest.raises(ValueError, match="too many wrong passwords"):
            accounts.sign_in("ann", "wrong guess", STRANGER)
        assert accounts.sign_in("ann", "correct horse", OWNER)[0].name == "ann"


def test_the_lock_is_told_to_the_minute_not_to_the_second(store: Store) -> None:
    accounts = Accounts(store)
    accounts.sign_up("ann", "correct horse")
    for _ in range(FREE_FAILURES):
        with pytest.raises(ValueError):
            accounts.sign_in("ann", "wrong guess", STRANGER)
    with pytest.raises(ValueError) as locked:
        accounts.sign_in("ann", "wrong guess", STRANGER)
    assert str(locked.value) == "too many wrong passwords from your address: try again in about 1 minute"


def test_wrong_old_passwords_of_a_password_change_count_toward_the_same_lock(store: Store) -> None:
    accounts = Accounts(store)
    ann, _ = accounts.sign_up("ann", "correct horse")
    for _ in range(FREE_FAILURES):
        with pytest.raises(ValueError, match="wrong password"):
            accounts.change_password(ann, "wrong guess", "staple battery", None, STRANGER)
    with pytest.raises(ValueError, match="too many wrong passwords"):
        accounts.change_password(ann, "correct horse", "staple battery", None, STRANGER)
    with pytest.raises(ValueError, match="too many wrong passwords"):
        accounts.sign_in("ann", "correct horse", STRANGER)
    accounts.change_password(ann, "correct horse", "staple battery", None, OWNER)
    assert accounts.sign_in("ann", "staple battery", OWNER)[0].name == "ann"


def test_an_ipv6_address_counts_by_its_64_network_and_no_address_is_stored() -> None:
    from splendor.store.accounts import address_key

    assert address_key("2001:db8:1:2::1") == address_key("2001:db8:1:2:ffff:ffff:ffff:ffff")
    assert address_key("2001:db8:1:2::1") != address_key("2001:db8:1:3::1")
    assert address_key(STRANGER) != address_key(OWNER) and STRANGER not in address_key(STRANGER)


def test_a_stranger_cannot_keep_the_owner_locked_out_over_http(proxied: Server) -> None:
    with proxied.client() as owner, proxied.client() as stranger:
        assert (
            owner.post(
                "/api/accounts", json={"name": "ann", "password": "correct horse"}, headers=_from(OWNER)
            ).status_code
            == 201
        )
        answers = [
            stranger.post(
                "/api/session", json={"name": "ann", "password": f"guess {i}"}, headers=_from(STRANGER)
            ).status_code
            for i in range(FREE_FAILURES + 1)
        ]
        assert answers == [401] * FREE_FAILURES + [429]
        r = stranger.post("/api/session", json={"name": "ann", "password": "correct horse"}, headers=_from(STRANGER))
        assert r.status_code == 429 and "about 1 minute" in r.json()["detail"]
        r = owner.post("/api/session", json={"name": "ann", "password": "correct horse"}, headers=_from(OWNER))
        assert r.status_code == 200, r.text


def test_wrong_old_passwords_lock_a_password_change_over_http(server: Server) -> None:
    with sign_up(server, "ann") as ann:
        answers = [
            ann.post("/api/me/password", json={"old": f"guess {i}", "new": "staple battery"}).status_code
            for i in range(FREE_FAILURES + 1)
        ]
        assert answers == [401] * FREE_FAILURES + [429]


# ----------------------------------------------------------------- 11. one rule for names, never a 500

ODD_NAMES = [
    "a\u200db",
    "a\u200cb",
    "a\u203fb",
    "\u0301a",
    "\u3164",
    "\u115f\u1160",
    "a\u202eb",
    "a\ufe0fb",
    "a\u00adb",
    "_",
    "...",
    "a\tb",
    "x" * 41,
    "<b>",
    "a/b",
]


def test_a_name_the_schema_takes_is_never_refused_with_a_500(proxied: Server) -> None:
    with proxied.client() as c:
        for i, name in enumerate(ODD_NAMES):
            for path, body in (
                ("/api/accounts", {"name": name, "password": "correct horse"}),
                ("/api/profiles", {"name": name}),
                ("/api/games", {"game": "classic", "seats": [{"kind": "human", "name": name}, {"kind": "bot"}]}),
            ):
                r = c.post(path, json=body)
                assert r.status_code == 422, (path, name, r.status_code, r.text)
                assert "name" in str(r.json()["detail"])  # a reason, not a bare refusal
            r = c.post("/api/session", json={"name": name, "password": "whatever1"}, headers=_from(f"192.0.2.{i}"))
            assert r.status_code == 401, (name, r.status_code)  # no such account, whatever the name
            r = c.get("/api/pokedex/" + quote(name, safe=""))
            assert 400 <= r.status_code < 500, (name, r.status_code)
        # a combining accent joins its letter: the name is taken, kept as it is shown
        r = c.post("/api/accounts", json={"name": "E\u0301va", "password": "correct horse"})
        assert r.status_code == 201 and r.json()["name"] == "\u00c9va", r.text


# ----------------------------------------------------------------- 12. names that look alike are one name

LOOK_ALIKES = [
    "Alice",
    "ALICE",
    "\u0430lice",
    "al\u03b9ce",
    "\uff41\uff4c\uff49\uff43\uff45",
    "\U0001d41a\U0001d425\U0001d422\U0001d41c\U0001d41e",
    "alice ",
    "alic\u0435",
    "alice.",  # punctuation and spaces tell no two people apart
    "al_ice",
    "a-lice",
    "A lice",
]


def test_names_that_look_alike_are_one_name(proxied: Server) -> None:
    with sign_up(proxied, "alice"), proxied.client() as other:
        for i, name in enumerate(LOOK_ALIKES):
            where = _from(f"192.0.2.{i}")  # each from its own address: the bound per address is not tested
            r = other.post("/api/accounts", json={"name": name, "password": "correct horse"}, headers=where)
            assert r.status_code == 409, (name, r.status_code, r.text)
            assert r.json()["detail"].startswith("the name "), r.text  # never the name first (it was capitalised)
            assert other.post("/api/profiles", json={"name": name}, headers=where).status_code == 409, name
        # "rn" is "m" to the eye
        assert other.post("/api/profiles", json={"name": "mary"}).status_code == 201
        r = other.post("/api/profiles", json={"name": "rnary"})
        # the name as typed, first in the words: the page capitalises a refusal's first letter, which had changed it
        assert r.status_code == 409 and r.json()["detail"].startswith("the name rnary looks like the profile mary")
        # a name of invisible characters only, or without a letter or digit, is no name
        for blank in ("\u3164", "\u3164\u3164", "-", "'.'"):
            assert other.post("/api/accounts", json={"name": blank, "password": "correct horse"}).status_code == 422


def test_a_seat_kept_in_an_account_shows_the_accounts_name(server: Server) -> None:
    with sign_up(server, "ann") as ann:
        game = create(ann, "classic", [{"kind": "human", "mine": True, "name": "bea"}, {"kind": "human"}])
        assert game["seats"][0]["name"] == "ann"


def test_the_migration_keys_old_names_and_leaves_later_look_alikes_without(database_url: str) -> None:
    """Rows kept before 0007 get their keys, oldest first; a later row whose key is taken keeps NULL, and the
    upgrade goes through on SQLite and PostgreSQL alike."""
    from alembic import command

    from splendor.store.database import _migrations_config

    engine = create_engine(database_url)
    try:
        command.upgrade(_migrations_config(engine), "0006")
        with engine.begin() as c:
            for name in ("alice", "Alice", "bob", "\u3164"):  # in this order: the older keeps the key
                c.execute(text("INSERT INTO accounts (name, password_hash) VALUES (:name, 'x')"), {"name": name})
                c.execute(
                    text("INSERT INTO profiles (name, account_id) SELECT name, id FROM accounts WHERE name = :name"),
                    {"name": name},
                )
            c.execute(text("INSERT INTO profiles (name) VALUES ('ALICE')"))
    finally:
        engine.dispose()
    store = open_store(database_url)
    try:
        with store.engine.connect() as c:
            for table in ("accounts", "profiles"):
                keys = dict(c.execute(text(f"SELECT name, name_key FROM {table}")).all())
                assert keys["alice"] == "alice" and keys["bob"] == "bob"
                assert keys["Alice"] is None and keys["\u3164"] is None and keys.get("ALICE") is None
        with pytest.raises(ValueError, match="taken"):
            Accounts(store).sign_up("ALICE", "correct horse")
        assert Accounts(store).sign_up("carol", "correct horse")[0].name == "carol"
    finally:
        store.close()


def test_the_migration_keys_old_names_without_their_punctuation_and_back(database_url: str) -> None:
    """0012 keys the rows kept before it without their punctuation, oldest first (a later look-alike keeps NULL,
    and still signs in by its exact name); its downgrade gives the keys back as they were."""
    from alembic import command

    from splendor.store.database import _migrations_config

    engine = create_engine(database_url)
    try:
        command.upgrade(_migrations_config(engine), "0011")
        with engine.begin() as c:
            c.execute(text("INSERT INTO profiles (name, name_key) VALUES ('mary.ann', 'mary.ann')"))  # claimed first
            for name in ("Mary Ann", "Mary_Ann", "bob"):  # in this order: the older keeps the key
                c.execute(
                    text("INSERT INTO accounts (name, name_key, password_hash) VALUES (:name, :key, :hash)"),
                    {"name": name, "key": name.casefold(), "hash": PasswordHasher().hash("correct horse")},
                )
            c.execute(
                text("INSERT INTO profiles (name, account_id) SELECT name, id FROM accounts WHERE name = 'Mary Ann'")
            )
    finally:
        engine.dispose()
    store = open_store(database_url)
    try:
        with store.engine.connect() as c:
            keys = dict(c.execute(text("SELECT name, name_key FROM accounts")).all())
        assert keys == {"Mary Ann": name_key("MaryAnn"), "Mary_Ann": None, "bob": name_key("bob")}
        with store.engine.connect() as c:
            profiles = dict(c.execute(text("SELECT name, name_key FROM profiles")).all())
        assert profiles == {"Mary Ann": name_key("MaryAnn"), "mary.ann": None}  # the account's own Pokédex first
        assert Accounts(store).sign_in("Mary_Ann", "correct horse", "192.0.2.1")[0].name == "Mary_Ann"
        with pytest.raises(ValueError, match="taken"):
            Accounts(store).sign_up("Mary-Ann", "correct horse")
        command.downgrade(_migrations_config(store.engine), "0011")
        with store.engine.connect() as c:
            keys = dict(c.execute(text("SELECT name, name_key FROM accounts")).all())
        old_key = importlib.import_module(
            "splendor.store.migrations.versions.0012_name_keys_without_punctuation"
        )._key_with_punctuation
        assert keys == {name: old_key(name) for name in keys}  # as they were, punctuation and all
        assert len(set(keys.values())) == 3
    finally:
        store.close()


# ----------------------------------------------------------------- 13. profile names cannot be squatted


def test_profile_claims_count_toward_the_attempts_allowed_per_address(server: Server) -> None:
    with server.client() as c:
        answers = [c.post("/api/profiles", json={"name": f"squat{i}"}).status_code for i in range(14)]
        assert answers[:10] == [201] * 10 and answers[-1] == 429
        # and they share the bound with sign-ins
        r = c.post("/api/session", json={"name": "ann", "password": "whatever1"})
        assert r.status_code == 429 and r.headers["retry-after"] == "60"  # "wait a minute", for a program too


def test_an_account_takes_the_name_of_a_claim_never_used(server: Server) -> None:
    with server.client() as squatter, server.client() as brock:
        secret = squatter.post("/api/profiles", json={"name": "brock"}).json()["secret"]
        r = brock.post("/api/accounts", json={"name": "Brock", "password": "correct horse"})
        assert r.status_code == 201 and r.json()["name"] == "Brock", r.text
        # the squatter's secret is void: it marks the account's Pokédex no more
        r = squatter.post(
            "/api/games",
            json={
                "game": "pokemon",
                "seats": [{"kind": "human", "profile": "brock", "profile_secret": secret}, {"kind": "bot"}],
            },
        )
        assert r.status_code == 403
        assert brock.get("/api/pokedex/brock").json()["profile"] == "Brock"


def test_a_claim_with_a_seat_linked_still_needs_its_secret(server: Server) -> None:
    with server.client() as c:
        secret = c.post("/api/profiles", json={"name": "ash"}).json()["secret"]
        create(c, "pokemon", [{"kind": "human", "profile": "Ash", "profile_secret": secret}, {"kind": "bot"}])
        r = c.post("/api/accounts", json={"name": "ash", "password": "correct horse"})
        assert r.status_code == 409 and "claimed Pokédex" in r.json()["detail"]
        r = c.post("/api/accounts", json={"name": "ash", "password": "correct horse", "pokedex_secret": secret})
        assert r.status_code == 201
