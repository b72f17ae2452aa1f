/**
 * @rewards/reader — read a user's rewards: profile, level, today's XP, and the history.
 *
 * ```ts
 * const reader = createReader({ tableName: "rewards-prod-table", dailyCap: 50 });
 * const profile = await reader.profile("user123");
 * const { awards, cursor } = await reader.history("user123", { limit: 20 });
 * ```
 *
 * Embeddable: it reads its options and nothing else, logs nothing, does nothing at import.
 */
export { createReader, type HistoryOptions, type Reader } from "./createReader";
export { LEVEL_FLOORS, LEVEL_STEP, type Level, levelFloor, levelOf } from "./levels";
export type { ReaderOptions } from "./readerOptions";
export {
  awardSchema,
  type HistoryAward,
  type HistoryPage,
  historyAwardSchema,
  historyPageSchema,
  levelSchema,
  type Profile,
  profileSchema,
  todaySchema,
} from "./readerSchemas";
export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from "./readInput";
export { ThrottledReadError } from "./throttledReadError";
export { UnreadableItemError } from "./unreadableItemError";
