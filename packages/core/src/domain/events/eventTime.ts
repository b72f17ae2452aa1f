import type { Award } from "../award/award";
import { type ParkReason, parkReason } from "../park/parkReason";
import { epochMsOfRfc3339 } from "./rfc3339";

/** An event dated further ahead of the worker's clock than this is refused. */
export const MAX_AHEAD_MS = 5 * 60_000;
const DAY_MS = 86_400_000;

/** When the message first entered the queue, as SQS and our own DLQ attribute say. */
export interface QueueTimes {
  /** `rewards.firstSentAt` (ISO time), set when a message was parked and replayed. */
  firstSentAt?: string | undefined;
  /** SQS's `SentTimestamp` (epoch ms, as text). */
  sentTimestamp?: string | undefined;
}

export interface EventTime {
  ms: number;
  /** Where it came from, for reasons a person can check. */
  from: "time" | "rewards.firstSentAt" | "SentTimestamp" | "the worker's clock";
}

/** `rewards.firstSentAt` when it is a time, else SentTimestamp; undefined when neither says. */
export function firstSentAtOf(queue: QueueTimes): EventTime | undefined {
  // Absent values parse to NaN, like malformed ones.
  const firstSentAt = Date.parse(String(queue.firstSentAt));
  if (Number.isFinite(firstSentAt)) return { ms: firstSentAt, from: "rewards.firstSentAt" };
  const sent = Number(queue.sentTimestamp);
  if (Number.isFinite(sent) && queue.sentTimestamp !== "") return { ms: sent, from: "SentTimestamp" };
  return undefined;
}

/**
 * The event's time: its `time`; without one, when it first entered the queue. A message
 * with neither (a hand-made test event: SQS always sets SentTimestamp) is as old as now.
 */
export function eventTimeOf(time: string | undefined, queue: QueueTimes, now: number): EventTime {
  if (time !== undefined) return { ms: epochMsOfRfc3339(time), from: "time" };
  return firstSentAtOf(queue) ?? { ms: now, from: "the worker's clock" };
}

const iso = (ms: number) => new Date(ms).toISOString();
/** The instant a `YYYY-MM-DD` day starts (UTC); NaN for no day, which no comparison passes. */
const dayStart = (day: string | undefined) => Date.parse(`${day}T00:00:00Z`);

/**
 * Whether the worker can still judge an event (docs/events.md, "Event time"): a guard
 * remembers an award for its rule's memory M, so an event older than M − 1 day could meet
 * no guard and pay twice: it is `stale`, parked and never paid. An event dated more than 5
 * minutes ahead of the clock would outlive its guard the same way: `invalid_event`. For
 * `streak.day` the day counts too. Rules kept forever are never stale. Pure: `now` is the
 * clock the guard's `:now` comes from.
 */
export function untimelyReason(award: Award, queue: QueueTimes, now: number): ParkReason | undefined {
  const time = eventTimeOf(award.time, queue, now);
  const field = time.from === "time" ? "time" : `the event has no time; ${time.from}`;
  if (time.ms > now + MAX_AHEAD_MS) {
    return parkReason(
      "invalid_event",
      `${field} ${iso(time.ms)} is more than 5 minutes after the worker's clock (${iso(now)})`,
    );
  }
  if (dayStart(award.day) > dayStart(iso(time.ms).slice(0, 10)) + DAY_MS) {
    return parkReason(
      "invalid_event",
      `data.day ${award.day} is later than the day after the event's time (${iso(time.ms)})`,
    );
  }
  // A memory shrunk since the longest (docs/rules.md): staleness follows the version's own.
  const memory = "memorySeconds" in award ? award.memorySeconds : award.guardTtlSeconds;
  if (memory === undefined) return undefined;
  const memoryDays = memory / 86_400;
  const oldest = now - (memory * 1000 - DAY_MS);
  const why = `${award.type} is remembered ${memoryDays} days, so nothing before ${iso(oldest)} (${memoryDays - 1} days ago) can be judged and paid`;
  if (dayStart(award.day) < oldest) {
    return parkReason("stale", `data.day ${award.day} is too old: ${why}`);
  }
  if (time.ms < oldest) {
    return parkReason("stale", `${field} ${iso(time.ms)} is too old: ${why}`);
  }
  return undefined;
}
