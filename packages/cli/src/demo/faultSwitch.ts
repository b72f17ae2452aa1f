import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

/**
 * Makes a share of TransactWriteItems calls fail with throttling before they reach the
 * table, as a busy DynamoDB would. With few in-process retries, some messages exhaust
 * them and are redelivered by SQS: the path the demo exists to show.
 */
export function installFaultSwitch(
  client: DynamoDBDocumentClient,
  rate: number,
  random: () => number,
): { injected: () => number } {
  let injected = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === "TransactWriteItemsCommand" && random() < rate) {
        injected++;
        throw Object.assign(new Error("Rate of requests exceeds the allowed throughput (injected)"), {
          name: "ThrottlingException",
          $metadata: { httpStatusCode: 400 },
        });
      }
      return next(args);
    },
    { step: "initialize", name: "demoFaultSwitch" },
  );
  return { injected: () => injected };
}
