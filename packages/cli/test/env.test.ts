import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runProgram } from "../src/runtime/program";
import { memoryIo } from "./memoryIo";

/** A stage's outputs as `sst deploy` writes them, with the cap and the history's days. */
const STAGE = {
  region: "eu-west-1",
  queueUrl: "https://sqs.eu-west-1.amazonaws.com/123456789012/q",
  dlqUrl: "https://sqs.eu-west-1.amazonaws.com/123456789012/dlq",
  tableName: "t",
  dailyXpCap: 0,
  historyDays: 400,
};

async function env(outputs: Record<string, unknown>, ...flags: string[]) {
  const dir = await mkdtemp(join(tmpdir(), "rewards-env-"));
  const file = join(dir, "outputs.json");
  await writeFile(file, JSON.stringify(outputs));
  const io = memoryIo();
  const code = await runProgram(["node", "rewards", "env", "--outputs", file, ...flags], io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

describe("rewards env: the board's settings from a stage's outputs", () => {
  it("exports REWARDS_BOARD_SHARDS and REWARDS_BOARD_WEEKS as the stage deployed them", async () => {
    const run = await env({ ...STAGE, boardShards: 64, boardWeeks: 3 });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const lines = run.stdout.split("\n");
    expect(lines).toContain("export REWARDS_BOARD_SHARDS=64");
    expect(lines).toContain("export REWARDS_BOARD_WEEKS=3");
    const json = await env({ ...STAGE, boardShards: 1, boardWeeks: 8 }, "--json");
    expect(JSON.parse(json.stdout)).toMatchObject({ REWARDS_BOARD_SHARDS: "1", REWARDS_BOARD_WEEKS: "8" });
  });

  it("outputs from before they were outputs: neither exported, the shell's settings stand", async () => {
    const run = await env(STAGE);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("REWARDS_BOARD_");
    expect(run.stdout.split("\n")).toContain("export REWARDS_HISTORY_DAYS=400");
  });

  it("a value the deploy could not have written is refused, naming the output", async () => {
    for (const boardShards of [0, 1001, 2.5]) {
      const run = await env({ ...STAGE, boardShards });
      expect(run).toMatchObject({ code: 1, stdout: "" });
      expect(run.stderr).toMatch(
        /^rewards: \S+ lacks what the CLI needs \(boardShards: [^;]+\): is it a rewards stage's outputs\?\n$/,
      );
    }
    for (const boardWeeks of [0, 1.5]) {
      const run = await env({ ...STAGE, boardWeeks });
      expect(run).toMatchObject({ code: 1, stdout: "" });
      expect(run.stderr).toMatch(
        /^rewards: \S+ lacks what the CLI needs \(boardWeeks: [^;]+\): is it a rewards stage's outputs\?\n$/,
      );
    }
  });
});
