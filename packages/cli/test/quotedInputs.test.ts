import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runProgram } from "../src/runtime/program";
import { memoryIo } from "./memoryIo";

// 257 characters, one past the longest user id: a message quotes at most its first 64 (core's quoteInput).
const long = `${"u".repeat(64)}${"Ω".repeat(193)}`;
const quoted = `"${"u".repeat(64)}…" (257 characters)`;

async function said(...words: string[]) {
  const io = memoryIo();
  const code = await runProgram(["node", "rewards", ...words], io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

describe("the command line quotes at most the first 64 characters of an input", () => {
  const saved = process.env.TABLE_NAME;
  beforeEach(() => {
    // Each is refused before anything is read: the table is never asked.
    process.env.TABLE_NAME = "never-read";
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TABLE_NAME;
    else process.env.TABLE_NAME = saved;
  });

  it.each([
    [
      "backfill --user",
      ["backfill", "--user", long],
      `rewards: --user: must be 1 to 256 characters: ${quoted}\n`,
    ],
    [
      "history rebuild --user",
      ["history", "rebuild", "--user", long],
      `rewards: --user: must be 1 to 256 characters: ${quoted}\n`,
    ],
    [
      "board --week (the reader's refusal)",
      ["board", "--week", long],
      `rewards: --week: an ISO week such as "2026-W49" (a year, "-W", a week of that year), not ${quoted}\n`,
    ],
    [
      "guard, a type",
      ["guard", long, "userId=u"],
      `rewards: unknown type ${quoted}; one of article.completed, article.shared, streak.day, signup.completed\n`,
    ],
    ["guard, a field", ["guard", "signup.completed", long], `rewards: expected field=value, got ${quoted}\n`],
    [
      "schema, a type",
      ["schema", long],
      `rewards: unknown type ${quoted}; one of article.completed, article.shared, streak.day, signup.completed, reward.granted, reward.revoked, reward.achieved\n`,
    ],
  ])("%s: the command's own message", async (_what, words, message) => {
    expect(await said(...words)).toEqual({ code: 2, stdout: "", stderr: message });
  });

  it.each([
    [
      "an option's value",
      ["awards", "--type", long],
      `rewards: option '--type <type>' argument ${quoted} is invalid. Allowed choices are article.completed, article.shared, streak.day, signup.completed.\n(run \`rewards awards --help\` for usage)\n`,
    ],
    [
      "a parser's refusal",
      ["board", "--limit", long],
      `rewards: option '--limit <n>' argument ${quoted} is invalid. expected a whole number from 1 to 100\n(run \`rewards board --help\` for usage)\n`,
    ],
    [
      "an unknown option",
      ["board", `--${long}`],
      `rewards: unknown option "--${"u".repeat(62)}…" (259 characters)\n(run \`rewards board --help\` for usage)\n`,
    ],
    [
      "an unknown command",
      [long],
      `rewards: unknown command ${quoted}\n(run \`rewards --help\` for usage)\n`,
    ],
  ])("%s: commander's message, cut as ours are", async (_what, words, message) => {
    expect(await said(...words)).toEqual({ code: 2, stdout: "", stderr: message });
  });

  it("a short value stays as commander quotes it", async () => {
    expect((await said("awards", "--type", "article.liked")).stderr).toBe(
      "rewards: option '--type <type>' argument 'article.liked' is invalid. Allowed choices are article.completed, article.shared, streak.day, signup.completed.\n(run `rewards awards --help` for usage)\n",
    );
  });
});
