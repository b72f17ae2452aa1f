import { awsError, completed, type FakeEndpoint, fakeEndpoint, runCli, stackTest } from "@rewards/testing";
import { afterEach, describe, expect } from "vitest";

/**
 * A failure names what is at fault: the variable a wrong queue URL came from, and, for a
 * connection refused, the endpoint, its variable and the likely cause, said once.
 */
const it = stackTest();

describe("failure messages name the variable and the endpoint at fault", () => {
  it("grants tail: a queue that does not exist is GRANTS_QUEUE_URL's, not QUEUE_URL's or DLQ_URL's", async ({
    env,
  }) => {
    const wrong = (env.QUEUE_URL as string).replace(/[^/]+$/, "no-such-grants-queue");
    const { QUEUE_URL: _queue, DLQ_URL: _dlq, ...rest } = env;
    const run = await runCli(["grants", "tail"], { ...rest, GRANTS_QUEUE_URL: wrong });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    // The call names the queue (its URL) and the endpoint; the hint names the variable it came from.
    expect(run.stderr).toBe(
      `rewards: SQS ReceiveMessage on queue ${wrong} at ${env.AWS_ENDPOINT_URL_SQS}: no such queue (check GRANTS_QUEUE_URL, AWS_ENDPOINT_URL_SQS)\n`,
    );
  });

  it("publish with the stack down: connection refused said once, with the endpoint and the hint", async () => {
    const down = {
      QUEUE_URL: "http://127.0.0.1:1/000000000000/rewards-events",
      AWS_ENDPOINT_URL_SQS: "http://127.0.0.1:1",
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "test",
      AWS_SECRET_ACCESS_KEY: "test",
    };
    const lines = [completed("u1", "a"), completed("u1", "b"), "not json", completed("u1", "c")];
    const run = await runCli(["publish", "-"], down, `${lines.join("\n")}\n`);
    expect(run).toEqual({
      code: 1,
      stdout:
        `line 3: error not JSON: Unexpected token 'o', "not json" is not valid JSON\n` +
        "0 published, 4 failed (3 lines not sent: the queue could not be reached)\n",
      stderr:
        "rewards: cannot reach SQS at http://127.0.0.1:1 (connection refused, from AWS_ENDPOINT_URL_SQS): is `rewards dev` running? Otherwise check AWS_ENDPOINT_URL_SQS\n",
    });
    const json = await runCli(["publish", "-", "--json"], down, `${lines.join("\n")}\n`);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      published: 0,
      failed: 4,
      unreachable:
        "cannot reach SQS at http://127.0.0.1:1 (connection refused, from AWS_ENDPOINT_URL_SQS): is `rewards dev` running? Otherwise check AWS_ENDPOINT_URL_SQS",
    });
  });
});

/**
 * A slow or throttling DynamoDB names the call that failed, its table and the endpoint, never
 * the SDK's line alone ("a request has exceeded the configured 5000 ms requestTimeout"): an
 * endpoint on 127.0.0.1 that never answers, or answers each BatchGetItem with a throttle.
 */
describe("a failed call names itself: the call, the table, the endpoint", () => {
  let endpoint: FakeEndpoint | undefined;
  afterEach(async () => {
    await endpoint?.close();
    endpoint = undefined;
  });
  const envAt = (url: string) => ({
    TABLE_NAME: "rewards",
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "test",
    AWS_SECRET_ACCESS_KEY: "test",
    AWS_ENDPOINT_URL_DYNAMODB: url,
  });

  it("rewards board against an endpoint that never answers: the Query on the board's index timed out, exit 1, no stack", async () => {
    endpoint = await fakeEndpoint(() => "silence");
    const run = await runCli(["board"], envAt(endpoint.url));
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr: `rewards: DynamoDB Query on table rewards (index board) at ${endpoint.url}: timed out after 5000 ms (requestTimeout)\n`,
    });
  });

  it("rewards user against a throttling endpoint: the call throttled first is named, exit 1, no stack", async () => {
    // Every call throttled: the profile's BatchGetItem and the history's Query run side by side,
    // and whichever gives up first is the one named (a timing on a busy machine, never pinned).
    endpoint = await fakeEndpoint(() =>
      awsError("ThrottlingException", "Rate of requests exceeds the allowed throughput."),
    );
    const run = await runCli(["user", "u1"], envAt(endpoint.url));
    expect({
      ...run,
      stderr: run.stderr.replace(/DynamoDB (BatchGetItem|Query) on/, "DynamoDB <call> on"),
    }).toEqual({
      code: 1,
      stdout: "",
      stderr: `rewards: DynamoDB <call> on table rewards at ${endpoint.url}: throttled: ThrottlingException: Rate of requests exceeds the allowed throughput.\n`,
    });
    expect(endpoint.operations.every((op) => op === "BatchGetItem" || op === "Query")).toBe(true);
  });
});
