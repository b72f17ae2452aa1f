import {
  type BatchResult,
  type BatchSummary,
  type Outcome,
  type Poller,
  type PollerOptions,
  processBatch,
  startPoller,
  type WorkerDeps,
} from "@rewards/worker";

/** Running totals over a poller's batches, for summaries. */
export class WorkerStats {
  readonly outcomes: Record<Outcome, number> = { awarded: 0, duplicate: 0, parked: 0, failed: 0 };
  batches = 0;
  messages = 0;
  /** Deliveries of a message SQS had delivered before (ApproximateReceiveCount > 1). */
  redelivered = 0;
  wholeBatchFailures = 0;

  recordResult(result: BatchResult): void {
    for (const outcome of Object.keys(this.outcomes) as Outcome[])
      this.outcomes[outcome] += result.counts[outcome];
  }

  recordBatch(summary: BatchSummary): void {
    this.batches++;
    this.messages += summary.records.length;
    this.redelivered += summary.records.filter(
      (r) => Number(r.attributes.ApproximateReceiveCount) > 1,
    ).length;
    if (summary.wholeBatchFailure) this.wholeBatchFailures++;
  }
}

/** A poller running the real batch code with `deps`, counting every outcome and delivery. */
export async function startCountingPoller(
  deps: WorkerDeps,
  options: Omit<PollerOptions, "handler" | "onBatch">,
): Promise<{ poller: Poller; stats: WorkerStats }> {
  const stats = new WorkerStats();
  const poller = await startPoller({
    ...options,
    handler: async (event, context) => {
      const result = await processBatch(deps, event, context);
      stats.recordResult(result);
      return result.response;
    },
    onBatch: (summary) => stats.recordBatch(summary),
  });
  return { poller, stats };
}
