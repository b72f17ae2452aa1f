import type { BatchSummary } from "./poller";

/** What an event source handed over: batches, messages, redeliveries, whole-batch failures. */
export class DeliveryCounts {
  batches = 0;
  messages = 0;
  /** Deliveries of a message SQS had delivered before (ApproximateReceiveCount > 1). */
  redelivered = 0;
  wholeBatchFailures = 0;

  recordBatch(summary: BatchSummary): void {
    this.batches++;
    this.messages += summary.records.length;
    this.redelivered += summary.records.filter(
      (r) => Number(r.attributes.ApproximateReceiveCount) > 1,
    ).length;
    if (summary.wholeBatchFailure) this.wholeBatchFailures++;
  }
}
