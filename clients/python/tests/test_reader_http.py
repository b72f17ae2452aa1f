"""The Reader over a stub HTTP server: GET /rules, the problems, Retry-After, SigV4."""

from __future__ import annotations

import email.utils
import re
import socket
import time
from typing import Any

import pytest
from conftest import Answer, StubServer
from test_models import ACHIEVEMENTS, BOARD, HISTORY, PROFILE, RULES, with_unknown_fields

from rewards_client import (
    InvalidReaderOption,
    InvalidReadInput,
    Reader,
    ReadNotFound,
    ReadProblem,
    ReadUnavailable,
    RewardsError,
    Rules,
    ThrottledRead,
    UnexpectedResponse,
)
from rewards_client.reader import retry_after_seconds

PROBLEM = "application/problem+json"


def unavailable(retry_after: str | None = "1") -> Answer:
    body = {
        "type": "https://rewards.dev/problems/unavailable",
        "title": "Temporarily unavailable",
        "status": 503,
        "detail": "the rewards table could not be read just now; try again shortly",
    }
    return Answer(503, body, {"Retry-After": retry_after} if retry_after else {}, PROBLEM)


def test_rules_reads_get_rules_in_the_spec_shape_and_ignores_what_it_does_not_know(stub: StubServer) -> None:
    stub.answer("/rules", Answer(body=with_unknown_fields(RULES)))
    rules = Reader(stub.url).rules()
    assert isinstance(rules, Rules)
    assert rules.to_json() == RULES
    assert (rules.version, rules.published_at) == (3, "2026-12-04T09:00:00.000Z")
    assert [rule.type for rule in rules.types] == ["article.completed", "podcast.listened", "signup.completed", "article.liked"]
    assert rules.types[3].retired is True
    assert rules.achievements[1].description == "listen to ten podcasts"
    assert rules.campaigns[0].multiplier == 2
    assert [request.path for request in stub.received] == ["/rules"]


def test_rules_of_a_read_api_without_the_route_is_not_found(stub: StubServer) -> None:
    with pytest.raises(ReadNotFound) as raised:
        Reader(stub.url).rules()
    assert raised.value.status == 404
    assert raised.value.type == "https://rewards.dev/problems/not-found"
    assert isinstance(raised.value, ReadProblem) and isinstance(raised.value, RewardsError)


def test_every_route_parses_its_answer(stub: StubServer) -> None:
    stub.answer("/users/u", Answer(body=PROFILE))
    stub.answer("/users/u/awards", Answer(body=HISTORY))
    stub.answer("/users/u/achievements", Answer(body=ACHIEVEMENTS))
    stub.answer("/board", Answer(body=BOARD))
    reader = Reader(stub.url)
    assert reader.profile("u").to_json() == PROFILE
    assert reader.history("u").to_json() == HISTORY
    assert reader.achievements("u").to_json() == ACHIEVEMENTS
    assert reader.board().to_json() == BOARD


def test_a_400_naming_a_parameter_is_invalid_read_input_with_the_problem_kept(stub: StubServer) -> None:
    problem = {
        "type": "https://rewards.dev/problems/invalid-parameter",
        "title": "Invalid parameter",
        "status": 400,
        "detail": "cursor: not a cursor this reader gave for this user's history (pass the page's cursor as it is)",
        "parameter": "cursor",
    }
    stub.answer("/users/u/awards", Answer(400, problem, content_type=PROBLEM))
    with pytest.raises(InvalidReadInput) as raised:
        Reader(stub.url).history("u", cursor="eyJ2IjoyfQ")
    assert raised.value.parameter == "cursor"
    assert raised.value.problem == problem
    assert str(raised.value) == problem["detail"]


def test_a_503_is_throttled_read_with_its_retry_after(stub: StubServer) -> None:
    stub.answer("/users/u", unavailable("1"))
    with pytest.raises(ThrottledRead) as raised:
        Reader(stub.url).profile("u")
    assert (raised.value.status, raised.value.retry_after) == (503, 1.0)
    assert raised.value.problem["type"] == "https://rewards.dev/problems/unavailable"
    assert str(raised.value).startswith("503 Temporarily unavailable: the rewards table")


def test_a_429_with_a_date_and_one_without_retry_after(stub: StubServer) -> None:
    later = email.utils.formatdate(time.time() + 30, usegmt=True)
    stub.answer("/board", Answer(429, b"Too Many Requests", {"Retry-After": later}, "text/plain"))
    with pytest.raises(ThrottledRead) as raised:
        Reader(stub.url).board()
    assert raised.value.status == 429
    assert raised.value.retry_after is not None and 25 <= raised.value.retry_after <= 31
    # No problem body (a throttle before the function): one is made of the status and text.
    assert raised.value.problem == {"title": "Too Many Requests", "status": 429, "detail": "Too Many Requests"}
    stub.answer("/board", unavailable(None))
    with pytest.raises(ThrottledRead) as bare:
        Reader(stub.url).board()
    assert bare.value.retry_after is None


def test_retry_after_seconds() -> None:
    assert retry_after_seconds("7") == 7.0
    assert retry_after_seconds(" 0 ") == 0.0
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # past: no wait
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == 10.0
    assert retry_after_seconds("soon") is None
    assert retry_after_seconds("-1") is None
    assert retry_after_seconds(None) is None


def test_retries_wait_the_retry_after_then_answer(stub: StubServer) -> None:
    stub.answer("/users/u", unavailable("2"), unavailable("1"), Answer(body=PROFILE))
    reader = Reader(stub.url, retries=2, max_retry_wait=1.5)
    waits: list[float] = []
    reader._sleep = waits.append  # pyright: ignore[reportPrivateUsage]
    assert reader.profile("u").xp == 125
    assert waits == [1.5, 1.0]  # each wait at most max_retry_wait
    assert len(stub.received) == 3


def test_retries_run_out(stub: StubServer) -> None:
    stub.answer("/users/u", unavailable("1"))
    reader = Reader(stub.url, retries=1)
    reader._sleep = lambda seconds: None  # pyright: ignore[reportPrivateUsage]
    with pytest.raises(ThrottledRead):
        reader.profile("u")
    assert len(stub.received) == 2


def test_other_statuses(stub: StubServer) -> None:
    # AWS's own 403 before the function (unsigned, or a principal the stage does not list).
    stub.answer("/users/u", Answer(403, {"Message": "Forbidden"}))
    with pytest.raises(ReadProblem) as forbidden:
        Reader(stub.url).profile("u")
    assert type(forbidden.value) is ReadProblem
    assert (forbidden.value.status, forbidden.value.problem) == (403, {"Message": "Forbidden"})
    internal = {"type": "https://rewards.dev/problems/internal", "title": "Internal error", "status": 500, "detail": "d"}
    stub.answer("/users/u/achievements", Answer(500, internal, content_type=PROBLEM))
    with pytest.raises(ReadProblem) as failed:
        Reader(stub.url).achievements("u")
    assert (failed.value.status, failed.value.type, failed.value.title, failed.value.detail) == (
        500,
        "https://rewards.dev/problems/internal",
        "Internal error",
        "d",
    )
    assert failed.value.headers["Content-Type"] == PROBLEM


def test_a_200_that_is_not_the_contract_is_unexpected(stub: StubServer) -> None:
    stub.answer("/users/u", Answer(body=b"<html>a proxy's page</html>", content_type="text/html"))
    with pytest.raises(UnexpectedResponse) as html:
        Reader(stub.url).profile("u")
    assert html.value.status == 200 and html.value.body.startswith("<html>")
    stub.answer("/board", Answer(body={"week": "2026-W49"}))
    with pytest.raises(UnexpectedResponse, match=r"GET /board is not the contract's: board.entries: missing"):
        Reader(stub.url).board()


def test_no_server_is_read_unavailable() -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    with pytest.raises(ReadUnavailable, match=f"the read API at http://127.0.0.1:{port} did not answer"):
        Reader(f"http://127.0.0.1:{port}", timeout=2).profile("u")


def test_sigv4_signs_each_request_as_the_service_and_region_asked(stub: StubServer) -> None:
    from botocore.credentials import Credentials

    stub.answer("/users/u", Answer(body=PROFILE))
    credentials = Credentials("AKIDEXAMPLE", "secret", "session-token")
    reader = Reader(stub.url, sigv4=True, region="eu-west-1", credentials=credentials)
    reader.profile("u", time_zone="Europe/Paris")
    headers = stub.received[0].headers
    assert re.fullmatch(
        r"AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/\d{8}/eu-west-1/lambda/aws4_request, "
        r"SignedHeaders=accept;host;x-amz-date;x-amz-security-token, Signature=[0-9a-f]{64}",
        headers["authorization"],
    ), headers["authorization"]
    assert headers["x-amz-security-token"] == "session-token"
    # API Gateway: another service; the region from the URL when none is given.
    gateway = Reader("https://abc.execute-api.ap-south-1.amazonaws.com/prod", sigv4=True, service="execute-api", credentials=credentials)
    assert repr(gateway) == "Reader('https://abc.execute-api.ap-south-1.amazonaws.com/prod', sigv4=execute-api/ap-south-1)"
    function_url = Reader("https://x.lambda-url.us-west-2.on.aws", sigv4=True, credentials=credentials)
    assert repr(function_url).endswith("sigv4=lambda/us-west-2)")


def test_sigv4_without_region_or_credentials(stub: StubServer, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("AWS_REGION", "AWS_DEFAULT_REGION"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(InvalidReaderOption) as region:
        Reader(stub.url, sigv4=True)
    assert region.value.option == "region"
    with pytest.raises(InvalidReaderOption) as wrong:
        Reader(stub.url, sigv4=True, region="eu-west-1", credentials=("a", "b"))
    assert wrong.value.option == "credentials"
    # No credentials anywhere botocore looks: said on the first request, nothing sent.
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.delenv("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", raising=False)
    monkeypatch.delenv("AWS_CONTAINER_CREDENTIALS_FULL_URI", raising=False)
    stub.answer("/users/u", Answer(body=PROFILE))
    reader = Reader(stub.url, sigv4=True, region="eu-west-1")
    with pytest.raises(InvalidReaderOption, match="botocore found no AWS credentials"):
        reader.profile("u")
    assert stub.received == []


def test_extra_headers_are_sent(stub: StubServer) -> None:
    stub.answer("/users/u", Answer(body=PROFILE))
    headers: dict[str, Any] = {"X-Request-Id": "abc"}
    Reader(stub.url, headers=headers).profile("u")
    assert stub.received[0].headers["x-request-id"] == "abc"
    assert stub.received[0].headers["user-agent"].startswith("rewards-client-python/")
