import { resources } from "@rewards/core/deploy";
import type { QueueCounts } from "../queues/queueCounts";
import { BEHIND_AFTER_SECONDS, type ConsumerLag, isBehind, type StreamConsumer } from "./consumerLag";
import type { StageAlarms } from "./stageAlarms";

/**
 * One part of the status: read, unknown (it could not be read: a variable unset, an endpoint
 * down, access denied; `reason` says which), or not here (the target has no such thing: the
 * local stack has no CloudWatch). Unknown is never shown as 0.
 */
export type Part<T extends object> =
  | ({ kind: "read" } & T)
  | { kind: "unknown"; reason: string }
  | { kind: "notHere"; reason: string };

/** The DLQ, every copy counted: `byReason` over the `read` ones (`rewards.error`; `redriven` without one). */
export interface DlqCounts extends QueueCounts {
  messages: number;
  read: number;
  byReason: Record<string, number>;
}

export interface StatusParts {
  queue: Part<QueueCounts>;
  oldestMessage: Part<{ ageSeconds: number | null; note?: string }>;
  dlq: Part<DlqCounts>;
  consumers: Record<StreamConsumer, Part<ConsumerLag>>;
  givenUp: Record<StreamConsumer, Part<{ batches: number }>>;
  alarms: Part<StageAlarms>;
  /** The rules in force (docs/rules.md#versions): version 0 when nothing is published. */
  rules: Part<RulesInStatus>;
}

/** The version `CURRENT` names, or why it cannot be used (a version that fails verification waits for an operator). */
export type RulesInStatus =
  | { version: number; publishedAt: string | null; digest: string }
  | { version: number | null; invalid: string };

/**
 * `ok`: every part read, nothing waiting for an operator. `attention`: every part read, and
 * something waits (an alarm in ALARM, a message in the DLQ, a batch given up, a consumer or
 * the queue past its alarm's threshold). `incomplete`: a part could not be read — the only
 * verdict the command exits 1 on: what it saw is in the verdict, whether it saw all in the code.
 */
export type StatusVerdict = "ok" | "attention" | "incomplete";

const CONSUMER_NAMES: Record<StreamConsumer, string> = {
  announcer: "the announcer",
  history: "the history's writer",
};

const FAILURES_COMMAND: Record<StreamConsumer, string> = {
  announcer: "rewards grants failures",
  history: "rewards history failures",
};

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Each part by what the verdict calls it, in the order the report shows them. */
function labelled(parts: StatusParts): Array<[string, Part<object>]> {
  return [
    ["the queue", parts.queue],
    ["the queue's oldest message", parts.oldestMessage],
    ["the DLQ", parts.dlq],
    [`${CONSUMER_NAMES.announcer}'s lag`, parts.consumers.announcer],
    [`${CONSUMER_NAMES.history}'s lag`, parts.consumers.history],
    [`${CONSUMER_NAMES.announcer}'s given-up batches`, parts.givenUp.announcer],
    [`${CONSUMER_NAMES.history}'s given-up batches`, parts.givenUp.history],
    ["the alarms", parts.alarms],
    ["the rules", parts.rules],
  ];
}

/** Pure: what waits for an operator among parts that were read. */
function waiting(parts: StatusParts): string[] {
  const reasons: string[] = [];
  const { alarms, dlq, oldestMessage, rules } = parts;
  if (rules.kind === "read" && "invalid" in rules)
    reasons.push(
      `the rules in force cannot be used: ${rules.invalid} (docs/rules.md#a-version-that-fails-verification)`,
    );
  if (alarms.kind === "read" && alarms.inAlarm.length > 0)
    reasons.push(
      `${count(alarms.inAlarm.length, "alarm")} in ALARM: ${alarms.inAlarm.map((a) => a.name).join(", ")}`,
    );
  if (alarms.kind === "read" && alarms.missing.length > 0)
    reasons.push(
      `${count(alarms.missing.length, "alarm")} of the stage not in CloudWatch: ${alarms.missing.join(", ")}`,
    );
  const oldestLimit = resources.alarms.oldestMessageAgeSeconds;
  if (
    oldestMessage.kind === "read" &&
    oldestMessage.ageSeconds !== null &&
    oldestMessage.ageSeconds > oldestLimit
  )
    reasons.push(
      `the queue's oldest message is ${oldestMessage.ageSeconds} s old (its alarm: over ${oldestLimit} s)`,
    );
  if (dlq.kind === "read" && dlq.messages > 0)
    reasons.push(`${count(dlq.messages, "message")} in the DLQ: \`rewards dlq stats\``);
  for (const consumer of ["announcer", "history"] as const) {
    const lag = parts.consumers[consumer];
    if (lag.kind === "read" && isBehind(lag, consumer))
      reasons.push(
        `${CONSUMER_NAMES[consumer]} is behind: ${lag.recordsBehind === null ? "" : `${count(lag.recordsBehind, "record")}, `}the oldest ${lag.oldestAgeSeconds} s old (its alarm: over ${BEHIND_AFTER_SECONDS[consumer]} s)`,
      );
    const givenUp = parts.givenUp[consumer];
    if (givenUp.kind === "read" && givenUp.batches > 0)
      reasons.push(
        `${CONSUMER_NAMES[consumer]} gave up ${count(givenUp.batches, "batch", "batches")}: \`${FAILURES_COMMAND[consumer]}\``,
      );
  }
  return reasons;
}

/** Pure: the verdict on the parts, and its reasons (what could not be read first, then what waits). */
export function statusVerdictOf(parts: StatusParts): { verdict: StatusVerdict; reasons: string[] } {
  const unknown = labelled(parts).flatMap(([label, part]) =>
    part.kind === "unknown" ? [`${label} could not be read: ${part.reason}`] : [],
  );
  const reasons = [...unknown, ...waiting(parts)];
  const verdict = unknown.length > 0 ? "incomplete" : reasons.length > 0 ? "attention" : "ok";
  return { verdict, reasons };
}
