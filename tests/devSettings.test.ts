import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { boardShardOf, isoWeekOf, weekExpiresAt } from "@rewards/core";
import { createDynamoClient } from "@rewards/core/aws";
import {
  completed,
  exportedEnv,
  HANG_GUARD_MS,
  rulesWith,
  runCli,
  startCli,
  waitFor,
} from "@rewards/testing";
import { describe, expect, it } from "vitest";

/**
 * `rewards dev` hands its functions the shell's stage settings (README's Configuration) and
 * prints each in its env block, so that a shell exporting the block reads what the functions
 * wrote (issue 53: a writer and read API of 32 shards, `rewards board` of the shell's 4).
 */

/** Every setting a stage gives a function, none at its default. */
const SETTINGS = {
  REWARDS_BOARD_SHARDS: "4",
  REWARDS_BOARD_WEEKS: "3",
  REWARDS_HISTORY_DAYS: "30",
  REWARDS_CONCURRENCY: "7",
  REWARDS_DAILY_XP_CAP: "1000",
  // The checks' refresh: a version published pays within seconds.
  REWARDS_RULES_REFRESH_SECONDS: "2",
  // Read as the functions read it: printed as `warn`.
  LOG_LEVEL: "WARNING",
};

/**
 * Four readers, 80, 60, 40 and 20 XP this week, each on a shard of 32 that 4 shards do not
 * reach: a writer of the default 32 shards read with the block's 4 would list none of them.
 */
const READERS = [
  ["dev-set-ana", 4],
  ["dev-set-ben", 3],
  ["dev-set-cy", 2],
  ["dev-set-dot", 1],
] as const;

describe("rewards dev: the shell's stage settings", () => {
  it("reach its functions, and its env block prints each as they run with it", async () => {
    expect(READERS.map(([user]) => boardShardOf(user, 32))).toEqual([22, 21, 23, 9]);
    const dev = startCli(["dev", "--wait", "1", "--no-site"], SETTINGS);
    try {
      expect(
        await waitFor(() => dev.output().stdout.includes("Ctrl-C to stop"), { timeoutMs: HANG_GUARD_MS }),
        dev.output().stderr,
      ).toBe(true);
      const env = exportedEnv(dev.output().stdout);
      expect(env).toMatchObject({ ...SETTINGS, LOG_LEVEL: "warn" });

      const events = READERS.flatMap(([user, articles]) =>
        Array.from({ length: articles }, (_, i) => completed(user, `a${i}`)),
      );
      expect((await runCli(["publish", "-"], env, `${events.join("\n")}\n`)).code).toBe(0);
      const expected = READERS.map(([userId, articles], i) => ({ rank: i + 1, userId, xp: 20 * articles }));
      // The read API's board, once the history's writer has written every award.
      let apiBoard: unknown;
      await waitFor(
        async () => {
          apiBoard = await (await fetch(`${env.READER_URL}/board`)).json();
          return JSON.stringify((apiBoard as { entries?: unknown }).entries) === JSON.stringify(expected);
        },
        { timeoutMs: HANG_GUARD_MS },
      );
      // `rewards board` with the printed env reads the shards the writer wrote: all four readers.
      const board = await runCli(["board", "--json"], env);
      expect(board.code, board.stderr).toBe(0);
      expect(JSON.parse(board.stdout)).toEqual(apiBoard);
      expect(JSON.parse(board.stdout).entries).toEqual(expected);
      // `rewards user` ranks as the read API does.
      const [third] = READERS[2];
      const user = JSON.parse((await runCli(["user", third, "--json"], env)).stdout);
      const api = (await (await fetch(`${env.READER_URL}/users/${third}`)).json()) as { week: unknown };
      expect(user.profile.week).toMatchObject({ rank: 3, xp: 40 });
      expect(api.week).toEqual(user.profile.week);

      // The history's writer keeps an award REWARDS_HISTORY_DAYS days, a week REWARDS_BOARD_WEEKS weeks.
      const doc = createDynamoClient(env);
      try {
        const items = async (prefix: string) =>
          (
            await doc.send(
              new QueryCommand({
                TableName: env.TABLE_NAME,
                KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
                ExpressionAttributeValues: { ":pk": `USER#${third}`, ":prefix": prefix },
                ConsistentRead: true,
              }),
            )
          ).Items ?? [];
        const awards = await items("AWARD#");
        expect(awards).toHaveLength(2);
        for (const award of awards)
          expect(award.expiresAt).toBe(Math.floor(Date.parse(String(award.awardedAt)) / 1000) + 30 * 86_400);
        const week = isoWeekOf(Date.now());
        expect((await items("WEEK#")).map((item) => [item.sk, item.expiresAt])).toEqual([
          [`WEEK#${week}`, weekExpiresAt(week, 3)],
        ]);
      } finally {
        doc.destroy();
      }

      // The worker re-reads the rules every REWARDS_RULES_REFRESH_SECONDS: a version published
      // now pays from its next batches (the default 30 s would outlast this wait).
      const rulesFile = join(await mkdtemp(join(tmpdir(), "dev-rules-")), "rules.json");
      await writeFile(
        rulesFile,
        JSON.stringify(
          rulesWith((rules) => {
            (rules.types["article.completed"] as { xp: number }).xp = 25;
          }),
        ),
      );
      expect((await runCli(["rules", "publish", rulesFile], env)).code).toBe(0);
      let tries = 0;
      expect(
        await waitFor(
          async () => {
            const reader = `dev-set-next-${++tries}`;
            await runCli(["publish", "-"], env, `${completed(reader, "a")}\n`);
            const seen = async () =>
              ((await (await fetch(`${env.READER_URL}/users/${reader}`)).json()) as { xp: number }).xp;
            await waitFor(async () => (await seen()) > 0, { timeoutMs: HANG_GUARD_MS });
            return (await seen()) === 25;
          },
          // Within a few refresh periods of 2 s; 30 s (the default) would not make it.
          { timeoutMs: 15_000, intervalMs: 200 },
        ),
      ).toBe(true);
    } finally {
      dev.child.kill("SIGINT");
      expect(await dev.exited, dev.output().stderr).toBe(0);
    }
  });

  it("a bad one stops it before anything starts, named (exit 1)", async () => {
    expect(await runCli(["dev"], { REWARDS_CONCURRENCY: "1001", REWARDS_HISTORY_DAYS: "1.5" })).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "rewards: invalid configuration: REWARDS_CONCURRENCY must be at most 1000; REWARDS_HISTORY_DAYS must be a whole number\n",
    });
    expect(await runCli(["dev"], { REWARDS_CONCURRENCY: "x", REWARDS_HISTORY_DAYS: "-1" })).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "rewards: invalid configuration: REWARDS_CONCURRENCY must be a whole number from 1 to 1000; REWARDS_HISTORY_DAYS must be 0 (forever) or more\n",
    });
    // The board's two, as every command reads them.
    expect(await runCli(["dev"], { REWARDS_BOARD_SHARDS: "0", REWARDS_BOARD_WEEKS: "x" })).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "rewards: invalid configuration: REWARDS_BOARD_SHARDS must be 1 or more; REWARDS_BOARD_WEEKS must be a whole number of weeks, 1 or more\n",
    });
  });
});
