import { describeIssues, toIssues } from "@rewards/core";
import { z } from "zod";
import { CliError } from "../runtime/cliError";
import { defineCommand } from "../runtime/defineCommand";
import { jsonText } from "../runtime/text";

/** What a deploy outputs (SST writes them to .sst/outputs.json), as the CLI needs them. */
const outputsSchema = z.object({
  region: z.string().min(1),
  queueUrl: z.url(),
  dlqUrl: z.url(),
  tableName: z.string().min(1),
  // A stage deployed before the announcer has neither.
  busName: z.string().min(1).optional(),
  announcerFailureQueueUrl: z.url().optional(),
  // The worker's REWARDS_DAILY_XP_CAP, 0 for none; a stage deployed before it was an output has none here.
  dailyXpCap: z.coerce.number().int().min(0).optional(),
  // The history writer's failure queue and the read API's URL; a stage deployed before them has none.
  historyFailureQueueUrl: z.url().optional(),
  readerUrl: z.url().optional(),
  // The history writer's REWARDS_HISTORY_DAYS (0: forever); a stage deployed before it was an output has none.
  historyDays: z.coerce.number().int().min(0).optional(),
  // The board's REWARDS_BOARD_SHARDS and REWARDS_BOARD_WEEKS; a stage deployed before they were outputs has neither.
  boardShards: z.coerce.number().int().min(1).max(1000).optional(),
  boardWeeks: z.coerce.number().int().min(1).optional(),
});

export default defineCommand<{ outputs: string; json?: boolean }>()({
  meta: {
    name: "env",
    description:
      "print the variables that point this CLI at a deployed stage, from its outputs (.sst/outputs.json after `sst deploy`)",
  },
  options: (command) =>
    command
      .option("--outputs <file>", "the outputs file", ".sst/outputs.json")
      .option("--json", "print JSON"),
  async run({ options }) {
    const { readFile } = await import("node:fs/promises");
    let text: string;
    try {
      text = await readFile(options.outputs, "utf8");
    } catch (error) {
      throw new CliError(
        `cannot read ${options.outputs} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): run \`npx sst deploy --stage <stage>\` first, or pass --outputs`,
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new CliError(`${options.outputs} is not JSON`);
    }
    const parsed = outputsSchema.safeParse(json);
    if (!parsed.success) {
      const problems = describeIssues(toIssues(parsed.error.issues));
      throw new CliError(
        `${options.outputs} lacks what the CLI needs (${problems}): is it a rewards stage's outputs?`,
      );
    }
    const env = {
      AWS_REGION: parsed.data.region,
      QUEUE_URL: parsed.data.queueUrl,
      DLQ_URL: parsed.data.dlqUrl,
      TABLE_NAME: parsed.data.tableName,
      ...(parsed.data.busName ? { BUS_NAME: parsed.data.busName } : {}),
      ...(parsed.data.announcerFailureQueueUrl
        ? { ANNOUNCER_FAILURE_QUEUE_URL: parsed.data.announcerFailureQueueUrl }
        : {}),
      ...(parsed.data.historyFailureQueueUrl
        ? { HISTORY_FAILURE_QUEUE_URL: parsed.data.historyFailureQueueUrl }
        : {}),
      // The read API's function URL, for a site's backend or examples/python/read.py (signed requests).
      ...(parsed.data.readerUrl ? { READER_URL: parsed.data.readerUrl.replace(/\/$/, "") } : {}),
      ...(parsed.data.dailyXpCap ? { REWARDS_DAILY_XP_CAP: String(parsed.data.dailyXpCap) } : {}),
      // What `rewards history rebuild` writes a missing item's retention with.
      ...(parsed.data.historyDays === undefined
        ? {}
        : { REWARDS_HISTORY_DAYS: String(parsed.data.historyDays) }),
      // The shards the stage's writer fills: what reads the board with fewer misses entries.
      ...(parsed.data.boardShards === undefined
        ? {}
        : { REWARDS_BOARD_SHARDS: String(parsed.data.boardShards) }),
      ...(parsed.data.boardWeeks === undefined
        ? {}
        : { REWARDS_BOARD_WEEKS: String(parsed.data.boardWeeks) }),
    };
    const cap = parsed.data.dailyXpCap;
    const warning =
      cap === undefined
        ? `rewards: ${options.outputs} does not say the stage's daily cap (deployed before dailyXpCap was an output): REWARDS_DAILY_XP_CAP left as it is; deploy the stage again to have it\n`
        : undefined;
    if (options.json) return { warning, out: jsonText(env) };
    // A stage without a cap unsets the variable, so a cap left in the shell cannot disagree with the worker.
    const lines = Object.entries(env).map(([name, value]) => `export ${name}=${value}`);
    if (cap === 0) lines.push("unset REWARDS_DAILY_XP_CAP");
    // A stage without a read API: a READER_URL left in the shell would be another stage's.
    if (!parsed.data.readerUrl) lines.push("unset READER_URL");
    return { warning, out: `${lines.join("\n")}\n` };
  },
});
