import { setTimeout as delay } from "node:timers/promises";
import type { SQSClient } from "@aws-sdk/client-sqs";
import { type QueueCounts, queueCounts } from "./queueCounts";

export interface DrainOptions {
  /** Give up after this long in all. */
  timeoutMs: number;
  /** Give up sooner when the counts have not changed for this long (no progress). */
  stallMs?: number;
  onProgress?: (counts: QueueCounts) => void;
}

export type DrainResult = "drained" | "timeout" | "stalled";

/**
 * Waits until the queue holds nothing (visible, in flight or delayed) on two checks in a
 * row — the counts are approximate, so one empty reading is not proof.
 */
export async function waitUntilDrained(
  sqs: SQSClient,
  queueUrl: string,
  options: DrainOptions,
): Promise<DrainResult> {
  const until = Date.now() + options.timeoutMs;
  let emptyReadings = 0;
  let last = "";
  let lastChange = Date.now();
  while (Date.now() < until) {
    const counts = await queueCounts(sqs, queueUrl);
    options.onProgress?.(counts);
    emptyReadings = counts.visible + counts.inFlight + counts.delayed === 0 ? emptyReadings + 1 : 0;
    if (emptyReadings >= 2) return "drained";
    const fingerprint = JSON.stringify(counts);
    if (fingerprint !== last) {
      last = fingerprint;
      lastChange = Date.now();
    } else if (options.stallMs !== undefined && Date.now() - lastChange > options.stallMs) {
      return "stalled";
    }
    await delay(250);
  }
  return "timeout";
}

/** True once drained within `timeoutMs`. */
export async function waitForDrain(sqs: SQSClient, queueUrl: string, timeoutMs: number): Promise<boolean> {
  return (await waitUntilDrained(sqs, queueUrl, { timeoutMs })) === "drained";
}
