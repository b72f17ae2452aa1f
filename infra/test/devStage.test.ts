import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { deploySettings } from "../deploySettings";
import { all, HISTORY, named, one, WORKER } from "./helpers";
import { type ProgramRun, runSstProgram } from "./runSstProgram";

/** A non-production stage, with the deploy-time settings set. */
let run: ProgramRun;

beforeAll(async () => {
  run = await runSstProgram("dev", {
    REWARDS_ALARM_EMAIL: "ops@example.com",
    REWARDS_MAXIMUM_CONCURRENCY: "25",
    REWARDS_DAILY_XP_CAP: "150",
    REWARDS_RULES_REFRESH_SECONDS: "5",
  });
});

describe("a dev stage with an alarm email and a concurrency cap", () => {
  it("is removed with the stage: no retention, no protection, no deletion protection", () => {
    expect(run.app).toMatchObject({ removal: "remove", protect: false });
    expect(one(run, "aws:dynamodb/table:Table").inputs.deletionProtectionEnabled).toBe(false);
    expect(one(run, "aws:dynamodb/table:Table").inputs.pointInTimeRecovery).toEqual({ enabled: true });
  });

  it("REWARDS_MAXIMUM_CONCURRENCY sets the event source mapping's cap", () => {
    expect(
      named(run, "aws:lambda/eventSourceMapping:EventSourceMapping", WORKER).inputs.scalingConfig,
    ).toEqual({
      maximumConcurrency: 25,
    });
  });

  it("REWARDS_DAILY_XP_CAP reaches the worker's environment and the read API's (and no other)", () => {
    const lambdas = all(run, "aws:lambda/function:Function");
    const caps = lambdas.map(
      (fn) => (fn.inputs.environment as { variables: Record<string, string> }).variables.REWARDS_DAILY_XP_CAP,
    );
    expect(caps.filter((cap) => cap !== undefined)).toEqual(["150", "150"]);
    expect(
      lambdas.filter((fn) => fn.name.startsWith("ReadApi") || fn.name.startsWith("EventsSubscriber")).length,
    ).toBe(2);
  });

  it("the cap is in the outputs, so `rewards env` gives the CLI the worker's cap", () => {
    expect(run.outputs.dailyXpCap).toBe(150);
  });

  it("REWARDS_RULES_REFRESH_SECONDS reaches the worker, the history writer and the read API, the same value (and no other); it is in the outputs", () => {
    const refreshOf = (fn: { inputs: Record<string, unknown> }) =>
      (fn.inputs.environment as { variables: Record<string, string> }).variables
        .REWARDS_RULES_REFRESH_SECONDS;
    const holders = all(run, "aws:lambda/function:Function").filter((fn) => refreshOf(fn) !== undefined);
    // SST suffixes the worker's name with a hash of its own: each function by its prefix.
    const byFunction = Object.fromEntries(
      [WORKER, HISTORY, "ReadApi"].map((prefix) => [
        prefix,
        refreshOf(named(run, "aws:lambda/function:Function", prefix)),
      ]),
    );
    expect(byFunction).toEqual({ [WORKER]: "5", [HISTORY]: "5", ReadApi: "5" });
    expect(holders).toHaveLength(3);
    expect(run.outputs.rulesRefreshSeconds).toBe(5);
  });

  it("REWARDS_RULES_REFRESH_SECONDS: whole seconds from 1 to 3,600; unset, 30; anything else stops the deploy naming it", () => {
    expect(deploySettings({}).rulesRefreshSeconds).toBe(30);
    expect(deploySettings({ REWARDS_RULES_REFRESH_SECONDS: "" }).rulesRefreshSeconds).toBe(30);
    expect(deploySettings({ REWARDS_RULES_REFRESH_SECONDS: "1" }).rulesRefreshSeconds).toBe(1);
    expect(deploySettings({ REWARDS_RULES_REFRESH_SECONDS: "3600" }).rulesRefreshSeconds).toBe(3600);
    for (const [bad, problem] of [
      ["0", "must be 1 or more"],
      ["3601", "must be 3,600 or fewer"],
      ["2.5", "must be a whole number"],
      ["soon", "must be a whole number of seconds from 1 to 3,600"],
    ] as const) {
      expect(() => deploySettings({ REWARDS_RULES_REFRESH_SECONDS: bad })).toThrow(
        `invalid configuration: REWARDS_RULES_REFRESH_SECONDS ${problem}`,
      );
    }
  });

  it("docs/deploying.md lists every output, and only those (this stage has all of them)", async () => {
    const page = await readFile(new URL("../../docs/deploying.md", import.meta.url), "utf8");
    const section = page.slice(page.indexOf("### The outputs"), page.indexOf("## Settings, per stage"));
    const listed = [...section.matchAll(/^\| `(\w+)` +\|/gm)].map((match) => match[1]);
    // SST adds its own, `_`-prefixed (`_protect`).
    const returned = Object.keys(run.outputs).filter((key) => !key.startsWith("_"));
    expect(listed.sort()).toEqual(returned.sort());
  });

  it("REWARDS_ALARM_EMAIL adds a topic with an email subscription, and every alarm notifies it", () => {
    one(run, "aws:sns/topic:Topic", "RewardsAlarms");
    expect(one(run, "aws:sns/topicSubscription:TopicSubscription").inputs).toMatchObject({
      protocol: "email",
      endpoint: "ops@example.com",
    });
    const alarms = all(run, "aws:cloudwatch/metricAlarm:MetricAlarm");
    expect(alarms).toHaveLength(17);
    for (const alarm of alarms) {
      expect(alarm.inputs.alarmActions).toEqual([expect.stringMatching(/RewardsAlarms$/)]);
    }
    expect(run.outputs.alarmTopicArn).toMatch(/RewardsAlarms$/);
  });

  it("a concurrency cap outside 2–1000 stops the deploy with a message naming the variable", () => {
    for (const bad of ["1", "1001", "2.5", "lots"]) {
      expect(() => deploySettings({ REWARDS_MAXIMUM_CONCURRENCY: bad })).toThrow(
        `REWARDS_MAXIMUM_CONCURRENCY must be a whole number from 2 to 1000, not ${bad}`,
      );
    }
    expect(deploySettings({})).toEqual({
      maximumConcurrency: 10,
      alarmEmail: undefined,
      snsTopicArns: [],
      eventBridgeBus: undefined,
      eventBridgeSources: [],
      producerAccounts: [],
      consumerAccounts: [],
      dailyCap: undefined,
      historyDays: undefined,
      boardWeeks: undefined,
      boardShards: undefined,
      rulesRefreshSeconds: 30,
      readerPrincipals: [],
      readerConcurrency: undefined,
    });
    expect(deploySettings({ REWARDS_DAILY_XP_CAP: "200" }).dailyCap).toBe(200);
    expect(() => deploySettings({ REWARDS_DAILY_XP_CAP: "0" })).toThrow(
      "REWARDS_DAILY_XP_CAP must be a positive whole number (unset it for no cap)",
    );
  });
});
