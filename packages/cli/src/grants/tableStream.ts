import { DescribeTableCommand } from "@aws-sdk/client-dynamodb";
import { DynamoDBStreamsClient } from "@aws-sdk/client-dynamodb-streams";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { clientDefaults, credentials } from "@rewards/core/aws";
import type { CliConfig } from "../cliConfig";
import { CliError } from "../cliError";

/**
 * A DynamoDB Streams client: AWS_ENDPOINT_URL_DYNAMODB_STREAMS, else DynamoDB's own endpoint
 * (the local stack and LocalStack serve both on one), else AWS's.
 */
export function createStreamsClient(config: CliConfig): DynamoDBStreamsClient {
  return new DynamoDBStreamsClient({
    region: config.AWS_REGION,
    endpoint: config.AWS_ENDPOINT_URL_DYNAMODB_STREAMS ?? config.AWS_ENDPOINT_URL_DYNAMODB,
    credentials: credentials(config),
    ...clientDefaults({ requestTimeoutMs: 10_000 }, 3),
  });
}

/** The table's stream, or a CliError saying the table has none. */
export async function tableStreamArn(dynamo: DynamoDBDocumentClient, tableName: string): Promise<string> {
  const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
  if (!Table?.LatestStreamArn || !Table.StreamSpecification?.StreamEnabled)
    throw new CliError(
      `table ${JSON.stringify(tableName)} has no stream: the announcer reads awards from it (the deployment enables it; locally \`rewards dev\` does)`,
    );
  return Table.LatestStreamArn;
}
