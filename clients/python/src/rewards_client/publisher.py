"""Publishing reading events to the rewards queue (SQS), ten to a SendMessageBatch call."""

from __future__ import annotations

import importlib
import json
import random
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from . import checks
from .errors import InvalidPublisherOption, MissingDependency
from .events import DEFAULT_SOURCE, EventBuilders

__all__ = ["Publisher", "PublishReport", "PublishResult", "SqsClient"]

#: SQS's limits: 10 entries a batch, 1 MiB for a message (body plus attributes) and for a batch.
MAX_BATCH_ENTRIES = 10
MAX_MESSAGE_BYTES = 1_048_576

_RFC3339 = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})"
)
_QUEUE_REGION = re.compile(r"^sqs\.([a-z0-9-]+)\.amazonaws\.com(\.cn)?$")
# Error codes a later call may not meet (AWS's throttling and server-side codes).
_TRANSIENT_CODES = {
    "Throttling",
    "ThrottlingException",
    "ThrottledException",
    "RequestThrottled",
    "RequestThrottledException",
    "TooManyRequestsException",
    "RequestLimitExceeded",
    "SlowDown",
    "RequestTimeout",
    "RequestTimeoutException",
    "InternalError",
    "InternalFailure",
    "ServiceUnavailable",
    "KmsThrottled",
}
_TRANSIENT_CLASSES = {
    "EndpointConnectionError",
    "ConnectionClosedError",
    "ConnectTimeoutError",
    "ReadTimeoutError",
    "ProxyConnectionError",
    "HTTPClientError",
}


class SqsClient(Protocol):
    """What the Publisher calls: a boto3 SQS client (``boto3.client("sqs")``) has it."""

    def send_message_batch(self, *, QueueUrl: str, Entries: list[dict[str, Any]]) -> Mapping[str, Any]: ...


@dataclass(frozen=True, kw_only=True, slots=True)
class PublishResult:
    """One event's outcome, at its ``index`` in the input: sent (``message_id``), or why not.

    ``error_code`` is SQS's (``InvalidMessageContents``…), the call's (a client error's code), or
    this client's: ``InvalidEvent`` (not an event: never sent), ``MessageTooLong`` (over SQS's
    1 MiB: never sent). ``sender_fault`` is True when sending it again as it is cannot succeed.
    """

    index: int
    id: str | None
    ok: bool
    message_id: str | None = None
    error_code: str | None = None
    error_message: str | None = None
    sender_fault: bool | None = None


@dataclass(frozen=True, slots=True)
class PublishReport:
    """Every event's result, in input order. Iterate it, or look at ``failed``: a partial failure
    is reported here, never raised."""

    results: list[PublishResult] = field(default_factory=lambda: list[PublishResult]())

    @property
    def ok(self) -> bool:
        """Whether every event was sent."""
        return all(result.ok for result in self.results)

    @property
    def sent(self) -> list[PublishResult]:
        return [result for result in self.results if result.ok]

    @property
    def failed(self) -> list[PublishResult]:
        return [result for result in self.results if not result.ok]

    def __iter__(self) -> Iterator[PublishResult]:
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    def __getitem__(self, index: int) -> PublishResult:
        return self.results[index]


@dataclass(slots=True)
class _Entry:
    index: int
    id: str
    body: str
    type: str
    specversion: str
    size: int

    def request(self) -> dict[str, Any]:
        return {
            "Id": str(self.index),
            "MessageBody": self.body,
            "MessageAttributes": {
                "type": {"DataType": "String", "StringValue": self.type},
                "specversion": {"DataType": "String", "StringValue": self.specversion},
            },
        }


class Publisher:
    """Publishes reading events to the rewards queue (the stage's ``queueUrl``; QUEUE_URL locally).

    ``client`` is your boto3 SQS client (region, endpoint, credentials, retries are its own);
    without one, boto3 (the ``publish`` extra) is imported and builds one from its own
    configuration (AWS_REGION, AWS_ENDPOINT_URL_SQS, credentials), in the region the queue's URL
    names. ``events`` has the builders bound to ``source``.

    ``publish(events)`` checks each event's envelope, sends them ten to a SendMessageBatch call
    (and at most 1 MiB a call) with the message attributes ``type`` and ``specversion``, retries
    what failed on SQS's side (up to ``max_attempts`` calls, with backoff), and returns every
    event's result in input order: a failed event is listed, never raised.
    """

    def __init__(
        self,
        queue_url: str,
        client: SqsClient | None = None,
        *,
        source: str = DEFAULT_SOURCE,
        max_attempts: int = 3,
    ) -> None:
        parts = checks.http_url(queue_url)
        if parts is None or not parts.hostname:
            raise InvalidPublisherOption("queue_url", f"the queue's URL (QUEUE_URL), not {queue_url!r:.64}")
        if not checks.is_whole(max_attempts, 1, 20):
            raise InvalidPublisherOption("max_attempts", f"a whole number from 1 to 20, not {max_attempts!r:.64}")
        if client is not None and not callable(getattr(client, "send_message_batch", None)):
            raise InvalidPublisherOption("client", f"an SQS client (boto3.client('sqs')), not {type(client).__name__}")
        self.queue_url = queue_url
        self.max_attempts = max_attempts
        self.events = EventBuilders(source)
        self._client: SqsClient = client if client is not None else _boto3_client(parts.hostname)
        # For tests: what a retry waits with (time.sleep).
        self._sleep: Callable[[float], None] = time.sleep

    def publish(self, events: Iterable[Mapping[str, Any]]) -> PublishReport:
        """Sends every event; one result per event, in input order."""
        results: dict[int, PublishResult] = {}
        entries: list[_Entry] = []
        for index, item in enumerate(events):
            entry = _entry_of(index, item)
            if isinstance(entry, PublishResult):
                results[index] = entry
            else:
                entries.append(entry)
        for batch in _batches(entries):
            for result in self._send(batch):
                results[result.index] = result
        return PublishReport([results[index] for index in sorted(results)])

    def _send(self, batch: list[_Entry]) -> list[PublishResult]:
        done: list[PublishResult] = []
        pending = {str(entry.index): entry for entry in batch}
        last_error: dict[str, tuple[str, str]] = {}
        for attempt in range(1, self.max_attempts + 1):
            if attempt > 1:
                self._sleep(random.uniform(0, min(1.0, 0.05 * 2**attempt)))
            try:
                response = self._client.send_message_batch(
                    QueueUrl=self.queue_url, Entries=[entry.request() for entry in pending.values()]
                )
            except Exception as error:  # the whole call: network, throttling, credentials, no such queue
                code, message, transient = _call_error(error)
                last_error = {key: (code, message) for key in pending}
                if transient:
                    continue
                done += [_failed(entry, code, message, True) for entry in pending.values()]
                return done
            for sent in cast(list[Mapping[str, Any]], response.get("Successful") or []):
                entry = pending.pop(str(sent.get("Id")), None)
                if entry is not None:
                    done.append(PublishResult(index=entry.index, id=entry.id, ok=True, message_id=str(sent.get("MessageId"))))
            for refused in cast(list[Mapping[str, Any]], response.get("Failed") or []):
                key = str(refused.get("Id"))
                code, message = str(refused.get("Code")), str(refused.get("Message") or "refused by SQS")
                if refused.get("SenderFault"):
                    entry = pending.pop(key, None)
                    if entry is not None:
                        done.append(_failed(entry, code, message, True))
                else:
                    last_error[key] = (code, message)
            if not pending:
                return done
        for key, entry in pending.items():
            code, message = last_error.get(key, ("Unanswered", "SQS did not say what became of this entry"))
            done.append(_failed(entry, code, f"{message} (after {self.max_attempts} attempts)", False))
        return done


def _boto3_client(host: str) -> SqsClient:
    try:
        boto3: Any = importlib.import_module("boto3")
    except ImportError:
        raise MissingDependency("boto3", "publish", "A Publisher without client=") from None
    region = _QUEUE_REGION.match(host)
    client: SqsClient = (
        boto3.client("sqs", region_name=region.group(1)) if region else boto3.client("sqs")
    )
    return client


def _failed(entry: _Entry, code: str, message: str, sender_fault: bool) -> PublishResult:
    return PublishResult(
        index=entry.index, id=entry.id, ok=False, error_code=code, error_message=message, sender_fault=sender_fault
    )


def _refused(index: int, event_id: str | None, code: str, message: str) -> PublishResult:
    return PublishResult(index=index, id=event_id, ok=False, error_code=code, error_message=message, sender_fault=True)


def _text_problem(value: object, most: int) -> str | None:
    if not isinstance(value, str):
        return f"must be a string, not {type(value).__name__}"
    if not 1 <= len(value) <= most:
        return f"must be 1 to {most} characters, not {len(value)}"
    return None


def _envelope_problem(event: Mapping[str, Any]) -> str | None:
    """What is wrong with an event's envelope (docs/events.md#the-envelope), or None. The type's
    own data is the worker's to judge (your published rules may define types this client does not know)."""
    if event.get("specversion") != "1.0":
        return f'specversion: must be "1.0", not {event.get("specversion")!r:.64}'
    for name, most in (("id", 128), ("source", 256), ("type", 256)):
        problem = _text_problem(event.get(name), most)
        if problem:
            return f"{name}: {problem}"
    moment = event.get("time")
    if moment is not None and not (isinstance(moment, str) and _RFC3339.fullmatch(moment)):
        return f"time: an RFC 3339 date-time such as 2026-11-29T10:00:00Z, not {moment!r:.64}"
    data = event.get("data")
    if not isinstance(data, Mapping):
        return "data: must be an object"
    problem = _text_problem(cast(Mapping[str, Any], data).get("userId"), 256)
    return f"data.userId: {problem}" if problem else None


def _entry_of(index: int, item: object) -> _Entry | PublishResult:
    if not isinstance(item, Mapping):
        return _refused(index, None, "InvalidEvent", f"not an event: a dict is expected, not {type(item).__name__}")
    event = cast(Mapping[str, Any], item)
    event_id = event.get("id") if isinstance(event.get("id"), str) else None
    problem = _envelope_problem(event)
    if problem:
        return _refused(index, event_id, "InvalidEvent", problem)
    try:
        body = json.dumps(event, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        size = len(body.encode("utf-8"))
    except UnicodeEncodeError:
        return _refused(index, event_id, "InvalidEvent", "not well-formed Unicode: a lone surrogate")
    except (TypeError, ValueError) as error:
        return _refused(index, event_id, "InvalidEvent", f"not JSON: {error}")
    entry = _Entry(index, cast(str, event_id), body, event["type"], event["specversion"], 0)
    for name, value in (("type", entry.type), ("specversion", entry.specversion)):
        size += len(name.encode("utf-8")) + len(b"String") + len(value.encode("utf-8"))
    entry.size = size
    if size > MAX_MESSAGE_BYTES:
        return _refused(
            index, event_id, "MessageTooLong", f"the event is {size} bytes; SQS takes at most {MAX_MESSAGE_BYTES}"
        )
    return entry


def _batches(entries: list[_Entry]) -> Iterator[list[_Entry]]:
    """Greedy batches of at most 10 entries and 1 MiB, in input order."""
    batch: list[_Entry] = []
    size = 0
    for entry in entries:
        if batch and (len(batch) == MAX_BATCH_ENTRIES or size + entry.size > MAX_MESSAGE_BYTES):
            yield batch
            batch, size = [], 0
        batch.append(entry)
        size += entry.size
    if batch:
        yield batch


def _call_error(error: Exception) -> tuple[str, str, bool]:
    """A failed call's code, message, and whether another try may succeed."""
    response: object = getattr(error, "response", None)
    code, status = type(error).__name__, 0
    if isinstance(response, Mapping):
        answer = cast(Mapping[str, Any], response)
        details: object = answer.get("Error")
        if isinstance(details, Mapping):
            code = str(cast(Mapping[str, Any], details).get("Code") or code)
        metadata: object = answer.get("ResponseMetadata")
        if isinstance(metadata, Mapping):
            status_value: object = cast(Mapping[str, Any], metadata).get("HTTPStatusCode")
            status = status_value if isinstance(status_value, int) else 0
    transient = (
        status >= 500
        or code in _TRANSIENT_CODES
        or type(error).__name__ in _TRANSIENT_CLASSES
        or isinstance(error, (ConnectionError, TimeoutError))
    )
    return code, str(error), transient
