const METRICS_NAMESPACE = "Rewards";

/**
 * One CloudWatch Embedded Metric Format line per batch (or request): CloudWatch turns the
 * Lambda log line into metrics (dimension `service`), with no API call on the hot path.
 */
export function embeddedMetrics(
  service: string,
  counts: Readonly<Record<string, number>>,
  durationMs: number,
  timestamp: number,
  durationName = "batchDuration",
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
            { Name: durationName, Unit: "Milliseconds" },
          ],
        },
      ],
    },
    service,
    ...counts,
    [durationName]: durationMs,
  });
}
