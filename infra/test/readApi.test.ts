import { resources } from "@rewards/core/deploy";
import { beforeAll, describe, expect, it } from "vitest";
import { deploySettings } from "../deploySettings";
import { all, expectNothingElse, named, one, roleStatements } from "./helpers";
import { type ProgramRun, runSstProgram } from "./runSstProgram";

/** The read API on a stage with two reader principals, a cap and reserved concurrency; and on one with none. */
let run: ProgramRun;
let closed: ProgramRun;

const ROLE = "arn:aws:iam::555555555555:role/site-backend";

beforeAll(async () => {
  run = await runSstProgram("readers", {
    REWARDS_READER_PRINCIPALS: `444444444444,${ROLE}`,
    REWARDS_READER_CONCURRENCY: "20",
    REWARDS_DAILY_XP_CAP: "150",
  });
  closed = await runSstProgram("closed");
});

const FUNCTION = "ReadApiFunction";

describe("the read API: a function URL with IAM auth", () => {
  it("the fixed handler path, the shared build, Node 22, its memory and timeout, logs kept a month", () => {
    const build = run.rpcCalls.find(
      (c) => c.method === "Runtime.Build" && c.args.handler === "packages/read-api/src/handler.handler",
    )?.args;
    expect(build?.properties).toMatchObject({ format: "esm", minify: true, sourcemap: false });
    expect(named(run, "aws:lambda/function:Function", FUNCTION).inputs).toMatchObject({
      runtime: "nodejs22.x",
      memorySize: resources.readApi.memoryMb,
      timeout: resources.readApi.timeoutSeconds,
      reservedConcurrentExecutions: 20,
    });
    expect(named(closed, "aws:lambda/function:Function", FUNCTION).inputs.reservedConcurrentExecutions).toBe(
      undefined,
    );
  });

  it("its URL's auth is AWS_IAM, and its output is the URL", () => {
    expect(one(run, "aws:lambda/functionUrl:FunctionUrl").inputs).toMatchObject({
      authorizationType: "AWS_IAM",
      invokeMode: "BUFFERED",
    });
    expect(one(closed, "aws:lambda/functionUrl:FunctionUrl").inputs.authorizationType).toBe("AWS_IAM");
    expect(run.outputs.readerUrl).toEqual(expect.any(String));
    expect(run.outputs.readApiFunctionName).toEqual(expect.any(String));
  });

  it("each principal gets exactly InvokeFunctionUrl (AWS_IAM) and InvokeFunction (through the URL); nothing for anyone else", () => {
    const permissions = all(run, "aws:lambda/permission:Permission").map((p) => p.inputs);
    expect(permissions).toEqual(
      ["444444444444", ROLE].flatMap((principal) => [
        expect.objectContaining({
          action: "lambda:InvokeFunctionUrl",
          principal,
          functionUrlAuthType: "AWS_IAM",
          function: run.outputs.readApiFunctionName,
        }),
        expect.objectContaining({
          action: "lambda:InvokeFunction",
          principal,
          invokedViaFunctionUrl: true,
          function: run.outputs.readApiFunctionName,
        }),
      ]),
    );
    expect(permissions).toHaveLength(4);
    expect(permissions.map((p) => p.principal)).not.toContain("*");
    // No principals: no resource policy at all (not even SST's public one).
    expect(all(closed, "aws:lambda/permission:Permission")).toEqual([]);
  });

  it("its role reads the table and its board index and nothing else: GetItem, BatchGetItem, Query; Query on the index", () => {
    expect(roleStatements(run, "ReadApiRole")).toEqual([
      {
        Effect: "Allow",
        Action: ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query"],
        Resource: [expect.stringMatching(/Table\/RewardsTable$/)],
      },
      {
        Effect: "Allow",
        Action: ["dynamodb:Query"],
        Resource: [expect.stringMatching(/Table\/RewardsTable\/index\/board$/)],
      },
    ]);
    expectNothingElse(run, "ReadApiRole");
  });

  it("its environment: TABLE_NAME, the stage, the worker's cap from the same setting, the board's shards, the rules' refresh, LOG_LEVEL", () => {
    const vars = (
      named(run, "aws:lambda/function:Function", FUNCTION).inputs.environment as {
        variables: Record<string, string>;
      }
    ).variables;
    expect(vars).toMatchObject({
      TABLE_NAME: run.outputs.tableName,
      REWARDS_DAILY_XP_CAP: "150",
      REWARDS_BOARD_SHARDS: "32",
      REWARDS_RULES_REFRESH_SECONDS: "30",
      REWARDS_STAGE: run.outputs.stage,
      LOG_LEVEL: "info",
    });
    expect(
      Object.keys(vars)
        .filter((k) => !k.startsWith("SST_"))
        .sort(),
    ).toEqual([
      "LOG_LEVEL",
      "REWARDS_BOARD_SHARDS",
      "REWARDS_DAILY_XP_CAP",
      "REWARDS_RULES_REFRESH_SECONDS",
      "REWARDS_STAGE",
      "TABLE_NAME",
    ]);
    const worker = (
      named(run, "aws:lambda/function:Function", "EventsSubscriber").inputs.environment as {
        variables: Record<string, string>;
      }
    ).variables;
    expect(vars.REWARDS_DAILY_XP_CAP).toBe(worker.REWARDS_DAILY_XP_CAP);
    const uncapped = (
      named(closed, "aws:lambda/function:Function", FUNCTION).inputs.environment as {
        variables: Record<string, string>;
      }
    ).variables;
    expect(uncapped.REWARDS_DAILY_XP_CAP).toBeUndefined();
  });

  it("alarms on its 5xx answers (its own metric) and its p99 duration", () => {
    const alarms = Object.fromEntries(
      all(run, "aws:cloudwatch/metricAlarm:MetricAlarm").map((a) => [a.name, a.inputs]),
    );
    expect(alarms.ReadApiErrors).toMatchObject({
      namespace: "Rewards",
      metricName: "5xx",
      dimensions: { service: "rewards-read-api" },
      statistic: "Sum",
      threshold: resources.alarms.readApi5xxPerMinute,
      evaluationPeriods: resources.alarms.readApi5xxPeriods,
    });
    expect(alarms.ReadApiSlow).toMatchObject({
      namespace: "AWS/Lambda",
      metricName: "Duration",
      dimensions: { FunctionName: run.outputs.readApiFunctionName },
      extendedStatistic: "p99",
      threshold: resources.alarms.readApiP99Ms,
    });
    expect(alarms.ReadApiSlow?.statistic).toBeUndefined();
    // What the function cannot count itself (a crash, a timeout), and throttled requests (429).
    expect(alarms.ReadApiFailing).toMatchObject({
      namespace: "AWS/Lambda",
      metricName: "Url5xxCount",
      dimensions: { FunctionName: run.outputs.readApiFunctionName },
      statistic: "Sum",
      threshold: 0,
    });
    expect(alarms.ReadApiThrottled).toMatchObject({
      namespace: "AWS/Lambda",
      metricName: "Throttles",
      dimensions: { FunctionName: run.outputs.readApiFunctionName },
      threshold: 0,
    });
  });

  it("a bad principal or concurrency stops the deploy, naming the variable; * is never a principal", () => {
    for (const bad of ["*", "44444444444", "arn:aws:iam::555555555555:user/someone", "arn:aws:iam::*:role/x"])
      expect(() => deploySettings({ REWARDS_READER_PRINCIPALS: bad })).toThrow(
        `REWARDS_READER_PRINCIPALS must be comma-separated 12-digit account ids or IAM role ARNs (arn:aws:iam::<account>:role/<name>), not ${bad}`,
      );
    for (const bad of ["0", "1001", "2.5", "many"])
      expect(() => deploySettings({ REWARDS_READER_CONCURRENCY: bad })).toThrow(
        `REWARDS_READER_CONCURRENCY must be a whole number from 1 to 1000, not ${bad}`,
      );
  });
});
