const METRICS_NAMESPACE = "Rewards";

/**
 * One CloudWatch Embedded Metric Format line per batch: CloudWatch turns the Lambda log
 * line into metrics (dimension `service`), with no API call on the hot path.
 */
export function embeddedMetrics(
  service: string,
  counts: Readonly<Record<string, number>>,
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
    service,
    ...counts,
    batchDuration: durationMs,
  });
}
