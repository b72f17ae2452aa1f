import {
  EMITTED_METRICS,
  METRICS_DIMENSION,
  METRICS_NAMESPACE,
  METRICS_STAGE_DIMENSION,
  resources,
} from "@rewards/core/deploy";

interface AlarmSpecBase<Name> {
  name: string;
  description: string;
  namespace: string;
  metricName: string;
  dimensions: Record<string, Name | string>;
  /** Breaching when the statistic is above this. */
  threshold: number;
  periodSeconds: number;
  evaluationPeriods: number;
}

/**
 * The stage's queues and functions, by their deployed names (the worker's is `functionName`),
 * and the stage itself: the `stage` dimension of the functions' own metrics (REWARDS_STAGE).
 */
export interface StageNames<Name = string> {
  stage: string;
  dlq: Name;
  queue: Name;
  functionName: Name;
  announcerFunctionName: Name;
  announcerFailureQueue: Name;
  historyFunctionName: Name;
  historyFailureQueue: Name;
  readApiFunctionName: Name;
}

/**
 * The dimensions of a function's own EMF metric: its service and the stage. Both, always: the
 * namespace is the account's, so an alarm on `service` alone would fire on every stage's.
 */
const emittedBy = (emitted: { service: string }, stage: string) => ({
  [METRICS_DIMENSION]: emitted.service,
  [METRICS_STAGE_DIMENSION]: stage,
});

/** An alarm on a statistic (Sum, Maximum), or on a percentile (extendedStatistic `p99`). */
export type AlarmSpec<Name = string> = AlarmSpecBase<Name> &
  ({ statistic: "Sum" | "Maximum" } | { extendedStatistic: `p${number}` });

/**
 * The alarms an operator needs, as data (infra/rewards.ts turns them into CloudWatch
 * alarms): anything in the DLQ; a backlog older than the limit; the function's own errors
 * and throttles; the worker's `Rewards` metrics (EMF, in this stage) — `failed` above zero for several
 * minutes in a row (transient failures that do not clear), `parked` at all; the announcer
 * falling behind the stream (its iterator age), and batches it gave up (its failure queue);
 * the history writer falling behind the stream, its failed invocations, and batches it gave up
 * (its failure queue: a partial batch response is never in `Errors`); the worker refusing a
 * version of the site's rules (`rulesRejected`) and failing records for want of a good one
 * (`noRules`); the read API's 5xx answers and its p99 latency.
 */
export function alarmSpecs<Name>(names: StageNames<Name>): AlarmSpec<Name>[] {
  const {
    oldestMessageAgeSeconds,
    failedPeriods,
    iteratorAgeMs,
    iteratorAgePeriods,
    historyIteratorAgeMs,
    historyIteratorAgePeriods,
    readApi5xxPerMinute,
    readApi5xxPeriods,
    readApiP99Ms,
    readApiP99Periods,
  } = resources.alarms;
  return [
    {
      name: "DlqNotEmpty",
      description:
        "Messages are waiting in the dead-letter queue: `rewards dlq stats`, then `rewards dlq peek`.",
      namespace: "AWS/SQS",
      metricName: "ApproximateNumberOfMessagesVisible",
      dimensions: { QueueName: names.dlq },
      statistic: "Maximum",
      threshold: 0,
      periodSeconds: 60,
      evaluationPeriods: 1,
    },
    {
      name: "QueueBacklogOld",
      description: `The oldest message in the events queue is older than ${oldestMessageAgeSeconds / 60} minutes: the worker is not keeping up or is failing.`,
      namespace: "AWS/SQS",
      metricName: "ApproximateAgeOfOldestMessage",
      dimensions: { QueueName: names.queue },
      statistic: "Maximum",
      threshold: oldestMessageAgeSeconds,
      periodSeconds: 60,
      evaluationPeriods: 1,
    },
    {
      name: "WorkerErrors",
      description: "The worker function failed invocations (a whole batch is redelivered): see its logs.",
      namespace: "AWS/Lambda",
      metricName: "Errors",
      dimensions: { FunctionName: names.functionName },
      statistic: "Sum",
      threshold: 0,
      periodSeconds: 60,
      evaluationPeriods: 1,
    },
    {
      name: "WorkerThrottles",
      description:
        "Invocations of the worker were throttled (account concurrency, or the mapping's maximum).",
      namespace: "AWS/Lambda",
      metricName: "Throttles",
      dimensions: { FunctionName: names.functionName },
      statistic: "Sum",
      threshold: 0,
      periodSeconds: 60,
      evaluationPeriods: 1,
    },
    {
      name: "MessagesFailing",
      description: `The worker reported failed messages for ${failedPeriods} minutes in a row: DynamoDB throttling, a configuration problem, or an outage (logs: cause).`,
      namespace: METRICS_NAMESPACE,
      metricName: "failed",
      dimensions: emittedBy(EMITTED_METRICS.worker, names.stage),
      statistic: "Sum",
      threshold: 0,
      periodSeconds: 60,
      evaluationPeriods: failedPeriods,
    },
    {
      name: "MessagesParked",
      description:
        "The worker parked messages it can never pay (bad events, or a rejected profile): `rewards dlq peek`.",
      namespace: METRICS_NAMESPACE,
      metricName: "parked",
      dimensions: emittedBy(EMITTED_METRICS.worker, names.stage),
      statistic: "Sum",
      threshold: 0,
      periodSeconds: 60,
      evaluationPeriods: 1,
    },
    {
      name: "RulesRejected",
      description:
        "The worker refused the rules' CURRENT (digest, format or checks failed: a hand edit?) or could not read it, and keeps its last good version: `rewards rules show`, `rewards status` (docs/rules.md#a-version-that-fails-verification).",
      namespace: METRICS_NAMESPACE,
      metricName: "rulesRejected",
      dimensions: emittedBy(EMITTED_METRICS.worker, names.stage),
      statistic: "Sum",
      threshold: 0,
      periodSeconds: 60,
      evaluationPeriods: 1,
    },
    {
      name: "NoGoodRules",
      description:
        "The worker failed messages for want of a good version of the rules (a cold start onto a bad CURRENT): they are redelivered until one is published or rolled back (docs/rules.md#a-version-that-fails-verification).",
      namespace: METRICS_NAMESPACE,
      metricName: "noRules",
      dimensions: emittedBy(EMITTED_METRICS.worker, names.stage),
      statistic: "Sum",
      threshold: 0,
      periodSeconds: 60,
      evaluationPeriods: 1,
    },
    {
      name: "AnnouncerBehind",
      description: `The announcer's oldest unannounced award is over ${iteratorAgeMs / 60_000} minutes old (${iteratorAgePeriods} minutes in a row): consumers hear of awards late; see its logs (a failing bus, throttling).`,
      namespace: "AWS/Lambda",
      metricName: "IteratorAge",
      dimensions: { FunctionName: names.announcerFunctionName },
      statistic: "Maximum",
      threshold: iteratorAgeMs,
      periodSeconds: 60,
      evaluationPeriods: iteratorAgePeriods,
    },
    {
      name: "AnnouncerGaveUp",
      description:
        "The announcer gave up batches of awards (not announced): `rewards grants failures`, then `rewards grants replay` within 24 hours (after that, `rewards grants republish`).",
      namespace: "AWS/SQS",
      metricName: "ApproximateNumberOfMessagesVisible",
      dimensions: { QueueName: names.announcerFailureQueue },
      statistic: "Maximum",
      threshold: 0,
      periodSeconds: 60,
      evaluationPeriods: 1,
    },
    {
      name: "HistoryBehind",
      description: `The history writer's oldest unwritten award is over ${historyIteratorAgeMs / 60_000} minutes old (${historyIteratorAgePeriods} minutes in a row): readers see their awards late; see its logs (throttling, a failing table).`,
      namespace: "AWS/Lambda",
      metricName: "IteratorAge",
      dimensions: { FunctionName: names.historyFunctionName },
      statistic: "Maximum",
      threshold: historyIteratorAgeMs,
      periodSeconds: 60,
      evaluationPeriods: historyIteratorAgePeriods,
    },
    {
      name: "HistoryGaveUp",
      description:
        "The history writer gave up batches of awards (readers do not see them): `rewards history failures`, then `rewards history replay` within 24 hours (after that, `rewards history rebuild`).",
      namespace: "AWS/SQS",
      metricName: "ApproximateNumberOfMessagesVisible",
      dimensions: { QueueName: names.historyFailureQueue },
      statistic: "Maximum",
      threshold: 0,
      periodSeconds: 60,
      evaluationPeriods: 1,
    },
    {
      name: "HistoryErrors",
      description:
        "The history writer failed invocations (its batch is bisected and retried, then given up to its failure queue): see its logs.",
      namespace: "AWS/Lambda",
      metricName: "Errors",
      dimensions: { FunctionName: names.historyFunctionName },
      statistic: "Sum",
      threshold: 0,
      periodSeconds: 60,
      evaluationPeriods: 1,
    },
    {
      // The function's own EMF count, not Lambda's Url5xxCount: it counts the 500s and 503s the
      // handler answers (throttled reads, a missing table), which Lambda sees as successes.
      name: "ReadApiErrors",
      description: `The read API answered more than ${readApi5xxPerMinute} 5xx a minute for ${readApi5xxPeriods} minutes in a row: sites cannot show rewards; see its logs (throttling, permissions).`,
      namespace: METRICS_NAMESPACE,
      metricName: "5xx",
      dimensions: emittedBy(EMITTED_METRICS.readApi, names.stage),
      statistic: "Sum",
      threshold: readApi5xxPerMinute,
      periodSeconds: 60,
      evaluationPeriods: readApi5xxPeriods,
    },
    {
      // Lambda's own count: what the function cannot report itself (an init failure, a timeout,
      // running out of memory), answered to the caller as a 5xx.
      name: "ReadApiFailing",
      description: `The read API's function URL answered 5xx that the function did not (a crash, a timeout, a failed init) for ${readApi5xxPeriods} minutes in a row: see its logs and REPORT lines.`,
      namespace: "AWS/Lambda",
      metricName: "Url5xxCount",
      dimensions: { FunctionName: names.readApiFunctionName },
      statistic: "Sum",
      threshold: 0,
      periodSeconds: 60,
      evaluationPeriods: readApi5xxPeriods,
    },
    {
      name: "ReadApiThrottled",
      description:
        "Requests to the read API were throttled (429: its reserved concurrency, REWARDS_READER_CONCURRENCY, or the account's): raise the setting, or find the caller.",
      namespace: "AWS/Lambda",
      metricName: "Throttles",
      dimensions: { FunctionName: names.readApiFunctionName },
      statistic: "Sum",
      threshold: 0,
      periodSeconds: 60,
      evaluationPeriods: readApi5xxPeriods,
    },
    {
      name: "ReadApiSlow",
      description: `The read API's p99 latency was over ${readApiP99Ms} ms for ${readApiP99Periods} minutes in a row: the table is throttling reads, or the function is starved of concurrency (REWARDS_READER_CONCURRENCY).`,
      namespace: "AWS/Lambda",
      metricName: "Duration",
      dimensions: { FunctionName: names.readApiFunctionName },
      extendedStatistic: "p99",
      threshold: readApiP99Ms,
      periodSeconds: 60,
      evaluationPeriods: readApiP99Periods,
    },
  ];
}
