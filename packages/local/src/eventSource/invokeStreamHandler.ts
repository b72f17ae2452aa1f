import { describeError } from "@rewards/core/aws";
import type { DynamoDBRecord } from "aws-lambda";
import { invokeFunction } from "./invokeFunction";
import { readStreamResponse, type StreamVerdict } from "./streamResponse";
import type { StreamSourceSettings } from "./streamSourceOptions";

/** One invocation with a batch, read as Lambda reads its outcome, and reported to `onBatch`. */
export async function invokeStreamHandler(
  settings: Pick<StreamSourceSettings, "handler" | "timeoutMs" | "handlerEnforcesTimeout" | "onBatch">,
  shardId: string,
  records: DynamoDBRecord[],
): Promise<StreamVerdict> {
  const { handler, timeoutMs, onBatch } = settings;
  const started = Date.now();
  let verdict: StreamVerdict;
  try {
    verdict = readStreamResponse(
      records,
      await invokeFunction(
        handler,
        { Records: records },
        timeoutMs,
        settings.handlerEnforcesTimeout === true,
      ),
    );
  } catch (error) {
    verdict = { kind: "wholeBatchFailed", reason: describeError(error) };
  }
  onBatch?.({
    shardId,
    records,
    verdict: verdict.kind === "retryFrom" ? "retry" : verdict.kind,
    ...(verdict.kind === "wholeBatchFailed" ? { reason: verdict.reason } : {}),
    durationMs: Date.now() - started,
  });
  return verdict;
}
