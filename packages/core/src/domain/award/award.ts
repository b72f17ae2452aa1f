/** What the worker decided to pay, derived only from the event's content and the rules. */
export interface Award {
  /** The intent key: what the award is for. */
  intentKey: string;
  userId: string;
  /** The event type: a built-in one, or one the version in force defines. */
  type: string;
  amount: number;
  /**
   * The event's validated `data` without `userId` (`{}` for a signup): kept on the guard for
   * the history (docs/history.md#what-the-guard-carries-for-it).
   */
  data: Record<string, string | number>;
  /** The emission's CloudEvents id: stored on the guard for audit, never deduplicated on. */
  eventId: string;
  /** Seconds the guard lives (the rule's); undefined: kept forever. */
  guardTtlSeconds: number | undefined;
  /** The event's `time` (RFC 3339), when it has one: how old it is decides whether it can be judged. */
  time?: string | undefined;
  /** The calendar day a rule's intent is about (`streak.day`'s `day`), which ages too. */
  day?: string | undefined;
  /**
   * The version of the rules that judged it (docs/rules.md#at-run-time), and the facts it
   * implies, recorded on the guard: absent under version 0 (nothing published), where every
   * reader of the guard knows them from the type.
   */
  rulesVersion?: number | undefined;
  /** Whether it counts toward the daily cap; absent: the built-in rule's (`countsTowardCap`). */
  capped?: boolean | undefined;
  /** A per-unit rule's units (docs/rules.md): what the committing copy was paid for. */
  units?: number | undefined;
  /** The campaign that made it pay more than its type's XP. */
  campaign?: string | undefined;
  /** The day it keeps for streaks (a `keepsStreak` type's `day`). */
  keepsDay?: string | undefined;
  /** The memory staleness is judged on when shorter than the guard's life (a shrunk memory). */
  memorySeconds?: number | undefined;
}
