import { randomUUID } from "node:crypto";
import {
  eventBody,
  exportedEnv,
  HANG_GUARD_MS,
  profileIn,
  runCli,
  stackTest,
  startCli,
  waitFor,
} from "@rewards/testing";
import { describe, expect } from "vitest";

/**
 * The daily cap is one setting wherever the worker runs: `--daily-cap N` on
 * `rewards worker` and `rewards dev` (0: none), else REWARDS_DAILY_XP_CAP, reaching the
 * worker function's own environment. Each case publishes 60 XP of one user on one day
 * (three article.completed of 20 XP at the same instant) and reads the profile's XP.
 */
const it = stackTest();

/** Three 20-XP awards of `userId`, all on one day (the same event time). */
function sixtyXpOfOneDay(userId: string): string {
  const time = new Date().toISOString();
  return ["a", "b", "c"]
    .map((slug) => eventBody("article.completed", { userId, articleSlug: slug }, { time }))
    .join("\n");
}

describe("rewards worker: the cap from --daily-cap or REWARDS_DAILY_XP_CAP", () => {
  it.for([
    ["--daily-cap 50", ["--daily-cap", "50"], {}, 50],
    ["REWARDS_DAILY_XP_CAP=50", [], { REWARDS_DAILY_XP_CAP: "50" }, 50],
    [
      "--daily-cap 0 over REWARDS_DAILY_XP_CAP=50: no cap",
      ["--daily-cap", "0"],
      { REWARDS_DAILY_XP_CAP: "50" },
      60,
    ],
    [
      "--daily-cap 40 over REWARDS_DAILY_XP_CAP=50: the option's",
      ["--daily-cap", "40"],
      { REWARDS_DAILY_XP_CAP: "50" },
      40,
    ],
  ] as const)("%s", async ([, args, capEnv, xp], { env }) => {
    const user = `cap-worker-${randomUUID().slice(0, 6)}`;
    expect((await runCli(["publish", "-"], env, `${sixtyXpOfOneDay(user)}\n`)).code).toBe(0);
    const run = await runCli(
      ["worker", "--drain", "--wait", "1", "--json", "--function", "artifact", ...args],
      { ...env, ...capEnv },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(await profileIn(env, user)).toMatchObject({ xp, awards: 3 });
  });

  it("a bad --daily-cap is a usage error naming the option", async ({ env }) => {
    const run = await runCli(["worker", "--daily-cap", "-1"], env);
    expect(run.code).toBe(2);
    expect(run.stderr.split("\n")[0]).toBe(
      "rewards: option '--daily-cap <xp>' argument '-1' is invalid. expected a whole number of at least 0",
    );
  });
});

describe("rewards dev: its worker runs with the cap, and its env block says it", () => {
  it.for([
    ["REWARDS_DAILY_XP_CAP=50 rewards dev", [], { REWARDS_DAILY_XP_CAP: "50" }],
    ["rewards dev --daily-cap 50", ["--daily-cap", "50"], {}],
  ] as const)("%s caps one user's day at 50 XP", async ([, args, capEnv]) => {
    const dev = startCli(["dev", "--wait", "1", "--no-announcer", "--function", "artifact", ...args], {
      LOG_LEVEL: "warn",
      ...capEnv,
    });
    try {
      expect(
        await waitFor(() => dev.output().stdout.includes("Ctrl-C to stop"), { timeoutMs: HANG_GUARD_MS }),
      ).toBe(true);
      const env = exportedEnv(dev.output().stdout);
      // Pasted into another shell, the block gives `rewards user` and `dlq stats` the worker's cap.
      expect(env.REWARDS_DAILY_XP_CAP).toBe("50");
      const user = `cap-dev-${randomUUID().slice(0, 6)}`;
      const published = await runCli(["publish", "-"], env, `${sixtyXpOfOneDay(user)}\n`);
      expect(published.code, published.stdout + published.stderr).toBe(0);
      // Three awards settle (20, 20, then 10 of 20 under the cap): wait for all three, then the XP.
      let item: Awaited<ReturnType<typeof profileIn>>;
      await waitFor(
        async () => {
          item = await profileIn(env, user);
          return item?.awards === 3;
        },
        { timeoutMs: HANG_GUARD_MS },
      );
      expect(item).toMatchObject({ xp: 50, awards: 3 });
    } finally {
      dev.child.kill("SIGINT");
      expect(await dev.exited, dev.output().stderr).toBe(0);
    }
  });
});
