/**
 * The one definition of the AWS resources, read by both the SST app (infra/) and the
 * local stack (packages/local), so what runs locally is what deploys.
 */
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
    /**
     * AWS advises at least six times the function timeout, so a message is not redelivered
     * while a retried invocation still holds it.
     */
    visibilityTimeoutSeconds: 180,
    retentionSeconds: 4 * 24 * 60 * 60,
    receiveWaitTimeSeconds: 20,
  },
  deadLetterQueue: {
    name: "rewards-events-dlq",
    /** Longer than the queue's, so a redriven message never expires sooner than it would have. */
    retentionSeconds: 14 * 24 * 60 * 60,
  },
  redrive: { maxReceiveCount: 5 },
  worker: {
    timeoutSeconds: 30,
    batchSize: 10,
    maximumBatchingWindowSeconds: 1,
    memoryMb: 512,
    runtime: "nodejs22.x",
  },
} as const;

export type Resources = typeof resources;
