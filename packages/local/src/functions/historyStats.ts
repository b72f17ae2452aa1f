import type { StreamBatchSummary } from "../eventSource/streamSource";
import { addEmfCounts } from "./emfTotals";

/** Running totals of a local history writer: its EMF counts and what the stream source did. */
export class HistoryStats {
  readonly outcomes = { written: 0, skipped: 0, failed: 0 };
  invocations = 0;
  records = 0;
  /** Invocations that ended in a retry: a partial batch response, an error, a timeout. */
  retries = 0;

  recordOutput(line: string): boolean {
    return addEmfCounts(line, this.outcomes);
  }

  recordBatch(summary: StreamBatchSummary): void {
    this.invocations++;
    this.records += summary.records.length;
    if (summary.verdict !== "succeeded") this.retries++;
  }
}
