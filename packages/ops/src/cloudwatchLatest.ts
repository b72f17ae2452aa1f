import { type CloudWatchClient, GetMetricDataCommand } from "@aws-sdk/client-cloudwatch";
import { describeError } from "@rewards/core/aws";

/** One AWS metric of one resource: `AWS/SQS` `ApproximateAgeOfOldestMessage` of a `QueueName`, say. */
export interface MetricOf {
  namespace: string;
  metricName: string;
  dimensions: Record<string, string>;
}

/**
 * The metric's latest 1-minute Maximum in the last 10 minutes, no datapoint at all (a
 * function not invoked in that time emits no IteratorAge), or why CloudWatch could not be
 * read: three answers, because "nothing to report" is not a failure and a failure is not 0.
 */
export type LatestMaximum =
  | { kind: "value"; value: number }
  | { kind: "noData" }
  | { kind: "failed"; reason: string; errorName: string };

export async function latestMaximum(
  cloudwatch: CloudWatchClient,
  metric: MetricOf,
  now: Date = new Date(),
): Promise<LatestMaximum> {
  try {
    const { MetricDataResults = [] } = await cloudwatch.send(
      new GetMetricDataCommand({
        StartTime: new Date(now.getTime() - 10 * 60_000),
        EndTime: now,
        ScanBy: "TimestampDescending",
        MetricDataQueries: [
          {
            Id: "latest",
            MetricStat: {
              Metric: {
                Namespace: metric.namespace,
                MetricName: metric.metricName,
                Dimensions: Object.entries(metric.dimensions).map(([Name, Value]) => ({ Name, Value })),
              },
              Period: 60,
              Stat: "Maximum",
            },
          },
        ],
      }),
    );
    const latest = MetricDataResults[0]?.Values?.[0];
    return latest === undefined ? { kind: "noData" } : { kind: "value", value: latest };
  } catch (error) {
    return { kind: "failed", reason: describeError(error), errorName: (error as Error).name };
  }
}
