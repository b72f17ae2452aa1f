import { readFile } from "node:fs/promises";
import { runCli, stackTest } from "@rewards/testing";
import { describe, expect } from "vitest";

/**
 * The incident walkthrough (docs/walkthrough.md), run as written: every `$ npx rewards …`
 * line of its transcript, in order, against a local stack like `rewards dev --pollers 0`'s,
 * each output compared with what the page shows (ids and instants aside). The page cannot
 * drift from the tool. WALKTHROUGH_PRINT=1 prints the real transcript instead, to paste in.
 */
const it = stackTest();
const WALKTHROUGH = new URL("../docs/walkthrough.md", import.meta.url);
const SECTION = "# An incident, start to finish";

interface Step {
  command: string;
  expected: string;
}

/** The transcript's commands and outputs (comment lines, `#`, and the setup's lines skipped). */
function transcript(page: string): Step[] {
  if (!page.includes(SECTION)) throw new Error(`docs/walkthrough.md has no "${SECTION}"`);
  const section = page.slice(page.indexOf(SECTION));
  const block = /```text\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  const steps: Step[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("$ ")) steps.push({ command: line.slice(2), expected: "" });
    else if (line.startsWith("# ")) continue;
    else if (steps.length > 0) (steps.at(-1) as Step).expected += `${line}\n`;
  }
  return steps.map((step) => ({ ...step, expected: step.expected.replace(/\n+$/, "\n") }));
}

/** What changes from run to run: message ids, instants, and durations in seconds. */
const normalize = (text: string) =>
  text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>")
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, "<instant>")
    // `rewards user`'s today: the day the walkthrough runs.
    .replace(/\b\d{4}-\d{2}-\d{2}(?=: \d+ (?:of \d+ )?XP)/g, "<day>")
    .replace(/"time":"<instant>"/g, '"time":"<instant>"');

describe("the incident walkthrough (docs/walkthrough.md)", () => {
  it("runs as written and prints what the page shows", async ({ env }) => {
    const steps = transcript(await readFile(WALKTHROUGH, "utf8"));
    expect(steps.length).toBeGreaterThan(8);
    const session: Record<string, string> = { ...env };
    const printed: string[] = [];
    for (const step of steps) {
      const exported = /^export (\w+)=(\S+)/.exec(step.command);
      if (exported) {
        session[exported[1] as string] = exported[2] as string;
        printed.push(`$ ${step.command}\n`);
        continue;
      }
      if (step.command.startsWith("npx rewards dev")) continue; // the stack this test runs on
      expect(step.command, "a transcript line a user can type").toMatch(/^npx rewards /);
      const run = await runCli(step.command.slice("npx rewards ".length).split(" "), session);
      const output = `${run.stderr}${run.stdout}`.replace(/\n+$/, "\n");
      printed.push(`$ ${step.command}\n${output}`);
      if (process.env.WALKTHROUGH_PRINT !== "1") {
        expect(normalize(output), `the output of \`${step.command}\``).toBe(normalize(step.expected));
      }
    }
    if (process.env.WALKTHROUGH_PRINT === "1") process.stdout.write(`\n${printed.join("\n")}\n`);
  }, 120_000);
});
