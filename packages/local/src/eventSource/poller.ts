import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import { MAX_BATCH_ENTRIES } from "@rewards/core";
import { describeError, type Logger, sendSqsBatch } from "@rewards/core/aws";
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import { acknowledge } from "./batchResponse";
import { invokeFunction } from "./invokeFunction";
import { toLambdaRecord } from "./lambdaRecord";

// biome-ignore lint/suspicious/noConfusingVoidType: a Lambda handler may legitimately return nothing
export type BatchHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface PollerOptions {
  sqs: SQSClient;
  queueUrl: string;
  handler: BatchHandler;
  logger: Logger;
  region?: string;
  /** Concurrent receive loops, like Lambda's pollers (default 2). */
  pollers?: number;
  /** Messages per batch: 1–10, or up to 10,000 with a batch window (default 10). */
  batchSize?: number;
  /** Long-poll wait per receive, 0–20 s (default 20). */
  waitTimeSeconds?: number;
  /** Keep gathering up to batchSize for this long before invoking, at most 300 s (default 0). */
  batchWindowMs?: number;
  /**
   * Per-invocation timeout; the handler sees it through getRemainingTimeInMillis (default
   * 30 s). Must be shorter than the queue's visibility timeout.
   */
  timeoutMs?: number;
  /**
   * The handler runs the function in a process of its own and kills it at the timeout
   * itself (a function runtime, whose init has a budget of its own, as on Lambda): the
   * poller waits for its answer instead of racing it.
   */
  handlerEnforcesTimeout?: boolean;
  /** Called after each batch, for progress and statistics. */
  onBatch?: (summary: BatchSummary) => void;
}

export interface BatchSummary {
  records: SQSRecord[];
  acknowledged: number;
  failed: number;
  /** Set when the whole batch counted as failed: handler threw, timed out or answered nonsense. */
  wholeBatchFailure?: string;
  /** Acknowledged messages whose delete still failed after retries (they come back as duplicates). */
  notDeleted: number;
  durationMs: number;
}

export interface Poller {
  /** Stops receiving, lets in-flight batches finish and delete, then resolves. */
  stop(): Promise<void>;
  /** Resolves when every loop has ended (after stop, or on a fatal error). */
  done: Promise<void>;
}

/** Options Lambda's SQS event source mapping would refuse; the message says which and why. */
export class PollerOptionsError extends Error {
  override readonly name = "PollerOptionsError";
}

/**
 * Lambda's rules for an SQS event source, checked before anything is received:
 * - a batch of more than 10 needs a batch window (and at most 10,000);
 * - the window is at most 300 s;
 * - the function timeout must be shorter than the queue's visibility timeout, or a message
 *   becomes visible again — and is handed to another invocation — while one still works on
 *   it. Messages are held through the batch window too, so here timeout + window must be.
 */
function checkPollerOptions(
  options: { batchSize: number; batchWindowMs: number; timeoutMs: number; pollers: number },
  visibilityTimeoutSeconds: number,
): void {
  const problems: string[] = [];
  const { batchSize, batchWindowMs, timeoutMs, pollers } = options;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000)
    problems.push(`batch size ${batchSize} must be a whole number from 1 to 10,000`);
  else if (batchSize > 10 && batchWindowMs < 1000)
    problems.push(`batch size ${batchSize} is over 10, which needs a batch window of at least 1 s`);
  if (batchWindowMs < 0 || batchWindowMs > 300_000)
    problems.push(`batch window ${batchWindowMs} ms must be from 0 to 300,000 ms`);
  if (!(timeoutMs > 0)) problems.push(`timeout ${timeoutMs} ms must be positive`);
  else if (timeoutMs + Math.max(0, batchWindowMs) >= visibilityTimeoutSeconds * 1000)
    problems.push(
      batchWindowMs > 0
        ? `timeout ${timeoutMs} ms plus batch window ${batchWindowMs} ms must be shorter than the queue's visibility timeout (${visibilityTimeoutSeconds} s)`
        : `timeout ${timeoutMs} ms must be shorter than the queue's visibility timeout (${visibilityTimeoutSeconds} s)`,
    );
  if (!Number.isInteger(pollers) || pollers < 1) problems.push(`pollers ${pollers} must be at least 1`);
  if (problems.length > 0) throw new PollerOptionsError(`invalid poller options: ${problems.join("; ")}`);
}

/**
 * A local SQS event source mapping with Lambda's semantics (see the README): long polling,
 * an optional batch window, N pollers, a per-invocation timeout, partial batch responses,
 * and a graceful stop that loses nothing and acknowledges nothing twice.
 */
export async function startPoller(options: PollerOptions): Promise<Poller> {
  const { sqs, queueUrl, handler, logger } = options;
  const batchSize = options.batchSize ?? 10;
  const batchWindowMs = options.batchWindowMs ?? 0;
  const waitTimeSeconds = options.waitTimeSeconds ?? 20;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const pollers = options.pollers ?? 2;
  const region = options.region ?? (await sqs.config.region());
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["QueueArn", "VisibilityTimeout"] }),
  );
  checkPollerOptions(
    { batchSize, batchWindowMs, timeoutMs, pollers },
    Number(Attributes?.VisibilityTimeout ?? 30),
  );
  const queueArn = Attributes?.QueueArn ?? `arn:aws:sqs:${region}:000000000000:${queueUrl.split("/").pop()}`;
  const stopping = new AbortController();

  async function receive(max: number, waitSeconds: number): Promise<Message[]> {
    try {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrl,
          MaxNumberOfMessages: max,
          WaitTimeSeconds: waitSeconds,
          MessageSystemAttributeNames: ["All"],
          MessageAttributeNames: ["All"],
        }),
        { abortSignal: stopping.signal },
      );
      return Messages;
    } catch (error) {
      // A receive aborted by stop() may have taken messages: they reappear after their
      // visibility timeout, unacknowledged, so nothing is lost.
      if (stopping.signal.aborted) return [];
      throw error;
    }
  }

  async function gather(): Promise<Message[]> {
    const messages = await receive(Math.min(10, batchSize), waitTimeSeconds);
    if (messages.length === 0 || batchWindowMs <= 0) return messages;
    const until = Date.now() + batchWindowMs;
    while (messages.length < batchSize && Date.now() < until && !stopping.signal.aborted) {
      const waitSeconds = Math.min(20, Math.max(0, Math.floor((until - Date.now()) / 1000)));
      messages.push(...(await receive(Math.min(10, batchSize - messages.length), waitSeconds)));
    }
    return messages;
  }

  /**
   * Deletes what the handler acknowledged, 10 per call, retrying the entries SQS failed on
   * its side. Returns how many stay undeleted: they come back after their visibility
   * timeout and meet the guard as duplicates.
   */
  async function deleteAll(records: SQSRecord[]): Promise<number> {
    let notDeleted = 0;
    for (let i = 0; i < records.length; i += MAX_BATCH_ENTRIES) {
      const { refused, unsent } = await sendSqsBatch(
        records.slice(i, i + MAX_BATCH_ENTRIES).map((record, j) => ({
          Id: String(j),
          ReceiptHandle: record.receiptHandle,
        })),
        (entries) => sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries })),
      );
      if (unsent.length > 0)
        logger.warn({ err: unsent[0]?.error, count: unsent.length }, "acknowledged messages not deleted");
      if (refused.length > 0)
        logger.warn({ count: refused.length }, "SQS refused to delete acknowledged messages");
      notDeleted += unsent.length + refused.length;
    }
    return notDeleted;
  }

  async function runBatch(messages: Message[]): Promise<void> {
    const started = Date.now();
    const records = messages.map((message) => toLambdaRecord(message, queueArn, region));
    let verdict: ReturnType<typeof acknowledge>;
    try {
      verdict = acknowledge(
        records,
        await invokeFunction(
          handler,
          { Records: records },
          timeoutMs,
          options.handlerEnforcesTimeout === true,
        ),
      );
    } catch (error) {
      verdict = { kind: "wholeBatchFailed", reason: describeError(error) };
    }
    if (verdict.kind === "wholeBatchFailed") {
      logger.warn(
        { size: records.length, reason: verdict.reason },
        "whole batch failed; SQS will redeliver it",
      );
    }
    const notDeleted = verdict.kind === "wholeBatchFailed" ? 0 : await deleteAll(verdict.acknowledged);
    options.onBatch?.({
      records,
      acknowledged: verdict.kind === "wholeBatchFailed" ? 0 : verdict.acknowledged.length,
      failed: verdict.kind === "wholeBatchFailed" ? records.length : verdict.failed.length,
      ...(verdict.kind === "wholeBatchFailed" ? { wholeBatchFailure: verdict.reason } : {}),
      notDeleted,
      durationMs: Date.now() - started,
    });
  }

  async function loop(): Promise<void> {
    while (!stopping.signal.aborted) {
      let messages: Message[];
      try {
        messages = await gather();
      } catch (error) {
        logger.error({ err: describeError(error) }, "receive failed; retrying in 1 s");
        await new Promise((resolve) => setTimeout(resolve, 1000));
        continue;
      }
      // A batch already received is always finished, even when stop() came meanwhile.
      if (messages.length > 0) await runBatch(messages);
    }
  }

  const done = Promise.all(Array.from({ length: pollers }, loop)).then(() => undefined);
  return {
    done,
    stop: async () => {
      stopping.abort();
      await done;
    },
  };
}
