import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { isAwardCandidate } from "@rewards/announcer";
import { createDynamoClient, createSqsClient, type Logger } from "@rewards/core/aws";
import { resources } from "@rewards/core/deploy";
import {
  fileCheckpoints,
  type StreamSource,
  type StreamSourceOptions,
  startStreamSource,
} from "@rewards/local";
import type { DynamoDBBatchResponse } from "aws-lambda";
import type { CliConfig } from "../cliConfig";
import { createStreamsClient, tableStreamArn } from "../grants/tableStream";
import { startAnnouncerFunction } from "./announcerFunction";
import { AnnouncerStats } from "./announcerStats";
import { type FunctionCode, outputTo } from "./functionProcess";

export type AnnouncerSettings = Pick<
  StreamSourceOptions,
  | "batchSize"
  | "maximumRetryAttempts"
  | "maximumRecordAgeSeconds"
  | "bisectBatchOnFunctionError"
  | "startingPosition"
  | "pollIntervalMs"
  | "retryDelayMs"
> & { timeoutMs: number };

/** The deployed mapping's settings (resources.announcer), for a local announcer. */
export function deployedAnnouncerSettings(): AnnouncerSettings {
  const { announcer } = resources;
  return {
    batchSize: announcer.batchSize,
    maximumRetryAttempts: announcer.maximumRetryAttempts,
    maximumRecordAgeSeconds: announcer.maximumRecordAgeSeconds,
    bisectBatchOnFunctionError: announcer.bisectBatchOnFunctionError,
    startingPosition: announcer.startingPosition,
    timeoutMs: announcer.timeoutSeconds * 1000,
  };
}

export interface LocalAnnouncerOptions {
  /** The table whose stream is read, the bus, and the failure queue (unset: given-up batches are discarded, as on Lambda). */
  config: CliConfig<"TABLE_NAME" | "BUS_NAME">;
  code: FunctionCode;
  settings: AnnouncerSettings;
  /** Where the stream position is kept between runs; unset: in memory, from `startingPosition` each start. */
  checkpointFile?: string | undefined;
  logger: Logger;
  /** Every line the function writes (its logs and EMF lines); dropped when absent. */
  onOutput?: (line: string) => void;
}

export interface LocalAnnouncer {
  source: StreamSource;
  stats: AnnouncerStats;
  stop(): Promise<void>;
}

/**
 * What AWS runs for the announcer, on this machine: the table's stream event source (Lambda's
 * rules for streams, the deployed mapping's filter and settings) invoking the announcer
 * function in processes of its own, given-up batches to the failure queue.
 */
export async function startLocalAnnouncer(options: LocalAnnouncerOptions): Promise<LocalAnnouncer> {
  const { config, settings } = options;
  const stats = new AnnouncerStats();
  const runtime = startAnnouncerFunction({
    code: options.code,
    config,
    timeoutMs: settings.timeoutMs,
    ...outputTo(stats, options.onOutput),
  });
  const dynamo = createDynamoClient(config);
  const sqs = createSqsClient(config);
  try {
    await runtime.warm();
    const streamArn = await tableStreamArn(dynamo, config.TABLE_NAME);
    const failureQueueUrl = config.ANNOUNCER_FAILURE_QUEUE_URL;
    const source = await startStreamSource({
      streams: createStreamsClient(config),
      streamArn,
      handler: (event, context) => runtime.invoke(event, context) as Promise<DynamoDBBatchResponse>,
      handlerEnforcesTimeout: true,
      logger: options.logger,
      filter: isAwardCandidate,
      ...settings,
      ...(options.checkpointFile
        ? { checkpoints: await fileCheckpoints(options.checkpointFile, streamArn) }
        : {}),
      ...(failureQueueUrl
        ? {
            onFailure: async (failure) => {
              await sqs.send(
                new SendMessageCommand({ QueueUrl: failureQueueUrl, MessageBody: JSON.stringify(failure) }),
              );
            },
          }
        : {}),
      onBatch: (summary) => stats.recordBatch(summary),
    });
    return {
      source,
      stats,
      stop: async () => {
        await source.stop();
        await runtime.stop();
        dynamo.destroy();
        sqs.destroy();
      },
    };
  } catch (error) {
    await runtime.stop();
    dynamo.destroy();
    sqs.destroy();
    throw error;
  }
}
