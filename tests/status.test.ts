import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { completed, eventBody, HANG_GUARD_MS, runCli, signup, startCli, waitFor } from "@rewards/testing";
import { describe, expect, it } from "vitest";

/**
 * `rewards status` against `rewards dev --no-history` (issue 54): the history's writer is not
 * running, so its lag is every award made since the stack started, while the announcer (dev
 * runs it) catches up to 0; `rewards user` says which of a reader's awards the history lacks.
 */

type Status = {
  verdict: string;
  reasons: string[];
  consumers: Record<"announcer" | "history", Record<string, unknown>>;
  [part: string]: unknown;
};

async function status(env: Record<string, string>, ...args: string[]) {
  const run = await runCli(["status", "--json", ...args], env);
  return { ...run, report: JSON.parse(run.stdout) as Status };
}

describe("rewards status: the stream consumers' lag, locally", () => {
  it("with dev --no-history: the history's writer is behind by exactly the awards made, the announcer caught up", async () => {
    const dev = startCli(["dev", "--no-history", "--no-read-api", "--json"], { LOG_LEVEL: "warn" });
    try {
      expect(await waitFor(() => dev.output().stdout.includes("\n"), { timeoutMs: HANG_GUARD_MS })).toBe(
        true,
      );
      const env = JSON.parse(dev.output().stdout.split("\n")[0] as string) as Record<string, string>;
      // Where dev's stream functions keep their places (docs/operations.md#status).
      expect(env.ANNOUNCER_CHECKPOINT_FILE).toMatch(/rewards-dev-\w+\/announcer-checkpoint\.json$/);
      expect(env.HISTORY_CHECKPOINT_FILE).toMatch(/rewards-dev-\w+\/history-checkpoint\.json$/);

      // 4 awards: 3 for one reader, 1 for another; a repeat of an intent (no award) and a poison message.
      const reader = `status-${Date.now()}`;
      const lines = [
        completed(reader, "a"),
        completed(reader, "b"),
        signup(reader),
        completed(`${reader}-2`, "a"),
        eventBody("article.completed", { userId: reader, articleSlug: "a" }),
        "{poison",
      ];
      const published = await runCli(["publish", "-", "--raw"], env, `${lines.join("\n")}\n`);
      expect(published.code, published.stderr).toBe(0);
      const awards = 4;

      // Every message settled (paid, or parked), then the announcer through every award: polled on
      // the command itself; the history's lag is not waited on, but asserted after.
      const settled = async () => {
        const { report } = await status(env);
        const queue = report.queue as { visible: number; inFlight: number };
        return (
          queue.visible === 0 &&
          queue.inFlight === 0 &&
          (report.dlq as { messages: number }).messages === 1 &&
          existsSync(env.ANNOUNCER_CHECKPOINT_FILE as string) &&
          report.consumers.announcer.recordsBehind === 0
        );
      };
      expect(await waitFor(settled, { timeoutMs: HANG_GUARD_MS, intervalMs: 500 })).toBe(true);
      const { code, report: now, stderr } = await status(env);
      expect(code, stderr).toBe(0);
      expect(now).toMatchObject({
        target: "local",
        stage: null,
        queue: { kind: "read", visible: 0, inFlight: 0, delayed: 0 },
        oldestMessage: { kind: "notHere", reason: "needs CloudWatch, which the local stack does not have" },
        dlq: { kind: "read", messages: 1, read: 1, byReason: { invalid_json: 1 } },
        consumers: {
          announcer: { kind: "read", source: "checkpoint", recordsBehind: 0, oldestAgeSeconds: 0 },
          history: {
            kind: "read",
            source: "checkpoint",
            recordsBehind: awards,
            oldestAgeSeconds: expect.any(Number),
            note: "no checkpoint yet: it has done no batch (not running, or just started)",
          },
        },
        givenUp: { announcer: { kind: "read", batches: 0 }, history: { kind: "read", batches: 0 } },
        alarms: { kind: "notHere", reason: "no CloudWatch on the local stack" },
        rules: {
          kind: "read",
          version: 0,
          publishedAt: null,
          digest: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
        // Everything read: the DLQ's message waits for an operator; a young lag is not past its alarm.
        verdict: "attention",
        reasons: ["1 message in the DLQ: `rewards dlq stats`"],
      });
      expect(now.consumers.announcer).not.toHaveProperty("note");

      const text = await runCli(["status"], env);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(
        /│ history writer's lag +│ 4 records behind, the oldest \d+ s old; no checkpoint yet: it has done no batch \(not running, or just started\) +│/,
      );
      expect(text.stdout).toMatch(/│ announcer's lag +│ caught up: 0 records behind +│/);
      expect(text.stdout).toMatch(/│ DLQ +│ 1 message: invalid_json 1 +│/);
      expect(text.stdout).toMatch(/│ rules +│ version 0 \(the built-in rules; nothing published\) +│/);
      expect(text.stdout).toMatch(/\nattention:\n- 1 message in the DLQ: `rewards dlq stats`\n$/);

      // The reader's page shows "awards 3" beside "no awards yet": `rewards user` says why.
      const user = await runCli(["user", reader], env);
      expect(user.stdout).toMatch(
        /│ history +│ 3 awards not yet in the history: its writer is behind \(`rewards status`\) +│/,
      );
      expect(user.stdout).toContain("\nno awards yet\n");
      expect(JSON.parse((await runCli(["user", reader, "--json"], env)).stdout).historyLag).toEqual({
        kind: "awardsMissing",
        missing: 3,
        profileAwards: 3,
        historyAwards: 0,
      });

      // A history's writer started beside dev keeps its place in dev's file: status follows it to 0.
      const writer = await runCli(["history", "--drain", "--json"], env);
      expect(writer.code, writer.stderr).toBe(0);
      expect(JSON.parse(writer.stdout)).toMatchObject({ written: awards });
      expect(existsSync(env.HISTORY_CHECKPOINT_FILE as string)).toBe(true);
      const after = (await status(env)).report;
      expect(after.consumers.history).toEqual({
        kind: "read",
        source: "checkpoint",
        recordsBehind: 0,
        oldestAgeSeconds: 0,
      });
      expect(JSON.parse((await runCli(["user", reader, "--json"], env)).stdout).historyLag).toEqual({
        kind: "inStep",
        profileAwards: 3,
        historyAwards: 3,
      });
      expect((await runCli(["user", reader], env)).stdout).not.toContain("not yet in the history");

      // --watch: a reading a line (with --json) until Ctrl-C; the exit code is the last reading's.
      const watch = startCli(["status", "--watch", "1", "--json"], env);
      expect(
        await waitFor(() => watch.output().stdout.split("\n").length > 2, { timeoutMs: HANG_GUARD_MS }),
      ).toBe(true);
      watch.child.kill("SIGINT");
      expect(await watch.exited).toBe(0);
      const readings = watch.output().stdout.trim().split("\n");
      expect(readings.length).toBeGreaterThanOrEqual(2);
      for (const line of readings)
        expect(JSON.parse(line)).toMatchObject({ verdict: "attention", target: "local" });

      // A part that cannot be read is unknown with its reason (never a stack trace), the others still
      // read, and the command exits 1: a variable unset, an endpoint down.
      const { ANNOUNCER_CHECKPOINT_FILE: _unset, ...partial } = env;
      const down = await status({ ...partial, AWS_ENDPOINT_URL_SQS: "http://127.0.0.1:9" });
      expect(down.code).toBe(1);
      expect(down.stderr).toBe("");
      expect(down.report.consumers.announcer).toEqual({
        kind: "unknown",
        reason:
          "ANNOUNCER_CHECKPOINT_FILE is not set: a local stream function's place is known only to its own process unless it keeps it in a file (`rewards dev` prints the variable; `rewards announcer`/`history --checkpoint FILE`)",
      });
      const refused = { kind: "unknown", reason: expect.stringMatching(/ECONNREFUSED/) };
      expect(down.report).toMatchObject({
        queue: refused,
        dlq: refused,
        givenUp: { announcer: refused, history: refused },
        // DynamoDB is up: the history's lag is still read.
        consumers: { history: { kind: "read", recordsBehind: 0 } },
        verdict: "incomplete",
      });
      expect(down.report.reasons).toEqual([
        expect.stringMatching(/^the queue could not be read: .*ECONNREFUSED/),
        expect.stringMatching(/^the DLQ could not be read: .*ECONNREFUSED/),
        expect.stringMatching(/^the announcer's lag could not be read: ANNOUNCER_CHECKPOINT_FILE is not set/),
        expect.stringMatching(/^the announcer's given-up batches could not be read: .*ECONNREFUSED/),
        expect.stringMatching(/^the history's writer's given-up batches could not be read: .*ECONNREFUSED/),
      ]);
      const downText = await runCli(["status"], { ...partial, AWS_ENDPOINT_URL_SQS: "http://127.0.0.1:9" });
      expect(downText.code).toBe(1);
      expect(downText.stdout).toMatch(/│ queue +│ unknown: .*ECONNREFUSED.* +│/);
      expect(downText.stdout).toMatch(/\nincomplete:\n- the queue could not be read: /);
    } finally {
      dev.child.kill("SIGINT");
      expect(await dev.exited).toBe(0);
    }
    // dev's places went with its stack.
    expect(
      existsSync(dirname(JSON.parse(dev.output().stdout.split("\n")[0] as string).ANNOUNCER_CHECKPOINT_FILE)),
    ).toBe(false);
  });
});
