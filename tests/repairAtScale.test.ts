import { dayNumberOf, dayOfNumber } from "@rewards/core";
import { createDynamoClient } from "@rewards/core/aws";
import { startFaultProxy } from "@rewards/local";
import { type ReadersRepair, type RepairPhase, readTable, rebuildHistory, repairReaders } from "@rewards/ops";
import { completed, eventBody, runCli, stackTest } from "@rewards/testing";
import { describe, expect, onTestFinished } from "vitest";
import { award, ownTable } from "./fixtures/announcerFixtures";
import { writeHistoryOfStream } from "./fixtures/historyFixtures";

// `history rebuild --all` and `backfill --all` at scale (docs/operations.md, "Repair at scale"):
// the table read once, each reader decided from it, a dry run saying exactly what the run then
// does, a run cut short (Ctrl-C) finished by running it again, and a second run writing nothing.

const it = stackTest();
const READERS = 6;
const today = dayNumberOf(new Date().toISOString().slice(0, 10));
const streakDay = (userId: string, day: number) => eventBody("streak.day", { userId, day: dayOfNumber(day) });

/** Readers paid with no history's writer running: articles (level-2 at 100 XP) and a week of days (streak-7). */
async function paidWithoutHistory(stack: Parameters<typeof ownTable>[0], count = READERS) {
  const table = await ownTable(stack);
  const readers = Array.from({ length: count }, (_, i) => `scale-${i}-${table.tableName}`);
  for (const [i, reader] of readers.entries()) {
    const articles = Array.from({ length: i + 1 }, (_, n) => completed(reader, `a${n}`));
    const days = Array.from({ length: i % 2 === 0 ? 7 : 3 }, (_, n) => streakDay(reader, today - n));
    await award(table.env, [...articles, ...days]);
  }
  const operations: string[] = [];
  const proxy = await startFaultProxy({
    target: stack.endpoints.dynamodb,
    rules: [],
    seed: 1,
    observe: (operation) => operations.push(operation),
  });
  onTestFinished(() => proxy.stop());
  const dynamo = createDynamoClient({ ...table.env, AWS_ENDPOINT_URL_DYNAMODB: proxy.endpoint });
  const repair = (
    dryRun: boolean,
    stop?: { after: number; controller: AbortController; phase?: RepairPhase },
  ) => {
    operations.length = 0;
    return repairReaders(dynamo, {
      tableName: table.tableName,
      dryRun,
      counts: false,
      rebuild: { historyDays: 400 },
      shards: 32,
      keepWeeks: 8,
      signal: stop?.controller.signal,
      // Ctrl-C once `after` readers or items of that pass are done.
      onProgress: (phase, count) => {
        if (stop && phase === (stop.phase ?? "history") && count >= stop.after) stop.controller.abort();
      },
    });
  };
  const writes = () =>
    operations.filter((op) => !["Scan", "Query", "GetItem", "BatchGetItem", "DescribeTable"].includes(op));
  return { table, readers, repair, writes, dynamo };
}

/** What a report says was (or would be) done, without whether it was a dry run. */
function done(report: ReadersRepair) {
  return {
    history: report.history?.users.map(({ userId, written, corrected }) => ({ userId, written, corrected })),
    progress: report.progress?.readers,
    weeks: report.weeks?.readers,
  };
}

describe("repair at scale", () => {
  it("a dry run says exactly what the run then does; a second run writes nothing", async ({ stack }) => {
    const { repair, writes } = await paidWithoutHistory(stack);
    const dry = await repair(true);
    expect(writes()).toEqual([]);
    const run = await repair(false);
    expect(done(run)).toEqual(done(dry));
    expect(run.progress?.totals).toEqual({
      readers: READERS,
      // Readers 0, 2 and 4 read 7 days, the others 3.
      daysKept: 3 * 7 + 3 * 3,
      daysUnkept: 0,
      // first-article for all; level-2 (100 XP: 20 an article, 10 a day) for readers 2 to 5
      // (130, 110, 170 and 150 XP; 90 and 70 for readers 0 and 1); streak-7 for readers 0, 2 and 4.
      achieved: READERS + 4 + 3,
      countsSet: 0,
      waiting: 0,
      failed: 0,
    });
    expect(run.history?.totals.written).toBe(21 + 30);
    expect(run.weeks?.totals.weeksChanged).toBeGreaterThanOrEqual(READERS);
    const again = await repair(false);
    expect(writes()).toEqual([]);
    expect(again.history?.totals).toMatchObject({ written: 0, corrected: 0, unchanged: 21 + 30 });
    expect(again.progress?.totals).toMatchObject({ daysKept: 0, achieved: 0 });
    expect(again.weeks?.totals.weeksChanged).toBe(0);
  });

  it("Ctrl-C stops a run where it is and says so; running it again finishes, and nothing twice", async ({
    stack,
  }) => {
    const { repair } = await paidWithoutHistory(stack);
    const expected = done(await repair(true));
    const cut = await repair(false, { after: 10, controller: new AbortController() });
    expect(cut.interrupted).toBe(true);
    // Stopped in the history's pass: the writes in flight finished, no later pass started.
    const cutWritten = cut.history?.totals.written ?? 0;
    expect(cutWritten).toBeGreaterThanOrEqual(10);
    expect(cutWritten).toBeLessThan(51);
    expect([cut.progress, cut.weeks]).toEqual([undefined, undefined]);
    const finished = await repair(false);
    expect(finished.interrupted).toBe(false);
    expect(finished.history?.totals.written).toBe(51 - cutWritten);
    // Between them, every item the dry run named, each written once.
    const written = [cut, finished].flatMap(
      (report) => report.history?.users.flatMap((user) => user.written) ?? [],
    );
    expect(written.sort()).toEqual(expected.history?.flatMap((user) => user.written).sort());
    expect([done(finished).progress, done(finished).weeks]).toEqual([expected.progress, expected.weeks]);
    const again = await repair(false);
    expect(again.history?.totals.written).toBe(0);
  });

  it("the commands print JSON a script reads; a backfill after the rebuild finds nothing to do", async ({
    stack,
  }) => {
    const { table } = await paidWithoutHistory(stack);
    const run = await runCli(["history", "rebuild", "--all", "--json"], table.env);
    expect([run.code, run.stderr]).toEqual([0, ""]);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ interrupted: false, read: { complete: true }, totals: { written: 51 } });
    const second = await runCli(["backfill", "--all"], table.env);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(
      "progress of 6 readers: 0 days kept, 0 days un-kept, 0 achievements earned, counts set for 0 readers\n",
    );
  });

  it("Ctrl-C in the progress pass stops before the next reader; running it again finishes", async ({
    stack,
  }) => {
    // More readers than the pass repairs at once (8): the last ones wait for a place.
    const many = 24;
    const { repair } = await paidWithoutHistory(stack, many);
    const expected = done(await repair(true));
    const cut = await repair(false, { after: 2, controller: new AbortController(), phase: "progress" });
    expect(cut.interrupted).toBe(true);
    expect(cut.progress?.readers.length).toBeGreaterThanOrEqual(2);
    expect(cut.progress?.readers.length).toBeLessThan(many);
    expect(cut.weeks).toBeUndefined();
    const finished = await repair(false);
    expect(finished.progress?.totals.daysKept).toBe(
      (expected.progress ?? []).reduce((sum, reader) => sum + reader.daysKept, 0) -
        (cut.progress?.totals.daysKept ?? 0),
    );
    expect(finished.interrupted).toBe(false);
  });

  it("an item the live writer puts after the scan passed is read again, not put twice", async ({ stack }) => {
    const { table, dynamo } = await paidWithoutHistory(stack);
    const snapshot = await readTable(dynamo, table.tableName);
    await writeHistoryOfStream(table.env, table.streamArn);
    const rebuilt = await rebuildHistory(dynamo, {
      tableName: table.tableName,
      historyDays: 400,
      dryRun: false,
      snapshot,
    });
    expect(rebuilt.totals).toMatchObject({ written: 0, corrected: 0, unchanged: 51 });
  });

  it("--user finds the guards of a user whose id its intent keys escape", async ({ stack }) => {
    const { table, repair } = await paidWithoutHistory(stack);
    const odd = `50%#off-${table.tableName}`;
    await award(table.env, [completed(odd, "a")]);
    const one = await repairReaders(createDynamoClient(table.env), {
      tableName: table.tableName,
      userId: odd,
      dryRun: false,
      counts: false,
      rebuild: { historyDays: 400 },
      shards: 32,
      keepWeeks: 8,
    });
    expect(one.history?.users).toEqual([
      expect.objectContaining({ userId: odd, written: [expect.any(String)] }),
    ]);
    expect(one.progress?.totals.achieved).toBe(1);
    expect((await repair(true)).history?.totals.written).toBe(51);
  });
});
