import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from "@aws-sdk/client-dynamodb";
import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { resources } from "@rewards/core/deploy";

export interface ProvisionOptions {
  tableName?: string;
  queueName?: string;
  dlqName?: string;
  /** The announcer's on-failure destination, and the queue the local bus's rule fills. */
  announcerFailureQueueName?: string;
  /** The history writer's on-failure destination. */
  historyFailureQueueName?: string;
  grantsQueueName?: string;
  /** The queue the local bus's second rule fills with the CloudEvent alone (a consumer's own). */
  consumerQueueName?: string;
  /** Locally a short timeout makes redelivery visible in seconds; AWS uses the definition's. */
  visibilityTimeoutSeconds?: number;
  maxReceiveCount?: number;
}

export interface Provisioned {
  tableName: string;
  /** The table's stream (NEW_IMAGE), which the announcer reads. */
  streamArn: string;
  queueUrl: string;
  dlqUrl: string;
  announcerFailureQueueUrl: string;
  historyFailureQueueUrl: string;
  grantsQueueUrl: string;
  consumerQueueUrl: string;
}

async function queueArn(sqs: SQSClient, queueUrl: string): Promise<string> {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["QueueArn"] }),
  );
  const arn = Attributes?.QueueArn;
  if (!arn) throw new Error(`no QueueArn for ${queueUrl}`);
  return arn;
}

const streamSpecification = { StreamEnabled: true, StreamViewType: resources.table.streamViewType };

/** The rewards table's key schema and stream (one definition, from resources.ts); an existing table is fine. */
export async function createTable(dynamo: DynamoDBClient, tableName: string): Promise<void> {
  const { table } = resources;
  try {
    await dynamo.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: table.billing,
        StreamSpecification: streamSpecification,
        AttributeDefinitions: [
          { AttributeName: table.partitionKey, AttributeType: "S" },
          { AttributeName: table.sortKey, AttributeType: "S" },
          { AttributeName: table.boardIndex.partitionKey, AttributeType: "S" },
          { AttributeName: table.boardIndex.sortKey, AttributeType: "S" },
        ],
        KeySchema: [
          { AttributeName: table.partitionKey, KeyType: "HASH" },
          { AttributeName: table.sortKey, KeyType: "RANGE" },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: table.boardIndex.name,
            KeySchema: [
              { AttributeName: table.boardIndex.partitionKey, KeyType: "HASH" },
              { AttributeName: table.boardIndex.sortKey, KeyType: "RANGE" },
            ],
            Projection: { ProjectionType: table.boardIndex.projection },
          },
        ],
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
}

/** The table's stream, enabled on a table that was created without one. */
async function tableStream(dynamo: DynamoDBClient, tableName: string): Promise<string> {
  const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
  if (Table?.LatestStreamArn && Table.StreamSpecification?.StreamEnabled) return Table.LatestStreamArn;
  const { TableDescription } = await dynamo.send(
    new UpdateTableCommand({ TableName: tableName, StreamSpecification: streamSpecification }),
  );
  const arn = TableDescription?.LatestStreamArn;
  if (!arn) throw new Error(`table ${tableName} has no stream after enabling one`);
  return arn;
}

async function createQueue(sqs: SQSClient, name: string, retentionSeconds: number): Promise<string> {
  const { QueueUrl } = await sqs.send(
    new CreateQueueCommand({
      QueueName: name,
      Attributes: { MessageRetentionPeriod: String(retentionSeconds) },
    }),
  );
  return QueueUrl as string;
}

/**
 * Creates the table (with TTL and its stream), the DLQ, the queue with its redrive policy,
 * the announcer's and the history writer's failure queues, the grants queue and the consumer
 * queue. Idempotent.
 */
export async function provision(
  sqs: SQSClient,
  dynamo: DynamoDBClient,
  options: ProvisionOptions = {},
): Promise<Provisioned> {
  const tableName = options.tableName ?? resources.table.name;
  const { table, queue, deadLetterQueue, redrive } = resources;
  await createTable(dynamo, tableName);
  await waitUntilTableExists({ client: dynamo, maxWaitTime: 60, minDelay: 1 }, { TableName: tableName });
  try {
    await dynamo.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: table.ttlAttribute, Enabled: true },
      }),
    );
  } catch (error) {
    // Enabling it twice is an error on AWS and LocalStack, not a no-op.
    if (!(error instanceof Error && /already enabled/i.test(error.message))) throw error;
  }

  const streamArn = await tableStream(dynamo, tableName);
  const dlqUrl = await createQueue(
    sqs,
    options.dlqName ?? deadLetterQueue.name,
    deadLetterQueue.retentionSeconds,
  );
  const announcerFailureQueueUrl = await createQueue(
    sqs,
    options.announcerFailureQueueName ?? resources.announcerFailureQueue.name,
    resources.announcerFailureQueue.retentionSeconds,
  );
  const historyFailureQueueUrl = await createQueue(
    sqs,
    options.historyFailureQueueName ?? resources.historyFailureQueue.name,
    resources.historyFailureQueue.retentionSeconds,
  );
  const grantsQueueUrl = await createQueue(
    sqs,
    options.grantsQueueName ?? resources.grantsQueue.name,
    queue.retentionSeconds,
  );
  const consumerQueueUrl = await createQueue(
    sqs,
    options.consumerQueueName ?? resources.consumerQueue.name,
    queue.retentionSeconds,
  );
  const main = await sqs.send(
    new CreateQueueCommand({
      QueueName: options.queueName ?? queue.name,
      Attributes: {
        VisibilityTimeout: String(options.visibilityTimeoutSeconds ?? queue.visibilityTimeoutSeconds),
        MessageRetentionPeriod: String(queue.retentionSeconds),
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: await queueArn(sqs, dlqUrl),
          maxReceiveCount: options.maxReceiveCount ?? redrive.maxReceiveCount,
        }),
      },
    }),
  );
  return {
    tableName,
    streamArn,
    queueUrl: main.QueueUrl as string,
    dlqUrl,
    announcerFailureQueueUrl,
    historyFailureQueueUrl,
    grantsQueueUrl,
    consumerQueueUrl,
  };
}
