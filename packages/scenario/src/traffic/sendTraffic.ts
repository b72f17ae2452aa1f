import { setTimeout as delay } from "node:timers/promises";
import { SendMessageBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { classifyError, sendSqsBatch } from "@rewards/core/aws";
import { chunkEntries, createPublisher, type Entry } from "@rewards/producer";
import type { TrafficMessage } from "./generateTraffic";

export interface SendOptions {
  sqs: SQSClient;
  queueUrl: string;
  /** Messages per second at most; unlimited when absent. */
  rate?: number | undefined;
  onProgress?: (sent: number) => void;
}

export interface SendReport {
  sent: number;
  failed: Array<{ index: number; error: string }>;
}

const SLICE = 200;

/**
 * Valid events go through the publisher library, as a producer's would; poison goes out
 * raw, bypassing validation, so that the worker's parking is what gets exercised.
 */
export async function sendTraffic(
  messages: readonly TrafficMessage[],
  options: SendOptions,
): Promise<SendReport> {
  const publisher = createPublisher({ queueUrl: options.queueUrl, client: options.sqs });
  const report: SendReport = { sent: 0, failed: [] };
  const started = Date.now();
  for (let offset = 0; offset < messages.length; offset += SLICE) {
    const slice = messages.slice(offset, offset + SLICE);
    const valid = slice.flatMap((m, i) =>
      m.kind === "invalid" ? [] : [{ index: offset + i, event: JSON.parse(m.body) }],
    );
    const poison = slice.flatMap((m, i) => (m.kind === "invalid" ? [{ index: offset + i, message: m }] : []));
    const [published] = await Promise.all([
      publisher.publish(valid.map((v) => v.event)),
      sendRaw(options, poison, report),
    ]);
    for (const [i, result] of published.entries()) {
      if (result.ok) report.sent++;
      else report.failed.push({ index: valid[i]?.index ?? -1, error: result.error });
    }
    options.onProgress?.(Math.min(messages.length, offset + SLICE));
    if (options.rate) {
      const due = started + ((offset + slice.length) / options.rate) * 1000;
      if (due > Date.now()) await delay(due - Date.now());
    }
  }
  return report;
}

async function sendRaw(
  options: SendOptions,
  poison: Array<{ index: number; message: TrafficMessage }>,
  report: SendReport,
): Promise<void> {
  const entries: Entry[] = poison.map(({ index, message }) => {
    const attributes: Entry["attributes"] = {};
    if (message.type) {
      attributes.type = { DataType: "String", StringValue: message.type };
      attributes.specversion = { DataType: "String", StringValue: "1.0" };
    }
    return { index, body: message.body, attributes };
  });
  for (const chunk of chunkEntries(entries)) {
    const { succeeded, refused, unsent } = await sendSqsBatch(
      chunk.map((e) => ({ Id: String(e.index), MessageBody: e.body, MessageAttributes: e.attributes })),
      (batch) =>
        options.sqs.send(new SendMessageBatchCommand({ QueueUrl: options.queueUrl, Entries: batch })),
      { shouldRetry: (error) => classifyError(error) === "transient" },
    );
    report.sent += succeeded.length;
    for (const { entry, error } of [...refused, ...unsent])
      report.failed.push({ index: Number(entry.Id), error });
  }
}
