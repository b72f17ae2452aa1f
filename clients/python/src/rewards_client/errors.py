"""The client's exceptions: every one a RewardsError, to catch all of them at once.

Switch on the class and its fields, never on the message (which is for people):

    RewardsError
    ├── InvalidReadInput      bad input to a read (``parameter``), raised before any request;
    │                         or the API's 400 naming a parameter (then ``problem`` is its body)
    ├── InvalidReaderOption   Reader(...) refused an option (``option``)
    ├── InvalidPublisherOption  Publisher(...) refused an option (``option``)
    ├── InvalidEvent          an event builder refused a field (``field``)
    ├── MissingDependency     an optional package is not installed (``package``, ``extra``)
    ├── ReadProblem           the API answered an error status: ``status``, ``problem`` (its
    │   │                     RFC 9457 problem+json body, kept whole), ``type``, ``title``, ``detail``
    │   ├── ReadNotFound      404: no such resource (a base URL or path the API does not serve)
    │   └── ThrottledRead     503 or 429: try again after ``retry_after`` seconds
    ├── ReadUnavailable       the API could not be reached (refused, timed out, DNS)
    └── UnexpectedResponse    a 200 whose body is not the contract's JSON
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: What ``InvalidReadInput.parameter`` names (the TypeScript reader's READ_PARAMETERS). More may
#: join the list: give a switch on it a default.
READ_PARAMETERS = ("userId", "limit", "cursor", "timeZone", "week")

#: The prefix of the read API's problem types (``https://rewards.dev/problems/invalid-parameter``…).
PROBLEM_BASE = "https://rewards.dev/problems/"


class RewardsError(Exception):
    """The base of every error this client raises."""


class InvalidReadInput(RewardsError, ValueError):
    """A read's input refused: by this client before any request, or by the API (a 400).

    ``parameter`` is one of READ_PARAMETERS (``"userId"``, ``"limit"``, ``"cursor"``,
    ``"timeZone"``, ``"week"``); the message starts with it (``limit: an integer from 1 to 100,
    not 0``). ``problem`` is the API's problem document when the API refused it, else None.
    """

    def __init__(self, parameter: str, detail: str, problem: Mapping[str, Any] | None = None) -> None:
        self.parameter = parameter
        self.detail = detail
        self.problem: dict[str, Any] | None = dict(problem) if problem is not None else None
        super().__init__(f"{parameter}: {detail}")


class InvalidReaderOption(RewardsError, ValueError):
    """An option of Reader(...) refused when the reader is made: ``option`` names it."""

    def __init__(self, option: str, detail: str) -> None:
        self.option = option
        self.detail = detail
        super().__init__(f"{option}: {detail}")


class InvalidPublisherOption(RewardsError, ValueError):
    """An option of Publisher(...) refused when the publisher is made: ``option`` names it."""

    def __init__(self, option: str, detail: str) -> None:
        self.option = option
        self.detail = detail
        super().__init__(f"{option}: {detail}")


class InvalidEvent(RewardsError, ValueError):
    """An event builder refused a field (``field``: ``userId``, ``articleSlug``, ``day``…)."""

    def __init__(self, field: str, detail: str) -> None:
        self.field = field
        self.detail = detail
        super().__init__(f"{field}: {detail}")


class MissingDependency(RewardsError, ImportError):
    """An optional package this use needs is not installed: ``pip install 'rewards-client[extra]'``."""

    def __init__(self, package: str, extra: str, needed_for: str) -> None:
        self.package = package
        self.extra = extra
        super().__init__(
            f"{needed_for} needs {package}, which is not installed: "
            f"python3 -m pip install {package} (or rewards-client[{extra}])",
            name=package,
        )


class ReadProblem(RewardsError):
    """The read API answered an error status. ``problem`` is its problem+json body, kept whole.

    An answer without a problem body (a 403 from AWS before the function: unsigned, or a
    principal the stage does not list) gets one made of its status and text.
    """

    def __init__(self, status: int, problem: Mapping[str, Any], headers: Mapping[str, str] | None = None) -> None:
        self.status = status
        self.problem: dict[str, Any] = dict(problem)
        self.headers: dict[str, str] = dict(headers or {})
        title = self.title or f"HTTP {status}"
        super().__init__(f"{status} {title}: {self.detail}" if self.detail else f"{status} {title}")

    @property
    def type(self) -> str | None:
        """The problem's type URI (``https://rewards.dev/problems/unavailable``), if it has one."""
        value = self.problem.get("type")
        return value if isinstance(value, str) else None

    @property
    def title(self) -> str | None:
        value = self.problem.get("title")
        return value if isinstance(value, str) else None

    @property
    def detail(self) -> str | None:
        value = self.problem.get("detail")
        return value if isinstance(value, str) else None


class ReadNotFound(ReadProblem):
    """404: the path is not one the API serves (an unknown user is never one: it is a new reader)."""


class ThrottledRead(ReadProblem):
    """503 (the table could not be read just now) or 429 (too many requests): try again.

    ``retry_after`` is the seconds the answer's Retry-After asks to wait (None without one).
    """

    def __init__(
        self,
        status: int,
        problem: Mapping[str, Any],
        headers: Mapping[str, str] | None = None,
        retry_after: float | None = None,
    ) -> None:
        self.retry_after = retry_after
        super().__init__(status, problem, headers)


class ReadUnavailable(RewardsError, ConnectionError):
    """The read API did not answer: connection refused, a timeout, a name that does not resolve."""


class UnexpectedResponse(RewardsError):
    """A 200 whose body is not the JSON the contract describes (``status``, ``body``: its first 500 characters)."""

    def __init__(self, message: str, status: int, body: str) -> None:
        self.status = status
        self.body = body[:500]
        super().__init__(message)
