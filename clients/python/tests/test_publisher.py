"""The Publisher over a fake SQS client, and the event builders."""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from botocore.exceptions import ClientError

from rewards_client import (
    MAX_MESSAGE_BYTES,
    EventBuilders,
    InvalidEvent,
    InvalidPublisherOption,
    Publisher,
    article_completed,
    article_shared,
    event,
    new_event_id,
    signup_completed,
    streak_day,
)

QUEUE = "http://127.0.0.1:9324/000000000000/rewards-events"


class FakeSqs:
    """Answers each SendMessageBatch with ``answer(entries)``: every entry sent, unless it says otherwise."""

    def __init__(self, answer: Callable[[list[dict[str, Any]]], Mapping[str, Any]] | None = None) -> None:
        self.calls: list[list[dict[str, Any]]] = []
        self.answer = answer or self.all_sent

    @staticmethod
    def all_sent(entries: list[dict[str, Any]]) -> Mapping[str, Any]:
        return {"Successful": [{"Id": e["Id"], "MessageId": f"m-{e['Id']}"} for e in entries]}

    def send_message_batch(self, *, QueueUrl: str, Entries: list[dict[str, Any]]) -> Mapping[str, Any]:  # noqa: N803 - boto3's names
        assert QueueUrl == QUEUE
        self.calls.append(Entries)
        return self.answer(Entries)


def publisher(client: FakeSqs, **options: Any) -> Publisher:
    made = Publisher(QUEUE, client, **options)
    made._sleep = lambda seconds: None  # pyright: ignore[reportPrivateUsage]
    return made


def test_batches_of_ten_one_result_per_event_in_order() -> None:
    sqs = FakeSqs()
    events = [article_completed(f"u{i}", "a") for i in range(25)]
    report = publisher(sqs).publish(events)
    assert [len(call) for call in sqs.calls] == [10, 10, 5]
    assert report.ok and len(report) == 25 and report.failed == []
    assert [(r.index, r.id, r.message_id) for r in report] == [(i, e["id"], f"m-{i}") for i, e in enumerate(events)]
    entry = sqs.calls[0][0]
    assert json.loads(entry["MessageBody"]) == events[0]
    assert entry["MessageAttributes"] == {
        "type": {"DataType": "String", "StringValue": "article.completed"},
        "specversion": {"DataType": "String", "StringValue": "1.0"},
    }


def test_a_batch_stays_under_a_mebibyte() -> None:
    sqs = FakeSqs()
    big = [event("article.completed", {"userId": f"u{i}", "articleSlug": "a", "note": "x" * 400_000}) for i in range(5)]
    assert publisher(sqs).publish(big).ok
    assert [len(call) for call in sqs.calls] == [2, 2, 1]


def test_events_it_refuses_are_listed_never_sent() -> None:
    sqs = FakeSqs()
    good = signup_completed("u")
    oversized = event("article.completed", {"userId": "u", "articleSlug": "a", "note": "x" * MAX_MESSAGE_BYTES})
    no_data = {k: v for k, v in article_completed("u", "a").items() if k != "data"}
    cases: list[Any] = [
        good,
        oversized,
        no_data,
        {**good, "specversion": "0.3"},
        {**good, "id": ""},
        {**good, "time": "yesterday"},
        {**good, "data": {"userId": 7}},
        {**good, "data": {"userId": "u", "n": float("nan")}},
        {**good, "data": {"userId": "a\ud800"}},
        "not an event",
    ]
    report = publisher(sqs).publish(cases)
    assert [len(call) for call in sqs.calls] == [1]
    assert [(r.index, r.ok, r.error_code) for r in report] == [
        (0, True, None),
        (1, False, "MessageTooLong"),
        (2, False, "InvalidEvent"),
        (3, False, "InvalidEvent"),
        (4, False, "InvalidEvent"),
        (5, False, "InvalidEvent"),
        (6, False, "InvalidEvent"),
        (7, False, "InvalidEvent"),
        (8, False, "InvalidEvent"),
        (9, False, "InvalidEvent"),
    ]
    messages = [r.error_message or "" for r in report.failed]
    assert messages[0].startswith("the event is 1048") and messages[0].endswith("SQS takes at most 1048576")
    assert messages[1:8] == [
        "data: must be an object",
        "specversion: must be \"1.0\", not '0.3'",
        "id: must be 1 to 128 characters, not 0",
        "time: an RFC 3339 date-time such as 2026-11-29T10:00:00Z, not 'yesterday'",
        "data.userId: must be a string, not int",
        "not JSON: Out of range float values are not JSON compliant",
        "not well-formed Unicode: a lone surrogate",
    ]
    assert report.failed[0].id == oversized["id"] and report.failed[-1].id is None
    assert all(r.sender_fault for r in report.failed)


def test_what_sqs_refuses_is_listed_what_failed_on_its_side_is_sent_again() -> None:
    def answer(entries: list[dict[str, Any]]) -> Mapping[str, Any]:
        first = len(sqs.calls) == 1
        ids = [e["Id"] for e in entries]
        if first:
            return {
                "Successful": [{"Id": "0", "MessageId": "m0"}],
                "Failed": [
                    {"Id": "1", "SenderFault": True, "Code": "InvalidMessageContents", "Message": "Invalid characters"},
                    {"Id": "2", "SenderFault": False, "Code": "InternalError", "Message": "try again"},
                ],
            }
        assert ids == ["2"]
        return {"Successful": [{"Id": "2", "MessageId": "m2"}]}

    sqs = FakeSqs(answer)
    report = publisher(sqs).publish([signup_completed(f"u{i}") for i in range(3)])
    assert len(sqs.calls) == 2
    assert [(r.ok, r.message_id, r.error_code, r.sender_fault) for r in report] == [
        (True, "m0", None, None),
        (False, None, "InvalidMessageContents", True),
        (True, "m2", None, None),
    ]
    assert not report.ok and [r.index for r in report.failed] == [1]


def test_an_entry_that_keeps_failing_on_sqs_side_is_reported_after_the_attempts() -> None:
    sqs = FakeSqs(lambda entries: {"Failed": [{"Id": e["Id"], "SenderFault": False, "Code": "InternalError"} for e in entries]})
    report = publisher(sqs, max_attempts=4).publish([signup_completed("u")])
    assert len(sqs.calls) == 4
    assert (report[0].ok, report[0].error_code, report[0].sender_fault) == (False, "InternalError", False)
    assert report[0].error_message == "refused by SQS (after 4 attempts)"


def client_error(code: str, status: int) -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": f"{code}!"}, "ResponseMetadata": {"HTTPStatusCode": status}}, "SendMessageBatch")


def test_a_throttled_call_is_tried_again_a_refused_one_is_not() -> None:
    def throttled_once(entries: list[dict[str, Any]]) -> Mapping[str, Any]:
        if len(sqs.calls) == 1:
            raise client_error("ThrottlingException", 400)
        return {"Successful": [{"Id": e["Id"], "MessageId": "m"} for e in entries]}

    sqs = FakeSqs(throttled_once)
    assert publisher(sqs).publish([signup_completed("u")]).ok
    assert len(sqs.calls) == 2

    def missing(entries: list[dict[str, Any]]) -> Mapping[str, Any]:
        raise client_error("AWS.SimpleQueueService.NonExistentQueue", 400)

    sqs = FakeSqs(missing)
    report = publisher(sqs).publish([signup_completed("a"), signup_completed("b")])
    assert len(sqs.calls) == 1
    assert [(r.ok, r.error_code, r.sender_fault) for r in report] == [
        (False, "AWS.SimpleQueueService.NonExistentQueue", True)
    ] * 2

    def down(entries: list[dict[str, Any]]) -> Mapping[str, Any]:
        raise ConnectionError("connection refused")

    sqs = FakeSqs(down)
    report = publisher(sqs, max_attempts=2).publish([signup_completed("a")])
    assert len(sqs.calls) == 2
    assert (report[0].error_code, report[0].sender_fault) == ("ConnectionError", False)


def test_options() -> None:
    with pytest.raises(InvalidPublisherOption) as url:
        Publisher("rewards-events", FakeSqs())
    assert url.value.option == "queue_url"
    with pytest.raises(InvalidPublisherOption) as attempts:
        Publisher(QUEUE, FakeSqs(), max_attempts=0)
    assert attempts.value.option == "max_attempts"
    with pytest.raises(InvalidPublisherOption) as client:
        Publisher(QUEUE, object())  # type: ignore[arg-type]
    assert client.value.option == "client"
    with pytest.raises(InvalidEvent) as source:
        Publisher(QUEUE, FakeSqs(), source="")
    assert source.value.field == "source"


def test_the_builders_fill_the_envelope() -> None:
    completed = article_completed("user123", "idempotent-writes", source="/reader/web")
    assert set(completed) == {"specversion", "id", "source", "type", "time", "datacontenttype", "data"}
    assert (completed["specversion"], completed["source"], completed["type"], completed["datacontenttype"]) == (
        "1.0",
        "/reader/web",
        "article.completed",
        "application/json",
    )
    assert completed["data"] == {"userId": "user123", "articleSlug": "idempotent-writes"}
    assert re.fullmatch(r"evt-[0-9A-HJKMNP-TV-Z]{26}", completed["id"])
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", completed["time"])
    assert article_shared("u", "a", "mastodon")["data"] == {"userId": "u", "articleSlug": "a", "channel": "mastodon"}
    assert streak_day("u", datetime.date(2026, 2, 28))["data"] == {"userId": "u", "day": "2026-02-28"}
    assert streak_day("u", "2024-02-29")["data"]["day"] == "2024-02-29"
    assert signup_completed("u", event_id="evt-mine", time="2026-11-29t09:00:00z")["id"] == "evt-mine"
    paris = datetime.datetime(2026, 12, 5, 10, 30, tzinfo=datetime.timezone(datetime.timedelta(hours=1)))
    assert signup_completed("u", time=paris)["time"] == "2026-12-05T09:30:00.000Z"
    custom = event("podcast.listened", {"userId": "u", "podcast": "p1", "minutes": 12}, source="/audio")
    assert (custom["type"], custom["data"]["minutes"]) == ("podcast.listened", 12)
    bound = EventBuilders("/bound")
    assert bound.article_completed("u", "a")["source"] == "/bound"
    assert Publisher(QUEUE, FakeSqs(), source="/mine").events.signup_completed("u")["source"] == "/mine"


def test_ids_are_distinct_and_sortable_by_creation() -> None:
    ids = [new_event_id() for _ in range(2000)]
    assert len(set(ids)) == 2000 and ids == sorted(ids)


@pytest.mark.parametrize(
    ("build", "field"),
    [
        (lambda: article_completed("", "a"), "data.userId"),
        (lambda: article_completed("u" * 257, "a"), "data.userId"),
        (lambda: article_completed("a\udc00", "a"), "data.userId"),
        (lambda: article_completed("u", "s" * 513), "data.articleSlug"),
        (lambda: article_shared("u", "a", ""), "data.channel"),
        (lambda: streak_day("u", "2026-02-30"), "data.day"),
        (lambda: streak_day("u", "2026-2-3"), "data.day"),
        (lambda: streak_day("u", datetime.datetime(2026, 1, 1)), "data.day"),
        (lambda: signup_completed("u", time=datetime.datetime(2026, 1, 1)), "time"),
        (lambda: signup_completed("u", event_id="e" * 129), "id"),
        (lambda: signup_completed("u", source=""), "source"),
        (lambda: event("", {"userId": "u"}), "type"),
    ],
)
def test_the_builders_refuse_what_the_worker_would_park(build: Callable[[], object], field: str) -> None:
    with pytest.raises(InvalidEvent) as raised:
        build()
    assert raised.value.field == field
    assert str(raised.value).startswith(f"{field}: ")
