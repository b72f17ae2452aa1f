import { readFile } from "node:fs/promises";
import {
  EMITTED_METRICS,
  METRICS_DIMENSION,
  METRICS_NAMESPACE,
  METRICS_STAGE_DIMENSION,
} from "@rewards/core/deploy";
import { beforeAll, describe, expect, it } from "vitest";
import { alarmSpecs } from "../alarmSpecs";
import { dashboardPicture } from "../dashboardPicture";
import {
  type DashboardBody,
  dashboardSpec,
  lineDimensions,
  lineOptions,
  type MetricLine,
  PICTURE_NAMES,
} from "../dashboardSpec";
import { ANNOUNCER, all, HISTORY, one, WORKER } from "./helpers";
import { type ProgramRun, type RegisteredResource, runSstProgram } from "./runSstProgram";

let run: ProgramRun;
let body: DashboardBody;

/** A resource's name as deployed: its `name` input, or what the mocks answer for it (its own name). */
const deployedName = (resource: RegisteredResource) =>
  (resource.inputs.name as string | undefined) ?? resource.name;

/** Every line of the dashboard with the statistic it is drawn with (its own, or its widget's). */
const lines = () =>
  body.widgets.flatMap((widget) =>
    widget.properties.metrics.map((line: MetricLine) => ({
      namespace: line[0],
      metricName: line[1],
      dimension: lineDimensions(line),
      stat: lineOptions(line).stat ?? widget.properties.stat,
      period: widget.properties.period,
    })),
  );

const functionNamed = (prefix: string) => {
  const found = all(run, "aws:lambda/function:Function").filter((fn) => fn.name.startsWith(prefix));
  expect(found).toHaveLength(1);
  return deployedName(found[0] as RegisteredResource);
};
const queueNamed = (prefix: string) => deployedName(one(run, "aws:sqs/queue:Queue", `${prefix}Queue`));

beforeAll(async () => {
  run = await runSstProgram("dev");
  body = JSON.parse(one(run, "aws:cloudwatch/dashboard:Dashboard").inputs.dashboardBody as string);
});

describe("the operator's dashboard", () => {
  it("is one per stage, named for it", () => {
    expect(one(run, "aws:cloudwatch/dashboard:Dashboard", "RewardsDashboard").inputs.dashboardName).toBe(
      "rewards-dev",
    );
  });

  it("draws exactly the EMF metrics the functions emit, by the dimensions they emit them with: the service, in this stage", () => {
    const drawn = lines().filter((line) => line.namespace === METRICS_NAMESPACE);
    for (const line of drawn) {
      expect(Object.keys(line.dimension)).toEqual([METRICS_DIMENSION, METRICS_STAGE_DIMENSION]);
      // The stage the functions are deployed with (REWARDS_STAGE): another stage's never reach this page.
      expect(line.dimension[METRICS_STAGE_DIMENSION]).toBe("dev");
    }
    const emitted = Object.values(EMITTED_METRICS).flatMap((fn) =>
      fn.counts.map((count) => `${fn.service} ${count}`),
    );
    expect(drawn.map((line) => `${line.dimension[METRICS_DIMENSION]} ${line.metricName}`).sort()).toEqual(
      emitted.sort(),
    );
    // Counts a minute.
    expect(new Set(drawn.map((line) => `${line.stat} ${line.period}`))).toEqual(new Set(["Sum 60"]));
  });

  it("the worker's awards, duplicates, capped, parked and failed a minute; beside them, its counts of the site's rules", () => {
    // Each widget's lines of the worker's own metrics, by the widget's title.
    const worker = Object.fromEntries(
      body.widgets.flatMap((widget) => {
        const drawn = widget.properties.metrics
          .filter((line) => lineDimensions(line)[METRICS_DIMENSION] === EMITTED_METRICS.worker.service)
          .map((line) => line[1]);
        return drawn.length === 0 ? [] : [[widget.properties.title, drawn]];
      }),
    );
    expect(worker).toEqual({
      "Worker: messages a minute": ["awarded", "duplicate", "capped", "parked", "failed"],
      "Worker: the site's rules": ["rulesRejected", "noRules", "unitsDiffer"],
    });
  });

  it("names only the stage's own functions and queues", () => {
    const functions = all(run, "aws:lambda/function:Function").map(deployedName);
    const queues = all(run, "aws:sqs/queue:Queue").map(deployedName);
    const drawn = lines();
    for (const line of drawn.filter((each) => each.namespace === "AWS/Lambda"))
      expect(functions).toContain(line.dimension.FunctionName);
    for (const line of drawn.filter((each) => each.namespace === "AWS/SQS"))
      expect(queues).toContain(line.dimension.QueueName);
    expect(new Set(drawn.map((line) => line.namespace))).toEqual(
      new Set([METRICS_NAMESPACE, "AWS/Lambda", "AWS/SQS"]),
    );
  });

  it("has every family an operator needs, with its statistic, a minute a point", () => {
    const drawn = lines()
      .filter((line) => line.namespace !== METRICS_NAMESPACE)
      .map((line) => ({ ...line, dimension: Object.values(line.dimension)[0] }));
    const family = (metricName: string, stat: string) =>
      drawn
        .filter((line) => line.metricName === metricName && line.stat === stat && line.period === 60)
        .map((line) => line.dimension)
        .sort();
    const readApi = functionNamed("ReadApi");
    expect(family("ApproximateNumberOfMessagesVisible", "Maximum")).toEqual(
      [queueNamed("EventsDlq"), queueNamed("AnnouncerFailures"), queueNamed("HistoryFailures")].sort(),
    );
    expect(family("IteratorAge", "Maximum")).toEqual(
      [functionNamed(ANNOUNCER), functionNamed(HISTORY)].sort(),
    );
    expect(family("Duration", "p50")).toEqual([readApi]);
    expect(family("Duration", "p99")).toEqual([readApi]);
    expect(family("Url4xxCount", "Sum")).toEqual([readApi]);
    expect(family("Url5xxCount", "Sum")).toEqual([readApi]);
    const everyFunction = all(run, "aws:lambda/function:Function").map(deployedName).sort();
    expect(everyFunction).toHaveLength(4);
    expect(family("Throttles", "Sum")).toEqual(everyFunction);
    expect(family("Errors", "Sum")).toEqual(everyFunction);
    expect(functionNamed(WORKER)).toEqual(expect.any(String));
  });

  it("lays its widgets on the 24-column grid, none over another", () => {
    const cells = new Set<string>();
    for (const widget of body.widgets) {
      expect(widget.x + widget.width).toBeLessThanOrEqual(24);
      for (let x = widget.x; x < widget.x + widget.width; x++)
        for (let y = widget.y; y < widget.y + widget.height; y++) {
          expect(cells.has(`${x},${y}`)).toBe(false);
          cells.add(`${x},${y}`);
        }
    }
  });

  it("is an output: its console URL", () => {
    expect(run.outputs.dashboardUrl).toBe(
      "https://us-east-1.console.aws.amazon.com/cloudwatch/home?region=us-east-1#dashboards/dashboard/rewards-dev",
    );
    expect(body.widgets.every((widget) => widget.properties.region === "us-east-1")).toBe(true);
  });

  it("the picture in docs shows every alarm, with its threshold and how long it must be crossed", async () => {
    const picture = await readFile(new URL("../../docs/pictures/dashboard.svg", import.meta.url), "utf8");
    const alarmLines = [...picture.matchAll(/<text [^>]*class="alarm">([^<]*)<\/text>/g)].map((m) => m[1]);
    // A label wraps over lines within its widget: read each widget's alarm notes as one text.
    const widgets = picture.split("<g>").slice(1);
    const alarmText = widgets.map((widget) =>
      [...widget.matchAll(/class="alarm">([^<]*)</g)]
        .map((m) => (m[1] ?? "").replaceAll("&gt;", ">"))
        .join(" "),
    );
    expect(alarmLines.length).toBeGreaterThan(0);
    for (const alarm of alarmSpecs(PICTURE_NAMES)) {
      const minutes = (alarm.evaluationPeriods * alarm.periodSeconds) / 60;
      const shown = alarmText.filter((text) =>
        new RegExp(`\\b${alarm.name}\\b[A-Za-z, ]*> ${alarm.threshold} for ${minutes} min`).test(text),
      );
      expect(shown, alarm.name).toHaveLength(1);
    }
  });

  it("the picture in docs is the spec's (else: npx tsx scripts/drawDashboard.ts)", async () => {
    const picture = await readFile(new URL("../../docs/pictures/dashboard.svg", import.meta.url), "utf8");
    expect(picture).toBe(dashboardPicture(dashboardSpec(PICTURE_NAMES)));
  });
});
