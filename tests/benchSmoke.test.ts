import { execFile } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { HANG_GUARD_MS } from "@rewards/testing";
import { describe, expect, it } from "vitest";

/**
 * Every benchmark script runs to completion at a tiny size and prints what it should: a
 * smoke, so none rots unnoticed. Nothing here is timed; timing lives in bench/. So the
 * sizes are the smallest that still run every part (bench/handler.ts's JIT warm-up
 * included, at 5 batches). They run one after another: side by side they compete for the
 * same two cores and take longer in all.
 */
const root = fileURLToPath(new URL("..", import.meta.url));
const tsx = join(root, "node_modules/.bin/tsx");

async function bench(args: string[], env: Record<string, string> = {}) {
  const { stdout } = await promisify(execFile)(tsx, args, {
    cwd: root,
    env: { ...process.env, ...env },
    maxBuffer: 10 * 1024 * 1024,
  });
  return stdout;
}

describe("every benchmark runs at a tiny size", () => {
  it(
    "bench/reader.ts",
    async () => {
      const out = JSON.parse(
        await bench(["bench/reader.ts", "--calls", "3", "--awards", "12", "--lag", "2", "--cold", "1"]),
      );
      expect(
        out.library.map((row: { call: string; roundTripMs: number }) => [row.call, row.roundTripMs]),
      ).toEqual([
        ["profile, with a cap", 25],
        ["profile, no cap", 25],
        ["history, a page of 20", 25],
        ["profile, with a cap", 50],
        ["profile, no cap", 50],
        ["history, a page of 20", 50],
      ]);
      // One BatchGetItem under a cap, and a Query more without, each beside the board's 32 shard
      // queries for the rank; one Query a page.
      expect(out.library.map((row: { dynamoCallsPerCall: number }) => row.dynamoCallsPerCall)).toEqual([
        33, 34, 1, 33, 34, 1,
      ]);
      expect(out.readApi.map((row: { route: string }) => row.route)).toEqual([
        "/users/{userId}",
        "/users/{userId}/awards",
      ]);
      expect(out.historyLag.awards).toBe(2);
      expect(out.coldStart.runs).toBe(1);
    },
    HANG_GUARD_MS,
  );

  it(
    "bench/board.ts",
    async () => {
      const out = JSON.parse(
        await bench(["bench/board.ts", "--readers", "300", "--top", "2", "--burst", "20", "--lag", "2"]),
      );
      expect(out).toMatchObject({ readers: 300, shards: 32 });
      // The top 20: one query a shard, each 21 keys-only entries, half a read unit by DynamoDB's rule.
      expect(out.top20).toMatchObject({
        calls: 2,
        queriesPerCall: 32,
        readUnitsPerShardMax: 0.5,
        readUnitsPerCall: 16,
      });
      expect(out.top20.first.map((entry: { rank: number }) => entry.rank)).toEqual([1, 2, 3]);
      expect(out.profileRank.map((row: { depth: number; rank: number }) => [row.depth, row.rank])).toEqual([
        [1, 1],
      ]);
      expect(out.writerBurst.awards).toBe(20);
      expect(out.boardLag.awards).toBe(2);
    },
    HANG_GUARD_MS,
  );

  it(
    "bench/handler.ts",
    async () => {
      const out = JSON.parse(await bench(["bench/handler.ts", "--batches", "20", "--warmup", "5"]));
      expect(out).toMatchObject({ batches: 20, warmup: 5, batchSize: 10 });
      expect(out.handler.awarded.dynamoCallsPerMessage).toBe(1);
      expect(out.handler.duplicate.dynamoCallsPerMessage).toBe(1);
    },
    HANG_GUARD_MS,
  );

  it(
    "bench/publish.ts",
    async () => {
      const out = JSON.parse(await bench(["bench/publish.ts", "--events", "100"]));
      expect(out.libraryEventsPerSecond).toBeGreaterThan(0);
      expect(out.bareEventsPerSecond).toBeGreaterThan(0);
    },
    HANG_GUARD_MS,
  );

  it(
    "bench/e2e.ts, on the deployable bundle",
    async () => {
      const out = JSON.parse(await bench(["bench/e2e.ts", "--events", "100"]));
      expect(out).toMatchObject({ events: 100, exactTotals: true, function: "artifact" });
      expect(out.functionEnvironments).toBeGreaterThan(0);
    },
    HANG_GUARD_MS,
  );

  it(
    "bench/announce.ts, on the deployable bundles",
    async () => {
      const out = JSON.parse(await bench(["bench/announce.ts", "--events", "50", "--rate", "200"]));
      expect(out).toMatchObject({ events: 50, exactlyTheAwards: true, function: "artifact" });
      expect(out.perAward.entries).toBeGreaterThanOrEqual(1);
      expect(out.commitToBusMs.p50).toBeGreaterThan(0);
    },
    HANG_GUARD_MS,
  );

  it(
    "bench/coldStart.ts",
    async () => {
      const out = JSON.parse(await bench(["bench/coldStart.ts", "--runs", "1"]));
      expect(out.rows.map((r: { name: string }) => r.name)).toEqual([
        "bare node",
        "deployed (ESM, minified, SDK bundled)",
        "not minified",
        "SDK left to the runtime",
      ]);
    },
    HANG_GUARD_MS,
  );

  it(
    "bench/cliStartup.ts",
    async () => {
      const out = JSON.parse(await bench(["bench/cliStartup.ts", "--rounds", "1", "--batch", "1"]));
      expect(out.rows.map((r: { name: string }) => r.name)).toEqual([
        "node -e 0",
        "rewards --version",
        "rewards --help",
      ]);
    },
    HANG_GUARD_MS,
  );

  it(
    "bench/peersBench.ts and the report it feeds",
    async () => {
      await bench(["bench/peersBench.ts"], { BENCH_SIZE: "smoke" });
      const results = JSON.parse(await readFile(join(root, "bench/results.smoke.json"), "utf8"));
      expect(Object.keys(results.peers)).toEqual([
        "rewards (this worker)",
        "Powertools idempotency",
        "check-then-write",
      ]);
      const ours = results.peers["rewards (this worker)"];
      expect(ours.concurrentCopies.doubleAwards).toBe(0);
      // One award alone, and five of one user in one transaction: 2(k + 1) WCU with small items.
      expect(ours.writeUnitsPerAward).toEqual({ k1: 4, k5: 2.4 });
      expect(ours.batchLatency.map((l: { pattern: string }) => l.pattern)).toContain("mixed");
      expect(
        ours.criticalPath.find(
          (d: { pattern: string; size: number }) => d.pattern === "mixed" && d.size === 10,
        )?.byOperation,
      ).toEqual({ TransactWriteItems: 4 });
      expect(results.emulatorServiceTime.transaction2Items.p50Ms).toBeGreaterThan(0);
      const out = join(await mkdtemp(join(tmpdir(), "report-")), "REPORT.md");
      await bench([
        "bench/peersReport.ts",
        "--results",
        join(root, "bench/results.smoke.json"),
        "--out",
        out,
      ]);
      const report = await readFile(out, "utf8");
      expect(report).toContain("## Batch latency at real round trips");
      expect(report).toContain("## The emulator's serial service time");
      expect(report).toContain("## Critical-path depth");
      expect(report).toContain("## Targets");
    },
    HANG_GUARD_MS,
  );
});
