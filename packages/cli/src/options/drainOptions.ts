import type { SQSClient } from "@aws-sdk/client-sqs";
import { Option } from "commander";
import { CliError } from "../runtime/cliError";
import type { Io } from "../runtime/io";
import { integer } from "./parsers";

export interface WaitOptions {
  wait?: boolean;
  timeout: number;
}

export const waitOption = () =>
  new Option("--wait", "first wait until the queue has nothing visible or in flight (with progress)");
export const waitTimeoutOption = () =>
  new Option("--timeout <seconds>", "with --wait: give up after this long")
    .argParser(integer(1))
    .default(300);

/**
 * `--wait`: blocks until QUEUE_URL has nothing visible, in flight or delayed, showing how
 * much is left (through `io`); a timeout is a failure (exit 1) that says what was still there.
 */
export async function waitForQueue(
  io: Io,
  sqs: SQSClient,
  queueUrl: string,
  timeoutSeconds: number,
  quiet = false,
): Promise<void> {
  const { waitUntilDrained } = await import("@rewards/ops");
  const progress = io.progress(quiet, "waiting for the queue");
  let peak = 0;
  let last = { visible: 0, inFlight: 0, delayed: 0 };
  const result = await waitUntilDrained(sqs, queueUrl, {
    timeoutMs: timeoutSeconds * 1000,
    onProgress: (counts) => {
      last = counts;
      const left = counts.visible + counts.inFlight + counts.delayed;
      peak = Math.max(peak, left);
      if (peak > 0) progress.onProgress?.(peak - left, peak);
    },
  });
  progress.stop();
  if (result !== "drained") {
    throw new CliError(
      `the queue did not drain within ${timeoutSeconds} s (still ${last.visible} visible, ${last.inFlight} in flight, ${last.delayed} delayed): is a worker running?`,
    );
  }
}
