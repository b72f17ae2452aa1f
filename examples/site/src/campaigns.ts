/**
 * The campaigns the rules bring (SPEC §15d, `GET /rules`: docs/rules.md), read leniently: the
 * page shows a banner for each one running now and never fails for the rules. A read API
 * without the route (404), an answer it cannot read, or a campaign missing a field shows no
 * banner, and nothing else on the page changes.
 */
export interface Campaign {
  id: string;
  title: string;
  /** The event types it pays more for. */
  types: string[];
  /** RFC 3339 instants: it applies to events whose time lies in [from, to). */
  from: string;
  to: string;
  /** Whole, 2–10: the XP multiplied. */
  multiplier?: number;
  /** Whole, ≥ 1: XP added. */
  bonus?: number;
}

/** What the page reads of the rules: the campaigns, running and coming. */
export interface SiteRules {
  version?: number;
  campaigns: Campaign[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isInstant = (value: unknown): value is string =>
  typeof value === "string" && Number.isFinite(Date.parse(value));
const isWhole = (value: unknown, least: number): value is number =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= least;

function campaignFrom(item: unknown): Campaign | undefined {
  if (!isRecord(item)) return undefined;
  const { id, title, types, from, to, multiplier, bonus } = item;
  if (typeof id !== "string" || typeof title !== "string" || title.trim() === "") return undefined;
  if (!Array.isArray(types) || !types.every((type) => typeof type === "string")) return undefined;
  if (!isInstant(from) || !isInstant(to) || Date.parse(from) >= Date.parse(to)) return undefined;
  if (multiplier !== undefined && !isWhole(multiplier, 2)) return undefined;
  if (bonus !== undefined && !isWhole(bonus, 1)) return undefined;
  return {
    id,
    title,
    types,
    from,
    to,
    ...(multiplier === undefined ? {} : { multiplier }),
    ...(bonus === undefined ? {} : { bonus }),
  };
}

/**
 * The rules' campaigns from `GET /rules`'s body; undefined when the body is not the rules at all.
 * Fields the page does not read are ignored, and so is a campaign it cannot read (the others stay).
 */
export function rulesFrom(body: unknown): SiteRules | undefined {
  if (!isRecord(body) || !Array.isArray(body.campaigns)) return undefined;
  const campaigns = body.campaigns.flatMap((item) => campaignFrom(item) ?? []);
  return { ...(isWhole(body.version, 0) ? { version: body.version } : {}), campaigns };
}

/** How many banners the page shows at most: the ones ending soonest. */
export const MAX_BANNERS = 3;

/** The campaigns whose [from, to) holds `now`, ending soonest first. */
export function runningCampaigns(campaigns: readonly Campaign[], now: Date): Campaign[] {
  const at = now.getTime();
  return campaigns
    .filter(({ from, to }) => Date.parse(from) <= at && at < Date.parse(to))
    .sort((a, b) => Date.parse(a.to) - Date.parse(b.to) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, MAX_BANNERS);
}

export interface CampaignBanner {
  id: string;
  title: string;
  /** "Double XP on podcasts until Sun 18:00 (UTC)". */
  offer: string;
}

const MULTIPLIED = ["", "", "Double", "Triple", "Quadruple"];

/** What it pays: "Double XP", "5× XP", "+10 XP". */
function payWords({ multiplier, bonus }: Campaign): string {
  const parts = [
    ...(multiplier === undefined
      ? []
      : [MULTIPLIED[multiplier] ? `${MULTIPLIED[multiplier]} XP` : `${multiplier}× XP`]),
    ...(bonus === undefined ? [] : [`+${bonus} XP`]),
  ];
  return parts.length === 0 ? "Extra XP" : parts.join(" and ");
}

const TYPE_WORDS: Record<string, string> = {
  "article.completed": "articles read",
  "article.shared": "shares",
  "streak.day": "reading days",
  "signup.completed": "sign-ups",
};

/**
 * A type in words: the built-ins' own, else the plural of a site type's first word when it is a
 * plain one (`podcast.listened` → "podcasts"), else the type's name as the API names it.
 */
export function typeWords(type: string): string {
  const known = TYPE_WORDS[type];
  if (known) return known;
  const first = type.split(".")[0] ?? type;
  return /^[a-z]+$/.test(first) && !/(s|x|z|ch|sh|y)$/.test(first) ? `${first}s` : type;
}

const list = (words: string[]) =>
  words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;

const DAY_MS = 24 * 60 * 60 * 1000;

/** When it ends, in the reader's zone: "Sun 18:00" within the week, "Sun 20 Dec 18:00" later. */
export function untilWords(to: string, now: Date, timeZone: string): string {
  const end = new Date(to);
  const withDate = end.getTime() - now.getTime() >= 6 * DAY_MS;
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    ...(withDate ? { day: "numeric", month: "short" } : {}),
  }).formatToParts(end);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const day = withDate ? ` ${part("day")} ${part("month")}` : "";
  return `${part("weekday")}${day} ${part("hour")}:${part("minute")}`;
}

/** The banner of a running campaign, its end in the reader's zone (named). */
export function campaignBanner(campaign: Campaign, now: Date, timeZone: string): CampaignBanner {
  const types = [...new Set(campaign.types.map(typeWords))];
  const on = types.length === 0 ? "" : ` on ${list(types)}`;
  return {
    id: campaign.id,
    title: campaign.title,
    offer: `${payWords(campaign)}${on} until ${untilWords(campaign.to, now, timeZone)} (${timeZone})`,
  };
}
