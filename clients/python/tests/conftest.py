"""Fixtures: a stub HTTP server (http.server in a thread) and the environment of a real `rewards dev`.

`npm run test:python` starts `rewards dev`, passes its environment as REWARDS_DEV_ENV (the JSON
`rewards dev --json` prints) and sets REWARDS_REQUIRE_DEV=1, so the tests against it never skip
there. Run alone (`python3 -m pytest clients/python/tests`), they skip without a stack.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass
class Answer:
    status: int = 200
    body: bytes | str | Mapping[str, Any] | list[Any] = b""
    headers: dict[str, str] = field(default_factory=lambda: dict[str, str]())
    content_type: str = "application/json"


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]


class StubServer:
    """Answers each path (without its query) with the answers queued for it, the last one again
    and again; a 404 problem for a path with none. Records every request."""

    def __init__(self) -> None:
        self.answers: dict[str, list[Answer]] = {}
        self.received: list[Received] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                stub.received.append(
                    Received(self.command, self.path, {name.lower(): value for name, value in self.headers.items()})
                )
                queued = stub.answers.get(self.path.split("?", 1)[0])
                answer = (
                    (queued.pop(0) if len(queued) > 1 else queued[0])
                    if queued
                    else Answer(404, {"type": "https://rewards.dev/problems/not-found", "title": "No such resource", "status": 404, "detail": "stub"}, content_type="application/problem+json")
                )
                body = answer.body
                data = body if isinstance(body, bytes) else body.encode() if isinstance(body, str) else json.dumps(body).encode()
                self.send_response(answer.status)
                self.send_header("Content-Type", answer.content_type)
                self.send_header("Content-Length", str(len(data)))
                for name, value in answer.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)

    def answer(self, path: str, *answers: Answer) -> None:
        self.answers[path] = list(answers)


@pytest.fixture
def stub() -> Iterator[StubServer]:
    server = StubServer()
    server.thread.start()
    try:
        yield server
    finally:
        server.server.shutdown()
        server.server.server_close()


@pytest.fixture(scope="session")
def dev_env() -> dict[str, str]:
    """The environment `rewards dev` printed (READER_URL, QUEUE_URL, AWS_*), or a skip without one."""
    given = os.environ.get("REWARDS_DEV_ENV")
    if not given:
        if os.environ.get("REWARDS_REQUIRE_DEV"):
            pytest.fail("REWARDS_REQUIRE_DEV is set but REWARDS_DEV_ENV is not: run `npm run test:python`")
        pytest.skip("no rewards dev: `npm run test:python` starts one (REWARDS_DEV_ENV)")
    parsed: dict[str, str] = json.loads(given)
    return parsed
