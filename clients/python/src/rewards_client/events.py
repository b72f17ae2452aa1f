"""Reading events (docs/events.md): builders that fill the CloudEvents envelope.

Each builder returns the event as a dict, exactly the JSON a producer sends
(``json.dumps(event)``), as the TypeScript producer's builders do: ``specversion`` "1.0", a
fresh sortable ``id`` (``evt-`` + a ULID), ``source``, ``type``, ``time`` (now, UTC, RFC 3339
with milliseconds), ``datacontenttype`` and ``data``. The caller says only what happened.

    from rewards_client import article_completed
    event = article_completed("user123", "idempotent-writes", source="/reader/web")

``event(type, data)`` builds one of any type your published rules define (docs/rules.md).
"""

from __future__ import annotations

import datetime
import os
import re
import threading
import time as _time
from collections.abc import Mapping
from typing import Any, TypedDict

from .errors import InvalidEvent

#: The ``source`` a builder fills in when none is given (the TypeScript publisher's default).
DEFAULT_SOURCE = "/rewards/producer"

_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


class RewardEvent(TypedDict):
    """A reading event as the builders make it (CloudEvents 1.0, structured mode). ``publish``
    takes any dict of this shape; ``time`` and ``datacontenttype`` are optional there."""

    specversion: str
    id: str
    source: str
    type: str
    time: str
    datacontenttype: str
    data: dict[str, Any]


class _Ulid:
    """Monotonic ULIDs: 48 bits of milliseconds, then 80 random bits, incremented within one millisecond."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last_ms = -1
        self._random = 0

    def next(self) -> str:
        with self._lock:
            ms = int(_time.time() * 1000)
            if ms <= self._last_ms and self._random < (1 << 80) - 1:
                ms = self._last_ms
                self._random += 1
            else:
                self._random = int.from_bytes(os.urandom(10), "big")
            self._last_ms = ms
            value = (ms << 80) | self._random
        return "".join(_CROCKFORD[(value >> shift) & 31] for shift in range(125, -1, -5))


_ulid = _Ulid()


def new_event_id() -> str:
    """A new emission id: ``evt-`` + a ULID, sortable by creation time."""
    return f"evt-{_ulid.next()}"


def utc_now() -> str:
    """Now, as the builders write ``time``: ``2026-12-02T13:52:28.123Z``."""
    return _instant(datetime.datetime.now(datetime.timezone.utc))


def _instant(moment: datetime.datetime) -> str:
    utc = moment.astimezone(datetime.timezone.utc)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


def _text(value: object, field: str, most: int) -> str:
    if not isinstance(value, str):
        raise InvalidEvent(field, f"must be a string, not {type(value).__name__}")
    if any(0xD800 <= ord(char) <= 0xDFFF for char in value):
        raise InvalidEvent(field, "must be well-formed Unicode (no lone surrogates)")
    if not 1 <= len(value) <= most:
        raise InvalidEvent(field, f"must be 1 to {most} characters, not {len(value)}")
    return value


def _time_of(value: str | datetime.datetime | None) -> str:
    if value is None:
        return utc_now()
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise InvalidEvent("time", "a datetime with its time zone (datetime.now(timezone.utc)), not a naive one")
        return _instant(value)
    return _text(value, "time", 64)


def _day_of(value: object) -> str:
    if isinstance(value, datetime.datetime):
        raise InvalidEvent("data.day", "a calendar day (a date or YYYY-MM-DD), not a datetime")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, str) and _DAY.fullmatch(value):
        try:
            datetime.date.fromisoformat(value)
            return value
        except ValueError:
            pass
    raise InvalidEvent("data.day", f"a real calendar day, YYYY-MM-DD, not {value!r:.64}")


def event(
    type: str,
    data: Mapping[str, Any],
    *,
    source: str = DEFAULT_SOURCE,
    event_id: str | None = None,
    time: str | datetime.datetime | None = None,
) -> RewardEvent:
    """An event of any type (the built-in four, or one your published rules define): ``data``
    holds ``userId`` and the type's own fields. ``time`` is when it happened (default: now)."""
    body = dict(data)
    _text(body.get("userId"), "data.userId", 256)
    return {
        "specversion": "1.0",
        "id": new_event_id() if event_id is None else _text(event_id, "id", 128),
        "source": _text(source, "source", 256),
        "type": _text(type, "type", 256),
        "time": _time_of(time),
        "datacontenttype": "application/json",
        "data": body,
    }


def article_completed(
    user_id: str,
    article_slug: str,
    *,
    source: str = DEFAULT_SOURCE,
    event_id: str | None = None,
    time: str | datetime.datetime | None = None,
) -> RewardEvent:
    """``article.completed``: a reader finished an article (20 XP, once per user and article)."""
    data = {"userId": user_id, "articleSlug": _text(article_slug, "data.articleSlug", 512)}
    return event("article.completed", data, source=source, event_id=event_id, time=time)


def article_shared(
    user_id: str,
    article_slug: str,
    channel: str,
    *,
    source: str = DEFAULT_SOURCE,
    event_id: str | None = None,
    time: str | datetime.datetime | None = None,
) -> RewardEvent:
    """``article.shared``: a reader shared an article on a channel (5 XP, once per user, article and channel)."""
    data = {
        "userId": user_id,
        "articleSlug": _text(article_slug, "data.articleSlug", 512),
        "channel": _text(channel, "data.channel", 64),
    }
    return event("article.shared", data, source=source, event_id=event_id, time=time)


def streak_day(
    user_id: str,
    day: str | datetime.date,
    *,
    source: str = DEFAULT_SOURCE,
    event_id: str | None = None,
    time: str | datetime.datetime | None = None,
) -> RewardEvent:
    """``streak.day``: a reader came back on ``day``, their calendar day (10 XP, once per user and day)."""
    data = {"userId": user_id, "day": _day_of(day)}
    return event("streak.day", data, source=source, event_id=event_id, time=time)


def signup_completed(
    user_id: str,
    *,
    source: str = DEFAULT_SOURCE,
    event_id: str | None = None,
    time: str | datetime.datetime | None = None,
) -> RewardEvent:
    """``signup.completed``: a reader signed up (100 XP, once per user, ever)."""
    return event("signup.completed", {"userId": user_id}, source=source, event_id=event_id, time=time)


class EventBuilders:
    """The builders bound to one ``source`` (a Publisher's ``events``)."""

    def __init__(self, source: str = DEFAULT_SOURCE) -> None:
        self.source = _text(source, "source", 256)

    def event(
        self,
        type: str,
        data: Mapping[str, Any],
        *,
        event_id: str | None = None,
        time: str | datetime.datetime | None = None,
    ) -> RewardEvent:
        return event(type, data, source=self.source, event_id=event_id, time=time)

    def article_completed(
        self, user_id: str, article_slug: str, *, event_id: str | None = None, time: str | datetime.datetime | None = None
    ) -> RewardEvent:
        return article_completed(user_id, article_slug, source=self.source, event_id=event_id, time=time)

    def article_shared(
        self,
        user_id: str,
        article_slug: str,
        channel: str,
        *,
        event_id: str | None = None,
        time: str | datetime.datetime | None = None,
    ) -> RewardEvent:
        return article_shared(user_id, article_slug, channel, source=self.source, event_id=event_id, time=time)

    def streak_day(
        self,
        user_id: str,
        day: str | datetime.date,
        *,
        event_id: str | None = None,
        time: str | datetime.datetime | None = None,
    ) -> RewardEvent:
        return streak_day(user_id, day, source=self.source, event_id=event_id, time=time)

    def signup_completed(
        self, user_id: str, *, event_id: str | None = None, time: str | datetime.datetime | None = None
    ) -> RewardEvent:
        return signup_completed(user_id, source=self.source, event_id=event_id, time=time)
