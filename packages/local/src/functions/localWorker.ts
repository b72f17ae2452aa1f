import type { Logger } from "@rewards/core/aws";
import { createSqsClient } from "@rewards/core/aws";
import type { ToolConfig } from "@rewards/core/deploy";
import type { SQSBatchResponse } from "aws-lambda";
import { type Poller, type PollerOptions, startPoller } from "../eventSource/poller";
import { outputTo } from "./functionProcess";
import { type FunctionCode, startWorkerFunction } from "./workerFunction";
import { WorkerStats } from "./workerStats";

export type PollerSettings = Pick<
  PollerOptions,
  "pollers" | "batchSize" | "waitTimeSeconds" | "batchWindowMs" | "timeoutMs"
>;

export interface LocalWorkerOptions {
  config: ToolConfig<"TABLE_NAME" | "QUEUE_URL">;
  code: FunctionCode;
  settings: PollerSettings & { timeoutMs: number; waitTimeSeconds: number };
  logger: Logger;
  /** Every line the function writes (its logs and its EMF metrics lines); dropped when absent. */
  onOutput?: (line: string) => void;
}

export interface LocalWorker {
  poller: Poller;
  stats: WorkerStats;
  /** Stops receiving, finishes the batches in flight, then ends the function's processes. */
  stop(): Promise<void>;
}

/**
 * What AWS runs, on this machine: the SQS event source (the poller, Lambda's rules) invoking
 * the worker function in processes of its own. The function is started (initialised)
 * before anything is received, so a configuration it refuses fails here, once.
 */
export async function startLocalWorker(options: LocalWorkerOptions): Promise<LocalWorker> {
  const { config, settings } = options;
  const stats = new WorkerStats();
  const runtime = startWorkerFunction({
    code: options.code,
    config,
    timeoutMs: settings.timeoutMs,
    ...outputTo(stats, options.onOutput),
  });
  try {
    await runtime.warm();
    const poller = await startPoller({
      sqs: createSqsClient(config, { requestTimeoutMs: (settings.waitTimeSeconds + 10) * 1000 }),
      queueUrl: config.QUEUE_URL,
      handler: (event) => runtime.invoke(event) as Promise<SQSBatchResponse>,
      handlerEnforcesTimeout: true,
      logger: options.logger,
      ...settings,
      onBatch: (summary) => stats.recordBatch(summary),
    });
    return {
      poller,
      stats,
      stop: async () => {
        await poller.stop();
        await runtime.stop();
      },
    };
  } catch (error) {
    await runtime.stop();
    throw error;
  }
}
