import { describe, expect, it } from "vitest";
import { dashboardName, dashboardSpec, dashboardUrl, PICTURE_NAMES } from "../dashboardSpec";

/** Each widget as one line: where it is, its title, its statistic, and its lines. */
const summary = () =>
  dashboardSpec(PICTURE_NAMES).widgets.map((widget) => {
    const { title, stat, period, metrics, annotations } = widget.properties;
    return {
      at: [widget.x, widget.y, widget.width, widget.height],
      title,
      stat: `${stat} ${period}`,
      lines: metrics.map(
        ([namespace, metricName, dimensionName, dimensionValue, options]) =>
          `${namespace} ${metricName} ${dimensionName}=${dimensionValue}${options.stat ? ` ${options.stat}` : ""} "${options.label}"`,
      ),
      alarms: annotations?.horizontal ?? [],
    };
  });

describe("dashboardSpec", () => {
  it("is exactly these widgets, rows of 24 columns", () => {
    const worker = (metric: string) => `Rewards ${metric} service=rewards-worker "${metric}"`;
    const announcer = (metric: string) => `Rewards ${metric} service=rewards-announcer "${metric}"`;
    const history = (metric: string) => `Rewards ${metric} service=rewards-history "${metric}"`;
    const readApi = (metric: string) => `Rewards ${metric} service=rewards-read-api "${metric}"`;
    const everyFunction = (metric: string) => [
      `AWS/Lambda ${metric} FunctionName=EventsSubscriber "worker"`,
      `AWS/Lambda ${metric} FunctionName=RewardsSubscriberAnnouncer "announcer"`,
      `AWS/Lambda ${metric} FunctionName=RewardsSubscriberHistory "history writer"`,
      `AWS/Lambda ${metric} FunctionName=ReadApi "read API"`,
    ];
    expect(summary()).toEqual([
      {
        at: [0, 0, 12, 6],
        title: "Worker: messages a minute",
        stat: "Sum 60",
        lines: ["awarded", "duplicate", "capped", "parked", "failed"].map(worker),
        alarms: [],
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
        alarms: [],
      },
      {
        at: [18, 0, 6, 6],
        title: "Events queue: oldest message (s)",
        stat: "Maximum 60",
        lines: ['AWS/SQS ApproximateAgeOfOldestMessage QueueName=Events "oldest message"'],
        alarms: [{ label: "alarm: QueueBacklogOld", value: 600 }],
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
        alarms: [{ label: "alarm: AnnouncerBehind, HistoryBehind", value: 300_000 }],
      },
      {
        at: [0, 12, 8, 6],
        title: "Read API: requests a minute",
        stat: "Sum 60",
        lines: ["requests", "4xx", "5xx"].map(readApi),
        alarms: [{ label: "alarm: ReadApiErrors", value: 5 }],
      },
      {
        at: [8, 12, 8, 6],
        title: "Read API: function URL 4xx and 5xx",
        stat: "Sum 60",
        lines: [
          'AWS/Lambda Url4xxCount FunctionName=ReadApi "4xx"',
          'AWS/Lambda Url5xxCount FunctionName=ReadApi "5xx"',
        ],
        alarms: [],
      },
      {
        at: [16, 12, 8, 6],
        title: "Read API: duration p50 and p99 (ms)",
        stat: "p99 60",
        lines: [
          'AWS/Lambda Duration FunctionName=ReadApi p50 "p50"',
          'AWS/Lambda Duration FunctionName=ReadApi p99 "p99"',
        ],
        alarms: [{ label: "alarm: ReadApiSlow", value: 1000 }],
      },
      {
        at: [0, 18, 12, 6],
        title: "Throttles, every function",
        stat: "Sum 60",
        lines: everyFunction("Throttles"),
        alarms: [],
      },
      {
        at: [12, 18, 12, 6],
        title: "Errors, every function",
        stat: "Sum 60",
        lines: everyFunction("Errors"),
        alarms: [],
      },
    ]);
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
