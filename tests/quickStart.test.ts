import { readFile } from "node:fs/promises";
import { runCli } from "@rewards/testing";
import { describe, expect, it } from "vitest";

/**
 * The README's quick start shows what `npm start` (`rewards demo`) prints. The figures change
 * with every run, so what is held to the truth is the shape: the summary's row names, in
 * order, and the last line. A smaller demo than `npm start`'s prints the same rows (they are
 * fixed; only their values depend on the traffic), so the test runs that one.
 */
const README = new URL("../README.md", import.meta.url);
const MARKER = "<!-- quick-start-output:";

/** The summary's row names (`│ name │ value │`) and the last line of a demo's output. */
function summaryShape(output: string): { rows: string[]; lastLine: string } {
  const lines = output.replace(/\n+$/, "").split("\n");
  const rows = lines.flatMap((line) => {
    const row = /^│ (.+?) +│/.exec(line);
    return row ? [row[1] as string] : [];
  });
  return { rows, lastLine: lines.at(-1) ?? "" };
}

/** The fenced block after the README's marker comment. */
async function readmeBlock(): Promise<string> {
  const readme = await readFile(README, "utf8");
  const at = readme.indexOf(MARKER);
  if (at < 0) throw new Error(`README.md has no ${MARKER} marker before the quick start's output`);
  const block = /```text\n([\s\S]*?)```/.exec(readme.slice(at))?.[1];
  if (block === undefined) throw new Error("README.md has no ```text block after the quick start's marker");
  return block;
}

describe("the README's quick start", () => {
  it("shows the rows and the last line `rewards demo` prints", async () => {
    const run = await runCli(["demo", "--events", "60", "--users", "6", "--seed", "4"], {});
    expect(run.stderr).toContain("• verifying every user's XP and award count");
    expect(run.code).toBe(0);
    const demo = summaryShape(run.stdout);
    // The demo's summary as the README must show it (a guard against an empty parse).
    expect(demo.rows.length).toBeGreaterThan(10);
    expect(demo.lastLine).toMatch(/^OK: /);

    const shown = summaryShape(await readmeBlock());
    expect(shown.rows, "the README's rows: paste those of a real `npm start`").toEqual(demo.rows);
    expect(shown.lastLine, "the README block's last line").toBe(demo.lastLine);
  }, 90_000);
});
