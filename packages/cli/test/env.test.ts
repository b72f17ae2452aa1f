import { spawnSync } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LOCAL_CREDENTIALS, stageEnvironment } from "@rewards/core/deploy";
import { DEV_ENV_VARIABLES } from "@rewards/testing";
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

/** A stage's every output, as infra/rewards.ts returns them today. */
const FULL_STAGE = {
  ...STAGE,
  stage: "production",
  busName: "rewards-production-RewardsBusBus",
  announcerFailureQueueUrl: "https://sqs.eu-west-1.amazonaws.com/123456789012/af",
  historyFailureQueueUrl: "https://sqs.eu-west-1.amazonaws.com/123456789012/hf",
  readerUrl: "https://abc.lambda-url.eu-west-1.on.aws/",
  boardShards: 32,
  boardWeeks: 8,
  announcerFunctionName: "rewards-production-RewardsSubscriberAnnouncerFunction-abcd",
  historyFunctionName: "rewards-production-RewardsSubscriberHistoryFunction-efgh",
  alarmNames: ["DlqNotEmpty-1a2b3c4", "HistoryBehind-5d6e7f8"],
};

/** What a shell holds after `rewards dev`'s env block was pasted into it: the local stack's. */
const LOCAL_SHELL = {
  AWS_REGION: "us-east-1",
  AWS_DEFAULT_REGION: "us-east-1",
  AWS_ACCESS_KEY_ID: "test",
  AWS_SECRET_ACCESS_KEY: "test",
  AWS_ENDPOINT_URL_SQS: "http://127.0.0.1:4101",
  AWS_ENDPOINT_URL_DYNAMODB: "http://127.0.0.1:4102",
  AWS_ENDPOINT_URL_DYNAMODB_STREAMS: "http://127.0.0.1:4102",
  AWS_ENDPOINT_URL_EVENTBRIDGE: "http://127.0.0.1:4103",
  GRANTS_QUEUE_URL: "http://127.0.0.1:4101/000000000000/grants",
  CONSUMER_QUEUE_URL: "http://127.0.0.1:4101/000000000000/consumer",
  SITE_URL: "http://127.0.0.1:4105",
  READER_URL: "http://127.0.0.1:4104",
  REWARDS_CONCURRENCY: "100",
  LOG_LEVEL: "info",
};

/** Sources `script` in sh with `shell` exported, and answers every variable the shell then holds. */
function sourced(script: string, shell: Record<string, string>): Record<string, string> {
  const result = spawnSync("sh", ["-c", 'eval "$SCRIPT" && env -0'], {
    env: { PATH: process.env.PATH, ...shell, SCRIPT: script },
    encoding: "utf8",
  });
  expect(result.status, result.stderr).toBe(0);
  const env = Object.fromEntries(
    result.stdout
      .split("\0")
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
  for (const name of ["PATH", "SCRIPT", "PWD", "SHLVL", "_", "OLDPWD"]) delete env[name];
  return env;
}

describe("rewards env: the stage it names, and the local stack it undoes", () => {
  it("names the stage and the file first, then exports, then unsets every variable of the local stack's", async () => {
    const run = await env({ ...FULL_STAGE, dailyXpCap: 150 });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const lines = run.stdout.split("\n");
    expect(lines[0]).toMatch(/^# stage production, from \S+outputs\.json$/);
    expect(lines.slice(1)).toEqual([
      "export AWS_REGION=eu-west-1",
      "export AWS_DEFAULT_REGION=eu-west-1",
      "export REWARDS_STAGE=production",
      "export QUEUE_URL=https://sqs.eu-west-1.amazonaws.com/123456789012/q",
      "export DLQ_URL=https://sqs.eu-west-1.amazonaws.com/123456789012/dlq",
      "export TABLE_NAME=t",
      "export BUS_NAME=rewards-production-RewardsBusBus",
      "export ANNOUNCER_FAILURE_QUEUE_URL=https://sqs.eu-west-1.amazonaws.com/123456789012/af",
      "export HISTORY_FAILURE_QUEUE_URL=https://sqs.eu-west-1.amazonaws.com/123456789012/hf",
      "export READER_URL=https://abc.lambda-url.eu-west-1.on.aws",
      "export REWARDS_DAILY_XP_CAP=150",
      "export REWARDS_HISTORY_DAYS=400",
      "export REWARDS_BOARD_SHARDS=32",
      "export REWARDS_BOARD_WEEKS=8",
      "export ANNOUNCER_FUNCTION_NAME=rewards-production-RewardsSubscriberAnnouncerFunction-abcd",
      "export HISTORY_FUNCTION_NAME=rewards-production-RewardsSubscriberHistoryFunction-efgh",
      "export REWARDS_ALARM_NAMES=DlqNotEmpty-1a2b3c4,HistoryBehind-5d6e7f8",
      "unset AWS_ENDPOINT_URL_SQS",
      "unset AWS_ENDPOINT_URL_DYNAMODB",
      "unset AWS_ENDPOINT_URL_DYNAMODB_STREAMS",
      "unset AWS_ENDPOINT_URL_EVENTBRIDGE",
      "unset GRANTS_QUEUE_URL",
      "unset CONSUMER_QUEUE_URL",
      "unset SITE_URL",
      "unset ANNOUNCER_CHECKPOINT_FILE",
      "unset HISTORY_CHECKPOINT_FILE",
      `if [ "\${AWS_ACCESS_KEY_ID-}" = 'test' ] && [ "\${AWS_SECRET_ACCESS_KEY-}" = 'test' ]; then unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY; fi`,
      "",
    ]);
    const json = await env({ ...FULL_STAGE, dailyXpCap: 150 }, "--json");
    expect(json).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(json.stdout)).toMatchObject({ REWARDS_STAGE: "production", AWS_REGION: "eu-west-1" });
  });

  it("outputs from before the stage was one: says so, and unsets a REWARDS_STAGE the shell holds", async () => {
    const run = await env(STAGE);
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toMatch(
      /^# stage unknown: \S+outputs\.json is from a deploy made before the stage was an output \(deploy it again to have it\)$/,
    );
    expect(lines).toContain("unset REWARDS_STAGE");
    expect(lines.filter((line) => line.startsWith("export REWARDS_STAGE"))).toEqual([]);
    expect(JSON.parse((await env(STAGE, "--json")).stdout)).not.toHaveProperty("REWARDS_STAGE");
  });

  it("outputs from before `rewards status`'s names were outputs: unsets them, so no other stage's are read", async () => {
    const { announcerFunctionName, historyFunctionName, alarmNames, ...before } = FULL_STAGE;
    const lines = (await env(before)).stdout.split("\n");
    for (const name of ["ANNOUNCER_FUNCTION_NAME", "HISTORY_FUNCTION_NAME", "REWARDS_ALARM_NAMES"]) {
      expect(lines).toContain(`unset ${name}`);
      expect(lines.filter((line) => line.startsWith(`export ${name}=`))).toEqual([]);
    }
    // An alarm name a shell would split is not one SST makes: refused, named.
    const spaced = await env({ ...FULL_STAGE, alarmNames: ["Dlq Not Empty"] });
    expect(spaced).toMatchObject({ code: 1, stdout: "" });
    expect(spaced.stderr).toMatch(/lacks what the CLI needs \(alarmNames\.0: /);
  });

  it("sourced in a shell that holds the local stack's variables, leaves it pointed at the stage alone", async () => {
    const run = await env(FULL_STAGE);
    const after = sourced(run.stdout, LOCAL_SHELL);
    expect(after).toEqual({
      AWS_REGION: "eu-west-1",
      AWS_DEFAULT_REGION: "eu-west-1",
      REWARDS_STAGE: "production",
      QUEUE_URL: "https://sqs.eu-west-1.amazonaws.com/123456789012/q",
      DLQ_URL: "https://sqs.eu-west-1.amazonaws.com/123456789012/dlq",
      TABLE_NAME: "t",
      BUS_NAME: "rewards-production-RewardsBusBus",
      ANNOUNCER_FAILURE_QUEUE_URL: "https://sqs.eu-west-1.amazonaws.com/123456789012/af",
      HISTORY_FAILURE_QUEUE_URL: "https://sqs.eu-west-1.amazonaws.com/123456789012/hf",
      READER_URL: "https://abc.lambda-url.eu-west-1.on.aws",
      REWARDS_HISTORY_DAYS: "400",
      REWARDS_BOARD_SHARDS: "32",
      REWARDS_BOARD_WEEKS: "8",
      ANNOUNCER_FUNCTION_NAME: "rewards-production-RewardsSubscriberAnnouncerFunction-abcd",
      HISTORY_FUNCTION_NAME: "rewards-production-RewardsSubscriberHistoryFunction-efgh",
      REWARDS_ALARM_NAMES: "DlqNotEmpty-1a2b3c4,HistoryBehind-5d6e7f8",
      // Settings, not places: they point at nothing.
      REWARDS_CONCURRENCY: "100",
      LOG_LEVEL: "info",
    });
    // A shell's own keys are never the local stack's: they stay, and so does a session's token.
    const keys = { AWS_ACCESS_KEY_ID: "AKIAREAL", AWS_SECRET_ACCESS_KEY: "real", AWS_SESSION_TOKEN: "tok" };
    expect(sourced(run.stdout, { ...LOCAL_SHELL, ...keys })).toMatchObject(keys);
    // One of the pair `test` is not the local stack's pair: kept too.
    expect(sourced(run.stdout, { ...LOCAL_SHELL, AWS_SECRET_ACCESS_KEY: "real" })).toMatchObject({
      AWS_ACCESS_KEY_ID: "test",
      AWS_SECRET_ACCESS_KEY: "real",
    });
    // And sourced where nothing was set, it sets the same and fails on nothing (`set -u` shells too).
    expect(sourced(`set -u\n${run.stdout}`, {})).toMatchObject({ REWARDS_STAGE: "production" });
  });

  it("undoes every variable `rewards dev` prints: each is the stage's, unset, or a setting that points at nothing", async () => {
    const run = await env({ ...FULL_STAGE, dailyXpCap: 0 });
    const after = sourced(run.stdout, {
      ...Object.fromEntries(DEV_ENV_VARIABLES.map((name) => [name, "local"])),
      // Its credentials are the stack's own pair (what `rewards env` recognises).
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    });
    const settings = ["LOG_LEVEL", "REWARDS_CONCURRENCY", "REWARDS_RULES_REFRESH_SECONDS"];
    for (const name of DEV_ENV_VARIABLES) {
      if (settings.includes(name)) expect(after[name], name).toBe("local");
      else
        expect(
          [undefined, ...Object.values(stageEnvironment({ ...FULL_STAGE, dailyXpCap: 0 }).exports)],
          name,
        ).toContain(after[name]);
    }
  });
});
