import {
  EMITTED_METRICS,
  type EmittedBy,
  METRICS_DIMENSION,
  METRICS_DIMENSIONS,
  METRICS_NAMESPACE,
  METRICS_STAGE_DIMENSION,
  type MetricService,
} from "../deploy/emittedMetrics";

type CountName<Service extends MetricService> = EmittedBy<Service>["counts"][number];

/** Each service's duration name, as EMITTED_METRICS lists it. */
const DURATION_OF = Object.fromEntries(
  Object.values(EMITTED_METRICS).map((emitted) => [emitted.service, emitted.duration]),
) as Record<MetricService, string>;

/** The values of a line's two dimensions: which function emitted it, in which stage (REWARDS_STAGE). */
export interface MetricDimensions<Service extends MetricService = MetricService> {
  service: Service;
  stage: string;
}

/**
 * One CloudWatch Embedded Metric Format line per batch (or request): CloudWatch turns the
 * Lambda log line into metrics (dimensions `service` and `stage`, METRICS_DIMENSIONS), with
 * no API call on the hot path. Only what EMITTED_METRICS lists for the service type-checks: a
 * count it does not name is an error.
 */
export function embeddedMetrics<
  Service extends MetricService,
  Counts extends Readonly<Partial<Record<CountName<Service>, number>>>,
>(
  dimensions: MetricDimensions<Service>,
  counts: Counts & Readonly<Record<Exclude<keyof Counts, CountName<Service>>, never>>,
  durationMs: number,
  timestamp: number,
  durationName?: EmittedBy<Service>["duration"],
): string {
  const duration = durationName ?? DURATION_OF[dimensions.service];
  return JSON.stringify({
    _aws: {
      Timestamp: timestamp,
      CloudWatchMetrics: [
        {
          Namespace: METRICS_NAMESPACE,
          Dimensions: [[...METRICS_DIMENSIONS]],
          Metrics: [
            ...Object.keys(counts).map((name) => ({ Name: name, Unit: "Count" })),
            { Name: duration, Unit: "Milliseconds" },
          ],
        },
      ],
    },
    [METRICS_DIMENSION]: dimensions.service,
    [METRICS_STAGE_DIMENSION]: dimensions.stage,
    ...counts,
    [duration]: durationMs,
  });
}
