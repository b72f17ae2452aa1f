import {
  EMITTED_METRICS,
  METRICS_DIMENSION,
  METRICS_NAMESPACE,
  METRICS_STAGE_DIMENSION,
} from "@rewards/core/deploy";
import { type AlarmSpec, alarmSpecs, type StageNames } from "./alarmSpecs";

/** Every line's and every widget's period: one point a minute. */
const PERIOD_SECONDS = 60;
/** The dashboard's grid: 24 columns; every widget is this many rows high. */
const GRID_COLUMNS = 24;
const WIDGET_HEIGHT = 6;

/** A line's own statistic (a percentile) and its legend. */
export interface LineOptions {
  label: string;
  stat?: `p${number}`;
}

/**
 * One line of a metric widget, as CloudWatch spells it: namespace, metric, its dimensions as
 * name-value pairs, options. An AWS metric has one dimension (its function or queue, already
 * the stage's own); a `Rewards` metric two, `service` and `stage`.
 */
export type MetricLine<Name = string> =
  | [
      namespace: string,
      metricName: string,
      dimensionName: string,
      dimensionValue: Name | string,
      options: LineOptions,
    ]
  | [
      namespace: string,
      metricName: string,
      dimensionName: string,
      dimensionValue: Name | string,
      secondDimensionName: string,
      secondDimensionValue: Name | string,
      options: LineOptions,
    ];

/** A line's dimensions, name to value. */
export function lineDimensions<Name>(line: MetricLine<Name>): Record<string, Name | string> {
  return line.length === 5 ? { [line[2]]: line[3] } : { [line[2]]: line[3], [line[4]]: line[5] };
}

/** A line's options (its label, and its own statistic if it has one): always its last element. */
export const lineOptions = <Name>(line: MetricLine<Name>): LineOptions =>
  line.length === 5 ? line[4] : line[6];

/** An alarm's line on the widget that draws its metric: its threshold, and what crossing it takes. */
export interface AlarmAnnotation {
  label: string;
  value: number;
}

export interface MetricWidget<Name = string> {
  type: "metric";
  x: number;
  y: number;
  width: number;
  height: number;
  properties: {
    title: string;
    region: Name;
    view: "timeSeries";
    stacked: false;
    period: number;
    /** Each line's unless it names its own (the read API's percentiles). */
    stat: "Sum" | "Maximum" | `p${number}`;
    metrics: MetricLine<Name>[];
    /** Every alarm on these lines, at its threshold (one line per threshold, naming each alarm at it). */
    annotations?: { horizontal: AlarmAnnotation[] };
    yAxis: { left: { min: 0 } };
  };
}

/** What `aws.cloudwatch.Dashboard`'s `dashboardBody` holds, before JSON.stringify. */
export interface DashboardBody<Name = string> {
  widgets: MetricWidget<Name>[];
}

export type DashboardNames<Name = string> = StageNames<Name> & { region: Name };

/** A widget before it has a place: its width on the grid, what it draws. */
type Unplaced<Name> = { width: number } & Pick<
  MetricWidget<Name>["properties"],
  "title" | "stat" | "metrics"
>;

/**
 * The lines of a function's EMF counts (EMITTED_METRICS: what the emitter's types allow), in
 * this stage: the `Rewards` namespace is the account's, so a line without the stage would add
 * up every stage's.
 */
function countLines<Name>(
  emitted: (typeof EMITTED_METRICS)[keyof typeof EMITTED_METRICS],
  stage: string,
  counts: readonly string[] = emitted.counts,
): MetricLine<Name>[] {
  return counts.map((count) => [
    METRICS_NAMESPACE,
    count,
    METRICS_DIMENSION,
    emitted.service,
    METRICS_STAGE_DIMENSION,
    stage,
    { label: count },
  ]);
}

/**
 * The worker's counts of the site's rules (docs/rules.md#at-run-time), each emitted only when not
 * 0: versions refused or reads failed, records failed for want of a good version, per-unit copies
 * of other units than the paid one. Drawn on a widget of their own, beside its messages.
 */
const WORKER_RULES_COUNTS = ["rulesRejected", "noRules", "unitsDiffer"] as const satisfies ReadonlyArray<
  (typeof EMITTED_METRICS.worker.counts)[number]
>;
const workerMessageCounts = EMITTED_METRICS.worker.counts.filter(
  (count) => !(WORKER_RULES_COUNTS as readonly string[]).includes(count),
);

const lambdaLine = <Name>(metricName: string, functionName: Name, label: string, stat?: `p${number}`) =>
  [
    "AWS/Lambda",
    metricName,
    "FunctionName",
    functionName,
    stat === undefined ? { label } : { label, stat },
  ] satisfies MetricLine<Name>;

const queueLine = <Name>(metricName: string, queueName: Name, label: string) =>
  ["AWS/SQS", metricName, "QueueName", queueName, { label }] satisfies MetricLine<Name>;

/** The dashboard's rows, left to right: what an operator reads first is at the top. */
function rows<Name>(names: DashboardNames<Name>): Unplaced<Name>[][] {
  const functions: Array<[Name, string]> = [
    [names.functionName, "worker"],
    [names.announcerFunctionName, "announcer"],
    [names.historyFunctionName, "history writer"],
    [names.readApiFunctionName, "read API"],
  ];
  return [
    [
      {
        width: 7,
        title: "Worker: messages a minute",
        stat: "Sum",
        metrics: countLines(EMITTED_METRICS.worker, names.stage, workerMessageCounts),
      },
      {
        width: 5,
        title: "Worker: the site's rules",
        stat: "Sum",
        metrics: countLines(EMITTED_METRICS.worker, names.stage, WORKER_RULES_COUNTS),
      },
      {
        width: 6,
        title: "Waiting for an operator: DLQ and failure queues",
        stat: "Maximum",
        metrics: [
          queueLine("ApproximateNumberOfMessagesVisible", names.dlq, "DLQ"),
          queueLine("ApproximateNumberOfMessagesVisible", names.announcerFailureQueue, "announcer gave up"),
          queueLine("ApproximateNumberOfMessagesVisible", names.historyFailureQueue, "history gave up"),
        ],
      },
      {
        width: 6,
        title: "Events queue: oldest message (s)",
        stat: "Maximum",
        metrics: [queueLine("ApproximateAgeOfOldestMessage", names.queue, "oldest message")],
      },
    ],
    [
      {
        width: 8,
        title: "Announcer: records a minute",
        stat: "Sum",
        metrics: countLines(EMITTED_METRICS.announcer, names.stage),
      },
      {
        width: 8,
        title: "History writer: records a minute",
        stat: "Sum",
        metrics: countLines(EMITTED_METRICS.history, names.stage),
      },
      {
        width: 8,
        title: "Stream consumers: iterator age (ms)",
        stat: "Maximum",
        metrics: [
          lambdaLine("IteratorAge", names.announcerFunctionName, "announcer"),
          lambdaLine("IteratorAge", names.historyFunctionName, "history writer"),
        ],
      },
    ],
    [
      {
        width: 8,
        title: "Read API: requests a minute",
        stat: "Sum",
        metrics: countLines(EMITTED_METRICS.readApi, names.stage),
      },
      {
        width: 8,
        title: "Read API: function URL 4xx and 5xx",
        stat: "Sum",
        metrics: [
          lambdaLine("Url4xxCount", names.readApiFunctionName, "4xx"),
          lambdaLine("Url5xxCount", names.readApiFunctionName, "5xx"),
        ],
      },
      {
        width: 8,
        title: "Read API: duration p50 and p99 (ms)",
        stat: "p99",
        metrics: [
          lambdaLine("Duration", names.readApiFunctionName, "p50", "p50"),
          lambdaLine("Duration", names.readApiFunctionName, "p99", "p99"),
        ],
      },
    ],
    [
      {
        width: 12,
        title: "Throttles, every function",
        stat: "Sum",
        metrics: functions.map(([name, label]) => lambdaLine("Throttles", name, label)),
      },
      {
        width: 12,
        title: "Errors, every function",
        stat: "Sum",
        metrics: functions.map(([name, label]) => lambdaLine("Errors", name, label)),
      },
    ],
  ];
}

/** Whether the alarm watches this line: the same metric, the same dimensions (all of them), the same statistic. */
export function watches<Name>(alarm: AlarmSpec<Name>, line: MetricLine<Name>, widgetStat: string): boolean {
  const [namespace, metricName] = line;
  const alarmStat = "extendedStatistic" in alarm ? alarm.extendedStatistic : alarm.statistic;
  const drawn = Object.entries(lineDimensions(line));
  return (
    alarm.namespace === namespace &&
    alarm.metricName === metricName &&
    drawn.length === Object.keys(alarm.dimensions).length &&
    drawn.every(([name, value]) => alarm.dimensions[name] === value) &&
    alarmStat === (lineOptions(line).stat ?? widgetStat)
  );
}

/** How long a point must stay over an alarm's threshold before it fires, in words: `for 5 min`. */
const alarmDuration = <Name>(alarm: AlarmSpec<Name>) =>
  `for ${(alarm.evaluationPeriods * alarm.periodSeconds) / 60} min`;

/**
 * Every alarm on a widget's lines, one annotation per threshold: its label names each alarm at
 * that threshold and how long a point must stay over it (`alarm: MessagesFailing > 0 for 5
 * min; MessagesParked > 0 for 1 min`; alarms alike share one clause). An alarm at 0 too: its
 * line is the axis, but without it the widget would not say that a point above the axis is an
 * alarm, which one, nor after how long.
 */
function thresholds<Name>(widget: Unplaced<Name>, alarms: AlarmSpec<Name>[]): AlarmAnnotation[] {
  const byValue = new Map<number, Map<string, string[]>>();
  for (const alarm of alarms) {
    if (!widget.metrics.some((line) => watches(alarm, line, widget.stat))) continue;
    const byDuration = byValue.get(alarm.threshold) ?? new Map<string, string[]>();
    byDuration.set(alarmDuration(alarm), [...(byDuration.get(alarmDuration(alarm)) ?? []), alarm.name]);
    byValue.set(alarm.threshold, byDuration);
  }
  return [...byValue].map(([value, byDuration]) => ({
    label: `alarm: ${[...byDuration].map(([duration, named]) => `${named.join(", ")} > ${value} ${duration}`).join("; ")}`,
    value,
  }));
}

/**
 * The operator's dashboard, as data (infra/rewards.ts stringifies it into
 * `aws.cloudwatch.Dashboard`): the worker's outcomes a minute and its counts of the site's
 * rules, the queues an operator must empty and the events queue's age; the announcer's and the
 * history writer's records a minute and how far behind the stream they are; the read API's
 * requests, its function URL's 4xx and 5xx, its p50 and p99; every function's throttles and
 * errors. Counts are `Sum`s a minute; depths and ages their `Maximum`; the functions' own counts
 * are this stage's (`stage`). Every alarm is a line at its threshold on the widget that draws its
 * metric (alarmSpecs).
 */
export function dashboardSpec<Name>(names: DashboardNames<Name>): DashboardBody<Name> {
  const alarms = alarmSpecs(names);
  return {
    widgets: rows(names).flatMap((row, rowIndex) => {
      let x = 0;
      return row.map((widget): MetricWidget<Name> => {
        const placed = { x, y: rowIndex * WIDGET_HEIGHT, width: widget.width, height: WIDGET_HEIGHT };
        x += widget.width;
        if (x > GRID_COLUMNS) throw new Error(`dashboard: row ${rowIndex} is wider than ${GRID_COLUMNS}`);
        const horizontal = thresholds(widget, alarms);
        return {
          type: "metric",
          ...placed,
          properties: {
            title: widget.title,
            region: names.region,
            view: "timeSeries",
            stacked: false,
            period: PERIOD_SECONDS,
            stat: widget.stat,
            metrics: widget.metrics,
            ...(horizontal.length > 0 ? { annotations: { horizontal } } : {}),
            yAxis: { left: { min: 0 } },
          },
        };
      });
    }),
  };
}

/** The dashboard's name: one per stage (`rewards-production`). */
export const dashboardName = (app: string, stage: string) => `${app}-${stage}`;

/** Where the console shows it. */
export const dashboardUrl = (region: string, name: string) =>
  `https://${region}.console.aws.amazon.com/cloudwatch/home?region=${region}#dashboards/dashboard/${name}`;

/** Stand-in names for the picture in docs (scripts/drawDashboard.ts), which shows no stage's own. */
export const PICTURE_NAMES: DashboardNames = {
  region: "us-east-1",
  stage: "production",
  dlq: "EventsDlq",
  queue: "Events",
  functionName: "EventsSubscriber",
  announcerFunctionName: "RewardsSubscriberAnnouncer",
  announcerFailureQueue: "AnnouncerFailures",
  historyFunctionName: "RewardsSubscriberHistory",
  historyFailureQueue: "HistoryFailures",
  readApiFunctionName: "ReadApi",
};
