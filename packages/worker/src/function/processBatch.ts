import { decodeEvent, invocationDeadline } from "@rewards/core";
import type { Context, SQSBatchResponse, SQSEvent } from "aws-lambda";
import pLimit from "p-limit";
import { embeddedMetrics } from "./metrics";
import { type MessageResult, OUTCOMES, type Outcome } from "./outcome";
import { type Group, planGroups } from "./planGroups";
import { processMessage } from "./processMessage";
import type { WorkerDeps } from "./workerDeps";

export interface BatchResult {
  response: SQSBatchResponse;
  /** One per record, in input order. */
  results: MessageResult[];
  counts: Record<Outcome, number>;
  durationMs: number;
}

/** A context without a clock (a hand-written test event, say) means no deadline. */
function remainingMs(context: Partial<Context> | undefined): number {
  const remaining = context?.getRemainingTimeInMillis?.();
  return typeof remaining === "number" && Number.isFinite(remaining) ? remaining : Number.POSITIVE_INFINITY;
}

async function runGroup(deps: WorkerDeps, group: Group, deadline: number, clock: () => number) {
  const results: MessageResult[] = [];
  let blocked = false;
  for (const item of group.items) {
    const base = { messageId: item.record.messageId, outcome: "failed" as const, attempts: 0 };
    if (blocked) {
      results.push({ ...base, cause: "fifo_blocked" });
    } else if (clock() >= deadline) {
      results.push({ ...base, cause: "deadline" });
    } else {
      const result = await processMessage(deps, item, deadline);
      results.push(result);
      blocked = group.stopOnFailure && result.outcome === "failed";
    }
  }
  return results;
}

/**
 * The whole worker: decode, plan groups, run them with bounded concurrency, report only
 * `failed` messages to SQS. One deadline (the invocation's end less a safety margin, in
 * whole ms) bounds every AWS call. It never throws for a per-message problem; if
 * something unforeseen breaks the batch itself, every message is reported failed
 * (redelivered), never dropped.
 */
export async function processBatch(
  deps: WorkerDeps,
  event: SQSEvent,
  context?: Partial<Context>,
): Promise<BatchResult> {
  const clock = deps.clock ?? Date.now;
  const started = clock();
  const records = event.Records ?? [];
  const deadline = invocationDeadline(started, remainingMs(context), deps.safetyMarginMs);
  let results: MessageResult[];
  try {
    const limit = pLimit(deps.concurrency);
    const items = records.map((record) => ({ record, decoded: decodeEvent(record.body) }));
    const byId = new Map(
      (
        await Promise.all(
          planGroups(items).map((group) => limit(() => runGroup(deps, group, deadline, clock))),
        )
      )
        .flat()
        .map((r) => [r.messageId, r]),
    );
    // Back in input order: groups finish in any order.
    results = records.map((record) => byId.get(record.messageId) as MessageResult);
  } catch (error) {
    deps.logger.error({ err: error }, "batch failed unexpectedly; every message will be redelivered");
    results = records.map((record) => ({
      messageId: record.messageId,
      outcome: "failed",
      attempts: 0,
      cause: "unexpected",
    }));
  }
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  for (const result of results) {
    counts[result.outcome]++;
    if (result.cause === "configuration")
      deps.logger.error(result, "configuration problem: fix the deployment");
    else deps.logger.debug(result, "message");
  }
  const durationMs = clock() - started;
  deps.logger.info({ size: records.length, ...counts, durationMs }, "batch");
  (deps.emitMetrics ?? ((line: string) => process.stdout.write(`${line}\n`)))(
    embeddedMetrics(counts, durationMs, started),
  );
  return {
    // In input order, which also keeps FIFO's "first failure first" for SQS.
    response: {
      batchItemFailures: results
        .filter((result) => result.outcome === "failed")
        .map((result) => ({ itemIdentifier: result.messageId })),
    },
    results,
    counts,
    durationMs,
  };
}
