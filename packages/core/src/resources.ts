/**
 * The one definition of the AWS resources, read by both the SST app (infra/) and the
 * local stack (packages/local), so what runs locally is what deploys.
 */
const worker = {
  timeoutSeconds: 30,
  batchSize: 10,
  maximumBatchingWindowSeconds: 1,
  memoryMb: 512,
  runtime: "nodejs22.x",
  /**
   * Concurrent invocations the event source mapping may run (its ScalingConfig), so a
   * backlog cannot flood the table or what reads it. AWS's minimum is 2. Override per
   * deploy with REWARDS_MAXIMUM_CONCURRENCY.
   */
  maximumConcurrency: 10,
  /** User groups one invocation processes at once (the function's REWARDS_CONCURRENCY). */
  concurrency: 10,
  logRetention: "1 month",
} as const;

/**
 * AWS advises a visibility timeout of at least six times the function timeout plus the
 * batch window, so a message is not redelivered while a retried invocation still holds
 * it; 30 s more on top as headroom.
 */
const VISIBILITY_HEADROOM_SECONDS = 30;

export const resources = {
  table: {
    /** Local name; SST derives its own per stage. */
    name: "rewards",
    partitionKey: "pk",
    sortKey: "sk",
    billing: "PAY_PER_REQUEST",
    ttlAttribute: "expiresAt",
  },
  queue: {
    name: "rewards-events",
    visibilityTimeoutSeconds:
      6 * worker.timeoutSeconds + worker.maximumBatchingWindowSeconds + VISIBILITY_HEADROOM_SECONDS,
    retentionSeconds: 4 * 24 * 60 * 60,
    receiveWaitTimeSeconds: 20,
  },
  deadLetterQueue: {
    name: "rewards-events-dlq",
    /** Longer than the queue's, so a redriven message never expires sooner than it would have. */
    retentionSeconds: 14 * 24 * 60 * 60,
  },
  redrive: { maxReceiveCount: 5 },
  worker,
  alarms: {
    /** The queue's oldest message older than this means the worker is not keeping up. */
    oldestMessageAgeSeconds: 10 * 60,
    /** `failed` above zero for this many 1-minute periods in a row: a real outage, not a blip. */
    failedPeriods: 5,
  },
} as const;

export type Resources = typeof resources;
