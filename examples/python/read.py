#!/usr/bin/env python3
"""Read a user's rewards from the HTTP read API: the profile, or pages of the award history.

    READER_URL=https://abc123.lambda-url.eu-west-1.on.aws \\
        python3 read.py profile user123
    READER_URL=... python3 read.py awards user123 --limit 20        # one page
    READER_URL=... python3 read.py awards user123 --all             # every page, joined

Prints the JSON the API answers (for --all, {"awards": [...]} of every page). The API is a
Lambda function URL with IAM auth: each request is signed with SigV4 (service `lambda`) with
the credentials botocore finds (environment, profile, instance or task role). Locally,
`rewards dev` prints READER_URL, a plain-HTTP server on 127.0.0.1 that takes the request
signed or not. A throttled call (503) is retried after its Retry-After. Exit code 0 on
success, 1 when the API refuses or fails (its problem's title and detail on stderr),
2 for usage errors. The answers are described in docs/reading.md.

Needs botocore (for SigV4) and nothing else outside the standard library:
`python3 -m pip install botocore` (it comes with boto3: where boto3 is installed, so is it).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

try:
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.session import Session
except ImportError:  # pragma: no cover - what a machine without botocore sees
    sys.stderr.write("read.py needs botocore to sign requests: python3 -m pip install botocore\n")
    sys.exit(2)

MAX_ATTEMPTS = 4
TIMEOUT_SECONDS = 10


class ApiError(Exception):
    """The API's answer was not 200: its problem body (RFC 9457), or what was received."""

    def __init__(self, status: int, problem: dict[str, Any]):
        self.status = status
        self.problem = problem
        super().__init__(f"{status} {problem.get('title', 'error')}: {problem.get('detail', '')}".rstrip(": "))


def region_of(url: str) -> str:
    """The region a function URL names (…lambda-url.<region>.on.aws), else AWS_REGION."""
    host = urllib.parse.urlsplit(url).hostname or ""
    match = re.search(r"\.lambda-url\.([a-z0-9-]+)\.on\.aws$", host)
    if match:
        return match.group(1)
    return os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"


def signed_headers(url: str) -> dict[str, str]:
    """SigV4 headers for a GET of `url` with the credentials botocore finds; none without credentials."""
    credentials = Session().get_credentials()
    if credentials is None:
        return {}
    request = AWSRequest(method="GET", url=url)
    SigV4Auth(credentials.get_frozen_credentials(), "lambda", region_of(url)).add_auth(request)
    return dict(request.headers.items())


def get(url: str) -> dict[str, Any]:
    """GET `url` as JSON; a 503 is retried after its Retry-After; another status is an ApiError."""
    for attempt in range(1, MAX_ATTEMPTS + 1):
        # Signed afresh each attempt: a signature is only valid for a few minutes.
        request = urllib.request.Request(url, headers={"Accept": "application/json", **signed_headers(url)})
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as error:
            body = error.read()
            try:
                problem = json.loads(body)
            except ValueError:
                problem = {"title": error.reason, "detail": body.decode("utf-8", "replace")[:200]}
            if error.code == 503 and attempt < MAX_ATTEMPTS:
                time.sleep(float(error.headers.get("Retry-After") or attempt))
                continue
            raise ApiError(error.code, problem) from None
    raise AssertionError("unreachable")


def user_url(base: str, user_id: str, *rest: str) -> str:
    # The id is a path segment: quoted whole, so '/' or '#' in an id cannot change the route,
    # and an id of dots encoded too, or a client or proxy on the way would resolve it as a step up.
    segment = urllib.parse.quote(user_id, safe="")
    if segment in (".", ".."):
        segment = segment.replace(".", "%2E")
    return "/".join([base.rstrip("/"), "users", segment, *rest])


def awards_url(base: str, user_id: str, limit: int | None, cursor: str | None) -> str:
    query = {k: v for k, v in {"limit": limit, "cursor": cursor}.items() if v is not None}
    url = user_url(base, user_id, "awards")
    return f"{url}?{urllib.parse.urlencode(query)}" if query else url


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Read a user's rewards from the HTTP read API (READER_URL).")
    commands = parser.add_subparsers(dest="command", required=True)
    profile = commands.add_parser("profile", help="the user's XP, level and today against the cap")
    profile.add_argument("user_id")
    awards = commands.add_parser("awards", help="the user's award history, newest first")
    awards.add_argument("user_id")
    awards.add_argument("--limit", type=int, help="awards per page, 1 to 100 (the API's default: 20)")
    awards.add_argument("--cursor", help="the previous page's cursor")
    awards.add_argument("--all", action="store_true", help="follow every cursor and print all awards")
    args = parser.parse_args(argv)
    base = os.environ.get("READER_URL")
    if not base:
        print("read.py: READER_URL is required (rewards dev prints it; deployed: the output readerUrl)", file=sys.stderr)
        return 2
    try:
        if args.command == "profile":
            answer = get(user_url(base, args.user_id))
        elif not args.all:
            answer = get(awards_url(base, args.user_id, args.limit, args.cursor))
        else:
            joined: list[dict[str, Any]] = []
            cursor = args.cursor
            while True:
                page = get(awards_url(base, args.user_id, args.limit, cursor))
                joined.extend(page["awards"])
                cursor = page.get("cursor")
                if cursor is None:
                    break
            answer = {"awards": joined}
    except ApiError as error:
        print(f"read.py: {error}", file=sys.stderr)
        return 1
    except urllib.error.URLError as error:
        print(f"read.py: {base} cannot be reached ({error.reason}); is `rewards dev` running?", file=sys.stderr)
        return 1
    print(json.dumps(answer, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
