#!/usr/bin/env python3
"""A consumer of rewards' announcements (reward.granted, reward.revoked, reward.achieved) with boto3.

    CONSUMER_QUEUE_URL=... python3 consume.py [--follow] [--state FILE]

Reads the queue a rule on the rewards bus fills with the CloudEvent alone (the recommended
production rule, `InputPath=$.detail`; locally, the CONSUMER_QUEUE_URL `rewards dev` prints;
EventBridge's envelope is read too). Delivery is at least once, so it deduplicates on `id`; a
`reward.revoked` undoes what the `reward.granted` of the same intentKey and awardedAt showed
(also when it arrives first); a `reward.achieved` is shown once and kept (nothing takes an
achievement back). It prints one line per message and, at the end, one JSON line: what it
handled, each user's XP as shown, and each user's achievements. A message is deleted only once handled; one it
cannot read is reported and left in the queue (visible again when this run ends) for the
queue's redrive policy. With --state FILE what it has seen and shown is kept across runs.
Exit code 0, 1 when any message was unreadable, 2 for usage errors. boto3 reads the region,
credentials and (locally) AWS_ENDPOINT_URL_SQS from the environment. The events are
documented in docs/events.md.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, cast

import boto3

TYPES = ("reward.granted", "reward.revoked", "reward.achieved")
DATA_FIELDS = {
    "reward.granted": ("userId", "intentKey", "awardedAt", "xp"),
    "reward.revoked": ("userId", "intentKey", "awardedAt", "xp"),
    "reward.achieved": ("userId", "achievement", "title"),
}


class Shown:
    """What this consumer has shown: the ids seen, each award by (intentKey, awardedAt), XP and achievements per user."""

    def __init__(self, state: dict[str, Any] | None = None) -> None:
        state = state or {}
        self.seen: set[str] = set(state.get("seen", []))
        # "intentKey\nawardedAt" -> {"userId", "xp", "revoked"}
        self.awards: dict[str, dict[str, Any]] = state.get("awards", {})
        # userId -> the achievement ids shown, in the order they arrived
        self.achievements: dict[str, list[str]] = state.get("achievements", {})

    def to_json(self) -> dict[str, Any]:
        return {"seen": sorted(self.seen), "awards": self.awards, "achievements": self.achievements}

    def xp_by_user(self) -> dict[str, int]:
        totals: dict[str, int] = {}
        for award in self.awards.values():
            totals.setdefault(award["userId"], 0)
            if award.get("granted") and not award.get("revoked"):
                totals[award["userId"]] += award["xp"]
        return dict(sorted(totals.items()))

    def handle(self, event: dict[str, Any]) -> str:
        """Applies one announcement; says what it did."""
        if event["id"] in self.seen:
            return f"duplicate {event['id']} (already handled)"
        self.seen.add(event["id"])
        data = event["data"]
        if event["type"] == "reward.achieved":
            # One id per user and achievement: a new id is a new achievement, and it is never taken back.
            self.achievements.setdefault(data["userId"], []).append(data["achievement"])
            return f"achieved {data['userId']} {data['achievement']} ({data['title']})"
        key = f"{data['intentKey']}\n{data['awardedAt']}"
        award = self.awards.setdefault(key, {"userId": data["userId"], "xp": data["xp"]})
        if event["type"] == "reward.granted":
            award["granted"] = True
            if award.get("revoked"):
                return f"granted {data['userId']} +{data['xp']} {data['intentKey']}: already revoked, not shown"
            return f"granted {data['userId']} +{data['xp']} {data['intentKey']}"
        award["revoked"] = True
        if not award.get("granted"):
            return f"revoked {data['userId']} {data['intentKey']} before its grant arrived: it will not be shown"
        return f"revoked {data['userId']} -{data['xp']} {data['intentKey']} ({data.get('reason', '')})"


def read_event(body: str) -> tuple[dict[str, Any] | None, str]:
    """(the announcement, "") or (None, why not)."""
    try:
        parsed: object = json.loads(body)
    except json.JSONDecodeError:
        return None, "the body is not JSON"
    if isinstance(parsed, dict) and "detail" in parsed:  # EventBridge's envelope (a rule without InputPath)
        parsed = cast(dict[str, object], parsed)["detail"]
    if not isinstance(parsed, dict):
        return None, "not a reward.granted, reward.revoked or reward.achieved"
    event = cast(dict[str, Any], parsed)
    if event.get("type") not in TYPES:
        return None, "not a reward.granted, reward.revoked or reward.achieved"
    data: object = event.get("data")
    if not isinstance(event.get("id"), str) or not isinstance(data, dict):
        return None, f"a {event['type']} without an id or data"
    missing = [field for field in DATA_FIELDS[event["type"]] if field not in data]
    if missing:
        return None, f"a {event['type']} whose data lacks {', '.join(missing)}"
    return event, ""


def main(argv: list[str]) -> int:
    args = argv[1:]
    follow = "--follow" in args
    state_path = None
    if "--state" in args:
        index = args.index("--state")
        if index + 1 >= len(args):
            args = ["--usage"]
        else:
            state_path = args[index + 1]
            del args[index : index + 2]
    args = [arg for arg in args if arg != "--follow"]
    queue_url = os.environ.get("CONSUMER_QUEUE_URL")
    if args or not queue_url:
        sys.stderr.write("usage: CONSUMER_QUEUE_URL=... consume.py [--follow] [--state FILE]\n")
        return 2
    shown = Shown(json.load(open(state_path, encoding="utf-8")) if state_path and os.path.exists(state_path) else None)
    sqs = boto3.client("sqs")
    counts = {"handled": 0, "duplicates": 0, "unreadable": 0}
    left: dict[str, str] = {}  # message id -> receipt handle, released at the end
    try:
        while True:
            response = sqs.receive_message(
                QueueUrl=queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=20 if follow else 1, VisibilityTimeout=60
            )
            messages = response.get("Messages", [])
            if not messages and not follow:
                break
            for message in messages:
                event, problem = read_event(message["Body"])
                if event is None:
                    if message["MessageId"] not in left:
                        counts["unreadable"] += 1
                        print(f"message {message['MessageId']}: {problem}; left in the queue")
                    left[message["MessageId"]] = message["ReceiptHandle"]
                    continue
                duplicate = event["id"] in shown.seen
                print(shown.handle(event))
                counts["duplicates" if duplicate else "handled"] += 1
                if state_path:  # saved before the delete: a crash between them only brings a duplicate
                    with open(state_path, "w", encoding="utf-8") as file:
                        json.dump(shown.to_json(), file)
                sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=message["ReceiptHandle"])
    except KeyboardInterrupt:
        pass
    finally:
        for receipt in left.values():
            sqs.change_message_visibility(QueueUrl=queue_url, ReceiptHandle=receipt, VisibilityTimeout=0)
    achievements = dict(sorted(shown.achievements.items()))
    print(json.dumps({**counts, "xp": shown.xp_by_user(), "achievements": achievements}, separators=(",", ":")))
    return 1 if counts["unreadable"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
