import { randomUUID } from "node:crypto";
import type { Context } from "aws-lambda";

/** A Lambda context's plain fields: what crosses to a function's own process. */
export type ContextFields = Omit<Context, "getRemainingTimeInMillis" | "done" | "fail" | "succeed">;

export function contextFields(functionName: string, memoryMb = 512): ContextFields {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: "$LATEST",
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: String(memoryMb),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: "local",
  };
}

/**
 * A Lambda context whose clock runs down from `remainingMs`, as the event sources hand it to a
 * handler (and tests, through @rewards/testing). 30 s: the functions' timeout.
 */
export function lambdaContext(remainingMs = 30_000, functionName = "rewards-worker-local"): Context {
  const deadline = Date.now() + remainingMs;
  return {
    ...contextFields(functionName),
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}
