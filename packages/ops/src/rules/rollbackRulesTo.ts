import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { type RulesDocument, rollbackRules } from "@rewards/core";
import { awsClock } from "../awsClock";
import { type PublishResult, publishRules } from "./publishRules";
import { type RulesDifference, rulesDiff } from "./rulesDiff";
import { currentRulesOrFail, readRulesVersion } from "./rulesVersions";

/**
 * `rewards rules rollback --to N` (docs/rules.md#rollback): version N's document made publishable
 * against the version in force (`rollbackRules`), then published as the next version on the
 * condition that the version in force has not moved, noted "rollback to version N".
 */
export async function rollbackRulesTo(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  to: number,
  /** `now`: epoch ms; by default AWS's clock (`awsClock`), read after `CURRENT`. */
  options: { dryRun?: boolean | undefined; now?: number | undefined },
): Promise<{ from: number; document: RulesDocument; changes: RulesDifference[]; result: PublishResult }> {
  const [target, current] = await Promise.all([
    readRulesVersion(dynamo, tableName, to),
    currentRulesOrFail(dynamo, tableName),
  ]);
  const now = options.now ?? awsClock(dynamo)();
  const document = rollbackRules(target.document, {
    current: current.document,
    longestMemory: current.longestMemory,
    now,
  });
  const result = await publishRules(dynamo, tableName, document, {
    current,
    note: `rollback to version ${to}`,
    dryRun: options.dryRun,
    now,
  });
  return { from: current.version, document, changes: rulesDiff(current.document, document), result };
}
