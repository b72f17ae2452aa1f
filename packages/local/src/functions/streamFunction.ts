import { SendMessageCommand } from "@aws-sdk/client-sqs";
import {
  createDynamoClient,
  createSqsClient,
  createStreamsClient,
  type Logger,
  tableStreamArn,
} from "@rewards/core/aws";
import type { ToolConfig } from "@rewards/core/deploy";
import type { DynamoDBBatchResponse } from "aws-lambda";
import { fileCheckpoints } from "../eventSource/checkpoints";
import {
  type StreamBatchSummary,
  type StreamSource,
  type StreamSourceOptions,
  startStreamSource,
} from "../eventSource/streamSource";
import type { FunctionRuntime } from "../functionRuntime/functionRuntime";

/** A stream mapping's settings (resources.announcer, resources.history), for a local function. */
export type StreamMappingSettings = Pick<
  StreamSourceOptions,
  | "batchSize"
  | "maximumRetryAttempts"
  | "maximumRecordAgeSeconds"
  | "bisectBatchOnFunctionError"
  | "startingPosition"
  | "pollIntervalMs"
  | "retryDelayMs"
> & { timeoutMs: number };

/** A deployed mapping's settings from its resources entry. */
export function mappingSettingsOf(mapping: {
  batchSize: number;
  maximumRetryAttempts: number;
  maximumRecordAgeSeconds: number;
  bisectBatchOnFunctionError: boolean;
  startingPosition: StreamSourceOptions["startingPosition"];
  timeoutSeconds: number;
}): StreamMappingSettings {
  return {
    batchSize: mapping.batchSize,
    maximumRetryAttempts: mapping.maximumRetryAttempts,
    maximumRecordAgeSeconds: mapping.maximumRecordAgeSeconds,
    bisectBatchOnFunctionError: mapping.bisectBatchOnFunctionError,
    startingPosition: mapping.startingPosition,
    timeoutMs: mapping.timeoutSeconds * 1000,
  };
}

export interface StreamFunctionOptions {
  /** The function, already created (its code and environment are the caller's). */
  runtime: FunctionRuntime;
  config: ToolConfig<"TABLE_NAME">;
  settings: StreamMappingSettings;
  /** The mapping's filter (Lambda's filter criteria, as a predicate). */
  filter: StreamSourceOptions["filter"];
  /** Where given-up batches go; unset: discarded, as on Lambda without a destination. */
  failureQueueUrl?: string | undefined;
  /** Where the stream position is kept between runs; unset: in memory, from `startingPosition` each start. */
  checkpointFile?: string | undefined;
  logger: Logger;
  onBatch: (summary: StreamBatchSummary) => void;
}

/**
 * What AWS runs for a function on the table's stream, on this machine: the stream event source
 * (Lambda's rules for streams, the mapping's filter and settings) invoking the function in
 * processes of its own, given-up batches to the failure queue. Shared by the announcer and the
 * history's writer. Stops the runtime if it cannot start.
 */
export async function startStreamFunction(
  options: StreamFunctionOptions,
): Promise<{ source: StreamSource; stop(): Promise<void> }> {
  const { config, runtime, failureQueueUrl } = options;
  const dynamo = createDynamoClient(config);
  const sqs = createSqsClient(config);
  try {
    await runtime.warm();
    const streamArn = await tableStreamArn(dynamo, config.TABLE_NAME);
    const source = await startStreamSource({
      streams: createStreamsClient(config),
      streamArn,
      handler: (event) => runtime.invoke(event) as Promise<DynamoDBBatchResponse>,
      handlerEnforcesTimeout: true,
      logger: options.logger,
      filter: options.filter,
      ...options.settings,
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
      onBatch: options.onBatch,
    });
    return {
      source,
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
