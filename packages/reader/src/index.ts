/**
 * @rewards/reader — read a user's rewards: profile, level, today's XP, and the history.
 *
 * ```ts
 * const reader = createReader({ tableName: "rewards-prod-table", dailyCap: 50 });
 * const profile = await reader.profile("user123");
 * const { awards, cursor } = await reader.history("user123", { limit: 20 });
 * const { week, entries } = await reader.board({ limit: 20 });
 * const { version, achievements, campaigns } = await reader.rules();
 * ```
 *
 * Embeddable: it reads its options and nothing else, logs nothing, does nothing at import.
 * Its errors are classes to switch on (docs/reading.md#errors): InvalidReadInput (bad input,
 * its `parameter`), InvalidReaderOption, TableNotFoundError, ThrottledReadError,
 * UnreadableItemError, RulesUnavailableError.
 */

export { LEVEL_FLOORS, LEVEL_STEP, type Level, levelFloor, levelOf } from "@rewards/core";
export {
  type BoardOptions,
  createReader,
  type HistoryOptions,
  type ProfileOptions,
  type Reader,
} from "./createReader";
export { InvalidReaderOption, type ReaderOptionName } from "./invalidReaderOption";
export { InvalidReadInput, READ_PARAMETERS, type ReadParameter } from "./invalidReadInput";
export type { ReaderOptions } from "./readerOptions";
export { type RulesView, rulesViewSchema } from "./readerRules";
export {
  type Achievement,
  type Achievements,
  achievementSchema,
  achievementsSchema,
  awardSchema,
  type Board,
  type BoardEntryView,
  boardEntrySchema,
  boardSchema,
  type Counts,
  countsSchema,
  type HistoryAward,
  type HistoryPage,
  historyAwardSchema,
  historyPageSchema,
  levelSchema,
  type Profile,
  type ProfileWeek,
  profileSchema,
  profileWeekSchema,
  type Streak,
  streakSchema,
  todaySchema,
} from "./readerSchemas";
export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from "./readInput";
export { RulesUnavailableError } from "./rulesCache";
export { TableNotFoundError } from "./tableNotFoundError";
export { ThrottledReadError } from "./throttledReadError";
export { UnreadableItemError } from "./unreadableItemError";
