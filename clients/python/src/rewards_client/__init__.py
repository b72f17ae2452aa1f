"""rewards-client: read a reader's rewards over the HTTP read API, and publish reading events.

    from rewards_client import Reader, Publisher, article_completed

    reader = Reader(os.environ["READER_URL"])              # sigv4=True for a deployed API
    profile = reader.profile("user123", time_zone="Europe/Paris")
    page = reader.history("user123", limit=20)              # page.cursor for the next page
    board = reader.board()                                  # this week's board

    publisher = Publisher(os.environ["QUEUE_URL"], client=boto3.client("sqs"))
    report = publisher.publish([article_completed("user123", "idempotent-writes")])
    for failed in report.failed: ...

No dependency: the HTTP is the standard library's. botocore (SigV4) and boto3 (a Publisher
without a client of yours) are optional, imported only when used. docs: README.md beside
pyproject.toml, and the repository's docs/reading.md and docs/events.md.
"""

from .checks import DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT
from .errors import (
    PROBLEM_BASE,
    READ_PARAMETERS,
    InvalidEvent,
    InvalidPublisherOption,
    InvalidReaderOption,
    InvalidReadInput,
    MissingDependency,
    ReadNotFound,
    ReadProblem,
    ReadUnavailable,
    RewardsError,
    ThrottledRead,
    UnexpectedResponse,
)
from .events import (
    DEFAULT_SOURCE,
    EventBuilders,
    RewardEvent,
    article_completed,
    article_shared,
    event,
    new_event_id,
    signup_completed,
    streak_day,
)
from .models import (
    Achievement,
    Achievements,
    Board,
    BoardEntry,
    Campaign,
    HistoryAward,
    HistoryPage,
    Level,
    PerUnitXp,
    Profile,
    ProfileWeek,
    RuleAchievement,
    Rules,
    RuleType,
    Streak,
    Today,
)
from .publisher import MAX_BATCH_ENTRIES, MAX_MESSAGE_BYTES, Publisher, PublishReport, PublishResult, SqsClient
from .reader import VERSION, Reader

__version__ = VERSION

__all__ = [
    "DEFAULT_PAGE_LIMIT",
    "DEFAULT_SOURCE",
    "MAX_BATCH_ENTRIES",
    "MAX_MESSAGE_BYTES",
    "MAX_PAGE_LIMIT",
    "PROBLEM_BASE",
    "READ_PARAMETERS",
    "Achievement",
    "Achievements",
    "Board",
    "BoardEntry",
    "Campaign",
    "EventBuilders",
    "HistoryAward",
    "HistoryPage",
    "InvalidEvent",
    "InvalidPublisherOption",
    "InvalidReadInput",
    "InvalidReaderOption",
    "Level",
    "MissingDependency",
    "PerUnitXp",
    "Profile",
    "ProfileWeek",
    "PublishReport",
    "PublishResult",
    "Publisher",
    "ReadNotFound",
    "ReadProblem",
    "ReadUnavailable",
    "Reader",
    "RewardEvent",
    "RewardsError",
    "RuleAchievement",
    "RuleType",
    "Rules",
    "SqsClient",
    "Streak",
    "ThrottledRead",
    "Today",
    "UnexpectedResponse",
    "__version__",
    "article_completed",
    "article_shared",
    "event",
    "new_event_id",
    "signup_completed",
    "streak_day",
]
