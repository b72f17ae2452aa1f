import { randomUUID } from "node:crypto";
import type { Context } from "aws-lambda";

/** A Lambda context whose clock runs down from `remainingMs`, as the poller hands it to the handler. */
export function lambdaContext(remainingMs: number, functionName = "rewards-worker-local"): Context {
  const deadline = Date.now() + remainingMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: "$LATEST",
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: "512",
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: "local",
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}
