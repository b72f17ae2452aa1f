import { createDynamoBaseClient } from "@rewards/core/aws";
import { createReader } from "@rewards/reader";
import {
  childrenOf,
  completed,
  DEV_ENV_VARIABLES,
  exportedEnv,
  HANG_GUARD_MS,
  runCli,
  startCli,
  waitFor,
} from "@rewards/testing";
import { describe, expect, it } from "vitest";

/** Pids of the moto launchers a process started. */
const motoChildrenOf = (pid: number): number[] =>
  childrenOf(pid, "dynamodb_server.py").map((line) => Number(line.split(/\s+/)[0]));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("rewards demo", () => {
  it("runs the whole system and exits 0 when every intent paid exactly once", async () => {
    const run = await runCli(
      [
        "demo",
        "--events",
        "300",
        "--users",
        "20",
        "--seed",
        "3",
        "--fault-rate",
        "0.3",
        "--old",
        "0.1",
        "--json",
      ],
      {},
    );
    // On failure, the report's problems (and the end of stderr) say what went wrong.
    expect(run.code, `${run.stdout.slice(0, 4000)}\n${run.stderr.slice(-2000)}`).toBe(0);
    const report = JSON.parse(run.stdout) as Record<string, number | boolean | unknown[]> & {
      faults: Record<string, number>;
      busFaults: Record<string, number> & { commitThenDrop: number };
      history: { guards: number; items: number; mismatched: string[] };
      readApi: { userId: string; listed: number; problems: string[] };
      grants: {
        awards: number;
        announced: number;
        copies: number;
        missing: string[];
        unexpected: string[];
        inconsistent: string[];
      };
      progress: { announced: number; copies: number; mismatched: string[] };
    };
    expect(report).toMatchObject({ ok: true, problems: [], published: 300, mismatches: [] });
    expect(report.paid).toBe(report.uniqueIntents);
    expect(report.parked).toBe((report.poisonSent as number) + (report.staleSent as number));
    expect(report.staleSent).toBeGreaterThan(0);
    expect(report.parkedAgain).toBe(report.replayed);
    expect(report.expectedXp).toBe(report.actualXp);
    // The faults include transactions that committed while their answer was lost.
    expect(report.faults.commitThenDrop).toBeGreaterThan(0);
    // One reward.granted id per award that paid XP (a capped one pays 0 and announces nothing),
    // nothing else; copies from answers lost on the bus.
    expect(report.grants.awards).toBeLessThanOrEqual(report.paid as number);
    expect(report.grants).toMatchObject({
      announced: report.grants.awards,
      missing: [],
      unexpected: [],
      inconsistent: [],
    });
    // Each PutEvents whose answer the bus lost (commitThenDrop) published its events, and the
    // announcer sent them again: at least one copy more per such fault. reward.granted and
    // reward.achieved share the bus, so a fault may land on a batch of either kind (or both):
    // the copies are counted over both, wherever the faults landed.
    expect(report.busFaults.commitThenDrop).toBeGreaterThan(0);
    expect(report.progress.mismatched).toEqual([]);
    const extraCopies =
      report.grants.copies - report.grants.announced + (report.progress.copies - report.progress.announced);
    expect(extraCopies).toBeGreaterThanOrEqual(report.busFaults.commitThenDrop);
    // One history item per award (0 XP included), the guard's xp and revocation.
    expect(report.history).toEqual({ guards: report.paid, items: report.paid, mismatched: [] });
    // The read API, asked as a site would for the busiest user, agrees with the table.
    expect(report.readApi).toMatchObject({ problems: [], listed: expect.any(Number) });
    expect(report.readApi.listed).toBeGreaterThan(1);
  });
});

describe("rewards dev", () => {
  it("prints the env block; other commands can use it; Ctrl-C stops everything", async () => {
    const dev = startCli(["dev", "--wait", "1"], { LOG_LEVEL: "warn" });
    expect(
      await waitFor(() => dev.output().stdout.includes("Ctrl-C to stop"), { timeoutMs: HANG_GUARD_MS }),
    ).toBe(true);
    // The hint shows commands that work as printed from the repository (no global install).
    expect(dev.output().stdout).toContain("`npx rewards publish`");
    const env = exportedEnv(dev.output().stdout);
    // The same list `rewards env` is held to undoing (packages/cli/test/env.test.ts).
    expect(Object.keys(env).sort()).toEqual([...DEV_ENV_VARIABLES]);
    // The stage settings the functions run with, defaults included (tests/devSettings.test.ts sets each).
    expect(env).toMatchObject({
      LOG_LEVEL: "warn",
      REWARDS_BOARD_SHARDS: "32",
      REWARDS_BOARD_WEEKS: "8",
      REWARDS_CONCURRENCY: "100",
      REWARDS_HISTORY_DAYS: "400",
    });
    expect((await runCli(["publish", "-"], env, `${completed("dev-user", "a")}\n`)).code).toBe(0);
    // The profile paid, and the history's writer that dev runs has recorded the award: polled in
    // process (a `rewards user` per poll is half a CPU-second), then shown by the command.
    const client = createDynamoBaseClient(env);
    const reader = createReader({ tableName: env.TABLE_NAME as string, client });
    await waitFor(async () => (await reader.history("dev-user")).awards.length === 1, {
      timeoutMs: HANG_GUARD_MS,
    });
    client.destroy();
    const user = await runCli(["user", "dev-user", "--json"], env);
    expect(JSON.parse(user.stdout)).toMatchObject({
      profile: { xp: 20, awards: 1 },
      history: { awards: [{ type: "article.completed", data: { articleSlug: "a" }, xp: 20 }] },
    });
    // The read API dev serves at READER_URL answers what the library answers (`user` is the library).
    const shown = JSON.parse(user.stdout);
    expect(await (await fetch(`${env.READER_URL}/users/dev-user`)).json()).toEqual(shown.profile);
    // The reader's page dev serves at SITE_URL shows the same numbers (the browser tests hold the rest).
    const page = await fetch(`${env.SITE_URL}?user=dev-user`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<span class="figure" data-field="xp">20</span>');
    expect(html).toContain("Finished “a”");
    const two = JSON.parse(
      (await runCli(["user", "dev-user", "--awards", "2", "--json"], env)).stdout,
    ).history;
    expect(await (await fetch(`${env.READER_URL}/users/dev-user/awards?limit=2`)).json()).toEqual(two);
    const statuses = await Promise.all([
      fetch(`${env.READER_URL}/users/dev-user/awards?limit=abc`),
      fetch(`${env.READER_URL}/users/dev-user/awards?cursor=nope`),
      fetch(`${env.READER_URL}/users/${"u".repeat(257)}`),
      fetch(`${env.READER_URL}/users/dev-user`, { method: "POST" }),
      fetch(`${env.READER_URL}/nope`),
    ]);
    expect(statuses.map((r) => [r.status, r.headers.get("content-type")])).toEqual([
      [400, "application/problem+json"],
      [400, "application/problem+json"],
      [400, "application/problem+json"],
      [405, "application/problem+json"],
      [404, "application/problem+json"],
    ]);
    // The announcer dev runs put the award on the local bus, which fills the grants queue.
    const grants: string[] = [];
    await waitFor(
      async () => {
        const tail = await runCli(["grants", "tail", "--json"], env);
        grants.push(...tail.stdout.split("\n").filter(Boolean));
        // The award, then (after the history's writer) the reader's first achievement.
        return grants.length >= 2;
      },
      { timeoutMs: HANG_GUARD_MS },
    );
    const ofType = (type: string) =>
      grants.map((line) => JSON.parse(line)).filter((event) => event.type === type);
    expect(ofType("reward.achieved").map((event) => event.data)).toEqual([
      expect.objectContaining({ userId: "dev-user", achievement: "first-article", title: "First article" }),
    ]);
    expect(ofType("reward.granted").map((event) => event.data)).toEqual([
      expect.objectContaining({ userId: "dev-user", intentKey: "dev-user#a#article.completed", xp: 20 }),
    ]);
    const moto = motoChildrenOf(dev.child.pid as number);
    expect(moto).toHaveLength(1);

    dev.child.kill("SIGINT");
    expect(await dev.exited).toBe(0);
    expect(moto.filter(isAlive)).toEqual([]);
  });
});
