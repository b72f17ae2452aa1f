"""Against a real `rewards dev` (`npm run test:python` starts it): events published through the
Publisher are paid by the worker, then read through the Reader.

One batch of events for five readers of this run, published once for the module; each test
reads what it needs, after the worker has paid everything and the history's writer has
written it (polled, never slept).
"""

from __future__ import annotations

import datetime
import json
import os
import time
import urllib.request
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import boto3
import pytest

import rewards_client
from rewards_client import (
    Achievements,
    Board,
    HistoryPage,
    InvalidReadInput,
    Profile,
    PublishReport,
    Publisher,
    Reader,
    ReadNotFound,
    Rules,
    article_completed,
    article_shared,
    event,
    signup_completed,
    streak_day,
)

T = TypeVar("T")
WAIT_SECONDS = 90


def wait_until(read: Callable[[], T], done: Callable[[T], bool], what: str) -> T:
    """Reads until ``done`` holds of what it read (every 0.2 s, at most WAIT_SECONDS)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        value = read()
        if done(value):
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"still not {what} after {WAIT_SECONDS} s: {value!r}")
        time.sleep(0.2)


class CountingSqs:
    """A boto3 SQS client that counts its SendMessageBatch calls and their entries."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.batches: list[int] = []

    def send_message_batch(self, *, QueueUrl: str, Entries: list[dict[str, Any]]) -> Mapping[str, Any]:  # noqa: N803
        self.batches.append(len(Entries))
        answer: Mapping[str, Any] = self.client.send_message_batch(QueueUrl=QueueUrl, Entries=Entries)
        return answer


@dataclass
class Run:
    reader: Reader
    report: PublishReport
    batches: list[int]
    users: dict[str, str]  # alice, bob, … → this run's user id
    today: str
    week: str
    base_url: str


@pytest.fixture(scope="module")
def run(dev_env: dict[str, str]) -> Run:
    sqs = boto3.client(
        "sqs",
        region_name=dev_env["AWS_REGION"],
        endpoint_url=dev_env["AWS_ENDPOINT_URL_SQS"],
        aws_access_key_id=dev_env["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=dev_env["AWS_SECRET_ACCESS_KEY"],
    )
    counting = CountingSqs(sqs)
    publisher = Publisher(dev_env["QUEUE_URL"], counting, source="/tests/python")
    tag = uuid.uuid4().hex[:8]
    users = {name: f"py-{tag}-{name}" for name in ("alice", "bob", "carol", "dave", "erin")}
    now = datetime.datetime.now(datetime.timezone.utc)
    today = now.date()
    alice, bob, carol, dave, erin = users.values()
    events: list[Mapping[str, Any]] = [
        signup_completed(alice),
        article_completed(alice, "a1"),
        article_completed(alice, "a2"),
        article_completed(alice, "a3"),
        article_shared(alice, "a1", "mastodon"),
        streak_day(alice, today),
        streak_day(alice, today - datetime.timedelta(days=1)),
        article_completed(bob, "a1"),
        article_completed(bob, "a2"),
        article_completed(carol, "a2"),
        # A body over SQS's 1 MiB: refused here, never sent.
        event("article.completed", {"userId": erin, "articleSlug": "big", "notes": "x" * 1_100_000}),
        article_completed(carol, "a1"),
        # A character SQS does not take in a message (U+FFFF): SQS refuses this one entry.
        article_completed(erin, "bad\uffff"),
        article_completed(dave, "a1"),
        # The same intent as alice's first article, another emission: sent, and no second award.
        article_completed(alice, "a1", event_id="evt-again"),
        {"specversion": "1.0", "type": "article.completed", "data": {"userId": erin}},  # no id, no source
        article_completed(erin, "a1"),
    ]
    report = publisher.publish(events)
    reader = Reader(dev_env["READER_URL"])
    expected_awards = {alice: 7, bob: 2, carol: 2, dave: 1, erin: 1}
    for user, awards in expected_awards.items():
        # Paid (the profile), then in the history, the achievements and the board (the history's writer).
        wait_until(lambda: reader.profile(user), lambda p: p.awards == awards, f"{user} paid {awards} awards")
        wait_until(lambda: reader.history(user, limit=100), lambda h: len(h.awards) == awards, f"{user}'s history")
    for user, count in {alice: 3, bob: 1, carol: 1, dave: 1, erin: 1}.items():
        wait_until(lambda: reader.achievements(user), lambda a: len(a.achievements) == count, f"{user}'s achievements")
    board = [(alice, 185), (bob, 40), (carol, 40), (dave, 20), (erin, 20)]
    wait_until(
        lambda: reader.board(limit=10), lambda b: [(e.user_id, e.xp) for e in b.entries] == board, "the whole board"
    )
    year, number, _ = today.isocalendar()
    return Run(reader, report, counting.batches, users, today.isoformat(), f"{year}-W{number:02d}", dev_env["READER_URL"])


def raw(run: Run, path: str) -> Any:
    """The API's own JSON for a path, without the client."""
    with urllib.request.urlopen(f"{run.base_url}{path}", timeout=10) as response:
        return json.loads(response.read())


def test_the_installed_package_is_under_test() -> None:
    # npm run test:python installs it into a fresh venv: the tests read that copy, not src/.
    if os.environ.get("REWARDS_REQUIRE_DEV"):
        assert "site-packages" in rewards_client.__file__, rewards_client.__file__


def test_publish_reports_each_event_and_lists_the_partial_failures(run: Run) -> None:
    report = run.report
    assert len(report) == 17 and not report.ok
    assert [(r.index, r.error_code) for r in report.failed] == [
        (10, "MessageTooLong"),
        (12, "InvalidMessageContents"),
        (15, "InvalidEvent"),
    ]
    too_long, refused, invalid = report.failed
    assert too_long.error_message is not None and "SQS takes at most 1048576" in too_long.error_message
    assert refused.sender_fault is True and refused.error_message  # SQS's own words
    assert invalid.error_message == "id: must be a string, not NoneType" and invalid.id is None
    assert all(r.message_id and r.id and r.id.startswith("evt-") for r in report.sent)
    assert len(report.sent) == 14
    assert report.sent[-2].id == "evt-again"
    # 15 sent (two refused before sending), ten to a call.
    assert run.batches == [10, 5]


def test_the_profile_has_exact_xp_counts_streak_level_today_and_week(run: Run) -> None:
    profile = run.reader.profile(run.users["alice"])
    assert profile.xp == 100 + 3 * 20 + 5 + 2 * 10
    assert profile.awards == 7  # the repeated intent paid once
    assert profile.counts == {"article.completed": 3, "article.shared": 1, "streak.day": 2, "signup.completed": 1}
    assert (profile.streak.current, profile.streak.longest, profile.streak.last_day) == (2, 2, run.today)
    assert (profile.level.level, profile.level.xp_floor, profile.level.xp_next) == (2, 100, 250)
    # Today's XP: every award of the day but the signup; no cap (`rewards dev --daily-cap 0`).
    assert (profile.today.day, profile.today.xp, profile.today.cap, profile.today.left) == (run.today, 85, None, None)
    assert (profile.week.week, profile.week.xp, profile.week.rank) == (run.week, 185, 1)
    assert profile.updated_at is not None
    # In another zone the streak's today moves, its days do not (Paris: today or tomorrow there).
    assert run.reader.profile(run.users["alice"], time_zone="Europe/Paris").streak.current == 2
    assert run.reader.profile(run.users["bob"]).xp == 40


def test_every_answer_round_trips_the_api_json(run: Run) -> None:
    alice = run.users["alice"]
    assert Profile.from_json(raw(run, f"/users/{alice}")).to_json() == raw(run, f"/users/{alice}")
    page = raw(run, f"/users/{alice}/awards?limit=4")
    assert HistoryPage.from_json(page).to_json() == page == run.reader.history(alice, limit=4).to_json()
    earned = raw(run, f"/users/{alice}/achievements")
    assert Achievements.from_json(earned).to_json() == earned == run.reader.achievements(alice).to_json()
    board = raw(run, "/board?limit=3")
    assert Board.from_json(board).to_json() == board == run.reader.board(limit=3).to_json()


def test_three_pages_of_history_through_cursors(run: Run) -> None:
    alice = run.users["alice"]
    first = run.reader.history(alice, limit=3)
    assert first.cursor is not None
    second = run.reader.history(alice, limit=3, cursor=first.cursor)
    assert second.cursor is not None
    third = run.reader.history(alice, limit=3, cursor=second.cursor)
    assert ([len(first.awards), len(second.awards), len(third.awards)], third.cursor) == ([3, 3, 1], None)
    awards = first.awards + second.awards + third.awards
    assert len({award.id for award in awards}) == 7
    assert [award.awarded_at for award in awards] == sorted((award.awarded_at for award in awards), reverse=True)
    assert awards == run.reader.history(alice, limit=100).awards == list(run.reader.iter_history(alice, page_size=2))
    assert sorted(award.type for award in awards) == sorted(
        ["signup.completed", *["article.completed"] * 3, "article.shared", *["streak.day"] * 2]
    )
    shared = next(award for award in awards if award.type == "article.shared")
    assert (shared.xp, shared.data, shared.earned_on, shared.requested_xp) == (5, {"articleSlug": "a1", "channel": "mastodon"}, run.today, None)
    # A cursor is bound to its user: the API refuses another user's, naming the parameter.
    with pytest.raises(InvalidReadInput) as other:
        run.reader.history(run.users["bob"], cursor=first.cursor)
    assert other.value.parameter == "cursor"
    assert other.value.problem is not None and other.value.problem["status"] == 400


def test_achievements_newest_first_each_named_by_the_award_that_crossed_it(run: Run) -> None:
    alice = run.users["alice"]
    earned = run.reader.achievements(alice).achievements
    assert sorted(a.id for a in earned) == ["first-article", "first-share", "level-2"]
    assert [a.earned_at for a in earned] == sorted((a.earned_at for a in earned), reverse=True)
    titles = {a.id: a.title for a in earned}
    assert titles == {"first-article": "First article", "first-share": "First share", "level-2": "Level 2"}
    history = {award.id: award for award in run.reader.history(alice, limit=100).awards}
    for achievement in earned:
        assert achievement.grant_id in history
        assert history[achievement.grant_id].awarded_at == achievement.earned_at
    for name in ("bob", "carol", "dave", "erin"):
        assert [a.id for a in run.reader.achievements(run.users[name]).achievements] == ["first-article"]


def test_the_board_shares_ranks_on_ties_across_pages_and_names_its_week(run: Run) -> None:
    u = run.users
    pages = [run.reader.board(limit=2)]
    while pages[-1].cursor is not None:
        pages.append(run.reader.board(limit=2, cursor=pages[-1].cursor))
    assert [page.week for page in pages] == [run.week] * 3
    assert [[(e.rank, e.user_id, e.xp) for e in page.entries] for page in pages] == [
        [(1, u["alice"], 185), (2, u["bob"], 40)],
        [(2, u["carol"], 40), (4, u["dave"], 20)],
        [(4, u["erin"], 20)],
    ]
    assert run.reader.board(week=run.week, limit=2).to_json() == pages[0].to_json()
    assert [e.user_id for e in run.reader.iter_board(page_size=1)] == list(u.values())
    # A week no one earned in has no entries, never a 404.
    assert run.reader.board(week="2020-W01").to_json() == {"week": "2020-W01", "entries": []}
    # A cursor is bound to its week.
    with pytest.raises(InvalidReadInput) as other_week:
        run.reader.board(week="2020-W01", cursor=pages[0].cursor)
    assert other_week.value.parameter == "cursor"


BAD_INPUT: list[tuple[Callable[[Reader, str], object], str]] = [
    (lambda r, u: r.profile(""), "userId"),
    (lambda r, u: r.profile(u, time_zone="Mars/Olympus"), "timeZone"),
    (lambda r, u: r.history(u, limit=0), "limit"),
    (lambda r, u: r.history(u, cursor="not a cursor"), "cursor"),
    (lambda r, u: r.board(week="2025-W53"), "week"),
    (lambda r, u: r.board(limit=101), "limit"),
]


@pytest.mark.parametrize(("call", "parameter"), BAD_INPUT)
def test_bad_input_raises_invalid_read_input_naming_the_parameter(
    run: Run, call: Callable[[Reader, str], object], parameter: str
) -> None:
    with pytest.raises(InvalidReadInput) as raised:
        call(run.reader, run.users["alice"])
    assert raised.value.parameter == parameter
    assert raised.value.problem is None  # refused before any request


def test_an_unknown_user_is_a_new_reader_and_a_path_the_api_does_not_serve_is_not_found(run: Run) -> None:
    nobody = run.reader.profile(f"{run.users['alice']}-nobody")
    assert (nobody.xp, nobody.awards, nobody.level.level, nobody.updated_at, nobody.week.rank) == (0, 0, 1, None, None)
    assert run.reader.achievements(f"{run.users['alice']}-nobody").achievements == []
    with pytest.raises(ReadNotFound) as missing:
        Reader(f"{run.base_url}/v9").profile(run.users["alice"])
    assert missing.value.status == 404
    assert missing.value.problem["type"] == "https://rewards.dev/problems/not-found"
    # The ids "." and "..": one path segment each (encoded), a user like any other.
    assert run.reader.profile("..").user_id == ".."


def test_rules_in_force(run: Run) -> None:
    rules = run.reader.rules()
    assert isinstance(rules, Rules)
    # Nothing published: the built-in rules, version 0 (schemas/rules.builtin.yaml).
    assert (rules.version, rules.published_at, rules.campaigns) == (0, None, [])
    paid = {rule.type: (rule.xp, rule.memory, rule.retired) for rule in rules.types}
    assert paid == {
        "article.completed": (20, 90, None),
        "article.shared": (5, 90, None),
        "streak.day": (10, 90, None),
        "signup.completed": (100, "forever", None),
    }
    assert [(a.id, a.title) for a in rules.achievements] == [
        ("first-article", "First article"),
        ("articles-10", "Ten articles"),
        ("articles-100", "A hundred articles"),
        ("first-share", "First share"),
        ("streak-7", "A week in a row"),
        ("streak-30", "A month in a row"),
    ]
    assert rules.to_json() == raw(run, "/rules") == Rules.from_json(raw(run, "/rules")).to_json()
