"""A read's input, checked before any request as the TypeScript reader checks it
(packages/reader/src/readInput.ts): InvalidReadInput naming the parameter otherwise.

What the API alone can judge is left to it (its 400 is an InvalidReadInput too): whether a
cursor of the right form is one it gave, for this user (its digest), or a board cursor of the
week asked.
"""

from __future__ import annotations

import base64
import binascii
import datetime
import json
import re
import urllib.parse
import zoneinfo
from functools import cache
from typing import cast

from .errors import InvalidReadInput

DEFAULT_PAGE_LIMIT = 20
MAX_PAGE_LIMIT = 100
#: The events' envelope: a user id is 1–256 characters (code points) of well-formed Unicode.
MAX_USER_ID_CHARS = 256
#: How much of a refused input a message quotes.
QUOTED_CHARS = 64

_CURSOR_TEXT = re.compile(r"[A-Za-z0-9_-]+")
_WEEK_TEXT = re.compile(r"([0-9]{4})-W([0-9]{2})")


def quoted(value: object) -> str:
    """The input as a message shows it: a string JSON-quoted, anything else as repr, cut to 64 characters."""
    if isinstance(value, str):
        cut = value[:QUOTED_CHARS]
        shown = json.dumps(cut, ensure_ascii=False) + ("…" if len(value) > QUOTED_CHARS else "")
    else:
        shown = repr(value)
        shown = shown[:QUOTED_CHARS] + ("…" if len(shown) > QUOTED_CHARS else "")
    # A lone surrogate cannot be printed or encoded: shown as its escape.
    return shown.encode("utf-8", "backslashreplace").decode("utf-8")


def _has_lone_surrogate(value: str) -> bool:
    return any(0xD800 <= ord(char) <= 0xDFFF for char in value)


def checked_user_id(user_id: object) -> str:
    """1–256 characters of well-formed Unicode, as the events' envelope takes a user id."""
    if not isinstance(user_id, str):
        raise InvalidReadInput("userId", f"must be a string ({quoted(user_id)})")
    if _has_lone_surrogate(user_id):
        raise InvalidReadInput("userId", f"must be well-formed Unicode (no lone surrogates) ({quoted(user_id)})")
    if not 1 <= len(user_id) <= MAX_USER_ID_CHARS:
        raise InvalidReadInput("userId", f"must be 1 to {MAX_USER_ID_CHARS} characters ({quoted(user_id)})")
    return user_id


def checked_limit(limit: object) -> int | None:
    """A page's limit: an integer from 1 to 100 (None: the API's default, 20)."""
    if limit is None:
        return None
    # As JavaScript's Number.isInteger: 20.0 is 20; True is no number.
    number: int | None = None
    if isinstance(limit, int) and not isinstance(limit, bool):
        number = limit
    elif isinstance(limit, float) and limit.is_integer():
        number = int(limit)
    if number is not None and 1 <= number <= MAX_PAGE_LIMIT:
        return number
    raise InvalidReadInput("limit", f"an integer from 1 to {MAX_PAGE_LIMIT}, not {quoted(limit)}")


def _cursor_json(cursor: str) -> object:
    """The JSON a cursor encodes, or None when it is not base64url of JSON exactly as the API writes it."""
    if not _CURSOR_TEXT.fullmatch(cursor) or len(cursor) % 4 == 1:
        return None
    try:
        data = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
    except (binascii.Error, ValueError):
        return None
    # Decoding forgives stray bits in the last character: only the exact text the API encodes is one.
    if base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii") != cursor:
        return None
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None


def checked_cursor(cursor: object) -> str | None:
    """A history page's cursor: base64url of a JSON object, as the API gives it (None: the first page)."""
    if cursor is None:
        return None
    if cursor == "":
        raise InvalidReadInput("cursor", "empty: leave it out for the first page")
    decoded = _cursor_json(cursor) if isinstance(cursor, str) else None
    version = cast(dict[str, object], decoded).get("v") if isinstance(decoded, dict) else None
    if version == 1 and version is not True:
        raise InvalidReadInput(
            "cursor",
            "a cursor of an earlier reader (version 1), no longer taken: read the history again from its first page",
        )
    if not isinstance(decoded, dict):
        raise InvalidReadInput(
            "cursor",
            f"not a cursor the read API gave for this user's history (pass the page's cursor as it is), not {quoted(cursor)}",
        )
    return cast(str, cursor)


def checked_board_cursor(cursor: object) -> str | None:
    """A board page's cursor: base64url of a JSON object, as the API gives it (None: the first page)."""
    if cursor is None:
        return None
    if cursor == "":
        raise InvalidReadInput("cursor", "empty: leave it out for the first page")
    if not isinstance(cursor, str) or not isinstance(_cursor_json(cursor), dict):
        raise InvalidReadInput(
            "cursor",
            f"not a cursor the read API gave for a board page (pass the page's cursor as it is), not {quoted(cursor)}",
        )
    return cursor


@cache
def _zones() -> dict[str, str]:
    """The IANA zones this Python knows (the system's tz database, or the tzdata package), by lower-case name."""
    return {name.lower(): name for name in zoneinfo.available_timezones()}


def checked_time_zone(time_zone: object) -> str | None:
    """An IANA zone name (``Europe/Paris``, ``UTC``; its case forgiven), None for UTC."""
    if time_zone is None:
        return None
    if isinstance(time_zone, str) and time_zone != "":
        zones = _zones()
        if time_zone.lower() == "utc":
            return "UTC"
        known = zones.get(time_zone.lower())
        if known is not None:
            return known
        if not zones and re.fullmatch(r"[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*", time_zone):
            # No tz database here (Windows without the tzdata package): the API judges it.
            return time_zone
    raise InvalidReadInput(
        "timeZone", f'an IANA time zone such as "Europe/Paris" or "UTC", not {quoted(time_zone)}'
    )


def checked_week(week: object) -> str | None:
    """An ISO week that exists (``2026-W49``; ``2026-W53`` does, ``2025-W53`` does not), None for the current one."""
    if week is None:
        return None
    if isinstance(week, str):
        match = _WEEK_TEXT.fullmatch(week)
        if match and int(match[1]) >= 1970:
            try:
                datetime.date.fromisocalendar(int(match[1]), int(match[2]), 1)
                return week
            except ValueError:
                pass
    raise InvalidReadInput(
        "week", f'an ISO week such as "2026-W49" (a year, "-W", a week of that year), not {quoted(week)}'
    )


def iso_week_of(day: datetime.date) -> str:
    """The ISO week of a day, as the API writes it (``2026-W49``)."""
    year, week, _ = day.isocalendar()
    return f"{year:04d}-W{week:02d}"


def is_number(value: object) -> bool:
    """An int or a float, not a bool."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_whole(value: object, least: int, most: int) -> bool:
    """An int (not a bool) from ``least`` to ``most``."""
    return isinstance(value, int) and not isinstance(value, bool) and least <= value <= most


def http_url(value: object) -> urllib.parse.SplitResult | None:
    """The parts of an http(s) URL with a host, or None for anything else."""
    if not isinstance(value, str):
        return None
    parts = urllib.parse.urlsplit(value)
    return parts if parts.scheme in ("http", "https") and parts.hostname else None
