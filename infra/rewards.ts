import { resources } from "../packages/core/src/resources";

const seconds = (n: number) => `${n} seconds` as const;

/**
 * Everything the system needs on AWS. SQS moves a message to the DLQ after
 * `maxReceiveCount` failed deliveries; the worker parks poison itself (DLQ_URL) at once.
 */
export function createRewards() {
  const { table, queue, deadLetterQueue, redrive, worker } = resources;

  const rewardsTable = new sst.aws.Dynamo("Rewards", {
    fields: { [table.partitionKey]: "string", [table.sortKey]: "string" },
    primaryIndex: { hashKey: table.partitionKey, rangeKey: table.sortKey },
    ttl: table.ttlAttribute,
    // On-demand capacity is the component's default (PAY_PER_REQUEST).
  });

  const dlq = new sst.aws.Queue("EventsDlq", {
    transform: { queue: { messageRetentionSeconds: deadLetterQueue.retentionSeconds } },
  });

  const events = new sst.aws.Queue("Events", {
    visibilityTimeout: seconds(queue.visibilityTimeoutSeconds),
    dlq: { queue: dlq.arn, retry: redrive.maxReceiveCount },
    transform: {
      queue: {
        messageRetentionSeconds: queue.retentionSeconds,
        receiveWaitTimeSeconds: queue.receiveWaitTimeSeconds,
      },
    },
  });

  events.subscribe(
    {
      handler: "packages/worker/src/handler.handler",
      runtime: worker.runtime,
      timeout: seconds(worker.timeoutSeconds),
      memory: `${worker.memoryMb} MB`,
      link: [rewardsTable, dlq],
      environment: {
        TABLE_NAME: rewardsTable.name,
        DLQ_URL: dlq.url,
        REWARDS_CONCURRENCY: "10",
        LOG_LEVEL: "info",
      },
    },
    {
      batch: {
        size: worker.batchSize,
        window: seconds(worker.maximumBatchingWindowSeconds),
        partialResponses: true,
      },
    },
  );

  return { queueUrl: events.url, dlqUrl: dlq.url, tableName: rewardsTable.name };
}
