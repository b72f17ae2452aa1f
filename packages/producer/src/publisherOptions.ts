import type { SQSClient, SQSClientConfig } from "@aws-sdk/client-sqs";
import { text } from "@rewards/core";
import type { RetryPolicy } from "@rewards/core/aws";
import { z } from "zod";

/** Options are all a publisher reads: never a variable of its host's environment but the SDK's own. */
export interface PublisherOptions {
  /** The events queue's URL. Required. */
  queueUrl: string;
  /** An SQS client of yours; else one is built from `clientConfig` and the SDK's own defaults. */
  client?: SQSClient | undefined;
  /** For the client built when `client` is absent (region, endpoint, credentials…). */
  clientConfig?: SQSClientConfig | undefined;
  /** CloudEvents `source` the builders fill in, e.g. `/reader/web`. */
  source?: string | undefined;
  retryPolicy?: RetryPolicy | undefined;
  /** SendMessageBatch calls in flight at once (1–100, default 8). */
  concurrency?: number | undefined;
}

const whole = (min: number) => z.number().int("must be a whole number").min(min, `must be at least ${min}`);

const optionsSchema = z.object({
  queueUrl: z.url({
    error: (issue) => (issue.input === undefined || issue.input === "" ? "is required" : "must be a URL"),
  }),
  client: z
    .custom<SQSClient>((value) => typeof (value as SQSClient)?.send === "function", "must be an SQSClient")
    .optional(),
  clientConfig: z.record(z.string(), z.unknown()).optional(),
  source: text(1, 256).optional(),
  retryPolicy: z
    .object({ maxAttempts: whole(1), baseDelayMs: whole(0), maxDelayMs: whole(0), maxElapsedMs: whole(0) })
    .optional(),
  concurrency: whole(1).max(100, "must be at most 100").optional(),
});

/** Misuse of createPublisher: names every bad option. */
export class PublisherOptionsError extends TypeError {
  override readonly name = "PublisherOptionsError";
}

export function validateOptions(options: PublisherOptions): void {
  const parsed = optionsSchema.safeParse(options ?? {});
  if (parsed.success) return;
  const problems = parsed.error.issues.map(
    (issue) => `${issue.path.join(".") || "options"} ${issue.message}`,
  );
  throw new PublisherOptionsError(`createPublisher: ${problems.join("; ")}`);
}
