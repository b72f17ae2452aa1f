"""The results round-trip the read API's JSON; unknown fields are ignored; a wrong shape names its field."""

from __future__ import annotations

import copy
from typing import Any, cast

import pytest

from rewards_client import (
    Achievements,
    Board,
    HistoryPage,
    PerUnitXp,
    Profile,
    Rules,
)

# The answers of docs/reading.md, field for field.
PROFILE: dict[str, Any] = {
    "userId": "user123",
    "xp": 125,
    "awards": 3,
    "counts": {"article.completed": 2, "article.shared": 1, "streak.day": 0, "signup.completed": 0},
    "streak": {"current": 4, "longest": 9, "lastDay": "2026-12-02"},
    "level": {"level": 2, "xpFloor": 100, "xpNext": 250},
    "today": {"day": "2026-12-02", "xp": 25, "cap": 50, "left": 25},
    "week": {"week": "2026-W49", "xp": 125, "rank": 12},
    "updatedAt": "2026-12-02T13:52:29.916Z",
}
HISTORY: dict[str, Any] = {
    "awards": [
        {
            "id": "grant-CxLku293lWQdrmxqwW80JcBPmFfcCPEghQy8sI7DFDM",
            "type": "article.completed",
            "data": {"articleSlug": "idempotent-writes"},
            "xp": 10,
            "requestedXp": 20,
            "eventId": "evt-01J",
            "eventTime": "2026-12-02T13:52:28.000Z",
            "earnedOn": "2026-12-02",
            "awardedAt": "2026-12-02T13:52:29.916Z",
            "revokedAt": "2026-12-03T10:00:00.000Z",
            "revokedReason": "a producer's mistake",
        }
    ],
    "cursor": "eyJ2IjoxLCJ1Ijoi",
}
ACHIEVEMENTS: dict[str, Any] = {
    "achievements": [
        {"id": "level-2", "title": "Level 2", "earnedAt": "2026-12-02T13:52:29.916Z", "grantId": "grant-Cx"},
        {"id": "first-article", "title": "First article", "earnedAt": "2026-11-29T10:00:01.234Z"},
    ]
}
BOARD: dict[str, Any] = {
    "week": "2026-W49",
    "entries": [
        {"rank": 1, "userId": "user77", "xp": 340},
        {"rank": 2, "userId": "user123", "xp": 125},
        {"rank": 2, "userId": "user9", "xp": 125},
    ],
    "cursor": "eyJ2IjoxLCJ3Ijoi",
}
# SPEC §15d: GET /rules.
RULES: dict[str, Any] = {
    "version": 3,
    "publishedAt": "2026-12-04T09:00:00.000Z",
    "types": [
        {"type": "article.completed", "xp": 20, "memory": 90},
        {"type": "podcast.listened", "xp": {"per": "minutes", "each": 1, "max": 60}, "memory": 30},
        {"type": "signup.completed", "xp": 100, "memory": "forever"},
        {"type": "article.liked", "xp": 0, "memory": 2, "retired": True},
    ],
    "achievements": [
        {"id": "first-article", "title": "First article"},
        {"id": "podcasts-10", "title": "Ten podcasts", "description": "listen to ten podcasts"},
        {"id": "old-badge", "title": "Old badge", "retired": True},
    ],
    "campaigns": [
        {
            "id": "double-weekend",
            "title": "Double XP this weekend",
            "types": ["article.completed"],
            "from": "2026-12-05T00:00:00+01:00",
            "to": "2026-12-07T00:00:00+01:00",
            "multiplier": 2,
        },
        {
            "id": "bonus",
            "title": "+5 a share",
            "types": ["article.shared", "article.completed"],
            "from": "2026-12-10T00:00:00Z",
            "to": "2026-12-11T00:00:00Z",
            "bonus": 5,
        },
    ],
}
NEW_READER: dict[str, Any] = {
    "userId": "nobody",
    "xp": 0,
    "awards": 0,
    "counts": {"article.completed": 0, "article.shared": 0, "streak.day": 0, "signup.completed": 0},
    "streak": {"current": 0, "longest": 0},
    "level": {"level": 1, "xpFloor": 0, "xpNext": 100},
    "today": {"day": "2026-12-05", "xp": 0},
    "week": {"week": "2026-W49", "xp": 0},
}

CASES: list[tuple[Any, dict[str, Any]]] = [
    (Profile, PROFILE),
    (Profile, NEW_READER),
    (HistoryPage, HISTORY),
    (HistoryPage, {"awards": []}),
    (Achievements, ACHIEVEMENTS),
    (Achievements, {"achievements": []}),
    (Board, BOARD),
    (Board, {"week": "2020-W01", "entries": []}),
    (Rules, RULES),
    (Rules, {"version": 0, "types": [], "achievements": [], "campaigns": []}),
]


@pytest.mark.parametrize(("model", "body"), CASES)
def test_from_json_then_to_json_gives_the_answer_back(model: Any, body: dict[str, Any]) -> None:
    assert model.from_json(copy.deepcopy(body)).to_json() == body


def with_unknown_fields(value: Any) -> Any:
    """The same JSON with a field the client does not know added to every object."""
    if isinstance(value, dict):
        grown: dict[str, Any] = {key: with_unknown_fields(item) for key, item in cast(dict[str, Any], value).items()}
        grown["addedLater"] = {"nested": [1, "two"]}
        return grown
    if isinstance(value, list):
        return [with_unknown_fields(item) for item in cast(list[Any], value)]
    return value


@pytest.mark.parametrize(("model", "body"), [case for case in CASES if case[0] is not Profile])
def test_unknown_fields_are_ignored_at_every_level(model: Any, body: dict[str, Any]) -> None:
    assert model.from_json(with_unknown_fields(body)).to_json() == _without_data_additions(body)


def _without_data_additions(body: dict[str, Any]) -> dict[str, Any]:
    # An award's `data` is the event's, whatever it holds: kept whole, additions included.
    if "awards" not in body:
        return body
    grown = copy.deepcopy(body)
    for award in grown["awards"]:
        award["data"] = with_unknown_fields(award["data"])
    return grown


def test_a_profile_ignores_unknown_fields_and_keeps_every_count() -> None:
    grown = with_unknown_fields(PROFILE)
    # `counts` holds every type of the rules in force: a type of yours is one more count, not an unknown field.
    grown["counts"] = {**PROFILE["counts"], "podcast.listened": 4}
    profile = Profile.from_json(grown)
    assert profile.counts["podcast.listened"] == 4
    assert profile.to_json() == {**PROFILE, "counts": grown["counts"]}


def test_the_typed_fields() -> None:
    profile = Profile.from_json(PROFILE)
    assert (profile.user_id, profile.xp, profile.level.xp_next, profile.streak.last_day) == ("user123", 125, 250, "2026-12-02")
    assert (profile.today.cap, profile.today.left, profile.week.rank) == (50, 25, 12)
    award = HistoryPage.from_json(HISTORY).awards[0]
    assert (award.requested_xp, award.revoked, award.data) == (20, True, {"articleSlug": "idempotent-writes"})
    assert Achievements.from_json(ACHIEVEMENTS).achievements[1].grant_id is None
    rules = Rules.from_json(RULES)
    podcast = rules.rule_of("podcast.listened")
    assert podcast is not None and podcast.xp == PerUnitXp(per="minutes", each=1, max=60)
    signup = rules.rule_of("signup.completed")
    assert signup is not None and signup.memory == "forever"
    assert rules.rule_of("nothing") is None
    assert rules.campaigns[0].from_ == "2026-12-05T00:00:00+01:00" and rules.campaigns[1].bonus == 5


@pytest.mark.parametrize(
    ("model", "body", "path"),
    [
        (Profile, {**PROFILE, "xp": "125"}, "profile.xp: expected an integer"),
        (Profile, {**PROFILE, "xp": True}, "profile.xp: expected an integer"),
        (Profile, {k: v for k, v in PROFILE.items() if k != "level"}, "profile.level: missing"),
        (Profile, {**PROFILE, "counts": {"article.completed": 1.5}}, "profile.counts.article.completed"),
        (Profile, {**PROFILE, "streak": []}, "profile.streak: expected an object"),
        (HistoryPage, {"awards": [{**HISTORY["awards"][0], "data": "x"}]}, "history.awards[0].data"),
        (Board, {"week": "2026-W49", "entries": [{"rank": 1, "userId": 7, "xp": 1}]}, "board.entries[0].userId"),
        (Rules, {**RULES, "types": [{"type": "a.b", "xp": 1, "memory": "never"}]}, "rules.types[0].memory"),
        (Rules, {**RULES, "types": [{"type": "a.b", "xp": {"per": "m"}, "memory": 2}]}, "rules.types[0].xp.each: missing"),
        (Rules, {**RULES, "campaigns": None}, "rules.campaigns: expected a list"),
        (Achievements, [], "achievements: expected an object"),
    ],
)
def test_a_body_of_another_shape_names_the_field(model: Any, body: Any, path: str) -> None:
    with pytest.raises(ValueError, match=path.replace("[", r"\[").replace("]", r"\]")):
        model.from_json(body)
