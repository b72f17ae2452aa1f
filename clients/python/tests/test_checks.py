"""A read's input is checked before any request, as the TypeScript reader checks it (readInput.ts)."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

import pytest
from conftest import Answer, StubServer

from rewards_client import READ_PARAMETERS, InvalidReaderOption, InvalidReadInput, Reader

EMPTY_PROFILE: dict[str, Any] = {
    "userId": "u",
    "xp": 0,
    "awards": 0,
    "counts": {"article.completed": 0},
    "streak": {"current": 0, "longest": 0},
    "level": {"level": 1, "xpFloor": 0, "xpNext": 100},
    "today": {"day": "2026-12-05", "xp": 0},
    "week": {"week": "2026-W49", "xp": 0},
}


def b64(value: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()


BAD_INPUTS: list[tuple[str, Callable[[Reader], object], str, str]] = [
    # (case, call, parameter, the message's start after "parameter: ")
    ("empty user id", lambda r: r.profile(""), "userId", 'must be 1 to 256 characters ("")'),
    ("257 characters", lambda r: r.achievements("é" * 257), "userId", "must be 1 to 256 characters"),
    ("a lone surrogate", lambda r: r.history("a\ud800"), "userId", "must be well-formed Unicode"),
    ("not a string", lambda r: r.profile(42), "userId", "must be a string (42)"),  # type: ignore[arg-type]
    ("limit 0", lambda r: r.history("u", limit=0), "limit", "an integer from 1 to 100, not 0"),
    ("limit 101", lambda r: r.board(limit=101), "limit", "an integer from 1 to 100, not 101"),
    ("limit 1.5", lambda r: r.history("u", limit=1.5), "limit", "an integer from 1 to 100, not 1.5"),  # type: ignore[arg-type]
    ("limit True", lambda r: r.history("u", limit=True), "limit", "an integer from 1 to 100, not True"),
    ("limit text", lambda r: r.board(limit="5"), "limit", 'an integer from 1 to 100, not "5"'),  # type: ignore[arg-type]
    ("empty cursor", lambda r: r.history("u", cursor=""), "cursor", "empty: leave it out"),
    ("not base64url", lambda r: r.history("u", cursor="a b"), "cursor", "not a cursor the read API gave"),
    ("padded", lambda r: r.history("u", cursor=b64({"v": 2}) + "="), "cursor", "not a cursor"),
    ("stray bits", lambda r: r.history("u", cursor="eyJ2Ijoyfx"), "cursor", "not a cursor"),
    ("not JSON", lambda r: r.history("u", cursor=b64("x")[:-1] + "A"), "cursor", "not a cursor"),
    ("a JSON list", lambda r: r.history("u", cursor=b64([1, 2])), "cursor", "not a cursor"),
    ("version 1", lambda r: r.history("u", cursor=b64({"v": 1, "u": "u", "k": "k"})), "cursor", "a cursor of an earlier reader (version 1)"),
    ("board cursor", lambda r: r.board(cursor="!!"), "cursor", "not a cursor the read API gave for a board page"),
    ("unknown zone", lambda r: r.profile("u", time_zone="Mars/Olympus"), "timeZone", 'an IANA time zone such as "Europe/Paris" or "UTC", not "Mars/Olympus"'),
    ("empty zone", lambda r: r.profile("u", time_zone=""), "timeZone", "an IANA time zone"),
    ("an offset", lambda r: r.profile("u", time_zone="+01:00"), "timeZone", "an IANA time zone"),
    ("week 53 of 2025", lambda r: r.board(week="2025-W53"), "week", 'an ISO week such as "2026-W49" (a year, "-W", a week of that year), not "2025-W53"'),
    ("week 0", lambda r: r.board(week="2026-W00"), "week", "an ISO week"),
    ("no W", lambda r: r.board(week="2026-49"), "week", "an ISO week"),
    ("before 1970", lambda r: r.board(week="1969-W10"), "week", "an ISO week"),
    ("other digits", lambda r: r.board(week="２０２６-W49"), "week", "an ISO week"),
    ("empty week", lambda r: r.board(week=""), "week", "an ISO week"),
]


@pytest.mark.parametrize(("case", "call", "parameter", "start"), BAD_INPUTS, ids=[case for case, *_ in BAD_INPUTS])
def test_bad_input_is_refused_before_any_request(
    stub: StubServer, case: str, call: Callable[[Reader], object], parameter: str, start: str
) -> None:
    with pytest.raises(InvalidReadInput) as raised:
        call(Reader(stub.url))
    assert raised.value.parameter == parameter
    assert parameter in READ_PARAMETERS
    assert str(raised.value).startswith(f"{parameter}: {start}"), str(raised.value)
    assert raised.value.problem is None  # the client's own refusal, not the API's
    assert isinstance(raised.value, ValueError)
    assert stub.received == []


def test_a_message_quotes_at_most_64_characters_of_the_input(stub: StubServer) -> None:
    with pytest.raises(InvalidReadInput) as raised:
        Reader(stub.url).profile("x" * 300)
    assert str(raised.value) == f'userId: must be 1 to 256 characters ("{"x" * 64}"…)'
    with pytest.raises(InvalidReadInput) as zone:
        Reader(stub.url).profile("u", time_zone="Z" * 100)
    assert zone.value.detail.endswith(f'"{"Z" * 64}"…')
    with pytest.raises(InvalidReadInput) as cursor:
        Reader(stub.url).history("u", cursor="?" * 1000)
    assert len(str(cursor.value)) < 200


def test_good_input_reaches_the_api_as_the_routes_read_it(stub: StubServer) -> None:
    stub.answer("/users/a%2Fb%20c%3F%23", Answer(body=EMPTY_PROFILE))
    stub.answer("/users/%2E%2E", Answer(body=EMPTY_PROFILE))
    stub.answer("/users/%C3%A9/awards", Answer(body={"awards": []}))
    stub.answer("/board", Answer(body={"week": "2026-W53", "entries": []}))
    reader = Reader(stub.url + "/")  # a trailing slash is no second one
    reader.profile("a/b c?#", time_zone="europe/paris")  # the zone's case forgiven
    reader.profile("..")
    cursor = b64({"v": 2, "k": "AWARD#x", "d": "y"})
    reader.history("é", limit=20.0, cursor=cursor)  # type: ignore[arg-type]  # 20.0 is 20, as in JavaScript
    reader.board(week="2026-W53", limit=100)
    assert [request.path for request in stub.received] == [
        "/users/a%2Fb%20c%3F%23?timeZone=Europe%2FParis",
        "/users/%2E%2E",
        f"/users/%C3%A9/awards?limit=20&cursor={cursor}",
        "/board?week=2026-W53&limit=100",
    ]
    assert stub.received[0].headers["accept"] == "application/json"
    assert "authorization" not in stub.received[0].headers


@pytest.mark.parametrize(
    ("options", "option"),
    [
        ({"base_url": "ftp://example.com"}, "base_url"),
        ({"base_url": "http://example.com/?a=1"}, "base_url"),
        ({"base_url": "localhost:3000"}, "base_url"),
        ({"base_url": "http://x", "timeout": 0}, "timeout"),
        ({"base_url": "http://x", "retries": -1}, "retries"),
        ({"base_url": "http://x", "retries": 1.5}, "retries"),
        ({"base_url": "http://x", "max_retry_wait": -1}, "max_retry_wait"),
    ],
)
def test_bad_options_are_refused_when_the_reader_is_made(options: dict[str, Any], option: str) -> None:
    with pytest.raises(InvalidReaderOption) as raised:
        Reader(**options)
    assert raised.value.option == option
    assert str(raised.value).startswith(f"{option}: ")
