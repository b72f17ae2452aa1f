import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { GetQueueAttributesCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { createSqsClient } from "@rewards/core/aws";
import { type LocalStack, startLocalStack } from "@rewards/local";
import { createPublisher } from "@rewards/producer";
import { drain } from "@rewards/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

let stack: LocalStack;
let sqs: SQSClient;

beforeAll(async () => {
  stack = await startLocalStack();
  sqs = createSqsClient({ ...stack.env, AWS_REGION: stack.env.AWS_REGION as string });
});

afterEach(async () => {
  await drain(sqs, stack.resources.queueUrl);
});

afterAll(async () => {
  await stack?.stop();
});

async function visibleCount(): Promise<number> {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: stack.resources.queueUrl,
      AttributeNames: ["ApproximateNumberOfMessages"],
    }),
  );
  return Number(Attributes?.ApproximateNumberOfMessages);
}

describe("createPublisher against the local stack", () => {
  it("25 valid and 2 invalid events: 27 results in input order, exactly 25 messages with attributes", async () => {
    const publisher = createPublisher({ queueUrl: stack.resources.queueUrl, client: sqs, source: "/tests" });
    const events: unknown[] = Array.from({ length: 25 }, (_, i) =>
      publisher.events.articleCompleted({ userId: `u${i}`, articleSlug: "slug" }),
    );
    events.splice(3, 0, { ...publisher.events.signupCompleted({ userId: "x" }), data: { userId: "" } });
    events.splice(20, 0, { ...publisher.events.signupCompleted({ userId: "x" }), type: "Article Liked" });
    const results = await publisher.publish(events);
    expect(results.map((r) => r.index)).toEqual(Array.from({ length: 27 }, (_, i) => i));
    expect(results.filter((r) => r.ok)).toHaveLength(25);
    expect(results[3]).toMatchObject({ ok: false, issues: [{ path: "data.userId" }] });
    expect(results[20]).toMatchObject({
      ok: false,
      issues: [
        {
          path: "type",
          message: '"Article Liked" is no event type name: dotted lowercase words, not reward.*',
        },
      ],
    });

    expect(await visibleCount()).toBe(25);
    const messages = await drain(sqs, stack.resources.queueUrl);
    expect(messages).toHaveLength(25);
    const byId = new Map(messages.map((m) => [m.MessageId, m]));
    for (const result of results) {
      if (!result.ok) continue;
      const message = byId.get(result.messageId);
      expect(message?.Body).toBe(JSON.stringify(events[result.index]));
      expect(message?.MessageAttributes?.type).toEqual({
        DataType: "String",
        StringValue: "article.completed",
      });
      expect(message?.MessageAttributes?.specversion).toEqual({ DataType: "String", StringValue: "1.0" });
    }
  });

  it("any type a site's rules may define is sent as it is (docs/rules.md): only its name and data.userId are checked here", async () => {
    const publisher = createPublisher({ queueUrl: stack.resources.queueUrl, client: sqs, source: "/tests" });
    const podcast = {
      ...publisher.events.signupCompleted({ userId: "x" }),
      type: "podcast.listened",
      data: { userId: "u1", episode: "e1", minutes: 25 },
    };
    const results = await publisher.publish([
      podcast,
      { ...podcast, type: "reward.granted" },
      { ...podcast, data: { episode: "e1" } },
    ]);
    expect(results.map((result) => result.ok)).toEqual([true, false, false]);
    expect(results[2]).toMatchObject({ issues: [{ path: "data.userId" }] });
    const messages = await drain(sqs, stack.resources.queueUrl);
    expect(messages.map((message) => JSON.parse(message.Body ?? "").data)).toEqual([podcast.data]);
  });

  it("an event over SQS's 1 MiB limit is an ok:false result, not a throw", async () => {
    const publisher = createPublisher({ queueUrl: stack.resources.queueUrl, client: sqs });
    const huge = { ...publisher.events.signupCompleted({ userId: "big" }), padding: "x".repeat(1_100_000) };
    const small = publisher.events.signupCompleted({ userId: "small" });
    const results = await publisher.publish([huge, small]);
    expect(results[0]).toMatchObject({
      ok: false,
      index: 0,
      error: expect.stringMatching(/at most 1048576/),
    });
    expect(results[1]).toMatchObject({ ok: true, index: 1 });
    expect(await visibleCount()).toBe(1);
  });

  it("resends only the entries SQS failed on its side; sender faults are final", async () => {
    const client = createSqsClient({ ...stack.env, AWS_REGION: stack.env.AWS_REGION as string });
    const sentIds: string[][] = [];
    let call = 0;
    // The emulator never fails part of a batch, so the response is rewritten at the client.
    client.middlewareStack.add(
      (next) => async (args) => {
        const input = args.input as { Entries: Array<{ Id: string }> };
        sentIds.push(input.Entries.map((e) => e.Id));
        const result = await next(args);
        if (call++ === 0) {
          const output = result.output as { Successful: Array<{ Id: string }>; Failed: unknown[] };
          output.Successful = output.Successful.filter((s) => !["1", "2"].includes(s.Id));
          output.Failed = [
            { Id: "1", SenderFault: false, Code: "InternalError", Message: "try again" },
            { Id: "2", SenderFault: true, Code: "InvalidMessageContents", Message: "no" },
          ];
        }
        return result;
      },
      { step: "initialize", name: "partialFailure" },
    );
    const publisher = createPublisher({
      queueUrl: stack.resources.queueUrl,
      client,
      retryPolicy: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2, maxElapsedMs: 1000 },
    });
    const results = await publisher.publish(
      Array.from({ length: 4 }, (_, i) => publisher.events.streakDay({ userId: `s${i}`, day: "2026-11-29" })),
    );
    expect(sentIds).toEqual([["0", "1", "2", "3"], ["1"]]);
    expect(results.map((r) => r.ok)).toEqual([true, true, false, true]);
    expect(results[2]).toMatchObject({ error: "InvalidMessageContents: no" });
  });

  it("throws only for misuse, naming every bad option", () => {
    expect(() => createPublisher({ queueUrl: "" })).toThrow(/queueUrl is required/);
    expect(() => createPublisher({ queueUrl: "queue", source: "", concurrency: 0 })).toThrow(
      "createPublisher: queueUrl must be a URL; source must be 1 to 256 characters; concurrency must be at least 1",
    );
  });

  it.each([
    { LOG_LEVEL: "INFO" },
    { LOG_LEVEL: "warning" },
    { REWARDS_CONCURRENCY: "0", LOG_LEVEL: "loud", TABLE_NAME: "", QUEUE_URL: "not a url" },
  ])("a host whose environment holds %o publishes all the same (no client given)", async (hostEnv) => {
    const script = fileURLToPath(new URL("./fixtures/publishFromHost.ts", import.meta.url));
    const userId = `host-${Object.values(hostEnv).join("-")}`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", script, stack.resources.queueUrl, userId],
      {
        env: {
          PATH: process.env.PATH,
          // Only the SDK's own variables tell it where SQS is.
          AWS_REGION: stack.env.AWS_REGION,
          AWS_ENDPOINT_URL_SQS: stack.env.AWS_ENDPOINT_URL_SQS,
          AWS_ACCESS_KEY_ID: "test",
          AWS_SECRET_ACCESS_KEY: "test",
          ...hostEnv,
        },
      },
    );
    expect(JSON.parse(stdout)).toEqual([{ ok: true, index: 0, messageId: expect.any(String) }]);
    const [message] = await drain(sqs, stack.resources.queueUrl);
    expect(JSON.parse(message?.Body ?? "{}")).toMatchObject({ source: "/host-service", data: { userId } });
  });
});
