import { SendMessageBatchCommand, SQSClient } from "@aws-sdk/client-sqs";
import {
  describeIssues,
  type EventIssue,
  MAX_MESSAGE_BYTES,
  messageSize,
  validatePublished,
} from "@rewards/core";
import { classifyError, clientDefaults, sendSqsBatch, withNamedCalls } from "@rewards/core/aws";
import pLimit from "p-limit";
import { chunkEntries, type Entry } from "./batchEntries";
import { createEventBuilders, type EventBuilders } from "./eventBuilders";
import { type PublisherOptions, validateOptions } from "./publisherOptions";

export type PublishResult =
  | { ok: true; index: number; messageId: string }
  | { ok: false; index: number; error: string; issues?: EventIssue[] };

export interface Publisher {
  /** Validates, sends and reports every event: one result per input, in input order. */
  publish(events: readonly unknown[]): Promise<PublishResult[]>;
  /** Typed builders bound to this publisher's `source`. */
  events: EventBuilders;
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
 * A publisher for reading events. It validates with the worker's own schemas, so an event
 * it accepts is one the worker can pay, and it never throws for a bad event or a failed
 * send — each gets an `ok: false` result saying why. It throws only for bad options.
 */
export function createPublisher(options: PublisherOptions): Publisher {
  validateOptions(options);
  // The SDK resolves what is not given (region, endpoint, credentials) from its own variables.
  // Our own client's failed sends name their call (queue, endpoint); a client passed in is left as it is.
  const client =
    options.client ?? withNamedCalls(new SQSClient({ ...clientDefaults({}, 3), ...options.clientConfig }));
  const limit = pLimit(options.concurrency ?? 8);

  async function sendChunk(chunk: Entry[], results: PublishResult[]): Promise<void> {
    const report = await sendSqsBatch(
      chunk.map((entry) => ({
        Id: String(entry.index),
        MessageBody: entry.body,
        MessageAttributes: entry.attributes,
      })),
      (entries) => client.send(new SendMessageBatchCommand({ QueueUrl: options.queueUrl, Entries: entries })),
      { policy: options.retryPolicy, shouldRetry: (error) => classifyError(error) === "transient" },
    );
    for (const { entry, result } of report.succeeded) {
      const index = Number(entry.Id);
      results[index] = { ok: true, index, messageId: result.MessageId as string };
    }
    for (const { entry, error } of [...report.refused, ...report.unsent]) {
      const index = Number(entry.Id);
      results[index] = { ok: false, index, error };
    }
  }

  return {
    events: createEventBuilders(options.source ?? "/rewards/producer"),
    async publish(events) {
      const results: PublishResult[] = new Array(events.length);
      const valid: Entry[] = [];
      events.forEach((event, index) => {
        const validated = validatePublished(event);
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
        const bytes = messageSize(entry.body, entry.attributes);
        if (bytes > MAX_MESSAGE_BYTES) {
          results[index] = {
            ok: false,
            index,
            error: `event is ${bytes} bytes; SQS accepts at most ${MAX_MESSAGE_BYTES}`,
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
