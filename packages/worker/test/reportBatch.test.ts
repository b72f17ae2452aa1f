import { Writable } from "node:stream";
import { createLogger } from "@rewards/core/aws";
import { describe, expect, it } from "vitest";
import { reportBatch } from "../src/function/reportBatch";

const silent = createLogger({
  destination: new Writable({ write: (_c, _e, done) => done() }),
  level: "silent",
});

describe("reportBatch: the batch's EMF line", () => {
  it("carries the worker's service and its stage as the one dimension set, and a count per outcome", () => {
    const lines: string[] = [];
    const response = reportBatch(
      { logger: silent, stage: "prod", emitMetrics: (line) => lines.push(line) },
      {
        results: [
          { messageId: "m1", outcome: "awarded", attempts: 1 },
          { messageId: "m2", outcome: "failed", attempts: 4, cause: "transient" },
        ],
        counts: { awarded: 1, duplicate: 0, parked: 0, failed: 1 },
        startedAt: 1_700_000_000_000,
        durationMs: 42,
      },
    );
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: "m2" }] });
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      {
        _aws: {
          Timestamp: 1_700_000_000_000,
          CloudWatchMetrics: [
            {
              Namespace: "Rewards",
              // MessagesFailing and MessagesParked filter on both: another stage's failures never reach them.
              Dimensions: [["service", "stage"]],
              Metrics: [
                { Name: "awarded", Unit: "Count" },
                { Name: "duplicate", Unit: "Count" },
                { Name: "parked", Unit: "Count" },
                { Name: "failed", Unit: "Count" },
                { Name: "batchDuration", Unit: "Milliseconds" },
              ],
            },
          ],
        },
        service: "rewards-worker",
        stage: "prod",
        awarded: 1,
        duplicate: 0,
        parked: 0,
        failed: 1,
        batchDuration: 42,
      },
    ]);
  });
});
