import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../src/runtime/program";
import { memoryIo } from "./memoryIo";

// Every `rewards …` command docs/operations.md's runbooks name is one this CLI has: its command,
// its verb, each of its options (infra/test/runbooks.test.ts holds the runbooks to the alarms).

/**
 * Commands being built beside the runbooks (issue 54: the on-call operator's day), which a
 * runbook may already name: until they are registered, only their name is taken on trust.
 * Once one is, it is checked like any other (an entry here then checks nothing more).
 */
const IN_FLIGHT_COMMANDS = ["awards"];
const IN_FLIGHT_OPTIONS: Record<string, string[]> = { "dlq purge": ["--error"] };

async function runbookCommands(): Promise<string[][]> {
  const page = await readFile(new URL("../../../docs/operations.md", import.meta.url), "utf8");
  const section = page.slice(page.indexOf("\n## Runbooks\n"));
  expect(section.length).toBeGreaterThan(100);
  return [...section.matchAll(/`rewards ([^`]+)`/g)].map((m) => (m[1] as string).split(/\s+/));
}

/** Why `rewards <words>` is not a command line this CLI takes; undefined when it is. */
async function problemWith(words: string[]): Promise<string | undefined> {
  const program = await buildProgram(["node", "rewards", ...words], memoryIo());
  const [name, ...rest] = words;
  let command: Command | undefined = program.commands.find((c) => c.name() === name);
  if (command === undefined)
    return IN_FLIGHT_COMMANDS.includes(name as string) ? undefined : `no command ${name}`;
  let path = name as string;
  const verb = rest[0];
  if (command.commands.length > 0 && verb !== undefined && !verb.startsWith("-")) {
    const sub = command.commands.find((c) => c.name() === verb);
    if (sub === undefined) return `no verb ${verb} in ${path}`;
    command = sub;
    path = `${path} ${verb}`;
  }
  const known = new Set(command.options.flatMap((option) => [option.long, option.short]));
  for (const flag of rest.filter((word) => word.startsWith("-")).map((word) => word.split("=")[0])) {
    if (!known.has(flag) && !(IN_FLIGHT_OPTIONS[path] ?? []).includes(flag as string))
      return `no option ${flag} in ${path}`;
  }
  return undefined;
}

describe("the runbooks' commands (docs/operations.md#runbooks)", () => {
  it("are commands of this CLI, with options it has", async () => {
    const commands = await runbookCommands();
    // Every runbook names one at least (seventeen alarms), and the checks read them all.
    expect(commands.length).toBeGreaterThanOrEqual(17);
    const problems: string[] = [];
    for (const words of commands) {
      const problem = await problemWith(words);
      if (problem) problems.push(`rewards ${words.join(" ")}: ${problem}`);
    }
    expect(problems).toEqual([]);
  });

  it("would say so of one it lacks", async () => {
    expect(await problemWith(["dlq", "peek", "--max", "20"])).toBeUndefined();
    expect(await problemWith(["dlq", "peak"])).toBe("no verb peak in dlq");
    expect(await problemWith(["dlq", "peek", "--maximum", "20"])).toBe("no option --maximum in dlq peek");
    expect(await problemWith(["stats"])).toBe("no command stats");
    expect(await problemWith(["user", "<id>", "--json"])).toBeUndefined();
  });
});
