import { SendMessageBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";
import {
  classifyError,
  createSqsClient,
  DEFAULT_RETRY_POLICY,
  describeError,
  describeIssues,
  type EventIssue,
  loadConfig,
  type RetryPolicy,
  retry,
  validateEvent,
} from "@rewards/core";
import pLimit from "p-limit";
import { chunkEntries, type Entry, entryBytes, MAX_PAYLOAD_BYTES } from "./batchEntries";
import { createEventBuilders, type EventBuilders } from "./eventBuilders";

export interface PublisherOptions {
  /** The events queue (QUEUE_URL). Required. */
  queueUrl: string;
  /** Defaults to a client for AWS_REGION / AWS_ENDPOINT_URL_SQS from the environment. */
  client?: SQSClient;
  /** CloudEvents `source` the builders fill in, e.g. `/reader/web`. */
  source?: string;
  retryPolicy?: RetryPolicy;
  /** SendMessageBatch calls in flight at once. */
  concurrency?: number;
}

export type PublishResult =
  | { ok: true; index: number; messageId: string }
  | { ok: false; index: number; error: string; issues?: EventIssue[] };

export interface Publisher {
  /** Validates, sends and reports every event: one result per input, in input order. */
  publish(events: readonly unknown[]): Promise<PublishResult[]>;
  /** Typed builders bound to this publisher's `source`. */
  events: EventBuilders;
}

/** Entries SQS refused for a reason that may pass on a second try. */
class TransientEntryFailures extends Error {
  override readonly name = "TransientEntryFailures";
  constructor(readonly entries: Entry[]) {
    super(`${entries.length} entries failed on the server side`);
  }
}

function toEntry(event: unknown, index: number): Entry {
  const { type, specversion } = event as { type: string; specversion: string };
  return {
    index,
    body: JSON.stringify(event),
    attributes: {
      type: { DataType: "String", StringValue: type },
      specversion: { DataType: "String", StringValue: specversion },
    },
  };
}

/**
 * A publisher for reading events. It validates with the worker's own
 * schemas, so an event it accepts is one the worker can pay, and it never throws for a
 * bad event or a failed send — each gets an `ok: false` result saying why.
 */
export function createPublisher(options: PublisherOptions): Publisher {
  if (!options?.queueUrl) throw new TypeError("createPublisher: queueUrl is required");
  const client = options.client ?? createSqsClient(loadConfig(process.env));
  const policy = options.retryPolicy ?? DEFAULT_RETRY_POLICY;
  const limit = pLimit(options.concurrency ?? 8);

  async function sendChunk(chunk: Entry[], results: PublishResult[]): Promise<void> {
    let pending = chunk;
    try {
      await retry(
        async () => {
          const response = await client.send(
            new SendMessageBatchCommand({
              QueueUrl: options.queueUrl,
              Entries: pending.map((entry) => ({
                Id: String(entry.index),
                MessageBody: entry.body,
                MessageAttributes: entry.attributes,
              })),
            }),
          );
          for (const sent of response.Successful ?? []) {
            results[Number(sent.Id)] = {
              ok: true,
              index: Number(sent.Id),
              messageId: sent.MessageId as string,
            };
          }
          const transient: Entry[] = [];
          for (const failed of response.Failed ?? []) {
            const index = Number(failed.Id);
            if (failed.SenderFault) {
              results[index] = {
                ok: false,
                index,
                error: `${failed.Code}: ${failed.Message ?? "rejected by SQS"}`,
              };
            } else {
              transient.push(pending.find((entry) => entry.index === index) as Entry);
            }
          }
          if (transient.length > 0) {
            pending = transient;
            throw new TransientEntryFailures(transient);
          }
        },
        (error) => error instanceof TransientEntryFailures || classifyError(error) === "transient",
        policy,
      );
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause ?? error;
      const reason =
        cause instanceof TransientEntryFailures
          ? "SQS kept failing these entries (server side)"
          : describeError(cause);
      for (const entry of pending) results[entry.index] = { ok: false, index: entry.index, error: reason };
    }
  }

  return {
    events: createEventBuilders(options.source ?? "/rewards/producer"),
    async publish(events) {
      const results: PublishResult[] = new Array(events.length);
      const valid: Entry[] = [];
      events.forEach((event, index) => {
        const validated = validateEvent(event);
        if (!validated.ok) {
          results[index] = {
            ok: false,
            index,
            error: describeIssues(validated.issues),
            issues: validated.issues,
          };
          return;
        }
        const entry = toEntry(event, index);
        const bytes = entryBytes(entry);
        if (bytes > MAX_PAYLOAD_BYTES) {
          results[index] = {
            ok: false,
            index,
            error: `event is ${bytes} bytes; SQS accepts at most ${MAX_PAYLOAD_BYTES}`,
          };
          return;
        }
        valid.push(entry);
      });
      await Promise.all(chunkEntries(valid).map((chunk) => limit(() => sendChunk(chunk, results))));
      return results;
    },
  };
}
