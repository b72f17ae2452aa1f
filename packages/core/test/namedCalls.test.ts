import { CloudWatchClient, GetMetricDataCommand } from "@aws-sdk/client-cloudwatch";
import {
  ConditionalCheckFailedException,
  GetItemCommand,
  ThrottlingException,
} from "@aws-sdk/client-dynamodb";
import { DescribeStreamCommand } from "@aws-sdk/client-dynamodb-streams";
import { PutEventsCommand } from "@aws-sdk/client-eventbridge";
import { ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { PutCommand, QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { awsError, type FakeAnswer, type FakeEndpoint, fakeEndpoint } from "@rewards/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  classifyError,
  clientDefaults,
  createDynamoBaseClient,
  createDynamoClient,
  createEventBridgeClient,
  createSqsClient,
  createStreamsClient,
  describeError,
  isConditionFailure,
  withNamedCalls,
} from "../src/aws";
import { isUnknownOutcome } from "../src/aws/classifyError";

/**
 * Real SDK clients of ours against an endpoint on 127.0.0.1 that fails as AWS can: no answer
 * within requestTimeout, or a 400 naming the error. The error names the call, what it was about
 * and the endpoint, and is still the SDK's own error: classified as before.
 */
let endpoint: FakeEndpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

async function answering(answer: FakeAnswer): Promise<string> {
  endpoint = await fakeEndpoint(() => answer);
  return endpoint.url;
}

const keys = { AWS_REGION: "us-east-1", AWS_ACCESS_KEY_ID: "test", AWS_SECRET_ACCESS_KEY: "test" };
const quick = { requestTimeoutMs: 200, maxAttempts: 1 };

async function failureOf(call: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await call;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error("the call succeeded");
}

const THROTTLED = awsError("ThrottlingException", "Rate of requests exceeds the allowed throughput.");

describe("a DynamoDB call that fails names itself", () => {
  it("a request timeout, through the document client: the call, the table, the endpoint; transient", async () => {
    const url = await answering("silence");
    const dynamo = createDynamoClient({ ...keys, AWS_ENDPOINT_URL_DYNAMODB: url }, quick);
    const error = await failureOf(
      dynamo.send(
        new QueryCommand({
          TableName: "rewards",
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": "USER#u1" },
        }),
      ),
    );
    expect(describeError(error)).toBe(
      `DynamoDB Query on table rewards at ${url}: timed out after 200 ms (requestTimeout)`,
    );
    expect(error.awsCall).toEqual({
      service: "DynamoDB",
      operation: "Query",
      resource: "table rewards",
      endpoint: url,
    });
    expect(error.name).toBe("TimeoutError");
    expect(error.$metadata).toMatchObject({ attempts: 1 });
    expect(classifyError(error)).toBe("transient");
    expect(isUnknownOutcome(error)).toBe(true);
  });

  it("a throttle (HTTP 400 ThrottlingException), after the SDK's own retry: still its class, transient, an answer", async () => {
    const url = await answering(THROTTLED);
    const dynamo = createDynamoClient({ ...keys, AWS_ENDPOINT_URL_DYNAMODB: url }, { maxAttempts: 2 });
    const error = await failureOf(
      dynamo.send(
        new QueryCommand({
          TableName: "rewards",
          IndexName: "board",
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": "WEEK#2026-W01#0" },
        }),
      ),
    );
    expect(describeError(error)).toBe(
      `DynamoDB Query on table rewards (index board) at ${url}: throttled: ThrottlingException: Rate of requests exceeds the allowed throughput.`,
    );
    expect(error).toBeInstanceOf(ThrottlingException);
    expect(error.$metadata).toMatchObject({ httpStatusCode: 400, attempts: 2 });
    expect(endpoint?.operations).toEqual(["Query", "Query"]);
    expect(classifyError(error)).toBe("transient");
    expect(isUnknownOutcome(error)).toBe(false);
  });

  it("the base client too (marshalled input): the call and the table", async () => {
    const url = await answering(THROTTLED);
    const dynamo = createDynamoBaseClient({ ...keys, AWS_ENDPOINT_URL_DYNAMODB: url }, quick);
    const error = await failureOf(
      dynamo.send(
        new GetItemCommand({ TableName: "rewards", Key: { pk: { S: "USER#u1" }, sk: { S: "PROFILE" } } }),
      ),
    );
    expect(describeError(error)).toBe(
      `DynamoDB GetItem on table rewards at ${url}: throttled: ThrottlingException: Rate of requests exceeds the allowed throughput.`,
    );
  });

  it("a failed condition is still a condition failure, of its class", async () => {
    const url = await answering(
      awsError("ConditionalCheckFailedException", "The conditional request failed"),
    );
    const dynamo = createDynamoClient({ ...keys, AWS_ENDPOINT_URL_DYNAMODB: url }, quick);
    const error = await failureOf(
      dynamo.send(
        new PutCommand({
          TableName: "rewards",
          Item: { pk: "a", sk: "b" },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      ),
    );
    expect(error).toBeInstanceOf(ConditionalCheckFailedException);
    expect(isConditionFailure(error)).toBe(true);
    expect(describeError(error)).toBe(
      `DynamoDB PutItem on table rewards at ${url}: ConditionalCheckFailedException: The conditional request failed`,
    );
  });

  it("a cancelled transaction keeps its reasons: the guard's failed condition is still a duplicate", async () => {
    const url = await answering({
      status: 400,
      body: {
        __type: "com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
        message:
          "Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None]",
        CancellationReasons: [{ Code: "ConditionalCheckFailed" }, { Code: "None" }],
      },
    });
    const dynamo = createDynamoClient({ ...keys, AWS_ENDPOINT_URL_DYNAMODB: url }, quick);
    const error = await failureOf(
      dynamo.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: "rewards", Item: { pk: "IDEM#k", sk: "GUARD" } } },
            {
              Update: {
                TableName: "rewards",
                Key: { pk: "USER#u", sk: "PROFILE" },
                UpdateExpression: "ADD xp :n",
                ExpressionAttributeValues: { ":n": 1 },
              },
            },
          ],
        }),
      ),
    );
    expect(classifyError(error)).toBe("duplicate");
    expect(describeError(error)).toMatch(
      new RegExp(
        `^DynamoDB TransactWriteItems on table rewards at ${url}: TransactionCanceledException \\[ConditionalCheckFailed, None\\]: `,
      ),
    );
  });

  it("a refused connection: the call and the endpoint", async () => {
    const url = await answering("silence");
    await endpoint?.close();
    endpoint = undefined;
    const dynamo = createDynamoClient({ ...keys, AWS_ENDPOINT_URL_DYNAMODB: url }, quick);
    const error = await failureOf(
      dynamo.send(
        new QueryCommand({
          TableName: "rewards",
          KeyConditionExpression: "pk = :p",
          ExpressionAttributeValues: { ":p": "x" },
        }),
      ),
    );
    expect(describeError(error)).toBe(
      `DynamoDB Query on table rewards at ${url}: connect ECONNREFUSED ${url.replace("http://", "")}`,
    );
    expect(error).toMatchObject({ code: "ECONNREFUSED" });
    expect(classifyError(error)).toBe("transient");
  });
});

describe("the other clients' calls name themselves too", () => {
  it("SQS: the queue", async () => {
    const url = await answering("silence");
    const sqs = createSqsClient({ ...keys, AWS_ENDPOINT_URL_SQS: url }, quick);
    const queueUrl = `${url}/000000000000/rewards-events`;
    const error = await failureOf(sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl })));
    expect(describeError(error)).toBe(
      `SQS ReceiveMessage on queue ${queueUrl} at ${url}: timed out after 200 ms (requestTimeout)`,
    );
    expect(error).toMatchObject({ name: "TimeoutError", code: "ETIMEDOUT" });
    expect(classifyError(error)).toBe("transient");
  });

  it("EventBridge: the bus", async () => {
    const url = await answering(awsError("ThrottlingException", "Rate exceeded"));
    const bus = createEventBridgeClient({ ...keys, AWS_ENDPOINT_URL_EVENTBRIDGE: url }, quick);
    const error = await failureOf(
      bus.send(
        new PutEventsCommand({
          Entries: [{ EventBusName: "rewards-bus", Source: "rewards", DetailType: "t", Detail: "{}" }],
        }),
      ),
    );
    expect(describeError(error)).toBe(
      `EventBridge PutEvents on bus rewards-bus at ${url}: throttled: ThrottlingException: Rate exceeded`,
    );
    expect(classifyError(error)).toBe("transient");
  });

  it("DynamoDB Streams: the stream", async () => {
    const url = await answering(awsError("ResourceNotFoundException", "Requested resource not found"));
    const streams = createStreamsClient({ ...keys, AWS_ENDPOINT_URL_DYNAMODB: url });
    const arn = "arn:aws:dynamodb:us-east-1:000000000000:table/rewards/stream/2026-01-01T00:00:00.000";
    const error = await failureOf(streams.send(new DescribeStreamCommand({ StreamArn: arn })));
    expect(describeError(error)).toBe(
      `DynamoDB Streams DescribeStream on stream ${arn} at ${url}: ResourceNotFoundException: Requested resource not found`,
    );
    expect(classifyError(error)).toBe("configuration");
    streams.destroy();
  });

  it("CloudWatch (named with withNamedCalls, as `rewards queue stats` builds it)", async () => {
    const url = await answering("silence");
    const cloudwatch = withNamedCalls(
      new CloudWatchClient({
        region: "us-east-1",
        endpoint: url,
        credentials: { accessKeyId: "test", secretAccessKey: "test" },
        ...clientDefaults({ requestTimeoutMs: 200 }, 1),
      }),
    );
    const error = await failureOf(
      cloudwatch.send(
        new GetMetricDataCommand({ MetricDataQueries: [], StartTime: new Date(0), EndTime: new Date(1) }),
      ),
    );
    expect(describeError(error)).toBe(
      `CloudWatch GetMetricData at ${url}: timed out after 200 ms (requestTimeout)`,
    );
  });
});
