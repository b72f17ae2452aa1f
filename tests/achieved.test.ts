import { randomUUID } from "node:crypto";
import type { Message } from "@aws-sdk/client-sqs";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { isAnnouncerCandidate } from "@rewards/announcer";
import { achievementId, achievementKey, grantId } from "@rewards/core";
import { createDynamoClient, createSqsClient } from "@rewards/core/aws";
import { memoryCheckpoints } from "@rewards/local";
import { drain, runCli, stackTest, waitFor } from "@rewards/testing";
import { describe, expect } from "vitest";
import { announced, everyRecord, sourceFor } from "./fixtures/announcerFixtures";

const it = stackTest();

/**
 * `reward.achieved` end to end on the local stack (docs/events.md#hearing-about-achievements-rewardachieved):
 * an achievement item put as the history's writer puts it, the announcer on the table's stream
 * (the deployed filters), and the stack's bus with `rewards dev`'s two rules.
 */
describe("an achievement earned, on the local stream source and bus", () => {
  it("is announced once as reward.achieved, to both consumer queues, with its exact id and data; a replay brings the same id", async ({
    stack,
  }) => {
    const env = stack.env;
    const table = { ...stack.resources, env };
    const sqs = createSqsClient(env);
    const dynamo = createDynamoClient(env);
    const user = `ach-${randomUUID().slice(0, 6)}`;
    const crossing = grantId(`${user}#a#article.completed`, "2026-11-29T10:00:01.234Z");
    const item = {
      ...achievementKey(user, "first-article"),
      userId: user,
      achievement: "first-article",
      title: "First article",
      earnedAt: "2026-11-29T10:00:01.456Z",
      grantId: crossing,
    };
    // Put once, as the history's writer does: a second put (a copy of the award's record) is refused.
    const put = () =>
      dynamo.send(
        new PutCommand({
          TableName: env.TABLE_NAME,
          Item: item,
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
    await put();
    await expect(put()).rejects.toMatchObject({ name: "ConditionalCheckFailedException" });
    const records = await everyRecord(env, stack.resources.streamArn);
    expect(
      records
        .filter((r) => r.dynamodb?.Keys?.pk?.S === item.pk)
        .map((r) => [r.eventName, r.dynamodb?.Keys?.sk?.S]),
    ).toEqual([["INSERT", item.sk]]);

    const event = {
      specversion: "1.0",
      id: achievementId(user, "first-article"),
      source: "/rewards",
      type: "reward.achieved",
      time: "2026-11-29T10:00:01.456Z",
      subject: user,
      datacontenttype: "application/json",
      data: {
        userId: user,
        achievement: "first-article",
        title: "First article",
        earnedAt: "2026-11-29T10:00:01.456Z",
        grantId: crossing,
      },
    };
    /** Waits for `count` messages in a queue, and takes them. */
    const take = async (queueUrl: string, count: number) => {
      const taken: Message[] = [];
      expect(
        await waitFor(async () => {
          taken.push(...(await drain(sqs, queueUrl)));
          return taken.length >= count;
        }),
      ).toBe(true);
      return taken.map((m) => JSON.parse(m.Body ?? ""));
    };
    /** Runs the announcer on the stream from its start (new checkpoints each time: a replay), until it caught up. */
    const announceFromTheStart = async () => {
      const { source, invocations } = await sourceFor(table, announced(env), {
        filter: isAnnouncerCandidate,
        checkpoints: memoryCheckpoints(),
      });
      const since = Date.now();
      expect(await waitFor(() => source.caughtUp(since))).toBe(true);
      await source.stop();
      return invocations;
    };

    const invocations = await announceFromTheStart();
    // The filter let the achievement's INSERT through, alone.
    expect(invocations.map((i) => i.keys)).toEqual([[item.pk]]);
    const [envelope, ...more] = await take(env.GRANTS_QUEUE_URL as string, 1);
    expect(more).toEqual([]);
    expect(envelope).toEqual({
      version: "0",
      id: expect.any(String),
      "detail-type": "reward.achieved",
      source: "rewards",
      account: expect.any(String),
      time: "2026-11-29T10:00:01Z",
      region: expect.any(String),
      resources: [],
      detail: event,
    });
    // The consumer queue's rule (InputPath=$.detail): the CloudEvent alone.
    expect(await take(env.CONSUMER_QUEUE_URL as string, 1)).toEqual([event]);

    // A replay of the stream (a copy, as a retried or replayed batch brings): the same event, the same id.
    await announceFromTheStart();
    expect((await take(env.CONSUMER_QUEUE_URL as string, 1)).map((e) => e.id)).toEqual([event.id]);
    const [copy] = await take(env.GRANTS_QUEUE_URL as string, 1);
    expect(copy.detail).toEqual(event);

    // `rewards grants tail` reads it, and shows the achievement and its title.
    await announceFromTheStart();
    expect(await waitFor(async () => (await stack.bus.counts()).delivered >= 6)).toBe(true);
    const tail = await runCli(["grants", "tail"], env);
    expect(tail.code).toBe(0);
    expect(tail.stdout).toMatch(
      new RegExp(
        `│ 2026-11-29T10:00:01\\.456Z │ reward\\.achieved │ ${user} +│ first-article \\(First article\\) +│ ${event.id} +│`,
      ),
    );
  });
});
