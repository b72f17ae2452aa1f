#!/usr/bin/env python3
"""Publish reading events (one JSON event per line) to the rewards queue with boto3.

    QUEUE_URL=https://sqs.us-east-1.amazonaws.com/123456789012/rewards-events \\
        python3 publish.py events.ndjson        # or - for standard input

Sends up to 10 events per SendMessageBatch call with the message attributes `type` and
`specversion`, retries the entries SQS failed on its side (SenderFault false) with
backoff, and prints one result per line. Exit code 0 when every line was sent, 1 when any
was not, 2 for usage errors. boto3 reads the region, credentials and (for a local stack)
AWS_ENDPOINT_URL_SQS from the environment. The event format is docs/events.md.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from typing import Any, Iterable

import boto3

MAX_BATCH_ENTRIES = 10
MAX_BATCH_BYTES = 1_048_576  # SQS: the whole batch, bodies plus attributes
MAX_ATTEMPTS = 5


def read_events(lines: Iterable[str]) -> tuple[list[tuple[int, dict[str, Any]]], list[tuple[int, str]]]:
    """(line number, event) for each JSON object line; (line number, error) for the others."""
    events, errors = [], []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as error:
            errors.append((number, f"not JSON: {error}"))
            continue
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            errors.append((number, "not an event: an object with a string `type` is expected"))
            continue
        events.append((number, event))
    return events, errors


def entry(number: int, event: dict[str, Any]) -> dict[str, Any]:
    return {
        "Id": str(number),
        "MessageBody": json.dumps(event, ensure_ascii=False, separators=(",", ":")),
        "MessageAttributes": {
            "type": {"DataType": "String", "StringValue": event["type"]},
            "specversion": {"DataType": "String", "StringValue": str(event.get("specversion", "1.0"))},
        },
    }


def entry_bytes(item: dict[str, Any]) -> int:
    size = len(item["MessageBody"].encode("utf-8"))
    for name, value in item["MessageAttributes"].items():
        size += len(name.encode()) + len(value["DataType"].encode()) + len(value["StringValue"].encode())
    return size


def batches(entries: list[dict[str, Any]]) -> Iterable[list[dict[str, Any]]]:
    batch: list[dict[str, Any]] = []
    size = 0
    for item in entries:
        item_size = entry_bytes(item)
        if batch and (len(batch) == MAX_BATCH_ENTRIES or size + item_size > MAX_BATCH_BYTES):
            yield batch
            batch, size = [], 0
        batch.append(item)
        size += item_size
    if batch:
        yield batch


def send(sqs: Any, queue_url: str, batch: list[dict[str, Any]]) -> dict[str, str | None]:
    """Line id → None when sent, or the error. Only entries SQS failed on its side are retried."""
    results: dict[str, str | None] = {}
    pending = batch
    for attempt in range(1, MAX_ATTEMPTS + 1):
        try:
            response = sqs.send_message_batch(QueueUrl=queue_url, Entries=pending)
        except Exception as error:  # the whole call failed: network, throttling, credentials
            if attempt == MAX_ATTEMPTS:
                results.update({item["Id"]: f"{type(error).__name__}: {error}" for item in pending})
                return results
            time.sleep(random.uniform(0, 0.05 * 2**attempt))
            continue
        for ok in response.get("Successful", []):
            results[ok["Id"]] = None
        retry = []
        for failed in response.get("Failed", []):
            if failed.get("SenderFault"):
                results[failed["Id"]] = f"{failed['Code']}: {failed.get('Message', 'rejected by SQS')}"
            else:
                retry.append(next(item for item in pending if item["Id"] == failed["Id"]))
        if not retry:
            return results
        pending = retry
        if attempt == MAX_ATTEMPTS:
            results.update({item["Id"]: "SQS kept failing this entry (server side)" for item in retry})
            return results
        time.sleep(random.uniform(0, 0.05 * 2**attempt))
    return results


def main(argv: list[str]) -> int:
    queue_url = os.environ.get("QUEUE_URL")
    if len(argv) > 2 or not queue_url:
        sys.stderr.write("usage: QUEUE_URL=... publish.py [FILE|-]\n")
        return 2
    path = argv[1] if len(argv) == 2 else "-"
    with (sys.stdin if path == "-" else open(path, encoding="utf-8")) as source:
        events, errors = read_events(source)
    sqs = boto3.client("sqs")
    results: dict[int, str | None] = {number: error for number, error in errors}
    for batch in batches([entry(number, event) for number, event in events]):
        for line_id, error in send(sqs, queue_url, batch).items():
            results[int(line_id)] = error
    for number in sorted(results):
        error = results[number]
        print(f"line {number}: {'ok' if error is None else f'error {error}'}")
    failed = sum(1 for error in results.values() if error is not None)
    print(f"{len(results) - failed} published, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
