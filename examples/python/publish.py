#!/usr/bin/env python3
"""Publish reading events (one JSON event per line) to the rewards queue with the Python client.

    QUEUE_URL=https://sqs.us-east-1.amazonaws.com/123456789012/rewards-events \\
        python3 publish.py events.ndjson        # or - for standard input

The client (clients/python, `rewards_client`) checks each event's envelope, sends up to 10
events per SendMessageBatch call with the message attributes `type` and `specversion`, retries
the entries SQS failed on its side with backoff, and reports every event; this prints one
result per line. Exit code 0 when every line was sent, 1 when any was not, 2 for usage
errors. boto3 reads the region, credentials and (for a local stack) AWS_ENDPOINT_URL_SQS from
the environment. The event format is docs/events.md.

Needs the client (`python3 -m pip install ./clients/python`; from this repository it is found
without installing) and boto3.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, cast

if importlib.util.find_spec("rewards_client") is None:  # not installed: the client of this checkout
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python" / "src"))

from rewards_client import Publisher


def read_events(lines: Iterable[str]) -> tuple[list[tuple[int, dict[str, Any]]], list[tuple[int, str]]]:
    """(line number, event) for each JSON object line; (line number, error) for the others."""
    events: list[tuple[int, dict[str, Any]]] = []
    errors: list[tuple[int, str]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            event: object = json.loads(line)
        except json.JSONDecodeError as error:
            errors.append((number, f"not JSON: {error}"))
            continue
        if not isinstance(event, dict) or not isinstance(cast(dict[str, Any], event).get("type"), str):
            errors.append((number, "not an event: an object with a string `type` is expected"))
            continue
        events.append((number, cast(dict[str, Any], event)))
    return events, errors


def main(argv: list[str]) -> int:
    queue_url = os.environ.get("QUEUE_URL")
    if len(argv) > 2 or not queue_url:
        sys.stderr.write("usage: QUEUE_URL=... publish.py [FILE|-]\n")
        return 2
    path = argv[1] if len(argv) == 2 else "-"
    with sys.stdin if path == "-" else open(path, encoding="utf-8") as source:
        events, errors = read_events(source)
    report = Publisher(queue_url).publish([event for _, event in events])
    results: dict[int, str | None] = {number: error for number, error in errors}
    for (number, _), result in zip(events, report):
        results[number] = None if result.ok else f"{result.error_code}: {result.error_message}"
    for number in sorted(results):
        error = results[number]
        print(f"line {number}: {'ok' if error is None else f'error {error}'}")
    failed = sum(1 for error in results.values() if error is not None)
    print(f"{len(results) - failed} published, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
