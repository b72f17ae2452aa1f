import type { Message, SQSClient } from "@aws-sdk/client-sqs";
import { readParkedMessage } from "@rewards/core";
import { describeError } from "@rewards/core/aws";
import { OperationError } from "../operationError";
import { queueCounts } from "../queues/queueCounts";
import { deleteHeld, holdMessages, release, releaseReported } from "./heldMessages";
import { matches, type ReplayFilter } from "./replayFilter";
import { emptyReport, judgedMessage, type ReplayReport, type ReportedMessage } from "./replayReport";
import { replayVerdictOf, tallyVerdicts, type VerdictContext } from "./replayVerdict";
import { pacer, sendBack } from "./sendBack";

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
  judge?: VerdictContext | undefined;
  onProgress?: ((done: number, total: number) => void) | undefined;
}

const HOLD_SECONDS = 120;

/**
 * One pass over what the DLQ holds: each parked source message that matches the filter is
 * sent back to the queue (see sendBack). Further copies of a replayed source are deleted.
 * Everything not replayed is made visible again at once; a failed send says why.
 */
export async function replayDlq(
  sqs: SQSClient,
  dlqUrl: string,
  queueUrl: string,
  options: ReplayOptions = {},
): Promise<ReplayReport> {
  const startedAt = new Date().toISOString();
  const counts = await queueCounts(sqs, dlqUrl);
  const report = emptyReport(options.dryRun === true, counts.inFlight);
  if (options.skipPaid && !options.judge)
    throw new OperationError("--skip-paid needs the table to judge with (TABLE_NAME)");
  // The pass holds every visible message it reads, so it reads each at most once.
  const held = await holdMessages(sqs, dlqUrl, counts.visible, HOLD_SECONDS);
  const { judge } = options;
  let judged: Awaited<ReturnType<typeof replayVerdictOf>> | undefined;
  try {
    judged = judge
      ? await replayVerdictOf(
          held.map(readParkedMessage),
          judge.dynamo,
          judge.tableName,
          judge.now,
          judge.dailyCap,
        )
      : undefined;
  } catch (error) {
    // Nothing sent or deleted yet: everything visible again at once, then the error.
    await release(sqs, dlqUrl, held).catch(() => {});
    throw error;
  }
  const judgedSources = new Map<string, ReportedMessage>();
  const overMaxSources = new Set<string>();
  const skippedSources = new Set<string>();
  const replayedSources = new Set<string>();
  const failedSources = new Set<string>();
  const toRelease: Message[] = [];
  let deleted = 0;
  // A dry run deletes nothing: what it would delete is released with the rest. A delete that
  // fails is a failure of the report (the copy stays), never a throw that would hide the report.
  const discard = async (message: Message, messageId: string): Promise<boolean> => {
    if (report.dryRun) {
      toRelease.push(message);
      return true;
    }
    try {
      await deleteHeld(sqs, dlqUrl, message);
    } catch (error) {
      report.failed++;
      report.failures.push({
        messageId,
        error: `not deleted (it stays in the DLQ): ${describeError(error)}`,
      });
      toRelease.push(message);
      return false;
    }
    deleted++;
    return true;
  };
  const pace = pacer(options.rate);
  const max = options.max ?? Number.POSITIVE_INFINITY;
  let done = 0;
  for (const message of held) {
    options.onProgress?.(done++, held.length);
    const parked = readParkedMessage(message);
    const source = parked.sourceMessageId;
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
    const judgement = judged?.get(parked.messageId);
    if (judgement && !judgedSources.has(source)) judgedSources.set(source, judgedMessage(parked, judgement));
    if (replayedSources.has(source) || skippedSources.has(source)) {
      if (await discard(message, parked.messageId)) report.copiesDeleted++;
    } else if (options.skipPaid && (judgement?.verdict === "paid" || judgement?.verdict === "revoked")) {
      // Its intent is paid and its guard alive: sending it would only cost a transaction.
      if (!(await discard(message, parked.messageId))) continue;
      skippedSources.add(source);
      report.skippedPaid++;
      report.skipped.push({
        messageId: parked.messageId,
        sourceMessageId: source,
        intentKey: judgement.intentKey,
      });
    } else if (failedSources.has(source) || replayedSources.size >= max) {
      // Over --max, or a copy of a message whose send just failed: it stays.
      if (!failedSources.has(source)) overMaxSources.add(source);
      toRelease.push(message);
    } else if (report.dryRun) {
      replayedSources.add(source);
      report.replayed++;
      toRelease.push(message);
    } else {
      await pace();
      const sent = await sendBack(sqs, dlqUrl, queueUrl, message, parked.firstSentAt);
      if (sent.kind === "notSent") {
        failedSources.add(source);
        report.failed++;
        report.failures.push({ messageId: parked.messageId, error: sent.error });
        await release(sqs, dlqUrl, [message]).catch(() => toRelease.push(message));
        continue;
      }
      replayedSources.add(source);
      report.replayed++;
      if (sent.kind === "replayed") deleted++;
      else {
        report.failed++;
        report.failures.push({ messageId: parked.messageId, error: sent.error });
        await release(sqs, dlqUrl, [message]).catch(() => {});
      }
    }
  }
  options.onProgress?.(done, held.length);
  const notReleased = await releaseReported(sqs, dlqUrl, toRelease);
  if (notReleased !== undefined) report.notReleased = notReleased;
  report.overMax = overMaxSources.size;
  report.leftInDlq = held.length - deleted;
  if (judged) {
    report.verdicts = tallyVerdicts(judgedSources.values(), options.judge?.dailyCap !== undefined);
    if (report.dryRun) report.judged = [...judgedSources.values()];
  }
  return report;
}
