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
export { createSiteApp, PAGE_AWARDS, PAGE_BOARD_ROWS, type SiteAppOptions } from "./siteApp";
export { type Site, type SiteOptions, startSite } from "./startSite";
