import { DeleteMessageBatchCommand, type Message, type SQSClient } from "@aws-sdk/client-sqs";
import { MAX_BATCH_ENTRIES, plural, readParkedMessage } from "@rewards/core";
import { sendSqsBatch } from "@rewards/core/aws";
import { queueCounts } from "../queues/queueCounts";
import { holdMessages, release, releaseReported } from "./heldMessages";

/** A purged message as `--export` keeps it: enough to read it again, or send it back by hand. */
export interface ExportedMessage {
  messageId: string;
  body: string;
  /** Its message attributes as SQS gives them (`rewards.error`, `rewards.reason`, the originals…); binary values in base64. */
  messageAttributes: Record<string, { DataType: string; StringValue?: string; BinaryValue?: string }>;
  /** Its system attributes (`SentTimestamp`, `ApproximateReceiveCount`…). */
  attributes: Record<string, string>;
}

export interface PurgeOptions {
  /** Only messages parked for this reason (`rewards.error`, or `redriven`); absent: every one. */
  error?: string | undefined;
  /** Delete nothing: count what would go, and release everything at once. */
  dryRun?: boolean | undefined;
  /**
   * Given every message to be purged before any is deleted: the pass deletes only once it has
   * resolved, so it resolves only when they are written for good. Throwing deletes nothing.
   */
  exportTo?: ((messages: ExportedMessage[]) => Promise<void>) | undefined;
}

export interface PurgeReport {
  dryRun: boolean;
  /** Messages (copies) the filter took: deleted, or in a dry run that would be. */
  matching: number;
  /** The same, by `rewards.error`. */
  byError: Record<string, number>;
  /** Handed to `exportTo` (every matching message), when there was one. */
  exported?: number;
  purged: number;
  /** Left in the DLQ, visible again at once. */
  notMatching: number;
  /** Held by another reader when the pass started: not in it. */
  inFlightAtStart: number;
  failed: number;
  failures: Array<{ messageId: string; error: string }>;
  /** Held messages not made visible again at once (they are when their hold ends): nothing is lost. */
  notReleased?: string;
}

const HOLD_SECONDS = 120;

export function exportedMessage(message: Message): ExportedMessage {
  const messageAttributes: ExportedMessage["messageAttributes"] = {};
  for (const [name, value] of Object.entries(message.MessageAttributes ?? {})) {
    messageAttributes[name] = {
      DataType: value.DataType ?? "String",
      ...(value.StringValue === undefined ? {} : { StringValue: value.StringValue }),
      ...(value.BinaryValue === undefined
        ? {}
        : { BinaryValue: Buffer.from(value.BinaryValue).toString("base64") }),
    };
  }
  return {
    messageId: message.MessageId ?? "",
    body: message.Body ?? "",
    messageAttributes,
    attributes: { ...message.Attributes },
  };
}

/**
 * One pass over what the DLQ holds: every message held while it is read (so none is read
 * twice), the matching ones exported (when asked) and only then deleted, the others made
 * visible again at once. Part-way, nothing unexported is ever deleted: a receive that fails
 * releases what was held and throws, an export that fails releases everything and throws, a
 * delete that fails leaves its message (exported) in the DLQ, visible again, in the report.
 */
export async function purgeMatching(
  sqs: SQSClient,
  dlqUrl: string,
  options: PurgeOptions = {},
): Promise<PurgeReport> {
  const counts = await queueCounts(sqs, dlqUrl);
  const held = await holdMessages(sqs, dlqUrl, counts.visible, HOLD_SECONDS);
  const errorOf = (message: Message) => readParkedMessage(message).error;
  const matching = held.filter(
    (message) => options.error === undefined || errorOf(message) === options.error,
  );
  const toRelease = held.filter((message) => !matching.includes(message));
  const report: PurgeReport = {
    dryRun: options.dryRun === true,
    matching: matching.length,
    byError: {},
    purged: 0,
    notMatching: toRelease.length,
    inFlightAtStart: counts.inFlight,
    failed: 0,
    failures: [],
  };
  for (const message of matching)
    report.byError[errorOf(message)] = (report.byError[errorOf(message)] ?? 0) + 1;
  if (options.exportTo) {
    try {
      await options.exportTo(matching.map(exportedMessage));
    } catch (error) {
      await release(sqs, dlqUrl, held).catch(() => {});
      throw error;
    }
    report.exported = matching.length;
  }
  if (report.dryRun) toRelease.push(...matching);
  else
    for (let i = 0; i < matching.length; i += MAX_BATCH_ENTRIES) {
      const batch = matching.slice(i, i + MAX_BATCH_ENTRIES);
      const { succeeded, refused, unsent } = await sendSqsBatch(
        batch.map((message, j) => ({ Id: String(j), ReceiptHandle: message.ReceiptHandle })),
        (entries) => sqs.send(new DeleteMessageBatchCommand({ QueueUrl: dlqUrl, Entries: entries })),
      );
      report.purged += succeeded.length;
      for (const { entry, error } of [...refused, ...unsent]) {
        const message = batch[Number(entry.Id)] as Message;
        report.failures.push({
          messageId: message.MessageId ?? "",
          error: `not deleted (it stays in the DLQ): ${error}`,
        });
        toRelease.push(message);
      }
    }
  report.failed = report.failures.length;
  const notReleased = await releaseReported(sqs, dlqUrl, toRelease);
  if (notReleased !== undefined) report.notReleased = notReleased;
  return report;
}

/** The pass in words: what went (or would), by reason, and what stayed and why. */
export function describePurge(report: PurgeReport): string {
  const reasons = Object.entries(report.byError)
    .map(([error, n]) => `${error} ${n}`)
    .join(", ");
  const matching = `${plural(report.matching, "message")}${reasons === "" ? "" : ` (${reasons})`}`;
  const exported = report.exported === undefined ? "" : `, ${report.exported} exported first`;
  const lines = [
    report.dryRun
      ? `dry run: ${matching} would be purged${exported}; nothing deleted, every message visible again.`
      : `${report.purged} of ${matching} purged${exported}, ${report.failed} failed.`,
  ];
  if (report.notMatching > 0)
    lines.push(`${plural(report.notMatching, "message")} not matching left in the DLQ.`);
  if (report.inFlightAtStart > 0)
    lines.push(
      `${plural(report.inFlightAtStart, "message was", "messages were")} being read elsewhere and not in this pass: run it again once they are visible.`,
    );
  for (const failure of report.failures) lines.push(`  ${failure.messageId}: ${failure.error}`);
  if (report.notReleased !== undefined)
    lines.push(`${report.notReleased} (nothing is lost: they stay in the DLQ).`);
  return `${lines.join("\n")}\n`;
}
