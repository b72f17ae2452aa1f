import {
  CreateTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from "@aws-sdk/client-dynamodb";
import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { resources } from "@rewards/core";

export interface ProvisionOptions {
  tableName?: string;
  queueName?: string;
  dlqName?: string;
  /** Locally a short timeout makes redelivery visible in seconds; AWS uses the definition's. */
  visibilityTimeoutSeconds?: number;
  maxReceiveCount?: number;
}

export interface Provisioned {
  tableName: string;
  queueUrl: string;
  dlqUrl: string;
}

async function queueArn(sqs: SQSClient, queueUrl: string): Promise<string> {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["QueueArn"] }),
  );
  const arn = Attributes?.QueueArn;
  if (!arn) throw new Error(`no QueueArn for ${queueUrl}`);
  return arn;
}

/** The rewards table's key schema (one definition, from resources.ts); an existing table is fine. */
export async function createTable(dynamo: DynamoDBClient, tableName: string): Promise<void> {
  const { table } = resources;
  try {
    await dynamo.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: table.billing,
        AttributeDefinitions: [
          { AttributeName: table.partitionKey, AttributeType: "S" },
          { AttributeName: table.sortKey, AttributeType: "S" },
        ],
        KeySchema: [
          { AttributeName: table.partitionKey, KeyType: "HASH" },
          { AttributeName: table.sortKey, KeyType: "RANGE" },
        ],
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
}

/** Creates the table (with TTL), the DLQ and the queue with its redrive policy. Idempotent. */
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

  const dlq = await sqs.send(
    new CreateQueueCommand({
      QueueName: options.dlqName ?? deadLetterQueue.name,
      Attributes: { MessageRetentionPeriod: String(deadLetterQueue.retentionSeconds) },
    }),
  );
  const dlqUrl = dlq.QueueUrl as string;
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
  return { tableName, queueUrl: main.QueueUrl as string, dlqUrl };
}
