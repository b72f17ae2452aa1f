import { setTimeout as delay } from "node:timers/promises";
import {
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ListMessageMoveTasksCommand,
  type Message,
  SendMessageCommand,
  type SQSClient,
  StartMessageMoveTaskCommand,
} from "@aws-sdk/client-sqs";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { decodeEvent, type ParkedMessage, readParkedMessage, replayAttributes } from "@rewards/core";
import { describeError } from "@rewards/core/aws";
import { CliError } from "../cliError";
import { plural } from "../output";
import { queueCounts } from "../queues/queueCounts";
import { holdMessages, release } from "./heldMessages";
import {
  judgeParked,
  type ReplayVerdict,
  shownVerdicts,
  tallyVerdicts,
  VERDICT_WORDS,
  type VerdictCounts,
  verdictWords,
} from "./replayVerdict";

export interface ReplayFilter {
  type?: string | undefined;
  error?: string | undefined;
  user?: string | undefined;
}

export interface ReplayOptions extends ReplayFilter {
  /** At most this many source messages replayed. */
  max?: number | undefined;
  /** At most this many sends per second. */
  rate?: number | undefined;
  dryRun?: boolean | undefined;
  /** Delete copies whose intent is already paid instead of sending them (needs `judge`). */
  skipPaid?: boolean | undefined;
  /**
   * Where to judge what each replay would do now (the table, the clock): with it the report
   * counts verdicts, and --dry-run lists them. Required by skipPaid.
   */
  judge?:
    | { dynamo: DynamoDBDocumentClient; tableName: string; now: number; dailyCap?: number | undefined }
    | undefined;
  onProgress?: ((done: number, total: number) => void) | undefined;
}

export interface JudgedMessage {
  messageId: string;
  sourceMessageId: string;
  error: string;
  type?: string | undefined;
  userId?: string | undefined;
  verdict: ReplayVerdict;
  intentKey?: string | undefined;
  reason?: string | undefined;
  /** Under a cap, for `pay_part` and `capped`: what it would pay of what its rule asks. */
  xp?: number | undefined;
  requested?: number | undefined;
}

export interface ReplayReport {
  dryRun: boolean;
  /** Source messages sent back to the queue (or, with --dry-run, that would be). */
  replayed: number;
  /** Further copies of a source message already replayed in this pass: deleted, not sent. */
  copiesDeleted: number;
  failed: number;
  failures: Array<{ messageId: string; error: string }>;
  /** Left in the DLQ, visible again at once. */
  notMatching: number;
  /** Parked again while this replay ran (by the worker handling what it replayed): never looped over. */
  parkedDuringReplay: number;
  /** Held by another reader when the pass started: not in it; run again once they are visible. */
  inFlightAtStart: number;
  /** Matching source messages left because of --max. */
  overMax: number;
  /** Messages (copies) the DLQ holds after the pass, of those it read. */
  leftInDlq: number;
  /** With a judge: what a replay does now, per matching source message. */
  verdicts?: VerdictCounts;
  /** With --dry-run and a judge: each matching source message and its verdict. */
  judged?: JudgedMessage[];
  /** With --skip-paid: already-paid source messages deleted from the DLQ instead of sent (or, dry, that would be). */
  skippedPaid: number;
  skipped: Array<{ messageId: string; sourceMessageId: string; intentKey?: string | undefined }>;
}

const HOLD_SECONDS = 120;

export function matches(parked: ParkedMessage, filter: ReplayFilter): boolean {
  return (
    (filter.type === undefined || parked.type === filter.type) &&
    (filter.error === undefined || parked.error === filter.error) &&
    (filter.user === undefined || parked.userId === filter.user)
  );
}

/** Waits so that sends start at most `rate` a second. */
function pacer(rate: number | undefined) {
  let next = 0;
  return async () => {
    if (!rate) return;
    const wait = next - Date.now();
    if (wait > 0) await delay(wait);
    next = Math.max(next, Date.now()) + 1000 / rate;
  };
}

/**
 * One pass over what the DLQ holds: each parked source message that matches the filter is
 * sent back to the queue with its original attributes (and `rewards.replayCount` + 1), then
 * deleted from the DLQ — send first, delete after, so an interruption at any point loses
 * nothing (at worst a message is replayed twice, which the guard makes harmless). Further
 * copies of a replayed source are deleted. Everything not replayed is made visible again
 * at once; a failed send says why.
 */
export async function replayDlq(
  sqs: SQSClient,
  dlqUrl: string,
  queueUrl: string,
  options: ReplayOptions = {},
): Promise<ReplayReport> {
  const startedAt = new Date().toISOString();
  const counts = await queueCounts(sqs, dlqUrl);
  const report: ReplayReport = {
    dryRun: options.dryRun === true,
    replayed: 0,
    copiesDeleted: 0,
    failed: 0,
    failures: [],
    notMatching: 0,
    parkedDuringReplay: 0,
    inFlightAtStart: counts.inFlight,
    skippedPaid: 0,
    skipped: [],
    overMax: 0,
    leftInDlq: 0,
  };
  if (options.skipPaid && !options.judge)
    throw new CliError("--skip-paid needs the table to judge with (TABLE_NAME)");
  // The pass holds every visible message it reads, so it reads each at most once.
  const held = await holdMessages(sqs, dlqUrl, counts.visible, HOLD_SECONDS);
  const judged = options.judge
    ? await judgeParked(
        held.map(readParkedMessage),
        options.judge.dynamo,
        options.judge.tableName,
        options.judge.now,
        options.judge.dailyCap,
      )
    : undefined;
  const judgedSources = new Map<string, JudgedMessage>();
  const overMaxSources = new Set<string>();
  let deleted = 0;
  const remove = async (message: Message) => {
    await sqs.send(new DeleteMessageCommand({ QueueUrl: dlqUrl, ReceiptHandle: message.ReceiptHandle }));
    deleted++;
  };
  const skippedSources = new Set<string>();
  const toRelease: Message[] = [];
  const replayedSources = new Set<string>();
  const failedSources = new Set<string>();
  const pace = pacer(options.rate);
  const max = options.max ?? Number.POSITIVE_INFINITY;
  let done = 0;
  for (const message of held) {
    options.onProgress?.(done++, held.length);
    const parked = readParkedMessage(message);
    if (parked.parkedAt !== "" && parked.parkedAt >= startedAt) {
      report.parkedDuringReplay++;
      toRelease.push(message);
      continue;
    }
    if (!matches(parked, options)) {
      report.notMatching++;
      toRelease.push(message);
      continue;
    }
    const verdict = judged?.get(parked.messageId);
    if (verdict && !judgedSources.has(parked.sourceMessageId)) {
      judgedSources.set(parked.sourceMessageId, {
        messageId: parked.messageId,
        sourceMessageId: parked.sourceMessageId,
        error: parked.error,
        type: parked.type,
        userId: parked.userId,
        ...verdict,
      });
    }
    if (replayedSources.has(parked.sourceMessageId) || skippedSources.has(parked.sourceMessageId)) {
      if (report.dryRun) toRelease.push(message);
      else await remove(message);
      report.copiesDeleted++;
    } else if (options.skipPaid && (verdict?.verdict === "paid" || verdict?.verdict === "revoked")) {
      // Its intent is paid and its guard alive: sending it would only cost a transaction.
      skippedSources.add(parked.sourceMessageId);
      report.skippedPaid++;
      report.skipped.push({
        messageId: parked.messageId,
        sourceMessageId: parked.sourceMessageId,
        intentKey: verdict.intentKey,
      });
      if (report.dryRun) toRelease.push(message);
      else await remove(message);
    } else if (failedSources.has(parked.sourceMessageId) || replayedSources.size >= max) {
      // Over --max, or a copy of a message whose send just failed: it stays.
      if (!failedSources.has(parked.sourceMessageId)) overMaxSources.add(parked.sourceMessageId);
      toRelease.push(message);
    } else if (report.dryRun) {
      replayedSources.add(parked.sourceMessageId);
      report.replayed++;
      toRelease.push(message);
    } else {
      await pace();
      try {
        await sqs.send(
          new SendMessageCommand({
            QueueUrl: queueUrl,
            MessageBody: message.Body,
            MessageAttributes: replayAttributes(message.MessageAttributes ?? {}, parked.firstSentAt),
          }),
        );
      } catch (error) {
        failedSources.add(parked.sourceMessageId);
        report.failed++;
        report.failures.push({ messageId: parked.messageId, error: `not sent: ${describeError(error)}` });
        await release(sqs, dlqUrl, [message]).catch(() => toRelease.push(message));
        continue;
      }
      replayedSources.add(parked.sourceMessageId);
      report.replayed++;
      try {
        await remove(message);
      } catch (error) {
        report.failed++;
        report.failures.push({
          messageId: parked.messageId,
          error: `sent, but not deleted from the DLQ (a later replay sends it again, harmlessly): ${describeError(error)}`,
        });
        await release(sqs, dlqUrl, [message]).catch(() => {});
      }
    }
  }
  options.onProgress?.(done, held.length);
  await release(sqs, dlqUrl, toRelease);
  report.overMax = overMaxSources.size;
  report.leftInDlq = held.length - deleted;
  if (judged) {
    report.verdicts = tallyVerdicts(judgedSources.values(), options.judge?.dailyCap !== undefined);
    if (report.dryRun) report.judged = [...judgedSources.values()];
  }
  return report;
}

/** One line for people, coherent whatever happened. */
export function describeReplay(report: ReplayReport): string {
  const parts = [
    report.dryRun
      ? `${report.replayed} would be replayed (dry run: nothing moved)`
      : `${report.replayed} replayed`,
    `${report.copiesDeleted} extra ${report.copiesDeleted === 1 ? "copy" : "copies"} ${report.dryRun ? "would be " : ""}deleted`,
    `${report.failed} failed`,
  ];
  const left = [
    report.overMax > 0 ? `${report.overMax} matching (over --max)` : "",
    report.notMatching > 0 ? `${report.notMatching} not matching the filter` : "",
    report.parkedDuringReplay > 0 ? `${report.parkedDuringReplay} parked again during the replay` : "",
  ].filter(Boolean);
  if (report.skippedPaid > 0) {
    parts.splice(
      1,
      0,
      `${report.skippedPaid} already paid ${report.dryRun ? "would be deleted" : "deleted"} instead of sent`,
    );
  }
  const leftTotal = left.length > 0 ? ` (${plural(report.leftInDlq, "message")} in all)` : "";
  const lines = [
    `${parts.join(", ")}${left.length > 0 ? `; left in the DLQ: ${left.join(", ")}${leftTotal}` : ""}.`,
  ];
  if (report.verdicts) {
    const verdicts = shownVerdicts(report.verdicts);
    lines.unshift(
      `Replayed now, the matching messages would: ${verdicts.map(([verdict, n]) => `${n} ${VERDICT_WORDS[verdict]}`).join(", ")}.`,
    );
  }
  // What the cap would cut, message by message (the counts above only say how many).
  const cut = (report.judged ?? []).filter((j) => j.verdict === "pay_part" || j.verdict === "capped");
  for (const judged of cut.slice(0, 10)) lines.push(`  ${judged.messageId}: ${verdictWords(judged)}`);
  if (cut.length > 10) lines.push(`  … and ${cut.length - 10} more the cap cuts (--json lists all)`);
  if (report.inFlightAtStart > 0) {
    lines.push(
      `${plural(report.inFlightAtStart, "message was", "messages were")} being read elsewhere and not in this pass: run it again once they are visible.`,
    );
  }
  for (const failure of report.failures.slice(0, 10)) lines.push(`  ${failure.messageId}: ${failure.error}`);
  if (report.failures.length > 10)
    lines.push(`  … and ${report.failures.length - 10} more (--json lists all)`);
  return lines.join("\n");
}

async function arnOf(sqs: SQSClient, queueUrl: string): Promise<string> {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["QueueArn"] }),
  );
  if (!Attributes?.QueueArn) throw new CliError(`no QueueArn for ${queueUrl}`);
  return Attributes.QueueArn;
}

/**
 * A parked message judged, once replayed, by when it reaches the queue again: an event
 * without a time in a copy without `rewards.firstSentAt`. Native replay cannot add that
 * attribute; a filtered replay sends the copy's SentTimestamp along.
 */
function agedByArrivalOnly(parked: ParkedMessage): boolean {
  if (parked.firstSentAtAttribute) return false;
  const decoded = decodeEvent(parked.body);
  return decoded.ok && decoded.award.time === undefined;
}

/**
 * SQS's own redrive (StartMessageMoveTask): fast and server-side, but all or nothing —
 * no filters, no restoring `rewards.overflow`, no removing extra copies. Refused while the
 * DLQ holds a message it would make look new (agedByArrivalOnly).
 */
export async function replayNative(
  sqs: SQSClient,
  dlqUrl: string,
  queueUrl: string,
  options: { rate?: number | undefined; onProgress?: (moved: number, total: number) => void } = {},
): Promise<{ moved: number; status: string }> {
  const held = await holdMessages(sqs, dlqUrl, (await queueCounts(sqs, dlqUrl)).visible, HOLD_SECONDS);
  await release(sqs, dlqUrl, held);
  const unsafe = held.map(readParkedMessage).filter(agedByArrivalOnly);
  if (unsafe.length > 0) {
    throw new CliError(
      `--native would move ${plural(unsafe.length, "message")} whose event has no time and that carry no rewards.firstSentAt ` +
        "(copies the redrive policy moved): SQS may date them anew, and an event older than its rule's memory could then " +
        "pay twice. Replay them without --native, which sends when they first entered the queue along.",
    );
  }
  const [sourceArn, destinationArn] = [await arnOf(sqs, dlqUrl), await arnOf(sqs, queueUrl)];
  try {
    await sqs.send(
      new StartMessageMoveTaskCommand({
        SourceArn: sourceArn,
        DestinationArn: destinationArn,
        ...(options.rate ? { MaxNumberOfMessagesPerSecond: Math.floor(options.rate) } : {}),
      }),
    );
  } catch (error) {
    const name = (error as Error).name;
    if (/InvalidAction|UnknownOperation|UnsupportedOperation|NotImplemented/i.test(name)) {
      throw new CliError(
        `--native needs SQS's StartMessageMoveTask, which this endpoint does not offer (the local stack does not): replay without --native`,
      );
    }
    throw error;
  }
  for (;;) {
    const { Results = [] } = await sqs.send(
      new ListMessageMoveTasksCommand({ SourceArn: sourceArn, MaxResults: 1 }),
    );
    const task = Results[0];
    const moved = task?.ApproximateNumberOfMessagesMoved ?? 0;
    options.onProgress?.(moved, task?.ApproximateNumberOfMessagesToMove ?? moved);
    if (task?.Status && task.Status !== "RUNNING") {
      if (task.Status !== "COMPLETED")
        throw new CliError(`the move task ended ${task.Status}: ${task.FailureReason ?? "no reason given"}`);
      return { moved, status: task.Status };
    }
    await delay(2000);
  }
}
