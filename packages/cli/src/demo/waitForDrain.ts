import { setTimeout as delay } from "node:timers/promises";
import type { SQSClient } from "@aws-sdk/client-sqs";
import { queueCounts } from "../dlq/operations";

/**
 * Resolves once the queue has held nothing (visible, in flight or delayed) on two checks
 * in a row; the counts are approximate, so one empty reading is not proof.
 */
export async function waitForDrain(sqs: SQSClient, queueUrl: string, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  let emptyReadings = 0;
  while (Date.now() < until) {
    const counts = await queueCounts(sqs, queueUrl);
    emptyReadings = counts.visible + counts.inFlight + counts.delayed === 0 ? emptyReadings + 1 : 0;
    if (emptyReadings >= 2) return true;
    await delay(250);
  }
  return false;
}
