import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Logger } from "./logger";
import { createRulesSource, type RulesSource } from "./rulesSource";

/**
 * A deployed function's rules source (the worker's, the history writer's): `CURRENT` on the
 * function's own client, on the system clock, every version not used logged as an error (the
 * worker also counts it: `rulesRejected`).
 */
export function functionRulesSource(options: {
  dynamo: Pick<DynamoDBDocumentClient, "send">;
  tableName: string;
  refreshSeconds: number;
  logger: Logger;
}): RulesSource {
  return createRulesSource({
    dynamo: options.dynamo,
    tableName: options.tableName,
    refreshSeconds: options.refreshSeconds,
    clock: Date.now,
    onRejected: (why) =>
      options.logger.error({ why }, "a version of the rules was not used; the last good one stays"),
  });
}
