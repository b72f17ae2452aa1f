import type { Outcome } from "./outcome";

const METRICS_NAMESPACE = "Rewards";

/**
 * One CloudWatch Embedded Metric Format line per batch: CloudWatch turns the Lambda log
 * line into metrics, with no API call on the hot path.
 */
export function embeddedMetrics(
  counts: Record<Outcome, number>,
  durationMs: number,
  timestamp: number,
): string {
  return JSON.stringify({
    _aws: {
      Timestamp: timestamp,
      CloudWatchMetrics: [
        {
          Namespace: METRICS_NAMESPACE,
          Dimensions: [["service"]],
          Metrics: [
            ...Object.keys(counts).map((name) => ({ Name: name, Unit: "Count" })),
            { Name: "batchDuration", Unit: "Milliseconds" },
          ],
        },
      ],
    },
    service: "rewards-worker",
    ...counts,
    batchDuration: durationMs,
  });
}
