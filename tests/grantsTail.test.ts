import { randomUUID } from "node:crypto";
import {
  CreateQueueCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import {
  achievementItemSchema,
  achievementKey,
  GUARD_PK_PREFIX,
  GUARD_SK,
  type GuardImage,
  rewardAchieved,
  rewardGranted,
  rewardRevoked,
} from "@rewards/core";
import { createSqsClient } from "@rewards/core/aws";
import { startFaultProxy } from "@rewards/local";
import { queueCounts, readAnnouncement } from "@rewards/ops";
import { completed, drain, HANG_GUARD_MS, runCli, stackTest, startCli, waitFor } from "@rewards/testing";
import { describe, expect, it as plainIt } from "vitest";

const it = stackTest();

const guard = (userId: string, slug: string): GuardImage => ({
  pk: `${GUARD_PK_PREFIX}${userId}#${slug}#article.completed`,
  sk: GUARD_SK,
  userId,
  type: "article.completed",
  amount: 20,
  eventId: `evt-${slug}`,
  awardedAt: "2026-12-01T10:00:01.234Z",
});

/** What a rule without InputPath delivers: EventBridge's envelope around the CloudEvent. */
const envelopeOf = (event: { type: string }) => ({
  version: "0",
  id: randomUUID(),
  "detail-type": event.type,
  source: "rewards",
  account: "000000000000",
  time: "2026-12-01T10:00:01Z",
  region: "us-east-1",
  resources: [],
  detail: event,
});

async function send(sqs: SQSClient, queueUrl: string, body: string): Promise<string> {
  const { MessageId } = await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));
  return MessageId as string;
}

/** Everything visible in the queue right now, left there (received with a zero hold). */
async function visibleNow(sqs: SQSClient, queueUrl: string) {
  const { Messages = [] } = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: 0,
      VisibilityTimeout: 0,
    }),
  );
  return Messages.map((m) => ({ messageId: m.MessageId, body: m.Body }));
}

const lines = (text: string) => text.split("\n").filter(Boolean);

/** `grants tail`'s columns (time, event, user, what, id) at their fixed widths, as a table row and as a --follow line. */
const WIDTHS = [24, 15, 24, 32, 51];
const row = (...cells: string[]) => `│ ${cells.map((cell, i) => cell.padEnd(WIDTHS[i] ?? 0)).join(" │ ")} │`;
const followLine = (...cells: string[]) =>
  cells
    .map((cell, i) => cell.padEnd(WIDTHS[i] ?? 0))
    .join("  ")
    .trimEnd();
const bar = (left: string, middle: string, right: string) =>
  `${left}${WIDTHS.map((width) => "─".repeat(width + 2)).join(middle)}${right}`;
const TABLE_HEAD = [bar("┌", "┬", "┐"), row("time", "event", "user", "what", "id"), bar("├", "┼", "┤")];
const TABLE_FOOT = bar("└", "┴", "┘");

const achievement = (userId: string) =>
  rewardAchieved(
    achievementItemSchema.parse({
      ...achievementKey(userId, "first-article"),
      userId,
      achievement: "first-article",
      title: "First article",
      earnedAt: "2026-12-01T10:00:01.456Z",
    }),
  );

describe("readAnnouncement (pure)", () => {
  const granted = rewardGranted(guard("u1", "a"));
  const revoked = rewardRevoked({
    ...guard("u1", "a"),
    revokedAt: "2026-12-02T00:00:00.000Z",
    revokedReason: "bug",
  });

  plainIt("reads both announcements in both shapes", () => {
    expect(readAnnouncement(JSON.stringify(envelopeOf(granted)))).toEqual({
      ok: true,
      announcement: granted,
      event: granted,
      shape: "envelope",
    });
    expect(readAnnouncement(JSON.stringify(granted))).toEqual({
      ok: true,
      announcement: granted,
      event: granted,
      shape: "cloudevent",
    });
    expect(readAnnouncement(JSON.stringify(envelopeOf(revoked)))).toEqual({
      ok: true,
      announcement: revoked,
      event: revoked,
      shape: "envelope",
    });
    expect(readAnnouncement(JSON.stringify(revoked))).toEqual({
      ok: true,
      announcement: revoked,
      event: revoked,
      shape: "cloudevent",
    });
  });

  plainIt("reads reward.achieved in both shapes, and says what is wrong with one out of shape", () => {
    const achieved = achievement("u1");
    expect(readAnnouncement(JSON.stringify(envelopeOf(achieved)))).toEqual({
      ok: true,
      announcement: achieved,
      event: achieved,
      shape: "envelope",
    });
    expect(readAnnouncement(JSON.stringify(achieved))).toEqual({
      ok: true,
      announcement: achieved,
      event: achieved,
      shape: "cloudevent",
    });
    expect(readAnnouncement(JSON.stringify({ ...achieved, id: "grant-x" }))).toEqual({
      ok: false,
      problem:
        "not a valid reward.achieved: id Invalid string: must match pattern /^achieve-[A-Za-z0-9_-]{43}$/",
    });
    expect(
      readAnnouncement(JSON.stringify({ ...envelopeOf(achieved), "detail-type": "reward.granted" })),
    ).toEqual({
      ok: false,
      problem: "an EventBridge event of detail-type reward.granted whose detail is a reward.achieved",
    });
  });

  plainIt("says why a body holds no announcement", () => {
    expect(readAnnouncement("not json")).toEqual({ ok: false, problem: "the body is not JSON" });
    expect(readAnnouncement("[1]")).toEqual({ ok: false, problem: "the body is not a JSON object" });
    expect(
      readAnnouncement(JSON.stringify({ ...envelopeOf(granted), "detail-type": "order.placed" })),
    ).toEqual({
      ok: false,
      problem:
        'an EventBridge event whose detail-type "order.placed" is not reward.granted, reward.revoked or reward.achieved',
    });
    expect(readAnnouncement(JSON.stringify({ ...envelopeOf(granted), detail: "x" }))).toEqual({
      ok: false,
      problem: "an EventBridge event whose detail is not an object",
    });
    expect(
      readAnnouncement(JSON.stringify({ ...envelopeOf(granted), "detail-type": "reward.revoked" })),
    ).toEqual({
      ok: false,
      problem: "an EventBridge event of detail-type reward.revoked whose detail is a reward.granted",
    });
    expect(readAnnouncement(JSON.stringify({ ...granted, type: "article.completed" }))).toEqual({
      ok: false,
      problem: 'not a reward.granted, reward.revoked or reward.achieved: type "article.completed"',
    });
    expect(readAnnouncement(JSON.stringify({ ...granted, data: { ...granted.data, xp: "20" } }))).toEqual({
      ok: false,
      problem: "not a valid reward.granted: data.xp Invalid input: expected number, received string",
    });
  });
});

describe("rewards grants tail", () => {
  it("prints what it reads, in either shape, and leaves what it cannot read in the queue, visible at once", async ({
    stack,
  }) => {
    const sqs = createSqsClient(stack.env);
    const { QueueUrl } = await sqs.send(
      new CreateQueueCommand({ QueueName: `tail-${randomUUID().slice(0, 8)}` }),
    );
    const queueUrl = QueueUrl as string;
    const env = { ...stack.env, GRANTS_QUEUE_URL: queueUrl };
    const granted = rewardGranted(guard("u2", "a"));
    const revoked = rewardRevoked({
      ...guard("u2", "b"),
      revokedAt: "2026-12-02T00:00:00.000Z",
      revokedReason: "bug",
    });
    await send(sqs, queueUrl, JSON.stringify(envelopeOf(granted)));
    await send(sqs, queueUrl, JSON.stringify(revoked));
    const achieved = achievement("u2");
    await send(sqs, queueUrl, JSON.stringify(envelopeOf(achieved)));
    const wrong = await send(
      sqs,
      queueUrl,
      JSON.stringify({ ...envelopeOf(granted), "detail-type": "order.placed" }),
    );

    const keep = await runCli(["grants", "tail", "--keep"], env);
    expect(keep.code).toBe(1);
    const notice = `message ${wrong} left in the queue: an EventBridge event whose detail-type "order.placed" is not reward.granted, reward.revoked or reward.achieved`;
    // One table of what it read (each award's XP, the revocation's taken back, the achievement's id
    // and title, each at its time), then what it could not read, then the count.
    const rows = [
      row("2026-12-01T10:00:01.234Z", "reward.granted", "u2", "article.completed +20 XP", granted.id),
      row("2026-12-02T00:00:00.000Z", "reward.revoked", "u2", "article.completed -20 XP", revoked.id),
      row("2026-12-01T10:00:01.456Z", "reward.achieved", "u2", "first-article (First article)", achieved.id),
    ];
    const table = (stdout: string) => {
      const all = lines(stdout);
      return { head: all.slice(0, 3), rows: all.slice(3, 6).sort(), rest: all.slice(6) };
    };
    expect(table(keep.stdout)).toEqual({
      head: TABLE_HEAD,
      rows: [...rows].sort(),
      rest: [TABLE_FOOT, notice, "3 events read; 1 unreadable message left in the queue"],
    });
    expect((await visibleNow(sqs, queueUrl)).length).toBe(4);

    const tail = await runCli(["grants", "tail"], env);
    expect(tail.code).toBe(1);
    expect(table(tail.stdout)).toEqual(table(keep.stdout));
    expect(await visibleNow(sqs, queueUrl)).toEqual([{ messageId: wrong, body: expect.any(String) }]);

    await drain(sqs, queueUrl);
    expect(await runCli(["grants", "tail"], env)).toEqual({
      code: 0,
      stdout: "no reward.granted, reward.revoked or reward.achieved events waiting\n",
      stderr: "",
    });
  });
});

describe("grants tail's words: one table over the whole run, or a line per event with --follow", () => {
  async function queueOf(sqs: SQSClient, events: object[]) {
    const { QueueUrl } = await sqs.send(
      new CreateQueueCommand({ QueueName: `words-${randomUUID().slice(0, 8)}` }),
    );
    for (const event of events) await send(sqs, QueueUrl as string, JSON.stringify(event));
    return QueueUrl as string;
  }

  it("15 events, so two receives at least, their users' ids of any length: one head, one foot, every line as wide", async ({
    stack,
  }) => {
    const sqs = createSqsClient(stack.env);
    // Short ids first, then ids longer than the column (cut, with …): the widths do not move.
    const users = Array.from({ length: 15 }, (_, i) =>
      i < 8 ? `s${i}` : `a-reader-with-a-long-id-${i}-${"x".repeat(20)}`,
    );
    const events = users.map((user) => rewardGranted(guard(user, "a")));
    const queueUrl = await queueOf(sqs, events);
    const run = await runCli(["grants", "tail"], { ...stack.env, GRANTS_QUEUE_URL: queueUrl });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const all = lines(run.stdout);
    expect(all.slice(0, 3)).toEqual(TABLE_HEAD);
    expect(all.at(-1)).toBe(TABLE_FOOT);
    expect(all).toHaveLength(3 + 15 + 1);
    expect(new Set(all.map((line) => line.length))).toEqual(new Set([TABLE_FOOT.length]));
    const cut = (user: string) => (user.length > 24 ? `${user.slice(0, 23)}…` : user);
    expect(all.slice(3, -1).sort()).toEqual(
      events
        .map((event) =>
          row(
            "2026-12-01T10:00:01.234Z",
            "reward.granted",
            cut(event.data.userId),
            "article.completed +20 XP",
            event.id,
          ),
        )
        .sort(),
    );
  });

  it("--follow: one line per event (the same columns, no borders) until --max", async ({ stack }) => {
    const sqs = createSqsClient(stack.env);
    const granted = rewardGranted(guard("f1", "a"));
    const achieved = achievement("f1");
    const queueUrl = await queueOf(sqs, [envelopeOf(granted), achieved]);
    const run = await runCli(["grants", "tail", "--follow", "--max", "2"], {
      ...stack.env,
      GRANTS_QUEUE_URL: queueUrl,
    });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(lines(run.stdout).sort()).toEqual(
      [
        followLine(
          "2026-12-01T10:00:01.234Z",
          "reward.granted",
          "f1",
          "article.completed +20 XP",
          granted.id,
        ),
        followLine(
          "2026-12-01T10:00:01.456Z",
          "reward.achieved",
          "f1",
          "first-article (First article)",
          achieved.id,
        ),
      ].sort(),
    );
  });
});

describe("with `rewards dev --json` running", () => {
  plainIt(
    "grants tail --json prints the envelope's event and the bare CloudEvent and leaves the non-JSON message; a consumer's queue gets the CloudEvent alone",
    async () => {
      const dev = startCli(["dev", "--json", "--wait", "1", "--function", "artifact"], { LOG_LEVEL: "warn" });
      try {
        expect(
          await waitFor(() => dev.output().stdout.includes("\n"), { timeoutMs: HANG_GUARD_MS }),
          dev.output().stderr,
        ).toBe(true);
        const env = JSON.parse(dev.output().stdout.split("\n")[0] as string) as Record<string, string>;
        expect(env.CONSUMER_QUEUE_URL).toMatch(/rewards-consumer$/);
        expect(env.GRANTS_QUEUE_URL).toMatch(/rewards-grants$/);
        const sqs = createSqsClient(env);
        const first = rewardGranted(guard("held", "a"));
        const second = rewardGranted(guard("held", "b"));
        await send(sqs, env.GRANTS_QUEUE_URL as string, JSON.stringify(envelopeOf(first)));
        await send(sqs, env.GRANTS_QUEUE_URL as string, JSON.stringify(second));
        const notJson = await send(sqs, env.GRANTS_QUEUE_URL as string, "{not json");

        const tail = await runCli(["grants", "tail", "--json"], env);
        expect(tail.code).toBe(1);
        expect(lines(tail.stdout).map((line) => JSON.parse(line))).toEqual([first, second]);
        expect(lines(tail.stderr).map((line) => JSON.parse(line))).toEqual([
          { messageId: notJson, problem: "the body is not JSON" },
        ]);
        expect(await visibleNow(sqs, env.GRANTS_QUEUE_URL as string)).toEqual([
          { messageId: notJson, body: "{not json" },
        ]);
        // Still there for the next reader, still reported, never deleted.
        const again = await runCli(["grants", "tail", "--json"], env);
        expect(again).toMatchObject({ code: 1, stdout: "" });
        expect(again.stderr).toContain(notJson);
        await drain(sqs, env.GRANTS_QUEUE_URL as string);

        // A real award reaches both queues: the envelope for grants tail, the CloudEvent alone for
        // a consumer. (Its reader's first achievement may come too, as a reward.achieved of its own.)
        expect((await runCli(["publish", "-"], env, `${completed("dev-consumer", "a")}\n`)).code).toBe(0);
        const granted = (events: Array<{ type?: unknown }>) =>
          events.filter((event) => event.type === "reward.granted");
        const consumed: Array<{ type?: unknown }> = [];
        expect(
          await waitFor(
            async () => {
              consumed.push(
                ...(await drain(sqs, env.CONSUMER_QUEUE_URL as string)).map((m) => JSON.parse(m.Body ?? "")),
              );
              return granted(consumed).length > 0;
            },
            { timeoutMs: HANG_GUARD_MS },
          ),
        ).toBe(true);
        const [bare] = granted(consumed);
        expect(bare).toMatchObject({
          type: "reward.granted",
          data: { userId: "dev-consumer", intentKey: "dev-consumer#a#article.completed", xp: 20 },
        });
        const tailed = await runCli(["grants", "tail", "--json"], env);
        expect(tailed.code).toBe(0);
        // Each queue has its own copy (at least one: delivery is at least once).
        const tailedEvents = granted(lines(tailed.stdout).map((line) => JSON.parse(line)));
        expect(tailedEvents.length).toBeGreaterThan(0);
        expect(tailedEvents).toEqual(tailedEvents.map(() => bare));
        expect(granted(consumed)).toEqual(granted(consumed).map(() => bare));
      } finally {
        dev.child.kill("SIGINT");
        await dev.exited;
      }
    },
  );
});

describe("grants tail part-way: never gone and unprinted", () => {
  async function fifteen(sqs: SQSClient, extra: (i: number) => object = () => ({})) {
    const { QueueUrl } = await sqs.send(
      new CreateQueueCommand({ QueueName: `part-${randomUUID().slice(0, 8)}` }),
    );
    const ids: string[] = [];
    for (let i = 0; i < 15; i++) {
      const event = { ...rewardGranted(guard("part", `s${i}`)), ...extra(i) };
      ids.push(event.id);
      await send(sqs, QueueUrl as string, JSON.stringify(event));
    }
    return { queueUrl: QueueUrl as string, ids };
  }
  const left = async (sqs: SQSClient, queueUrl: string) => {
    const { visible, inFlight } = await queueCounts(sqs, queueUrl);
    return visible + inFlight;
  };

  it.for([
    ["ReceiveMessage", 10, 5],
    ["DeleteMessageBatch", 15, 15 - 10],
  ] as const)("a failing %s part-way", async ([operation, printed, remaining], { stack }) => {
    const sqs = createSqsClient(stack.env);
    const { queueUrl } = await fifteen(sqs);
    const proxy = await startFaultProxy({
      target: stack.endpoints.sqs,
      rules: [{ operation, fault: "http500", probability: 1, skip: 1 }],
      seed: 1,
    });
    const run = await runCli(["grants", "tail", "--json"], {
      ...stack.env,
      AWS_ENDPOINT_URL_SQS: proxy.endpoint,
      GRANTS_QUEUE_URL: queueUrl,
    });
    await proxy.stop();
    expect(run.code).toBe(1);
    expect(lines(run.stdout)).toHaveLength(printed);
    expect(await left(sqs, queueUrl)).toBe(remaining);
  });

  it("a failing release after an unreadable message: what was deleted was printed", async ({ stack }) => {
    const sqs = createSqsClient(stack.env);
    const { queueUrl } = await fifteen(sqs);
    await send(sqs, queueUrl, "{unreadable");
    const proxy = await startFaultProxy({
      target: stack.endpoints.sqs,
      rules: [{ operation: "ChangeMessageVisibilityBatch", fault: "http500", probability: 1 }],
      seed: 1,
    });
    const run = await runCli(["grants", "tail", "--json"], {
      ...stack.env,
      AWS_ENDPOINT_URL_SQS: proxy.endpoint,
      GRANTS_QUEUE_URL: queueUrl,
    });
    await proxy.stop();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("not released");
    expect(lines(run.stdout)).toHaveLength(15);
    expect(await left(sqs, queueUrl)).toBe(1);
  });

  it("--json prints the event as received: traceparent, an extension, an unknown data field", async ({
    stack,
  }) => {
    const sqs = createSqsClient(stack.env);
    const { QueueUrl } = await sqs.send(
      new CreateQueueCommand({ QueueName: `raw-${randomUUID().slice(0, 8)}` }),
    );
    const granted = rewardGranted(guard("raw", "a"));
    const event = {
      ...granted,
      traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
      partitionkey: "raw",
      data: { ...granted.data, campaign: "winter" },
    };
    await send(sqs, QueueUrl as string, JSON.stringify(envelopeOf(event)));
    const run = await runCli(["grants", "tail", "--json"], {
      ...stack.env,
      GRANTS_QUEUE_URL: QueueUrl as string,
    });
    expect(run.code).toBe(0);
    expect(lines(run.stdout).map((line) => JSON.parse(line))).toEqual([event]);
  });

  it.for([[[]], [["--follow"]]] as const)("--max 7 %s takes at most 7 of 25", async ([extra], { stack }) => {
    const sqs = createSqsClient(stack.env);
    const { QueueUrl } = await sqs.send(
      new CreateQueueCommand({ QueueName: `max-${randomUUID().slice(0, 8)}` }),
    );
    for (let i = 0; i < 25; i++)
      await send(sqs, QueueUrl as string, JSON.stringify(rewardGranted(guard("max", `m${i}`))));
    const run = await runCli(["grants", "tail", "--json", "--keep", "--max", "7", ...extra], {
      ...stack.env,
      GRANTS_QUEUE_URL: QueueUrl as string,
    });
    expect(run.code).toBe(0);
    expect(lines(run.stdout)).toHaveLength(7);
    // --keep released the 7 it took: the other 18 were never received (still visible, never held).
    const after = await runCli(["grants", "tail", "--json", "--max", "100"], {
      ...stack.env,
      GRANTS_QUEUE_URL: QueueUrl as string,
    });
    expect(lines(after.stdout)).toHaveLength(25);
  });
});
