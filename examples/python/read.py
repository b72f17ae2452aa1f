#!/usr/bin/env python3
"""Read rewards from the HTTP read API with the Python client (clients/python, `rewards_client`).

    READER_URL=https://abc123.lambda-url.eu-west-1.on.aws \\
        python3 read.py profile user123 [--time-zone Europe/Paris]
    READER_URL=... python3 read.py awards user123 [--limit 20] [--cursor C] [--all]
    READER_URL=... python3 read.py achievements user123
    READER_URL=... python3 read.py board [--week 2026-W49] [--limit 20] [--cursor C] [--all]
    READER_URL=... python3 read.py rules

Prints the JSON the API answers: one page, with its `cursor` when there is a next one (pass it
back with --cursor), or with --all every page joined ({"awards": [...]}, or {"week", "entries"}).
The deployed API is a Lambda function URL with IAM auth: each request is signed with SigV4
(service `lambda`, the URL's region) with the credentials botocore finds (environment,
profile, instance or task role); with none found it is sent unsigned, as `rewards dev`'s
loopback server (READER_URL) takes it. A throttled read (503, 429) is retried after its
Retry-After, three times. Exit code 0 on success, 1 when the API refuses or fails (its
problem's status, title and detail on stderr), 2 for usage errors: a bad argument, or an
input the client or the API refuses (`limit: an integer from 1 to 100, not 0`).

Needs the client (`python3 -m pip install ./clients/python`; from this repository it is found
without installing) and botocore to sign (`python3 -m pip install botocore`; it comes with boto3).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

if importlib.util.find_spec("rewards_client") is None:  # not installed: the client of this checkout
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python" / "src"))

from rewards_client import InvalidReadInput, Reader, ReadProblem, ReadUnavailable, RewardsError

try:
    import botocore.session
except ImportError:  # pragma: no cover - what a machine without botocore sees
    sys.stderr.write("read.py needs botocore to sign requests: python3 -m pip install botocore\n")
    sys.exit(2)


def reader_for(base_url: str) -> Reader:
    """Signed with the credentials botocore finds; unsigned without any (rewards dev)."""
    credentials = botocore.session.get_session().get_credentials()
    return Reader(base_url, sigv4=credentials is not None, credentials=credentials, retries=3)


def answer(reader: Reader, args: argparse.Namespace) -> dict[str, Any]:
    if args.command == "profile":
        return reader.profile(args.user_id, time_zone=args.time_zone).to_json()
    if args.command == "achievements":
        return reader.achievements(args.user_id).to_json()
    if args.command == "rules":
        return reader.rules().to_json()
    if args.command == "awards":
        if args.all:
            awards = list(reader.iter_history(args.user_id, page_size=args.limit, cursor=args.cursor))
            return {"awards": [award.to_json() for award in awards]}
        return reader.history(args.user_id, limit=args.limit, cursor=args.cursor).to_json()
    if args.all:
        first = reader.board(week=args.week, limit=args.limit, cursor=args.cursor)
        entries = [*first.entries]
        if first.cursor is not None:
            entries += reader.iter_board(week=first.week, page_size=args.limit, cursor=first.cursor)
        return {"week": first.week, "entries": [entry.to_json() for entry in entries]}
    return reader.board(week=args.week, limit=args.limit, cursor=args.cursor).to_json()


def parser_of() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="read.py",
        description="Read rewards from the HTTP read API at READER_URL (rewards dev prints it; deployed: the output readerUrl).",
        epilog="Prints the API's JSON. Signed with SigV4 (service lambda) with the credentials botocore finds, "
        "unsigned without any (rewards dev). Exit 0; 1 when the API refuses or fails; 2 for a usage error "
        "or an input refused (docs/reading.md).",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    profile = commands.add_parser(
        "profile", help="a reader's XP, awards, counts, streak, level, today against the cap and this week"
    )
    profile.add_argument("user_id")
    profile.add_argument(
        "--time-zone", help="the IANA zone the streak's today is read in, e.g. Europe/Paris (default: UTC)"
    )
    awards = commands.add_parser("awards", help="a reader's award history, newest first, a page at a time")
    awards.add_argument("user_id")
    achievements = commands.add_parser("achievements", help="a reader's achievements, newest first")
    achievements.add_argument("user_id")
    board = commands.add_parser("board", help="a week's board: most XP first, equal XP sharing a rank")
    board.add_argument("--week", help="the ISO week, e.g. 2026-W49 (default: this week)")
    commands.add_parser("rules", help="the rules in force: what each type pays, the achievements, the campaigns")
    for paged in (awards, board):
        paged.add_argument("--limit", type=int, help="entries per page, 1 to 100 (the API's default: 20)")
        paged.add_argument("--cursor", help="the previous page's cursor, as it printed it")
        paged.add_argument("--all", action="store_true", help="follow every cursor and print every entry")
    return parser


def main(argv: list[str]) -> int:
    args = parser_of().parse_args(argv)
    base = os.environ.get("READER_URL")
    if not base:
        print("read.py: READER_URL is required (rewards dev prints it; deployed: the output readerUrl)", file=sys.stderr)
        return 2
    try:
        result = answer(reader_for(base), args)
    except InvalidReadInput as error:
        print(f"read.py: {error}", file=sys.stderr)
        return 2
    except ReadProblem as error:
        print(f"read.py: {error}", file=sys.stderr)
        return 1
    except ReadUnavailable as error:
        print(f"read.py: {error}; is `rewards dev` running?", file=sys.stderr)
        return 1
    except RewardsError as error:
        print(f"read.py: {error}", file=sys.stderr)
        return 1
    print(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
