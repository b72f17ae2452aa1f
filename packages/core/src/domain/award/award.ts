import type { EventType } from "../rules/rules";

/** What the worker decided to pay, derived only from the event's content and the rules. */
export interface Award {
  /** The intent key: what the award is for. */
  intentKey: string;
  userId: string;
  type: EventType;
  amount: number;
  /**
   * The event's validated `data` without `userId` (`{}` for a signup): kept on the guard for
   * the history (docs/history.md#what-the-guard-carries-for-it).
   */
  data: Record<string, string>;
  /** The emission's CloudEvents id: stored on the guard for audit, never deduplicated on. */
  eventId: string;
  /** Seconds the guard lives (the rule's); undefined: kept forever. */
  guardTtlSeconds: number | undefined;
  /** The event's `time` (RFC 3339), when it has one: how old it is decides whether it can be judged. */
  time?: string | undefined;
  /** The calendar day a rule's intent is about (`streak.day`'s `day`), which ages too. */
  day?: string | undefined;
}
