/** The CloudWatch namespace every function's EMF line goes to. */
export const METRICS_NAMESPACE = "Rewards";
/** The dimension naming the function that emitted a metric (EMITTED_METRICS' `service`). */
export const METRICS_DIMENSION = "service";
/**
 * The dimension naming the stage (REWARDS_STAGE). Every metric carries it beside `service`:
 * two stages in one account and region write the same namespace, so an alarm or a widget
 * that did not filter on it would count the other stage's too.
 */
export const METRICS_STAGE_DIMENSION = "stage";
/** The one dimension set every EMF line declares, in this order. */
export const METRICS_DIMENSIONS = [METRICS_DIMENSION, METRICS_STAGE_DIMENSION] as const;

/**
 * What each function emits (embeddedMetrics): its `service` (the dimension's value), its
 * counts, and its duration's name (ms). The emitter's types take nothing else, so a function
 * cannot emit a metric this list does not name; the dashboard (infra/dashboardSpec.ts) draws
 * these. The worker's `capped` comes only under a daily cap.
 */
export const EMITTED_METRICS = {
  worker: {
    service: "rewards-worker",
    // rulesRejected, noRules and unitsDiffer only when not 0 (docs/rules.md#at-run-time).
    counts: ["awarded", "duplicate", "capped", "parked", "failed", "rulesRejected", "noRules", "unitsDiffer"],
    duration: "batchDuration",
  },
  announcer: {
    service: "rewards-announcer",
    counts: ["announced", "skipped", "failed"],
    duration: "batchDuration",
  },
  history: {
    service: "rewards-history",
    counts: ["written", "skipped", "failed", "achieved", "boarded"],
    duration: "batchDuration",
  },
  readApi: {
    service: "rewards-read-api",
    counts: ["requests", "4xx", "5xx"],
    duration: "latency",
  },
} as const;

type Emitted = (typeof EMITTED_METRICS)[keyof typeof EMITTED_METRICS];
/** A `service` some function emits as. */
export type MetricService = Emitted["service"];
/** The counts and the duration's name of the function that emits as `service`. */
export type EmittedBy<Service extends MetricService> = Extract<Emitted, { service: Service }>;
