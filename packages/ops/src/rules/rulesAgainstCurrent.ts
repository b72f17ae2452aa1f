import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { checkRulesChange, type RulesChange, type RulesDocument, type RulesVersion } from "@rewards/core";
import { awsClock } from "../awsClock";
import { currentRulesOrFail } from "./rulesVersions";

/** A document judged against the version in force (`rules check`, `rules diff`): nothing written. */
export async function rulesAgainstCurrent(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  document: RulesDocument,
  /** Epoch ms; by default AWS's clock (`awsClock`), read after `CURRENT`. */
  now?: number,
): Promise<RulesChange & { current: RulesVersion }> {
  const current = await currentRulesOrFail(dynamo, tableName);
  const change = checkRulesChange(document, {
    current: current.document,
    longestMemory: current.longestMemory,
    now: now ?? awsClock(dynamo)(),
  });
  return { ...change, current };
}

/** One line of what a document holds: `5 types (1 retired), 7 achievements, 1 campaigns`. */
export function rulesSummary(document: RulesDocument): string {
  const types = Object.values(document.types);
  const retired = types.filter((type) => type.retired).length;
  return `${types.length} types${retired > 0 ? ` (${retired} retired)` : ""}, ${document.achievements.length} achievements, ${document.campaigns.length} campaigns`;
}
