import {
  EMITTED_METRICS,
  type EmittedBy,
  METRICS_DIMENSION,
  METRICS_NAMESPACE,
  type MetricService,
} from "../deploy/emittedMetrics";

type CountName<Service extends MetricService> = EmittedBy<Service>["counts"][number];

/** Each service's duration name, as EMITTED_METRICS lists it. */
const DURATION_OF = Object.fromEntries(
  Object.values(EMITTED_METRICS).map((emitted) => [emitted.service, emitted.duration]),
) as Record<MetricService, string>;

/**
 * One CloudWatch Embedded Metric Format line per batch (or request): CloudWatch turns the
 * Lambda log line into metrics (dimension `service`), with no API call on the hot path. Only
 * what EMITTED_METRICS lists for the service type-checks: a count it does not name is an error.
 */
export function embeddedMetrics<
  Service extends MetricService,
  Counts extends Readonly<Partial<Record<CountName<Service>, number>>>,
>(
  service: Service,
  counts: Counts & Readonly<Record<Exclude<keyof Counts, CountName<Service>>, never>>,
  durationMs: number,
  timestamp: number,
  durationName?: EmittedBy<Service>["duration"],
): string {
  const duration = durationName ?? DURATION_OF[service];
  return JSON.stringify({
    _aws: {
      Timestamp: timestamp,
      CloudWatchMetrics: [
        {
          Namespace: METRICS_NAMESPACE,
          Dimensions: [[METRICS_DIMENSION]],
          Metrics: [
            ...Object.keys(counts).map((name) => ({ Name: name, Unit: "Count" })),
            { Name: duration, Unit: "Milliseconds" },
          ],
        },
      ],
    },
    [METRICS_DIMENSION]: service,
    ...counts,
    [duration]: durationMs,
  });
}
