import { readdirSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { EMITTED_METRICS } from "@rewards/core/deploy";
import { beforeAll, describe, expect, it } from "vitest";
import { type AlarmSpec, alarmSpecs, type StageNames } from "../alarmSpecs";
import { type ProgramRun, runSstProgram } from "./runSstProgram";

// docs/operations.md's runbooks, one per alarm: held to infra/alarmSpecs.ts here (each alarm its
// section, each section its parts, what fired as the alarm says, the log group infra outputs,
// a query over what the function logs); packages/cli/test/runbookCommands.test.ts holds each
// `rewards …` command to the CLI.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PARTS = ["Fired", "Means", "First", "Escalate", "Logs", "Query"];

/** Each function's log group, as infra outputs it, and the package that writes to it. */
const LOG_GROUPS = {
  workerLogGroup: "packages/worker/src",
  announcerLogGroup: "packages/announcer/src",
  historyLogGroup: "packages/history/src",
  readApiLogGroup: "packages/read-api/src",
} as const;
type LogGroupOutput = keyof typeof LOG_GROUPS;

/**
 * The alarms, each queue and function named by the log group to look in: a queue's is the
 * function that fills or drains it (the events queue and the DLQ: the worker's).
 */
const BY_LOG_GROUP: StageNames<LogGroupOutput> = {
  stage: "production",
  dlq: "workerLogGroup",
  queue: "workerLogGroup",
  functionName: "workerLogGroup",
  announcerFunctionName: "announcerLogGroup",
  announcerFailureQueue: "announcerLogGroup",
  historyFunctionName: "historyLogGroup",
  historyFailureQueue: "historyLogGroup",
  readApiFunctionName: "readApiLogGroup",
};
const SERVICE_LOG_GROUP: Record<string, LogGroupOutput> = {
  [EMITTED_METRICS.worker.service]: "workerLogGroup",
  [EMITTED_METRICS.announcer.service]: "announcerLogGroup",
  [EMITTED_METRICS.history.service]: "historyLogGroup",
  [EMITTED_METRICS.readApi.service]: "readApiLogGroup",
};
const logGroupOf = (alarm: AlarmSpec<LogGroupOutput>) =>
  alarm.dimensions.FunctionName ??
  alarm.dimensions.QueueName ??
  SERVICE_LOG_GROUP[alarm.dimensions.service as string];

/** The Runbooks section: `### <alarm>` → its text. */
function runbooks(page: string): Map<string, string> {
  const start = page.indexOf("\n## Runbooks\n");
  expect(start).toBeGreaterThan(0);
  const rest = page.slice(start + 1);
  const end = rest.indexOf("\n## ", 1);
  const section = end < 0 ? rest : rest.slice(0, end);
  const parts = section.split(/^### (.+)$/m).slice(1);
  const byName = new Map<string, string>();
  for (let i = 0; i < parts.length; i += 2) byName.set(parts[i] as string, parts[i + 1] as string);
  return byName;
}

/** A runbook's parts, in order: `- **Name**…: text`. */
function partsOf(text: string): Array<{ name: string; text: string }> {
  return [...text.matchAll(/^- \*\*(\w+)\*\*(?: \([^\n]*?\))?: ?(.*(?:\n(?!- \*\*).*)*)/gm)].map((m) => ({
    name: m[1] as string,
    text: (m[2] as string).trim(),
  }));
}

/** Every source file of a package, concatenated: what its log lines can name. */
function sourceOf(dir: string): string {
  const read = (at: string): string[] =>
    readdirSync(at, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? read(join(at, entry.name))
        : entry.name.endsWith(".ts")
          ? [readFileSync(join(at, entry.name), "utf8")]
          : [],
    );
  return read(join(ROOT, dir)).join("\n");
}

/** pino's own fields on every line (packages/core/src/aws/logger.ts), and its error serializer's. */
const PINO_FIELDS = ["level", "time", "name", "msg", "err"];
const INSIGHTS_WORDS = new Set(
  "filter fields stats sort limit display parse by and or not like in desc asc as count sum avg max min pct bin".split(
    " ",
  ),
);

/** The log fields a query reads: not Lambda's `@` fields, its aliases, functions, strings or patterns. */
function fieldsOf(query: string): string[] {
  const aliases = new Set([...query.matchAll(/\bas (\w+)/g)].map((m) => m[1]));
  const bare = query
    .replace(/"[^"]*"/g, " ")
    .replace(/\/(?:\\.|[^/\n])+\//g, " ")
    .replace(/@\w+/g, " ")
    .replace(/\bas \w+/g, " ")
    .replace(/\b\w+\(/g, "(")
    .replace(/\b\d+\w*/g, " ");
  return [...new Set(bare.match(/[A-Za-z_]\w*/g) ?? [])].filter(
    (word) => !INSIGHTS_WORDS.has(word) && !aliases.has(word),
  );
}

let page: string;
let run: ProgramRun;
const alarms = alarmSpecs(BY_LOG_GROUP);

beforeAll(async () => {
  page = await readFile(join(ROOT, "docs/operations.md"), "utf8");
  run = await runSstProgram("production");
});

describe("docs/operations.md: a runbook per alarm", () => {
  it("has a section for every alarm, under its exact name, and none for an alarm that does not exist", () => {
    expect([...runbooks(page).keys()].sort()).toEqual(alarms.map((alarm) => alarm.name).sort());
    expect(alarms).toHaveLength(17);
  });

  it.each(alarms.map((alarm) => [alarm.name, alarm] as const))("%s: each part, in order", (name, alarm) => {
    const text = runbooks(page).get(name) ?? "";
    const parts = partsOf(text);
    expect(parts.map((part) => part.name)).toEqual(PARTS);
    for (const part of parts) expect(part.text.length, `${name}: ${part.name}`).toBeGreaterThan(0);
    const part = (wanted: string) => parts.find((each) => each.name === wanted)?.text ?? "";

    // What fired: the alarm's metric, statistic, period, threshold and periods in a row.
    const fired = part("Fired").match(
      /^`(?<namespace>[^`]+)` `(?<metric>[^`]+)` (?<which>.+), `(?<stat>[^`]+)` per (?<period>\d+) s, above (?<threshold>\d+) for (?<periods>\d+) periods?(?: \(.+\))?\.$/,
    );
    expect(fired?.groups, `${name}: ${part("Fired")}`).toEqual({
      namespace: alarm.namespace,
      metric: alarm.metricName,
      which: expect.any(String),
      stat: "extendedStatistic" in alarm ? alarm.extendedStatistic : alarm.statistic,
      period: String(alarm.periodSeconds),
      threshold: String(alarm.threshold),
      periods: String(alarm.evaluationPeriods),
    });
    // Which metric of that name: the service in this stage, or the function or queue by its dimension.
    const which = fired?.groups?.which ?? "";
    if (alarm.namespace === "Rewards") {
      expect(which).toContain(`\`service\` \`${alarm.dimensions.service}\``);
      expect(which).toContain("`stage` this stage");
    } else expect(which).toContain(`(\`${Object.keys(alarm.dimensions)[0]}\`)`);

    // A command to run first.
    expect(part("First")).toMatch(/^`rewards [^`]+`/);

    // The log group of the function the alarm is about, by the output infra names it with.
    const logGroup = logGroupOf(alarm) as LogGroupOutput;
    expect(part("Logs")).toBe(`\`${logGroup}\``);
    expect(run.outputs[logGroup]).toMatch(/^\/aws\/lambda\/\S+$/);

    // A Logs Insights query over that function's own lines.
    const query =
      text
        .match(/```text\n((?: {2}.*\n)+) {2}```/)?.[1]
        ?.replace(/^ {2}/gm, "")
        .trim() ?? "";
    const commands = query.split("\n");
    expect(commands[0]).toMatch(/^(filter|fields|stats) /);
    for (const command of commands.slice(1)) expect(command).toMatch(/^\| (filter|fields|stats|sort|limit) /);
    const source = sourceOf(LOG_GROUPS[logGroup]);
    for (const [, message] of query.matchAll(/\bmsg = "([^"]+)"/g))
      expect(source.includes(`"${message}"`), `${name}: msg "${message}"`).toBe(true);
    for (const field of fieldsOf(query))
      if (!PINO_FIELDS.includes(field))
        expect(new RegExp(`\\b${field}\\b`).test(source), `${name}: field ${field}`).toBe(true);
  });
});
