"""What the read API answers, as typed dataclasses with snake_case fields.

Each has ``from_json`` (the API's JSON object, camelCase, as ``json.loads`` gives it) and
``to_json`` (the same JSON back): ``X.from_json(body).to_json() == body`` for every answer the
contract describes. Fields the client does not know are ignored, so a newer API's additions
never break it (they are not in ``to_json``). Instants stay the API's RFC 3339 text
(``2026-12-02T13:52:29.916Z``) and days ``YYYY-MM-DD``, exactly as sent. A body that is not
the contract's shape raises ValueError naming the first field that is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ._json import Fields, integer, text

JSONObject = dict[str, Any]


def _omit_none(pairs: dict[str, Any]) -> JSONObject:
    return {key: value for key, value in pairs.items() if value is not None}


@dataclass(frozen=True, kw_only=True, slots=True)
class Level:
    """The level a user's XP reaches: a progress bar is (xp − xp_floor) / (xp_next − xp_floor)."""

    level: int
    xp_floor: int
    xp_next: int

    @classmethod
    def from_json(cls, value: object, path: str = "level") -> Level:
        f = Fields(value, path)
        return cls(level=f.req_int("level"), xp_floor=f.req_int("xpFloor"), xp_next=f.req_int("xpNext"))

    def to_json(self) -> JSONObject:
        return {"level": self.level, "xpFloor": self.xp_floor, "xpNext": self.xp_next}


@dataclass(frozen=True, kw_only=True, slots=True)
class Today:
    """Today's XP (UTC) against the daily cap; ``cap`` and ``left`` only when the stage has a cap."""

    day: str
    xp: int
    cap: int | None = None
    left: int | None = None

    @classmethod
    def from_json(cls, value: object, path: str = "today") -> Today:
        f = Fields(value, path)
        return cls(day=f.req_str("day"), xp=f.req_int("xp"), cap=f.opt_int("cap"), left=f.opt_int("left"))

    def to_json(self) -> JSONObject:
        return _omit_none({"day": self.day, "xp": self.xp, "cap": self.cap, "left": self.left})


@dataclass(frozen=True, kw_only=True, slots=True)
class Streak:
    """Consecutive kept days: ``current`` (read in the zone asked for), ``longest``, ``last_day``."""

    current: int
    longest: int
    last_day: str | None = None

    @classmethod
    def from_json(cls, value: object, path: str = "streak") -> Streak:
        f = Fields(value, path)
        return cls(current=f.req_int("current"), longest=f.req_int("longest"), last_day=f.opt_str("lastDay"))

    def to_json(self) -> JSONObject:
        return _omit_none({"current": self.current, "longest": self.longest, "lastDay": self.last_day})


@dataclass(frozen=True, kw_only=True, slots=True)
class ProfileWeek:
    """The reader's current ISO week: its XP and ``rank`` on the board (None without XP or past 1,000)."""

    week: str
    xp: int
    rank: int | None = None

    @classmethod
    def from_json(cls, value: object, path: str = "week") -> ProfileWeek:
        f = Fields(value, path)
        return cls(week=f.req_str("week"), xp=f.req_int("xp"), rank=f.opt_int("rank"))

    def to_json(self) -> JSONObject:
        return _omit_none({"week": self.week, "xp": self.xp, "rank": self.rank})


@dataclass(frozen=True, kw_only=True, slots=True)
class Profile:
    """``GET /users/{userId}``: XP, awards, counts per type, streak, level, today, the week.

    An unknown user is a new reader (0 XP, level 1, no ``updated_at``), never an error.
    """

    user_id: str
    xp: int
    awards: int
    counts: dict[str, int]
    streak: Streak
    level: Level
    today: Today
    week: ProfileWeek
    updated_at: str | None = None

    @classmethod
    def from_json(cls, value: object, path: str = "profile") -> Profile:
        f = Fields(value, path)
        counts = f.obj("counts")
        return cls(
            user_id=f.req_str("userId"),
            xp=f.req_int("xp"),
            awards=f.req_int("awards"),
            counts={name: integer(count, f"{counts.path}.{name}") for name, count in counts.object.items()},
            streak=Streak.from_json(f.raw("streak"), f"{path}.streak"),
            level=Level.from_json(f.raw("level"), f"{path}.level"),
            today=Today.from_json(f.raw("today"), f"{path}.today"),
            week=ProfileWeek.from_json(f.raw("week"), f"{path}.week"),
            updated_at=f.opt_str("updatedAt"),
        )

    def to_json(self) -> JSONObject:
        return _omit_none(
            {
                "userId": self.user_id,
                "xp": self.xp,
                "awards": self.awards,
                "counts": dict(self.counts),
                "streak": self.streak.to_json(),
                "level": self.level.to_json(),
                "today": self.today.to_json(),
                "week": self.week.to_json(),
                "updatedAt": self.updated_at,
            }
        )


@dataclass(frozen=True, kw_only=True, slots=True)
class HistoryAward:
    """One award in a user's history; ``id`` is its ``reward.granted`` announcement's id."""

    id: str
    type: str
    data: dict[str, Any]
    xp: int
    event_id: str
    event_time: str
    earned_on: str
    awarded_at: str
    requested_xp: int | None = None
    revoked_at: str | None = None
    revoked_reason: str | None = None

    @classmethod
    def from_json(cls, value: object, path: str = "award") -> HistoryAward:
        f = Fields(value, path)
        return cls(
            id=f.req_str("id"),
            type=f.req_str("type"),
            data=f.mapping("data"),
            xp=f.req_int("xp"),
            requested_xp=f.opt_int("requestedXp"),
            event_id=f.req_str("eventId"),
            event_time=f.req_str("eventTime"),
            earned_on=f.req_str("earnedOn"),
            awarded_at=f.req_str("awardedAt"),
            revoked_at=f.opt_str("revokedAt"),
            revoked_reason=f.opt_str("revokedReason"),
        )

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None

    def to_json(self) -> JSONObject:
        return _omit_none(
            {
                "id": self.id,
                "type": self.type,
                "data": dict(self.data),
                "xp": self.xp,
                "requestedXp": self.requested_xp,
                "eventId": self.event_id,
                "eventTime": self.event_time,
                "earnedOn": self.earned_on,
                "awardedAt": self.awarded_at,
                "revokedAt": self.revoked_at,
                "revokedReason": self.revoked_reason,
            }
        )


@dataclass(frozen=True, kw_only=True, slots=True)
class HistoryPage:
    """``GET /users/{userId}/awards``: newest first; ``cursor`` (None on the last page) asks for the next."""

    awards: list[HistoryAward]
    cursor: str | None = None

    @classmethod
    def from_json(cls, value: object, path: str = "history") -> HistoryPage:
        f = Fields(value, path)
        awards = f.array("awards")
        return cls(
            awards=[HistoryAward.from_json(award, f"{path}.awards[{i}]") for i, award in enumerate(awards)],
            cursor=f.opt_str("cursor"),
        )

    def to_json(self) -> JSONObject:
        return _omit_none({"awards": [award.to_json() for award in self.awards], "cursor": self.cursor})


@dataclass(frozen=True, kw_only=True, slots=True)
class Achievement:
    """Earned once, never taken back; ``grant_id`` is the award that crossed it (None when none did)."""

    id: str
    title: str
    earned_at: str
    grant_id: str | None = None

    @classmethod
    def from_json(cls, value: object, path: str = "achievement") -> Achievement:
        f = Fields(value, path)
        return cls(id=f.req_str("id"), title=f.req_str("title"), earned_at=f.req_str("earnedAt"), grant_id=f.opt_str("grantId"))

    def to_json(self) -> JSONObject:
        return _omit_none({"id": self.id, "title": self.title, "earnedAt": self.earned_at, "grantId": self.grant_id})


@dataclass(frozen=True, kw_only=True, slots=True)
class Achievements:
    """``GET /users/{userId}/achievements``: all of them, newest ``earned_at`` first."""

    achievements: list[Achievement]

    @classmethod
    def from_json(cls, value: object, path: str = "achievements") -> Achievements:
        f = Fields(value, path)
        return cls(
            achievements=[
                Achievement.from_json(item, f"{path}.achievements[{i}]")
                for i, item in enumerate(f.array("achievements"))
            ]
        )

    def to_json(self) -> JSONObject:
        return {"achievements": [item.to_json() for item in self.achievements]}


@dataclass(frozen=True, kw_only=True, slots=True)
class BoardEntry:
    """One reader on a week's board: equal XP share a ``rank`` (1, 2, 2, 4)."""

    rank: int
    user_id: str
    xp: int

    @classmethod
    def from_json(cls, value: object, path: str = "entry") -> BoardEntry:
        f = Fields(value, path)
        return cls(rank=f.req_int("rank"), user_id=f.req_str("userId"), xp=f.req_int("xp"))

    def to_json(self) -> JSONObject:
        return {"rank": self.rank, "userId": self.user_id, "xp": self.xp}


@dataclass(frozen=True, kw_only=True, slots=True)
class Board:
    """``GET /board``: one page of an ISO week's board, most XP first, equal XP by user id."""

    week: str
    entries: list[BoardEntry]
    cursor: str | None = None

    @classmethod
    def from_json(cls, value: object, path: str = "board") -> Board:
        f = Fields(value, path)
        return cls(
            week=f.req_str("week"),
            entries=[BoardEntry.from_json(entry, f"{path}.entries[{i}]") for i, entry in enumerate(f.array("entries"))],
            cursor=f.opt_str("cursor"),
        )

    def to_json(self) -> JSONObject:
        return _omit_none(
            {"week": self.week, "entries": [entry.to_json() for entry in self.entries], "cursor": self.cursor}
        )


@dataclass(frozen=True, kw_only=True, slots=True)
class PerUnitXp:
    """XP per unit of a data field: ``min(max, each × data[per])`` ("1 XP a minute read, at most 60")."""

    per: str
    each: int
    max: int

    @classmethod
    def from_json(cls, value: object, path: str = "xp") -> PerUnitXp:
        f = Fields(value, path)
        return cls(per=f.req_str("per"), each=f.req_int("each"), max=f.req_int("max"))

    def to_json(self) -> JSONObject:
        return {"per": self.per, "each": self.each, "max": self.max}


@dataclass(frozen=True, kw_only=True, slots=True)
class RuleType:
    """An event type the rules pay: ``xp`` a whole number or per unit; ``memory`` days or "forever"."""

    type: str
    xp: int | PerUnitXp
    memory: int | Literal["forever"]
    retired: bool | None = None

    @classmethod
    def from_json(cls, value: object, path: str = "type") -> RuleType:
        f = Fields(value, path)
        xp = f.raw("xp")
        memory = f.raw("memory")
        return cls(
            type=f.req_str("type"),
            xp=integer(xp, f"{path}.xp") if isinstance(xp, int) else PerUnitXp.from_json(xp, f"{path}.xp"),
            memory="forever" if memory == "forever" else integer(memory, f"{path}.memory"),
            retired=f.opt_bool("retired"),
        )

    def to_json(self) -> JSONObject:
        return _omit_none(
            {
                "type": self.type,
                "xp": self.xp.to_json() if isinstance(self.xp, PerUnitXp) else self.xp,
                "memory": self.memory,
                "retired": self.retired,
            }
        )


@dataclass(frozen=True, kw_only=True, slots=True)
class RuleAchievement:
    """An achievement the rules define (the ``level-<n>`` family is implicit and not listed)."""

    id: str
    title: str
    description: str | None = None
    retired: bool | None = None

    @classmethod
    def from_json(cls, value: object, path: str = "achievement") -> RuleAchievement:
        f = Fields(value, path)
        return cls(
            id=f.req_str("id"),
            title=f.req_str("title"),
            description=f.opt_str("description"),
            retired=f.opt_bool("retired"),
        )

    def to_json(self) -> JSONObject:
        return _omit_none(
            {"id": self.id, "title": self.title, "description": self.description, "retired": self.retired}
        )


@dataclass(frozen=True, kw_only=True, slots=True)
class Campaign:
    """A running or coming campaign: awards whose event time is in [``from_``, ``to``) of its ``types``
    pay ``multiplier`` × XP or XP + ``bonus`` (one of the two)."""

    id: str
    title: str
    types: list[str]
    from_: str
    to: str
    multiplier: int | None = None
    bonus: int | None = None

    @classmethod
    def from_json(cls, value: object, path: str = "campaign") -> Campaign:
        f = Fields(value, path)
        return cls(
            id=f.req_str("id"),
            title=f.req_str("title"),
            types=[text(item, f"{path}.types[{i}]") for i, item in enumerate(f.array("types"))],
            from_=f.req_str("from"),
            to=f.req_str("to"),
            multiplier=f.opt_int("multiplier"),
            bonus=f.opt_int("bonus"),
        )

    def to_json(self) -> JSONObject:
        return _omit_none(
            {
                "id": self.id,
                "title": self.title,
                "types": list(self.types),
                "from": self.from_,
                "to": self.to,
                "multiplier": self.multiplier,
                "bonus": self.bonus,
            }
        )


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """``GET /rules``: the rules version in force (0: the built-in rules), what each type pays,
    the achievements and the running and coming campaigns (SPEC §15d)."""

    version: int
    types: list[RuleType] = field(default_factory=lambda: list[RuleType]())
    achievements: list[RuleAchievement] = field(default_factory=lambda: list[RuleAchievement]())
    campaigns: list[Campaign] = field(default_factory=lambda: list[Campaign]())
    published_at: str | None = None

    @classmethod
    def from_json(cls, value: object, path: str = "rules") -> Rules:
        f = Fields(value, path)
        return cls(
            version=f.req_int("version"),
            published_at=f.opt_str("publishedAt"),
            types=[RuleType.from_json(item, f"{path}.types[{i}]") for i, item in enumerate(f.array("types"))],
            achievements=[
                RuleAchievement.from_json(item, f"{path}.achievements[{i}]")
                for i, item in enumerate(f.array("achievements"))
            ],
            campaigns=[
                Campaign.from_json(item, f"{path}.campaigns[{i}]") for i, item in enumerate(f.array("campaigns"))
            ],
        )

    def rule_of(self, event_type: str) -> RuleType | None:
        """The rule of one event type (``rules.rule_of("article.completed")``), None when there is none."""
        return next((rule for rule in self.types if rule.type == event_type), None)

    def to_json(self) -> JSONObject:
        return _omit_none(
            {
                "version": self.version,
                "publishedAt": self.published_at,
                "types": [item.to_json() for item in self.types],
                "achievements": [item.to_json() for item in self.achievements],
                "campaigns": [item.to_json() for item in self.campaigns],
            }
        )
