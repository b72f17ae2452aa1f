import { EMITTED_METRICS } from "@rewards/core/deploy";
import { beforeAll, describe, expect, it } from "vitest";
import { ANNOUNCER, all, HISTORY, named, WORKER } from "./helpers";
import { type ProgramRun, type RegisteredResource, runSstProgram } from "./runSstProgram";

// Two stages in one account and region must never alarm on each other: every alarm watches its
// own stage's metrics alone (docs/operations.md#the-dashboard).

const deployedName = (resource: RegisteredResource) =>
  (resource.inputs.name as string | undefined) ?? resource.name;
const variablesOf = (fn: RegisteredResource) =>
  (fn.inputs.environment as { variables: Record<string, string> }).variables;

describe.each(["production", "pr-42"])("stage %s: its metrics and alarms are its own", (stage) => {
  let run: ProgramRun;
  beforeAll(async () => {
    run = await runSstProgram(stage);
  });

  it("every function runs with REWARDS_STAGE, the stage its metrics carry", () => {
    const functions = all(run, "aws:lambda/function:Function");
    expect(functions).toHaveLength(4);
    for (const fn of functions) expect(variablesOf(fn).REWARDS_STAGE, fn.name).toBe(stage);
  });

  it("an alarm on a function's own metric filters on its service and the stage; one on AWS's, on a function or queue of this stage", () => {
    const functions = all(run, "aws:lambda/function:Function").map(deployedName);
    const queues = all(run, "aws:sqs/queue:Queue").map(deployedName);
    // SST prefixes what it names with the stage (shortening the app's name to fit): `…-<stage>-EventsQueue-…`.
    for (const name of [...functions, ...queues]) expect(name).toContain(`-${stage}-`);
    const alarms = all(run, "aws:cloudwatch/metricAlarm:MetricAlarm");
    expect(alarms).toHaveLength(17);
    const byName = Object.fromEntries(alarms.map((alarm) => [alarm.name, alarm.inputs]));
    expect(byName.MessagesFailing?.dimensions).toEqual({ service: EMITTED_METRICS.worker.service, stage });
    expect(byName.MessagesParked?.dimensions).toEqual({ service: EMITTED_METRICS.worker.service, stage });
    expect(byName.RulesRejected?.dimensions).toEqual({ service: EMITTED_METRICS.worker.service, stage });
    expect(byName.NoGoodRules?.dimensions).toEqual({ service: EMITTED_METRICS.worker.service, stage });
    expect(byName.ReadApiErrors?.dimensions).toEqual({ service: EMITTED_METRICS.readApi.service, stage });
    for (const alarm of alarms) {
      const { namespace, dimensions } = alarm.inputs as {
        namespace: string;
        dimensions: Record<string, string>;
      };
      if (namespace === "Rewards") expect(Object.keys(dimensions), alarm.name).toEqual(["service", "stage"]);
      else if (namespace === "AWS/Lambda") {
        expect(Object.keys(dimensions), alarm.name).toEqual(["FunctionName"]);
        expect(functions, alarm.name).toContain(dimensions.FunctionName);
      } else {
        expect(namespace, alarm.name).toBe("AWS/SQS");
        expect(Object.keys(dimensions), alarm.name).toEqual(["QueueName"]);
        expect(queues, alarm.name).toContain(dimensions.QueueName);
      }
    }
  });

  it("outputs the stage (`rewards env` names it)", () => {
    expect(run.outputs.stage).toBe(stage);
  });

  it("outputs each function's log group as SST created it (docs/operations.md#runbooks names them)", () => {
    const logGroupOf = (prefix: string) =>
      named(run, "aws:cloudwatch/logGroup:LogGroup", prefix).inputs.name as string;
    expect({
      workerLogGroup: run.outputs.workerLogGroup,
      announcerLogGroup: run.outputs.announcerLogGroup,
      historyLogGroup: run.outputs.historyLogGroup,
      readApiLogGroup: run.outputs.readApiLogGroup,
    }).toEqual({
      workerLogGroup: logGroupOf(WORKER),
      announcerLogGroup: logGroupOf(ANNOUNCER),
      historyLogGroup: logGroupOf(HISTORY),
      readApiLogGroup: logGroupOf("ReadApi"),
    });
    // Each the one its function writes to.
    for (const prefix of [WORKER, ANNOUNCER, HISTORY, "ReadApi"]) {
      const fn = named(run, "aws:lambda/function:Function", prefix);
      expect((fn.inputs.loggingConfig as { logGroup: string }).logGroup).toBe(logGroupOf(prefix));
      expect(logGroupOf(prefix)).toMatch(new RegExp(`^/aws/lambda/[a-z]*-${stage}-${prefix}`));
    }
  });
});
