import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { achievementKey, guardKey, intentKeyOfGuard } from "@rewards/core";
import { batchGetAll } from "@rewards/ops";
import { DEMO_ACHIEVEMENT, type RulesTraffic } from "../traffic/rulesTraffic";

/** What the demo's published rules paid, against what the document says they must. */
export interface RulesPaidCheck {
  version: number;
  /** Podcast intents paid, and the XP they paid. */
  awards: number;
  xp: number;
  /** Of them, those the campaign paid more (event time inside it). */
  campaignAwards: number;
  /** Listeners holding the achievement the version added. */
  achievers: number;
  mismatched: string[];
}

/**
 * Every podcast intent's guard (docs/rules.md#at-run-time): paid by `version`, for the units
 * sent, at what the document gives (the campaign on event time, recorded only when it paid more);
 * and the version's achievement held by exactly the listeners of three podcasts or more.
 */
export async function checkRulesPaid(
  dynamo: DynamoDBDocumentClient,
  tableName: string,
  version: number,
  traffic: Pick<RulesTraffic, "intents" | "achievers" | "expectedXp">,
): Promise<RulesPaidCheck> {
  const mismatched: string[] = [];
  const guards = new Map(
    (
      await batchGetAll(
        dynamo,
        tableName,
        traffic.intents.map((intent) => guardKey(intent.intentKey)),
        "guards",
      )
    ).map((guard) => [intentKeyOfGuard(String(guard.pk)), guard]),
  );
  let xp = 0;
  let campaignAwards = 0;
  for (const intent of traffic.intents) {
    const guard = guards.get(intent.intentKey);
    if (guard === undefined) {
      mismatched.push(`${intent.intentKey}: never paid`);
      continue;
    }
    const paid = {
      rulesVersion: guard.rulesVersion,
      units: guard.units,
      amount: guard.amount,
      campaign: guard.campaign,
    };
    const expected = {
      rulesVersion: version,
      units: intent.units,
      amount: intent.xp,
      campaign: intent.campaign,
    };
    if (JSON.stringify(paid) !== JSON.stringify(expected))
      mismatched.push(
        `${intent.intentKey}: paid ${JSON.stringify(paid)}, the rules say ${JSON.stringify(expected)}`,
      );
    xp += Number(guard.amount ?? 0);
    if (guard.campaign !== undefined) campaignAwards++;
  }
  const listeners = Object.keys(traffic.expectedXp);
  const held = new Set(
    (
      await batchGetAll(
        dynamo,
        tableName,
        listeners.map((userId) => achievementKey(userId, DEMO_ACHIEVEMENT)),
        "achievements",
      )
    ).map((item) => String(item.userId)),
  );
  const achievers = new Set(traffic.achievers);
  for (const userId of listeners)
    if (held.has(userId) !== achievers.has(userId))
      mismatched.push(`${userId}: ${DEMO_ACHIEVEMENT} ${held.has(userId) ? "held" : "missing"}`);
  return { version, awards: guards.size, xp, campaignAwards, achievers: held.size, mismatched };
}
