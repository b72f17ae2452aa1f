import type { Campaign } from "./rulesDocument";

/** What a campaign made an award pay: the XP, and the campaign when it paid more than the base. */
export interface CampaignPay {
  xp: number;
  campaign?: string;
}

/**
 * An award's XP under a version's campaigns (docs/rules.md#campaigns): those of its type whose
 * [from, to) holds the award's **event time** — so a backlog or a DLQ replay pays what the
 * reader earned when they acted — and of those the one paying most alone (a tie: the lowest id).
 * The campaign is named only when it pays more than `base`. The daily cap cuts the result. Pure.
 */
export function campaignPay(
  campaigns: readonly Campaign[],
  type: string,
  eventTimeMs: number,
  base: number,
): CampaignPay {
  let best: CampaignPay = { xp: base };
  let bestId: string | undefined;
  for (const campaign of campaigns) {
    if (!campaign.types.includes(type)) continue;
    if (eventTimeMs < Date.parse(campaign.from) || eventTimeMs >= Date.parse(campaign.to)) continue;
    const xp = campaign.multiplier !== undefined ? base * campaign.multiplier : base + (campaign.bonus ?? 0);
    if (xp > best.xp || (xp === best.xp && bestId !== undefined && campaign.id < bestId)) {
      best = { xp, campaign: campaign.id };
      bestId = campaign.id;
    }
  }
  return best;
}
