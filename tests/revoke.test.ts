import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DeleteMessageCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import {
  type RewardGranted,
  type RewardRevoked,
  revokeId,
  rewardGrantedSchema,
  rewardRevokedSchema,
} from "@rewards/core";
import { createSqsClient } from "@rewards/core/aws";
import { eventBody, exportedEnv, profileIn, runCli, startCli, waitFor } from "@rewards/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The held-out check of issue 29, against `rewards dev` as an operator would run it: the
 * real CLI process for every step, the announcer and the bus dev runs filling the grants queue.
 */
describe("rewards revoke, with rewards dev running", () => {
  let dev: ReturnType<typeof startCli>;
  let env: Record<string, string>;
  const announcements: Array<RewardGranted | RewardRevoked> = [];

  /** Everything the grants queue holds now, read and deleted, as the bus delivers it (EventBridge's envelope). */
  async function readGrantsQueue(): Promise<void> {
    const sqs = createSqsClient(env);
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: env.GRANTS_QUEUE_URL,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 0,
      }),
    );
    for (const message of Messages) {
      const { detail } = JSON.parse(message.Body ?? "") as { detail: { type: string } };
      // The awards' achievements (first-article) come too: not this test's business.
      if (detail.type !== "reward.achieved")
        announcements.push(
          detail.type === "reward.revoked"
            ? rewardRevokedSchema.parse(detail)
            : rewardGrantedSchema.parse(detail),
        );
      await sqs.send(
        new DeleteMessageCommand({ QueueUrl: env.GRANTS_QUEUE_URL, ReceiptHandle: message.ReceiptHandle }),
      );
    }
  }
  const ofType = (type: string) => announcements.filter((a) => a.type === type);
  /** The worker's outcomes so far, from the batch lines dev logs at info. */
  const workerTotals = () => {
    const totals = { awarded: 0, duplicate: 0 };
    for (const line of dev.output().stderr.split("\n")) {
      if (!line.includes('"name":"rewards-worker"') || !line.includes('"msg":"batch"')) continue;
      const batch = JSON.parse(line) as { awarded: number; duplicate: number };
      totals.awarded += batch.awarded;
      totals.duplicate += batch.duplicate;
    }
    return totals;
  };
  const xpOf = async (user: string) =>
    JSON.parse((await runCli(["user", user, "--json"], env)).stdout).profile.xp;

  beforeAll(async () => {
    dev = startCli(["dev", "--wait", "1", "--function", "artifact"], { LOG_LEVEL: "info" });
    expect(await waitFor(() => dev.output().stdout.includes("Ctrl-C to stop"), { timeoutMs: 30_000 })).toBe(
      true,
    );
    env = exportedEnv(dev.output().stdout);
  }, 40_000);
  afterAll(async () => {
    dev.child.kill("SIGINT");
    await dev.exited;
  });

  it("takes back exactly the revoked awards, once, announces each, and a replay pays nothing", async () => {
    const user = "revoke-user";
    const events = [
      eventBody("article.completed", { userId: user, articleSlug: "a" }),
      eventBody("article.completed", { userId: user, articleSlug: "b" }),
      eventBody("signup.completed", { userId: user }),
    ];
    expect((await runCli(["publish", "-"], env, `${events.join("\n")}\n`)).code).toBe(0);
    expect(
      // Polled in process: a `rewards user` per poll is half a CPU-second each.
      await waitFor(async () => (await profileIn(env, user))?.xp === 140, { timeoutMs: 20_000 }),
    ).toBe(true);
    expect(JSON.parse((await runCli(["user", user, "--json"], env)).stdout).profile).toMatchObject({
      xp: 140,
      awards: 3,
    });

    // Line 1 an event, line 2 its intent key alone (the signup's), line 3 never paid, line 4 not an
    // event, line 5 line 1 again: a copy is one revocation, counted once in the dry run as in the run.
    const file = join(tmpdir(), `revoke-${process.pid}.ndjson`);
    await writeFile(
      file,
      [
        events[0],
        JSON.stringify({ intentKey: `${user}#signup.completed` }),
        JSON.stringify({ intentKey: `${user}#never-read#article.completed` }),
        JSON.stringify({
          specversion: "1.0",
          id: "x",
          source: "/t",
          type: "article.completed",
          data: { userId: "" },
        }),
        events[0],
        "",
      ].join("\n"),
    );

    const dry = await runCli(["revoke", file, "--reason", "producer bug"], env);
    expect(dry).toMatchObject({ code: 0, stderr: "" });
    expect(dry.stdout).toBe(
      [
        `line 1: would revoke "${user}#a#article.completed": user ${user} -20 XP`,
        `line 2: would revoke "${user}#signup.completed": user ${user} -100 XP`,
        `line 3: not_found "${user}#never-read#article.completed": no guard: never paid, or expired and swept`,
        "line 4: invalid: data.userId: must be 1 to 256 characters; data.articleSlug: Invalid input: expected string, received undefined",
        `line 5: copy "${user}#a#article.completed": a copy of line 1`,
        "dry run: 2 would_revoke (120 XP from 1 user), 0 already_revoked, 1 not_found, 1 invalid, 0 failed, 1 copy",
        "nothing changed: add --yes to revoke",
        "",
      ].join("\n"),
    );
    expect(await xpOf(user)).toBe(140);
    const explicitDry = await runCli(["revoke", file, "--reason", "producer bug", "--dry-run", "--yes"], env);
    expect(explicitDry.stdout).toBe(dry.stdout);
    expect(await xpOf(user)).toBe(140);

    const run = await runCli(["revoke", file, "--reason", "producer bug", "--yes", "--json"], env);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({
      dryRun: false,
      reason: "producer bug",
      counts: {
        revoked: 2,
        would_revoke: 0,
        already_revoked: 0,
        not_found: 1,
        invalid: 1,
        failed: 0,
        copy: 1,
      },
      xp: 120,
      users: 1,
    });
    expect(report.results.map((r: { line: number; verdict: string }) => [r.line, r.verdict])).toEqual([
      [1, "revoked"],
      [2, "revoked"],
      [3, "not_found"],
      [4, "invalid"],
      [5, "copy"],
    ]);
    expect(JSON.parse((await runCli(["user", user, "--json"], env)).stdout).profile).toMatchObject({
      xp: 20,
      awards: 1,
    });

    // The guard says so, and stays (the intent is still remembered).
    const guard = JSON.parse(
      (await runCli(["guard", "article.completed", `userId=${user}`, "articleSlug=a", "--json"], env)).stdout,
    );
    expect(guard).toMatchObject({
      amount: 20,
      revokedAt: report.results[0].revokedAt,
      revokedReason: "producer bug",
    });

    // Three grants and two revocations reach the grants queue: each revocation by the revocation's id.
    expect(
      await waitFor(
        async () => {
          await readGrantsQueue();
          return ofType("reward.granted").length >= 3 && ofType("reward.revoked").length >= 2;
        },
        { timeoutMs: 20_000 },
      ),
    ).toBe(true);
    const grants = ofType("reward.granted") as RewardGranted[];
    const revoked = ofType("reward.revoked") as RewardRevoked[];
    const grantOf = (key: string) => grants.find((g) => g.data.intentKey === key) as RewardGranted;
    expect(new Set(revoked.map((r) => r.id))).toEqual(
      new Set(
        [`${user}#a#article.completed`, `${user}#signup.completed`].map((key) =>
          revokeId(key, grantOf(key).data.awardedAt),
        ),
      ),
    );
    for (const r of revoked) {
      expect(r.data).toEqual({
        ...grantOf(r.data.intentKey).data,
        revokedAt: r.time,
        reason: "producer bug",
      });
    }

    // The same file again revokes nothing.
    const again = await runCli(["revoke", file, "--reason", "producer bug", "--yes"], env);
    expect(again.code).toBe(0);
    expect(again.stdout.split("\n")).toEqual([
      `line 1: already_revoked "${user}#a#article.completed": user ${user} 20 XP, revoked at ${report.results[0].revokedAt} ("producer bug")`,
      `line 2: already_revoked "${user}#signup.completed": user ${user} 100 XP, revoked at ${report.results[1].revokedAt} ("producer bug")`,
      `line 3: not_found "${user}#never-read#article.completed": no guard: never paid, or expired and swept`,
      expect.stringMatching(/^line 4: invalid: data\.userId/),
      `line 5: copy "${user}#a#article.completed": a copy of line 1`,
      "0 revoked (0 XP from 0 users), 2 already_revoked, 1 not_found, 1 invalid, 0 failed, 1 copy",
      "",
    ]);
    expect(await xpOf(user)).toBe(20);

    // A replay of a revoked event is a duplicate: the guard still remembers the intent.
    expect(workerTotals()).toEqual({ awarded: 3, duplicate: 0 });
    expect((await runCli(["publish", "-"], env, `${events[0]}\n`)).code).toBe(0);
    expect(await waitFor(() => workerTotals().duplicate === 1, { timeoutMs: 20_000 })).toBe(true);
    expect(workerTotals()).toEqual({ awarded: 3, duplicate: 1 });
    expect(await xpOf(user)).toBe(20);
    await readGrantsQueue();
    expect(announcements).toHaveLength(5);
  }, 120_000);
});
