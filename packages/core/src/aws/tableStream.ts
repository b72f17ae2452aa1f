import { DescribeTableCommand } from "@aws-sdk/client-dynamodb";
import { DynamoDBStreamsClient } from "@aws-sdk/client-dynamodb-streams";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { withNamedCalls } from "./awsCall";
import { type ClientConfig, clientDefaults, credentials } from "./sdkClientOptions";

/**
 * A DynamoDB Streams client: AWS_ENDPOINT_URL_DYNAMODB_STREAMS, else DynamoDB's own endpoint
 * (the local stack and LocalStack serve both on one), else AWS's.
 */
export function createStreamsClient(
  config: ClientConfig & { AWS_ENDPOINT_URL_DYNAMODB_STREAMS?: string | undefined },
): DynamoDBStreamsClient {
  return withNamedCalls(
    new DynamoDBStreamsClient({
      region: config.AWS_REGION,
      endpoint: config.AWS_ENDPOINT_URL_DYNAMODB_STREAMS ?? config.AWS_ENDPOINT_URL_DYNAMODB,
      credentials: credentials(config),
      ...clientDefaults({ requestTimeoutMs: 10_000 }, 3),
    }),
  );
}

/** The table has no stream: the announcer and the history's writer read awards from it. */
export class TableStreamMissingError extends Error {
  override readonly name = "TableStreamMissingError";
  constructor(readonly tableName: string) {
    super(
      `table ${JSON.stringify(tableName)} has no stream: the announcer and the history's writer read awards from it (the deployment enables it; locally \`rewards dev\` does)`,
    );
  }
}

/** The table's stream, or TableStreamMissingError. */
export async function tableStreamArn(dynamo: DynamoDBDocumentClient, tableName: string): Promise<string> {
  const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
  if (!Table?.LatestStreamArn || !Table.StreamSpecification?.StreamEnabled)
    throw new TableStreamMissingError(tableName);
  return Table.LatestStreamArn;
}
