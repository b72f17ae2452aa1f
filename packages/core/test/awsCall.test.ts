import { describe, expect, it } from "vitest";
import {
  type AwsCall,
  awsCallOf,
  callField,
  describeCall,
  describeError,
  describeErrorAlone,
  resourceOf,
} from "../src/aws";
import { awsCallFrom } from "../src/aws/awsCall";

const local = "http://127.0.0.1:43323";
const query: AwsCall = {
  service: "DynamoDB",
  operation: "Query",
  resource: "table rewards",
  endpoint: local,
};

/** An SDK error as one of our clients throws it: the SDK's own, with the call it was. */
const failed = (name: string, message: string, call: AwsCall = query, extra: object = {}) =>
  Object.assign(new Error(message), { name, awsCall: call, $metadata: {}, ...extra });

describe("what a call was about (resourceOf)", () => {
  it.each<[string, unknown, string | undefined]>([
    ["a table", { TableName: "rewards", Key: {} }, "table rewards"],
    ["a table's index", { TableName: "rewards", IndexName: "board" }, "table rewards (index board)"],
    [
      "a queue",
      { QueueUrl: "http://127.0.0.1:4566/000000000000/events" },
      "queue http://127.0.0.1:4566/000000000000/events",
    ],
    ["a queue by name", { QueueName: "events" }, "queue events"],
    [
      "a stream",
      { StreamArn: "arn:aws:dynamodb:us-east-1:1:table/rewards/stream/x" },
      "stream arn:aws:dynamodb:us-east-1:1:table/rewards/stream/x",
    ],
    [
      "a transaction's tables, each once",
      {
        TransactItems: [
          { Put: { TableName: "rewards" } },
          { Update: { TableName: "rewards" } },
          { ConditionCheck: { TableName: "other" } },
        ],
      },
      "tables rewards, other",
    ],
    ["a transaction on one table", { TransactItems: [{ Get: { TableName: "rewards" } }] }, "table rewards"],
    ["a batch's tables", { RequestItems: { rewards: { Keys: [] } } }, "table rewards"],
    [
      "a bus",
      { Entries: [{ EventBusName: "rewards-bus" }, { EventBusName: "rewards-bus" }] },
      "bus rewards-bus",
    ],
    ["entries on the default bus", { Entries: [{ Detail: "{}" }] }, undefined],
    ["nothing named", { Limit: 1 }, undefined],
    ["an empty name", { TableName: "" }, undefined],
    ["no input", undefined, undefined],
  ])("%s", (_label, input, expected) => {
    expect(resourceOf(input)).toBe(expected);
  });
});

describe("the call, from what the middleware saw (awsCallFrom)", () => {
  it("names the service as AWS does, the operation without 'Command', the endpoint without a trailing slash", () => {
    expect(
      awsCallFrom({
        clientName: "DynamoDBClient",
        commandName: "QueryCommand",
        endpoint: new URL(`${local}/`),
        input: { TableName: "rewards" },
      }),
    ).toEqual(query);
    expect(
      awsCallFrom({
        clientName: "DynamoDBStreamsClient",
        commandName: "GetRecordsCommand",
        endpoint: new URL("https://streams.dynamodb.us-east-1.amazonaws.com"),
        input: { ShardIterator: "x" },
      }),
    ).toEqual({
      service: "DynamoDB Streams",
      operation: "GetRecords",
      endpoint: "https://streams.dynamodb.us-east-1.amazonaws.com",
    });
  });

  it.each([
    ["SQSClient", "SQS"],
    ["EventBridgeClient", "EventBridge"],
    ["CloudWatchClient", "CloudWatch"],
    ["KinesisClient", "Kinesis"],
  ])("%s is %s", (clientName, service) => {
    expect(awsCallFrom({ clientName, commandName: "XCommand" }).service).toBe(service);
  });

  it("keeps an endpoint's path, and says what it can when the context is bare", () => {
    expect(awsCallFrom({ endpoint: new URL("http://localhost:4566/aws/") })).toEqual({
      service: "AWS",
      operation: "call",
      endpoint: "http://localhost:4566/aws/",
    });
  });
});

describe("a failed call in words (describeCall, describeError)", () => {
  it("names the call, what it was about and where it went", () => {
    expect(describeCall(query)).toBe(`DynamoDB Query on table rewards at ${local}`);
    expect(describeCall({ service: "DynamoDB Streams", operation: "GetRecords" })).toBe(
      "DynamoDB Streams GetRecords",
    );
  });

  it.each<[string, unknown, string]>([
    [
      "a request timeout: the limit it passed, not the SDK's line",
      failed(
        "TimeoutError",
        "@smithy/node-http-handler - [ERROR] a request has exceeded the configured 5000 ms requestTimeout.",
      ),
      `DynamoDB Query on table rewards at ${local}: timed out after 5000 ms (requestTimeout)`,
    ],
    [
      "a connection timeout",
      failed(
        "TimeoutError",
        "@smithy/node-http-handler - the request socket did not establish a connection with the server within the configured timeout of 2000 ms.",
      ),
      `DynamoDB Query on table rewards at ${local}: could not connect within 2000 ms (connectionTimeout)`,
    ],
    [
      "a throttle, by its name",
      failed(
        "ProvisionedThroughputExceededException",
        "The level of configured provisioned throughput for the table was exceeded.",
      ),
      `DynamoDB Query on table rewards at ${local}: throttled: ProvisionedThroughputExceededException: The level of configured provisioned throughput for the table was exceeded.`,
    ],
    [
      "a throttle, by the SDK's mark",
      failed(
        "RequestThrottled",
        "slow down",
        { service: "SQS", operation: "SendMessageBatch", resource: "queue q" },
        {
          $retryable: { throttling: true },
        },
      ),
      "SQS SendMessageBatch on queue q: throttled: RequestThrottled: slow down",
    ],
    [
      "a refused connection: the error as it is",
      failed("Error", "connect ECONNREFUSED 127.0.0.1:43323"),
      `DynamoDB Query on table rewards at ${local}: connect ECONNREFUSED 127.0.0.1:43323`,
    ],
    [
      "denied access",
      failed(
        "AccessDeniedException",
        "User: arn:aws:iam::1:user/x is not authorized to perform: dynamodb:Query",
      ),
      `DynamoDB Query on table rewards at ${local}: AccessDeniedException: User: arn:aws:iam::1:user/x is not authorized to perform: dynamodb:Query`,
    ],
    [
      "a cancellation, with its reasons",
      failed(
        "TransactionCanceledException",
        "Transaction cancelled",
        { service: "DynamoDB", operation: "TransactWriteItems", resource: "table rewards" },
        {
          CancellationReasons: [{ Code: "None" }, { Code: "ValidationError" }],
        },
      ),
      "DynamoDB TransactWriteItems on table rewards: TransactionCanceledException [None, ValidationError]: Transaction cancelled",
    ],
    [
      "an error that is no call's: as before",
      Object.assign(new Error("a request has exceeded the configured 5000 ms requestTimeout"), {
        name: "TimeoutError",
      }),
      "TimeoutError: a request has exceeded the configured 5000 ms requestTimeout",
    ],
  ])("%s", (_label, error, expected) => {
    expect(describeError(error)).toBe(expected);
  });

  it("describeErrorAlone leaves the call out, for a text that already says it", () => {
    expect(describeErrorAlone(failed("ThrottlingException", "Rate exceeded"))).toBe(
      "ThrottlingException: Rate exceeded",
    );
  });

  it("a wrapper is described by its own words; the call is its cause's (awsCallOf, callField)", () => {
    const cause = failed("TimeoutError", "x");
    const wrapper = new Error("gave up after 3 attempt(s)", { cause });
    expect(describeError(wrapper)).toBe("gave up after 3 attempt(s)");
    expect(awsCallOf(wrapper)).toEqual(query);
    expect(callField(wrapper)).toEqual({ call: query });
    expect(callField(new Error("no call"))).toEqual({});
    expect(callField("text")).toEqual({});
    expect(awsCallOf(Object.assign(new Error("x"), { awsCall: { service: 1 } }))).toBeUndefined();
  });
});
