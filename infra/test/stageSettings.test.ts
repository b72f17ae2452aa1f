import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { deploySettings, stageOptions, stageSettingsPath } from "../deploySettings";
import { all, one } from "./helpers";
import { type ProgramRun, runSstProgram } from "./runSstProgram";

const TOPIC = "arn:aws:sns:us-east-1:123456789012:reading-events";
let dir: string;
/** A settings file for a stage, in a directory of this test's own. */
async function stageFile(name: string, settings: unknown): Promise<string> {
  const path = join(dir, `${name}.json`);
  await writeFile(path, typeof settings === "string" ? settings : JSON.stringify(settings));
  return path;
}

let fromFile: ProgramRun;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "rewards-stages-"));
  fromFile = await runSstProgram("production", {
    REWARDS_STAGE_SETTINGS: await stageFile("production", {
      REWARDS_SNS_TOPIC_ARNS: [TOPIC],
      REWARDS_CONSUMER_ACCOUNTS: "333333333333, 444444444444",
      REWARDS_MAXIMUM_CONCURRENCY: 50,
    }),
  });
});

describe("settings per stage: infra/stages/<stage>.json", () => {
  it("a stage's file is where its settings are (REWARDS_STAGE_SETTINGS points elsewhere)", () => {
    expect(stageSettingsPath("production", "/repo", {})).toBe("/repo/infra/stages/production.json");
    expect(stageSettingsPath("production", "/repo", { REWARDS_STAGE_SETTINGS: "/private/prod.json" })).toBe(
      "/private/prod.json",
    );
  });

  it("production deploys what its file says: the subscription, the bus policy, the concurrency", () => {
    expect(all(fromFile, "aws:sns/topicSubscription:TopicSubscription").map((s) => s.inputs.topic)).toEqual([
      TOPIC,
    ]);
    const policy = JSON.parse(
      one(fromFile, "aws:cloudwatch/eventBusPolicy:EventBusPolicy", "RewardsBusConsumers").inputs
        .policy as string,
    );
    expect(policy.Statement[0].Principal).toEqual({
      AWS: ["arn:aws:iam::333333333333:root", "arn:aws:iam::444444444444:root"],
    });
    const mapping = all(fromFile, "aws:lambda/eventSourceMapping:EventSourceMapping").find(
      (m) => (m.inputs.scalingConfig as { maximumConcurrency?: number } | undefined)?.maximumConcurrency,
    );
    expect(mapping?.inputs.scalingConfig).toEqual({ maximumConcurrency: 50 });
  });

  it("a file's settings are the stage's whatever the shell lacks: a deploy without the variable keeps the subscription", async () => {
    const path = await stageFile("keep", { REWARDS_SNS_TOPIC_ARNS: TOPIC });
    const options = { stage: "keep", root: "/unused" };
    expect(deploySettings({ REWARDS_STAGE_SETTINGS: path }, options).snsTopicArns).toEqual([TOPIC]);
    // The same value in the shell, spelt differently, is no conflict.
    expect(
      deploySettings({ REWARDS_STAGE_SETTINGS: path, REWARDS_SNS_TOPIC_ARNS: ` ${TOPIC} ,` }, options)
        .snsTopicArns,
    ).toEqual([TOPIC]);
  });

  it("a shell variable that disagrees with the file stops the deploy, naming both", async () => {
    const path = await stageFile("conflict", { REWARDS_SNS_TOPIC_ARNS: TOPIC });
    const options = { stage: "conflict", root: "/unused" };
    expect(() =>
      deploySettings({ REWARDS_STAGE_SETTINGS: path, REWARDS_SNS_TOPIC_ARNS: "" }, options),
    ).not.toThrow(); // empty is unset, as everywhere
    expect(() =>
      deploySettings(
        {
          REWARDS_STAGE_SETTINGS: path,
          REWARDS_SNS_TOPIC_ARNS: "arn:aws:sns:us-east-1:123456789012:other",
          REWARDS_ALARM_EMAIL: "ops@example.com",
        },
        options,
      ),
    ).toThrow(
      `invalid configuration: REWARDS_ALARM_EMAIL is "ops@example.com" in the deploying shell but unset in ${path}: a stage with a settings file takes its settings from the file (change the file, or unset the variable); REWARDS_SNS_TOPIC_ARNS is "arn:aws:sns:us-east-1:123456789012:other" in the deploying shell but "${TOPIC}" in ${path}: a stage with a settings file takes its settings from the file (change the file, or unset the variable)`,
    );
  });

  it("production, and only production, must have its file", () => {
    expect(stageOptions("production", "/r")).toEqual({ stage: "production", root: "/r", requireFile: true });
    for (const stage of ["dev", "pr-42", "producers"])
      expect(stageOptions(stage, "/r")).toEqual({ stage, root: "/r", requireFile: false });
  });

  it("a stage without a file takes the shell's settings, unless it must have one (production)", () => {
    const missing = join(dir, "absent.json");
    expect(
      deploySettings(
        { REWARDS_STAGE_SETTINGS: missing, REWARDS_SNS_TOPIC_ARNS: TOPIC },
        { stage: "dev", root: "/r" },
      ).snsTopicArns,
    ).toEqual([TOPIC]);
    expect(() =>
      deploySettings(
        { REWARDS_STAGE_SETTINGS: missing, REWARDS_SNS_TOPIC_ARNS: TOPIC },
        { stage: "production", root: "/r", requireFile: true },
      ),
    ).toThrow(
      `invalid configuration: ${missing} is missing: stage production deploys only from its settings file, so that no deploy drops a subscription or a policy a shell forgot. Create it with this stage's settings and commit it: {"REWARDS_SNS_TOPIC_ARNS":"${TOPIC}"}`,
    );
  });

  it("a file that is not an object of known settings is refused, naming the file and the problem", async () => {
    const options = { stage: "bad", root: "/r" };
    const check = async (content: unknown, message: string) => {
      const path = await stageFile("bad", content);
      expect(() => deploySettings({ REWARDS_STAGE_SETTINGS: path }, options)).toThrow(
        `invalid configuration: ${path} ${message}`,
      );
    };
    await check("{", "is not JSON");
    await check("[]", 'must be a JSON object of settings, e.g. { "REWARDS_ALARM_EMAIL": "ops@example.com" }');
    await check(
      { REWARDS_SNS_TOPIC_ARN: TOPIC },
      "names REWARDS_SNS_TOPIC_ARN, which is not a deploy setting",
    );
    await check(
      { REWARDS_PRODUCER_ACCOUNTS: [1] },
      "REWARDS_PRODUCER_ACCOUNTS must be a string, a number or an array of strings",
    );
    // A file's bad value is named as the shell's would be.
    const path = await stageFile("bad", { REWARDS_CONSUMER_ACCOUNTS: "12" });
    expect(() => deploySettings({ REWARDS_STAGE_SETTINGS: path }, options)).toThrow(
      "invalid configuration: REWARDS_CONSUMER_ACCOUNTS must be comma-separated 12-digit account ids, not 12",
    );
  });
});
