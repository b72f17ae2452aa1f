import { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import { GetQueueAttributesCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { withNamedCalls } from "@rewards/core/aws";
import { latestMaximum } from "../cloudwatchLatest";

export interface QueueCounts {
  visible: number;
  inFlight: number;
  delayed: number;
}

export async function queueCounts(sqs: SQSClient, queueUrl: string): Promise<QueueCounts> {
  const { Attributes = {} } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: [
        "ApproximateNumberOfMessages",
        "ApproximateNumberOfMessagesNotVisible",
        "ApproximateNumberOfMessagesDelayed",
      ],
    }),
  );
  return {
    visible: Number(Attributes.ApproximateNumberOfMessages ?? 0),
    inFlight: Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0),
    delayed: Number(Attributes.ApproximateNumberOfMessagesDelayed ?? 0),
  };
}

export type OldestAge = { seconds: number } | { unknown: string };

/**
 * The age of the oldest message, from CloudWatch's ApproximateAgeOfOldestMessage (SQS's API
 * has no such attribute, and sampling messages would raise their receive counts). The
 * metric is per minute and needs CloudWatch: the local stack has none.
 */
export async function oldestMessageAge(
  cloudwatch: CloudWatchClient,
  queueUrl: string,
  now: Date = new Date(),
): Promise<OldestAge> {
  const queueName = queueUrl.split("/").pop() ?? "";
  const latest = await latestMaximum(
    cloudwatch,
    {
      namespace: "AWS/SQS",
      metricName: "ApproximateAgeOfOldestMessage",
      dimensions: { QueueName: queueName },
    },
    now,
  );
  if (latest.kind === "value") return { seconds: latest.value };
  if (latest.kind === "noData") return { unknown: "no datapoint in the last 10 minutes" };
  return { unknown: `CloudWatch unavailable here (${latest.errorName})` };
}

/** CloudWatch for the configured region; a local SQS endpoint means there is none to ask. */
export function cloudwatchFor(config: { AWS_REGION: string; AWS_ENDPOINT_URL_SQS?: string | undefined }) {
  return config.AWS_ENDPOINT_URL_SQS
    ? undefined
    : withNamedCalls(new CloudWatchClient({ region: config.AWS_REGION, maxAttempts: 2 }));
}
