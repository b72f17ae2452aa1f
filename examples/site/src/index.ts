/**
 * @rewards/example-site — a reader's page over the HTTP read API, as a site's backend would
 * serve it (examples/site/README.md). Embeddable: nothing happens at import.
 */
export {
  ACHIEVEMENT_GOALS,
  type AchievementGoal,
  type AchievementTile,
  achievementTiles,
} from "./achievementGuide";
export { inReadingOrder } from "./awardOrder";
export {
  type Campaign,
  type CampaignBanner,
  campaignBanner,
  rulesFrom,
  runningCampaigns,
  type SiteRules,
} from "./campaigns";
export { QUOTE_LIMIT, quoted, withInputsQuoted } from "./quote";
export {
  createReadApiClient,
  defaultCredentials,
  type ReadApiClient,
  type ReadApiClientOptions,
  regionOf,
  userSegment,
} from "./readApiClient";
export { ReadApiError, type ReadApiErrorKind } from "./readApiError";
export { type AwardLine, awardFor, type ReaderView, readerView } from "./readerView";
export { createSiteApp, PAGE_AWARDS, PAGE_BOARD_ROWS, RULES_GRACE_MS, type SiteAppOptions } from "./siteApp";
export { type Site, type SiteOptions, startSite } from "./startSite";
export { type Flame, type StreakFacts, type StreakState, type StreakStory, streakStory } from "./streakStory";
