"""The read API's client: a reader's profile, history, achievements, the week's board and the rules."""

from __future__ import annotations

import email.utils
import http.client
import json
import random
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar, cast

from . import checks
from ._sigv4 import SigV4Signer, region_of
from .errors import (
    InvalidReaderOption,
    InvalidReadInput,
    ReadNotFound,
    ReadProblem,
    ReadUnavailable,
    ThrottledRead,
    UnexpectedResponse,
)
from .models import Achievements, Board, BoardEntry, HistoryAward, HistoryPage, Profile, Rules

__all__ = ["Reader"]

VERSION = "0.1.0"
T = TypeVar("T")


class Reader:
    """The HTTP read API (docs/reading.md#the-http-read-api) at ``base_url``.

    ``base_url`` is READER_URL: the stage's output ``readerUrl`` (a Lambda function URL), an
    API Gateway stage's URL, or ``rewards dev``'s loopback server. A deployed API has IAM auth:
    pass ``sigv4=True`` to sign every request with SigV4 (botocore, the ``sigv4`` extra), as
    ``service`` (``lambda`` for a function URL, ``execute-api`` for API Gateway) in ``region``
    (default: the one the URL names, else AWS_REGION), with ``credentials`` (botocore's; default:
    the ones botocore finds). ``rewards dev`` takes requests signed or not.

    Every call checks its input first (InvalidReadInput, nothing sent), then makes one GET
    (``timeout`` seconds). A 503 or 429 is ThrottledRead; with ``retries`` > 0 it is retried that
    many times after its Retry-After (at most ``max_retry_wait`` seconds each) before it is raised.
    """

    def __init__(
        self,
        base_url: str,
        *,
        sigv4: bool = False,
        service: str = "lambda",
        region: str | None = None,
        credentials: object | None = None,
        timeout: float = 10.0,
        retries: int = 0,
        max_retry_wait: float = 30.0,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        parts = checks.http_url(base_url)
        if parts is None or parts.query or parts.fragment:
            raise InvalidReaderOption(
                "base_url", f"an http(s) URL such as READER_URL, without query or fragment, not {checks.quoted(base_url)}"
            )
        if not checks.is_number(timeout) or not timeout > 0:
            raise InvalidReaderOption("timeout", f"seconds, a number above 0, not {checks.quoted(timeout)}")
        if not checks.is_whole(retries, 0, 10):
            raise InvalidReaderOption("retries", f"a whole number from 0 to 10, not {checks.quoted(retries)}")
        if not checks.is_number(max_retry_wait) or max_retry_wait < 0:
            raise InvalidReaderOption("max_retry_wait", f"seconds, 0 or more, not {checks.quoted(max_retry_wait)}")
        self.base_url = base_url.rstrip("/")
        self.timeout = float(timeout)
        self.retries = retries
        self.max_retry_wait = float(max_retry_wait)
        self._headers = {"Accept": "application/json", "User-Agent": f"rewards-client-python/{VERSION}", **(headers or {})}
        self._signer: SigV4Signer | None = None
        if sigv4:
            signing_region = region or region_of(base_url)
            if not signing_region:
                raise InvalidReaderOption(
                    "region", "SigV4 needs a region: give region=, or set AWS_REGION (the URL names none)"
                )
            self._signer = SigV4Signer(service, signing_region, credentials)
        # For tests: what a retry waits with (time.sleep).
        self._sleep: Callable[[float], None] = time.sleep

    def __repr__(self) -> str:
        signed = f", sigv4={self._signer.service}/{self._signer.region}" if self._signer else ""
        return f"Reader({self.base_url!r}{signed})"

    # The routes.

    def profile(self, user_id: str, time_zone: str | None = None) -> Profile:
        """``GET /users/{userId}``: XP, awards, counts, streak (``current`` read in ``time_zone``,
        an IANA name, UTC when None), level, today and the week. An unknown user is a new reader."""
        user = checks.checked_user_id(user_id)
        zone = checks.checked_time_zone(time_zone)
        return self._get(_user_path(user), {"timeZone": zone}, Profile.from_json)

    def history(self, user_id: str, limit: int | None = None, cursor: str | None = None) -> HistoryPage:
        """``GET /users/{userId}/awards``: one page of awards, newest first (``limit`` 1–100, the
        API's default 20); pass the page's ``cursor`` back for the next (None on the last page)."""
        user = checks.checked_user_id(user_id)
        page_limit = checks.checked_limit(limit)
        after = checks.checked_cursor(cursor)
        return self._get(
            f"{_user_path(user)}/awards",
            {"limit": None if page_limit is None else str(page_limit), "cursor": after},
            HistoryPage.from_json,
        )

    def iter_history(
        self, user_id: str, page_size: int | None = None, cursor: str | None = None
    ) -> Iterator[HistoryAward]:
        """Every award of the history, newest first (from ``cursor``'s page), page after page, each page one request."""
        while True:
            page = self.history(user_id, limit=page_size, cursor=cursor)
            yield from page.awards
            if page.cursor is None:
                return
            cursor = page.cursor

    def achievements(self, user_id: str) -> Achievements:
        """``GET /users/{userId}/achievements``: every achievement earned, newest first."""
        user = checks.checked_user_id(user_id)
        return self._get(f"{_user_path(user)}/achievements", {}, Achievements.from_json)

    def board(self, week: str | None = None, limit: int | None = None, cursor: str | None = None) -> Board:
        """``GET /board``: one page of an ISO week's board (``2026-W49``; None: the current week, or
        the cursor's), most XP first; ``limit`` 1–100 (default 20); ``cursor`` as the history's."""
        asked = checks.checked_week(week)
        page_limit = checks.checked_limit(limit)
        after = checks.checked_board_cursor(cursor)
        return self._get(
            "board",
            {"week": asked, "limit": None if page_limit is None else str(page_limit), "cursor": after},
            Board.from_json,
        )

    def iter_board(
        self, week: str | None = None, page_size: int | None = None, cursor: str | None = None
    ) -> Iterator[BoardEntry]:
        """Every entry of a week's board (the top 1,000 ranks; from ``cursor``'s page), page after page."""
        while True:
            page = self.board(week=week, limit=page_size, cursor=cursor)
            yield from page.entries
            if page.cursor is None:
                return
            cursor = page.cursor

    def rules(self) -> Rules:
        """``GET /rules``: the rules version in force, what each type pays, the achievements and the
        running and coming campaigns (SPEC §15d). An API older than the route: ReadNotFound."""
        return self._get("rules", {}, Rules.from_json)

    # One request.

    def _get(self, path: str, query: Mapping[str, str | None], parse: Callable[[object], T]) -> T:
        given = {name: value for name, value in query.items() if value is not None}
        url = f"{self.base_url}/{path}"
        if given:
            url += "?" + urllib.parse.urlencode(given, quote_via=urllib.parse.quote, safe="")
        attempt = 0
        while True:
            try:
                status, body = self._send(url)
            except ThrottledRead as throttled:
                if attempt >= self.retries:
                    raise
                attempt += 1
                backoff = random.uniform(0, min(self.max_retry_wait, 0.25 * 2**attempt))
                wait = throttled.retry_after if throttled.retry_after is not None else backoff
                self._sleep(min(wait, self.max_retry_wait))
                continue
            try:
                return parse(json.loads(body.decode("utf-8")))
            except ValueError as error:  # not JSON, or not the contract's shape
                raise UnexpectedResponse(
                    f"the read API's answer to GET /{path} is not the contract's: {error}",
                    status,
                    body.decode("utf-8", "replace"),
                ) from None

    def _send(self, url: str) -> tuple[int, bytes]:
        headers = dict(self._headers)
        if self._signer is not None:
            headers = self._signer.sign("GET", url, headers)
        request = urllib.request.Request(url, headers=headers, method="GET")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return int(response.status), cast(bytes, response.read())
        except urllib.error.HTTPError as error:
            with error:
                body = error.read()
            raise _error_of(error.code, str(error.reason), body, dict(error.headers.items())) from None
        except (urllib.error.URLError, TimeoutError, ConnectionError, http.client.HTTPException) as error:
            reason = error.reason if isinstance(error, urllib.error.URLError) else error
            raise ReadUnavailable(f"the read API at {self.base_url} did not answer: {reason}") from None


def _user_path(user_id: str) -> str:
    # One path segment, whole: '/', '?' or '#' in an id cannot change the route, and the ids
    # '.' and '..' encoded too, or a client or proxy on the way would resolve them as steps.
    segment = urllib.parse.quote(user_id, safe="")
    if segment in (".", ".."):
        segment = segment.replace(".", "%2E")
    return f"users/{segment}"


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """Retry-After in seconds: a number of seconds, or an HTTP date (seconds from now, at least 0)."""
    if value is None:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def _error_of(status: int, reason: str, body: bytes, headers: dict[str, str]) -> Exception:
    """The exception an error answer raises, its problem+json body kept whole."""
    text = body.decode("utf-8", "replace")
    problem: dict[str, Any]
    try:
        parsed: object = json.loads(text)
    except ValueError:
        parsed = None
    if isinstance(parsed, dict):
        problem = cast(dict[str, Any], parsed)
    else:
        # No problem body: an answer from AWS itself (a 403 for an unsigned request), or a proxy's.
        problem = {"title": reason or f"HTTP {status}", "status": status}
        if text.strip():
            problem["detail"] = text.strip()[:500]
    lower = {name.lower(): value for name, value in headers.items()}
    parameter = problem.get("parameter")
    if status == 400 and isinstance(parameter, str):
        detail = problem.get("detail")
        detail = detail if isinstance(detail, str) else "refused by the read API"
        # The API's detail starts with the parameter (`limit: …`), as this client's own do.
        if detail.startswith(f"{parameter}: "):
            detail = detail[len(parameter) + 2 :]
        return InvalidReadInput(parameter, detail, problem)
    if status == 404:
        return ReadNotFound(status, problem, headers)
    if status in (429, 503):
        return ThrottledRead(status, problem, headers, retry_after_seconds(lower.get("retry-after")))
    return ReadProblem(status, problem, headers)
