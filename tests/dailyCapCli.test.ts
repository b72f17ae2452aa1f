import { randomUUID } from "node:crypto";
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { isoWeekOf } from "@rewards/core";
import { createSqsClient } from "@rewards/core/aws";
import { completed, runCli, signup, stackTest } from "@rewards/testing";
import { describe, expect } from "vitest";
import { award, ownTable } from "./fixtures/announcerFixtures";
import { writeHistoryOfStream } from "./fixtures/historyFixtures";

/**
 * The daily cap where an operator reads it (docs/awards.md#the-daily-cap): `rewards user` shows today's total and
 * the cap; the DLQ's replay preview says what each parked copy would pay under it. The CLI
 * reads the same REWARDS_DAILY_XP_CAP the worker runs with.
 */
const it = stackTest();

describe("the daily cap in the operator's commands", () => {
  it("rewards user shows today's XP toward the cap, and the cap", async ({ stack }) => {
    const table = await ownTable(stack);
    const env: Record<string, string> = { ...table.env, REWARDS_DAILY_XP_CAP: "50" };
    const user = `cap-user-${randomUUID().slice(0, 6)}`;
    await award(env, [completed(user, "a"), completed(user, "b"), completed(user, "c"), signup(user)]);
    // Without a cap, today's XP comes from the history (docs/history.md), which the stream's writer fills.
    await writeHistoryOfStream(env, table.streamArn);
    const today = new Date().toISOString().slice(0, 10);
    const json = await runCli(["user", user, "--json"], env);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).profile).toEqual({
      userId: user,
      xp: 150,
      awards: 4,
      counts: { "article.completed": 3, "article.shared": 0, "streak.day": 0, "signup.completed": 1 },
      streak: { current: 0, longest: 0 },
      level: { level: 2, xpFloor: 100, xpNext: 250 },
      updatedAt: expect.any(String),
      today: { day: today, xp: 50, cap: 50, left: 0 },
      // The cap limits the day, not the week: all 150 earned this week, the table's only reader.
      week: { week: isoWeekOf(Date.now()), xp: 150, rank: 1 },
    });
    expect((await runCli(["user", user], env)).stdout).toContain(`${today}: 50 of 50 XP (daily cap), 0 left`);
    // --awards N: the last N awards, newest first (the signup was the batch's last commit); the
    // capped one says what it paid of what its rule asks.
    const two = JSON.parse((await runCli(["user", user, "--awards", "2", "--json"], env)).stdout).history;
    expect(two.awards).toHaveLength(2);
    expect(two.cursor).toEqual(expect.any(String));
    const shown = (await runCli(["user", user], env)).stdout;
    expect(shown).toContain("last 4 awards, newest first:");
    expect(shown).toMatch(/│ article\.completed │ c +│ 10 of 20 │/);
    expect((await runCli(["user", user, "--awards", "101"], env)).code).toBe(2);
    // Where the cap is not configured, the day's total is still shown, and so is that.
    expect((await runCli(["user", user], table.env)).stdout).toContain(`${today}: 50 XP (no daily cap set)`);
  });

  it("dlq stats and replay --dry-run: would pay, would pay N of M (cap), capped", async ({ stack }) => {
    const table = await ownTable(stack);
    const env: Record<string, string> = { ...table.env, REWARDS_DAILY_XP_CAP: "50" };
    const user = `cap-dlq-${randomUUID().slice(0, 6)}`;
    const paid = completed(user, "a");
    await award(env, [paid, completed(user, "b")]); // 40 of today's 50
    const sqs = createSqsClient(env);
    // Parked copies, in this order: a paid intent, one the cap cuts to 10, one it leaves at 0, a signup.
    for (const body of [paid, completed(user, "c"), completed(user, "d"), signup(user)])
      await sqs.send(new SendMessageCommand({ QueueUrl: env.DLQ_URL, MessageBody: body }));

    const stats = await runCli(["dlq", "stats", "--json"], env);
    expect(JSON.parse(stats.stdout).byVerdict).toEqual({
      pay: 1,
      pay_part: 1,
      capped: 1,
      paid: 1,
      revoked: 0,
      stale: 0,
      invalid: 0,
    });
    const dry = await runCli(["dlq", "replay", "--dry-run"], env);
    const lines = dry.stdout.split("\n");
    expect(lines[0]).toBe(
      "Replayed now, the matching messages would: 1 would pay, 1 would pay part (cap), 1 capped (would pay 0), 1 already paid, 0 stale, 0 invalid.",
    );
    // Then every message's verdict, in the DLQ's order: what the cap cuts, the XP it leaves.
    expect(lines.slice(2, 6).map((line) => line.replace(/^ {2}\S+: /, "  <id>: "))).toEqual([
      `  <id>: already paid "${user}#a#article.completed"`,
      `  <id>: would pay 10 of 20 (cap) "${user}#c#article.completed"`,
      `  <id>: capped (would pay 0) "${user}#d#article.completed"`,
      `  <id>: would pay "${user}#signup.completed"`,
    ]);
    const judged = JSON.parse((await runCli(["dlq", "replay", "--dry-run", "--json"], env)).stdout).judged;
    expect(judged.find((j: { verdict: string }) => j.verdict === "pay_part")).toMatchObject({
      xp: 10,
      requested: 20,
    });

    // Without a cap where the command runs, it judges as a worker without one would.
    const uncapped = await runCli(["dlq", "stats", "--json"], table.env);
    expect(JSON.parse(uncapped.stdout).byVerdict).toEqual({
      pay: 3,
      paid: 1,
      revoked: 0,
      stale: 0,
      invalid: 0,
    });
  });
});
