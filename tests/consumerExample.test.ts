import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { GUARD_PK_PREFIX, GUARD_SK, guardImageSchema, rewardGranted } from "@rewards/core";
import { createDynamoClient, createSqsClient } from "@rewards/core/aws";
import { pythonForMoto } from "@rewards/local";
import { completed, HANG_GUARD_MS, runCli, startCli, waitFor } from "@rewards/testing";
import { describe, expect, it } from "vitest";

const script = new URL("../examples/python/consume.py", import.meta.url).pathname;

/** Runs the example as a user would, with the local stack's Python (it has boto3). */
async function consume(env: Record<string, string>, args: string[]) {
  const run = await promisify(execFile)(pythonForMoto(), [script, ...args], {
    env: { PATH: process.env.PATH, ...env },
  }).catch((error: { code: number; stdout: string; stderr: string }) => error);
  const lines = run.stdout.trim().split("\n");
  return {
    code: "code" in run ? run.code : 0,
    stderr: run.stderr,
    lines: lines.slice(0, -1),
    summary: () => JSON.parse(lines.at(-1) as string) as Record<string, unknown>,
  };
}

describe("a Python consumer (examples/python/consume.py) on rewards dev's consumer queue", () => {
  it("shows each award once, undoes a revoked one, and leaves what it cannot read", async () => {
    const dev = startCli(["dev", "--json", "--wait", "1", "--function", "artifact"], { LOG_LEVEL: "warn" });
    try {
      expect(await waitFor(() => dev.output().stdout.includes("\n"), { timeoutMs: HANG_GUARD_MS })).toBe(
        true,
      );
      const env = JSON.parse(dev.output().stdout.split("\n")[0] as string) as Record<string, string>;
      const queueUrl = env.CONSUMER_QUEUE_URL as string;
      const sqs = createSqsClient(env);
      const waiting = async () => {
        const { Attributes } = await sqs.send(
          new GetQueueAttributesCommand({
            QueueUrl: queueUrl,
            AttributeNames: ["ApproximateNumberOfMessages"],
          }),
        );
        return Number(Attributes?.ApproximateNumberOfMessages);
      };
      const [ann, bob] = [`ann-${randomUUID().slice(0, 6)}`, `bob-${randomUUID().slice(0, 6)}`];
      const events = [completed(ann, "a"), completed(ann, "b"), completed(ann, "a"), completed(bob, "a")];
      expect((await runCli(["publish", "-"], env, `${events.join("\n")}\n`)).code).toBe(0);
      // Three awards, and each reader's first-article achievement (after the history's writer).
      expect(await waitFor(async () => (await waiting()) >= 5, { timeoutMs: HANG_GUARD_MS })).toBe(true);

      const state = join(tmpdir(), `consumer-${randomUUID()}.json`);
      const first = await consume(env, ["--state", state]);
      expect(first.code).toBe(0);
      // Delivery is at least once (an announcer retry on a slow machine brings a copy): copies are told apart.
      const shownLines = (run: { lines: string[] }) =>
        run.lines.filter((line) => !line.startsWith("duplicate ")).sort();
      expect(shownLines(first)).toEqual(
        [
          `achieved ${ann} first-article (First article)`,
          `achieved ${bob} first-article (First article)`,
          `granted ${ann} +20 ${ann}#a#article.completed`,
          `granted ${ann} +20 ${ann}#b#article.completed`,
          `granted ${bob} +20 ${bob}#a#article.completed`,
        ].sort(),
      );
      expect(first.summary()).toMatchObject({
        handled: 5,
        unreadable: 0,
        xp: { [ann]: 40, [bob]: 20 },
        achievements: { [ann]: ["first-article"], [bob]: ["first-article"] },
      });

      // An operator revokes ann's first award (its guard marked revoked: the announcer sends reward.revoked) ...
      const dynamo = createDynamoClient(env);
      const key = (slug: string) => ({
        pk: `${GUARD_PK_PREFIX}${ann}#${slug}#article.completed`,
        sk: GUARD_SK,
      });
      await dynamo.send(
        new UpdateCommand({
          TableName: env.TABLE_NAME,
          Key: key("a"),
          UpdateExpression: "SET revokedAt = :now, revokedReason = :reason",
          ExpressionAttributeValues: { ":now": new Date().toISOString(), ":reason": "a producer's bug" },
        }),
      );
      expect(await waitFor(async () => (await waiting()) >= 1, { timeoutMs: HANG_GUARD_MS })).toBe(true);
      // ... a second copy of an award already shown arrives (at least once), and something unreadable.
      const { Item } = await dynamo.send(new GetCommand({ TableName: env.TABLE_NAME, Key: key("b") }));
      const copy = rewardGranted(guardImageSchema.parse(Item));
      await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(copy) }));
      const { MessageId: junk } = await sqs.send(
        new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: "junk" }),
      );

      const second = await consume(env, ["--state", state]);
      expect(second.code).toBe(1);
      expect(second.lines).toContain(`duplicate ${copy.id} (already handled)`);
      expect(shownLines(second)).toEqual(
        [
          `message ${junk}: the body is not JSON; left in the queue`,
          `revoked ${ann} -20 ${ann}#a#article.completed (a producer's bug)`,
        ].sort(),
      );
      expect(second.summary()).toMatchObject({
        handled: 1,
        unreadable: 1,
        xp: { [ann]: 20, [bob]: 20 },
      });
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: queueUrl, WaitTimeSeconds: 0, VisibilityTimeout: 0 }),
      );
      expect(Messages.map((m) => [m.MessageId, m.Body])).toEqual([[junk, "junk"]]);
      expect(JSON.parse(await readFile(state, "utf8")).seen).toContain(copy.id);

      const usage = await consume({ ...env, CONSUMER_QUEUE_URL: "" }, []);
      expect([usage.code, usage.stderr]).toEqual([
        2,
        "usage: CONSUMER_QUEUE_URL=... consume.py [--follow] [--state FILE]\n",
      ]);
    } finally {
      dev.child.kill("SIGINT");
      await dev.exited;
    }
  });
});
