import type { ConsumerLag } from "./consumerLag";
import type { StatusReport } from "./readStatus";
import type { StageAlarms } from "./stageAlarms";
import type { DlqCounts, Part, RulesInStatus } from "./statusVerdict";

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A part in words: `read` by `words`, the others by why not. */
function partText<T extends object>(part: Part<T>, words: (read: T) => string): string {
  if (part.kind === "unknown") return `unknown: ${part.reason}`;
  if (part.kind === "notHere") return `not here: ${part.reason}`;
  return words(part);
}

/** `7 messages: invalid_event 4, stale 3`, saying which were not read for the breakdown. */
function dlqText(dlq: DlqCounts): string {
  if (dlq.messages === 0) return "empty";
  const reasons = Object.entries(dlq.byReason)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([reason, n]) => `${reason} ${n}`)
    .join(", ");
  const unread = dlq.messages - dlq.read;
  return `${count(dlq.messages, "message")}${reasons === "" ? "" : `: ${reasons}`}${unread > 0 ? ` (${unread} not read for the reasons: in flight, delayed or past the ${dlq.read} read)` : ""}`;
}

/** `5 records behind, the oldest 42 s old` (from the local checkpoint); on AWS, IteratorAge's words. */
function lagText(lag: ConsumerLag): string {
  const note = lag.note === undefined ? "" : `; ${lag.note}`;
  if (lag.source === "cloudwatch")
    return lag.oldestAgeSeconds === null
      ? `unknown age${note}`
      : `the oldest record not done ${lag.oldestAgeSeconds} s old (IteratorAge)${note}`;
  const behind = lag.recordsBehind ?? 0;
  return behind === 0
    ? `caught up: 0 records behind${note}`
    : `${count(behind, "record")} behind, the oldest ${lag.oldestAgeSeconds} s old${note}`;
}

const batchesText = (given: { batches: number }) => count(given.batches, "batch", "batches");

function rulesText(rules: RulesInStatus): string {
  if ("invalid" in rules) return `CURRENT cannot be used: ${rules.invalid}`;
  return rules.version === 0
    ? "version 0 (the built-in rules; nothing published)"
    : `version ${rules.version}, published ${rules.publishedAt}`;
}

function alarmsText(alarms: StageAlarms): string {
  const missing = alarms.missing.length === 0 ? "" : `; not in CloudWatch: ${alarms.missing.join(", ")}`;
  if (alarms.inAlarm.length === 0) return `none of ${alarms.alarms} in ALARM${missing}`;
  const firing = alarms.inAlarm.map((a) => `${a.name}${a.since === null ? "" : ` (since ${a.since})`}`);
  return `${alarms.inAlarm.length} of ${alarms.alarms} in ALARM: ${firing.join(", ")}${missing}`;
}

/** Pure: the report as `rewards status` shows it, a name and a line per part, in on call's order. */
export function statusPairs(report: StatusReport): Record<string, string> {
  return {
    stage:
      report.target === "local"
        ? "the local stack"
        : `AWS, ${report.stage === null ? "stage unknown (REWARDS_STAGE not set)" : report.stage}`,
    queue: partText(
      report.queue,
      (q) => `${q.visible} visible, ${q.inFlight} in flight, ${q.delayed} delayed`,
    ),
    "oldest message": partText(report.oldestMessage, (o) =>
      o.ageSeconds === null ? `unknown: ${o.note ?? ""}` : `${o.ageSeconds} s`,
    ),
    DLQ: partText(report.dlq, dlqText),
    "announcer's lag": partText(report.consumers.announcer, lagText),
    "history writer's lag": partText(report.consumers.history, lagText),
    "announcer gave up": partText(report.givenUp.announcer, batchesText),
    "history writer gave up": partText(report.givenUp.history, batchesText),
    alarms: partText(report.alarms, alarmsText),
    rules: partText(report.rules, rulesText),
    // The rules' version goes here once rules are versioned (issue 54): nothing until then.
  };
}

/** Pure: the verdict and its reasons, a line each: `attention: 3 messages in the DLQ: …`. */
export function verdictText(report: Pick<StatusReport, "verdict" | "reasons">): string {
  if (report.verdict === "ok") return "ok: every part read, nothing waits for an operator\n";
  return `${report.verdict}:\n${report.reasons.map((reason) => `- ${reason}\n`).join("")}`;
}
