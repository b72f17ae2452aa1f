import { describe, expect, it } from "vitest";
import { alarmSpecs } from "../alarmSpecs";
import {
  dashboardName,
  dashboardSpec,
  dashboardUrl,
  lineDimensions,
  lineOptions,
  PICTURE_NAMES,
  watches,
} from "../dashboardSpec";

/** Each widget as one line: where it is, its title, its statistic, and its lines. */
const summary = () =>
  dashboardSpec(PICTURE_NAMES).widgets.map((widget) => {
    const { title, stat, period, metrics, annotations } = widget.properties;
    return {
      at: [widget.x, widget.y, widget.width, widget.height],
      title,
      stat: `${stat} ${period}`,
      lines: metrics.map((line) => {
        const [namespace, metricName] = line;
        const { stat: lineStat, label } = lineOptions(line);
        const dimensions = Object.entries(lineDimensions(line)).map(([name, value]) => `${name}=${value}`);
        return `${namespace} ${metricName} ${dimensions.join(" ")}${lineStat ? ` ${lineStat}` : ""} "${label}"`;
      }),
      alarms: annotations?.horizontal ?? [],
    };
  });

describe("dashboardSpec", () => {
  it("is exactly these widgets, rows of 24 columns", () => {
    const worker = (metric: string) =>
      `Rewards ${metric} service=rewards-worker stage=production "${metric}"`;
    const announcer = (metric: string) =>
      `Rewards ${metric} service=rewards-announcer stage=production "${metric}"`;
    const history = (metric: string) =>
      `Rewards ${metric} service=rewards-history stage=production "${metric}"`;
    const readApi = (metric: string) =>
      `Rewards ${metric} service=rewards-read-api stage=production "${metric}"`;
    const everyFunction = (metric: string) => [
      `AWS/Lambda ${metric} FunctionName=EventsSubscriber "worker"`,
      `AWS/Lambda ${metric} FunctionName=RewardsSubscriberAnnouncer "announcer"`,
      `AWS/Lambda ${metric} FunctionName=RewardsSubscriberHistory "history writer"`,
      `AWS/Lambda ${metric} FunctionName=ReadApi "read API"`,
    ];
    expect(summary()).toEqual([
      {
        at: [0, 0, 7, 6],
        title: "Worker: messages a minute",
        stat: "Sum 60",
        lines: ["awarded", "duplicate", "capped", "parked", "failed"].map(worker),
        alarms: [{ label: "alarm: MessagesFailing > 0 for 5 min; MessagesParked > 0 for 1 min", value: 0 }],
      },
      {
        at: [7, 0, 5, 6],
        title: "Worker: the site's rules",
        stat: "Sum 60",
        lines: ["rulesRejected", "noRules", "unitsDiffer"].map(worker),
        alarms: [{ label: "alarm: RulesRejected, NoGoodRules > 0 for 1 min", value: 0 }],
      },
      {
        at: [12, 0, 6, 6],
        title: "Waiting for an operator: DLQ and failure queues",
        stat: "Maximum 60",
        lines: [
          'AWS/SQS ApproximateNumberOfMessagesVisible QueueName=EventsDlq "DLQ"',
          'AWS/SQS ApproximateNumberOfMessagesVisible QueueName=AnnouncerFailures "announcer gave up"',
          'AWS/SQS ApproximateNumberOfMessagesVisible QueueName=HistoryFailures "history gave up"',
        ],
        alarms: [{ label: "alarm: DlqNotEmpty, AnnouncerGaveUp, HistoryGaveUp > 0 for 1 min", value: 0 }],
      },
      {
        at: [18, 0, 6, 6],
        title: "Events queue: oldest message (s)",
        stat: "Maximum 60",
        lines: ['AWS/SQS ApproximateAgeOfOldestMessage QueueName=Events "oldest message"'],
        alarms: [{ label: "alarm: QueueBacklogOld > 600 for 1 min", value: 600 }],
      },
      {
        at: [0, 6, 8, 6],
        title: "Announcer: records a minute",
        stat: "Sum 60",
        lines: ["announced", "skipped", "failed"].map(announcer),
        alarms: [],
      },
      {
        at: [8, 6, 8, 6],
        title: "History writer: records a minute",
        stat: "Sum 60",
        lines: ["written", "skipped", "failed", "achieved", "boarded"].map(history),
        alarms: [],
      },
      {
        at: [16, 6, 8, 6],
        title: "Stream consumers: iterator age (ms)",
        stat: "Maximum 60",
        lines: [
          'AWS/Lambda IteratorAge FunctionName=RewardsSubscriberAnnouncer "announcer"',
          'AWS/Lambda IteratorAge FunctionName=RewardsSubscriberHistory "history writer"',
        ],
        alarms: [{ label: "alarm: AnnouncerBehind, HistoryBehind > 300000 for 3 min", value: 300_000 }],
      },
      {
        at: [0, 12, 8, 6],
        title: "Read API: requests a minute",
        stat: "Sum 60",
        lines: ["requests", "4xx", "5xx"].map(readApi),
        alarms: [{ label: "alarm: ReadApiErrors > 5 for 3 min", value: 5 }],
      },
      {
        at: [8, 12, 8, 6],
        title: "Read API: function URL 4xx and 5xx",
        stat: "Sum 60",
        lines: [
          'AWS/Lambda Url4xxCount FunctionName=ReadApi "4xx"',
          'AWS/Lambda Url5xxCount FunctionName=ReadApi "5xx"',
        ],
        alarms: [{ label: "alarm: ReadApiFailing > 0 for 3 min", value: 0 }],
      },
      {
        at: [16, 12, 8, 6],
        title: "Read API: duration p50 and p99 (ms)",
        stat: "p99 60",
        lines: [
          'AWS/Lambda Duration FunctionName=ReadApi p50 "p50"',
          'AWS/Lambda Duration FunctionName=ReadApi p99 "p99"',
        ],
        alarms: [{ label: "alarm: ReadApiSlow > 1000 for 5 min", value: 1000 }],
      },
      {
        at: [0, 18, 12, 6],
        title: "Throttles, every function",
        stat: "Sum 60",
        lines: everyFunction("Throttles"),
        alarms: [{ label: "alarm: WorkerThrottles > 0 for 1 min; ReadApiThrottled > 0 for 3 min", value: 0 }],
      },
      {
        at: [12, 18, 12, 6],
        title: "Errors, every function",
        stat: "Sum 60",
        lines: everyFunction("Errors"),
        alarms: [{ label: "alarm: WorkerErrors, HistoryErrors > 0 for 1 min", value: 0 }],
      },
    ]);
  });

  it("every alarm is on it, once, at its threshold, on the widget that draws its metric with its statistic", () => {
    for (const stage of ["production", "pr-42"]) {
      const names = { ...PICTURE_NAMES, stage };
      const widgets = dashboardSpec(names).widgets;
      for (const alarm of alarmSpecs(names)) {
        const on = widgets.filter((widget) =>
          (widget.properties.annotations?.horizontal ?? []).some(
            (line) =>
              line.value === alarm.threshold && new RegExp(`[:,;] ${alarm.name}[ ,]`).test(line.label),
          ),
        );
        expect(
          on.map((widget) => widget.properties.title),
          alarm.name,
        ).toHaveLength(1);
        const [widget] = on;
        expect(
          widget?.properties.metrics.some((line) => watches(alarm, line, widget.properties.stat)),
          alarm.name,
        ).toBe(true);
      }
      // Seventeen alarms, each named on exactly one widget: none twice, none left out.
      const named = widgets.flatMap((widget) =>
        (widget.properties.annotations?.horizontal ?? []).flatMap((line) =>
          [...line.label.matchAll(/(?<=[:,;] )[A-Za-z]+/g)].map((match) => match[0]),
        ),
      );
      expect(named.sort()).toEqual(
        alarmSpecs(names)
          .map((alarm) => alarm.name)
          .sort(),
      );
      expect(named).toHaveLength(17);
    }
  });

  it("draws the functions' own metrics of its stage alone: an alarm of another stage watches none of its lines", () => {
    const lines = dashboardSpec({ ...PICTURE_NAMES, stage: "pr-42" }).widgets.flatMap((widget) =>
      widget.properties.metrics.map((line) => ({ line, stat: widget.properties.stat })),
    );
    const own = lines.filter(({ line }) => line[0] === "Rewards");
    expect(own).toHaveLength(19);
    for (const { line } of own) expect(lineDimensions(line)).toMatchObject({ stage: "pr-42" });
    const others = alarmSpecs({ ...PICTURE_NAMES, stage: "production" }).filter(
      (alarm) => alarm.namespace === "Rewards",
    );
    expect(others.map((alarm) => alarm.name)).toEqual([
      "MessagesFailing",
      "MessagesParked",
      "RulesRejected",
      "NoGoodRules",
      "ReadApiErrors",
    ]);
    for (const alarm of others)
      expect(lines.filter(({ line, stat }) => watches(alarm, line, stat)).map(({ line }) => line[1])).toEqual(
        [],
      );
  });

  it("every widget draws a minute a point, in the stage's region, from zero up", () => {
    for (const widget of dashboardSpec({ ...PICTURE_NAMES, region: "eu-west-1" }).widgets) {
      expect(widget).toMatchObject({
        type: "metric",
        properties: {
          region: "eu-west-1",
          view: "timeSeries",
          stacked: false,
          period: 60,
          yAxis: { left: { min: 0 } },
        },
      });
    }
  });

  it("is named for the stage, and the console shows it at its region's address", () => {
    expect(dashboardName("rewards", "pr-42")).toBe("rewards-pr-42");
    expect(dashboardUrl("eu-west-1", "rewards-pr-42")).toBe(
      "https://eu-west-1.console.aws.amazon.com/cloudwatch/home?region=eu-west-1#dashboards/dashboard/rewards-pr-42",
    );
  });
});
