import { z } from "zod";
import { userIdSchema } from "../events/envelope";
import { text } from "../events/text";
import type { TimedAchievement } from "../progress/achievements";
import { type AchievementTimes, timedAchievementsOf } from "./achievementTimes";
import { BUILTIN_RULES } from "./builtinRules";
import { checkRules } from "./checkRules";
import { type LongestMemory, longerMemory, type Memory, memoryOf } from "./checkRulesChange";
import {
  type Campaign,
  MAX_FIELD_LENGTH,
  type RulesDocument,
  type RulesField,
  type TypeRule,
} from "./rulesDocument";

const DAY_SECONDS = 86_400;

/** What one type's award pays: its XP and, for a per-unit rule, the units it was paid for. */
export interface Pay {
  xp: number;
  units?: number;
}

/** One event type of a version, compiled: what decoding, keys, staleness and the award plan read. */
export interface CompiledType {
  type: string;
  /** The event's `data`, `userId` included; fields the type does not declare are stripped. */
  schema: z.ZodType<Record<string, unknown> & { userId: string }>;
  /** The intent key's parts (§4): userId, the key fields' values (an integer as its shortest decimal), the type. */
  keyParts(data: Readonly<Record<string, unknown>>): string[];
  /** The key's data fields, in order, and the kind of each (what `rewards guard` reads from `field=value`). */
  keyFields: ReadonlyArray<{ name: string; kind: RulesField["type"] }>;
  pays(data: Readonly<Record<string, unknown>>): Pay;
  /** The guard's life: the longest memory the type has ever had; undefined: forever. */
  guardTtlSeconds: number | undefined;
  /** The memory this version gives it (staleness is judged on it); undefined: forever. */
  memorySeconds: number | undefined;
  capped: boolean;
  /** The day the intent is about (the `day` field), for staleness and streaks. */
  day(data: Readonly<Record<string, unknown>>): string | undefined;
  keepsStreak: boolean;
  retired: boolean;
}

export interface CompiledRules {
  /** The version compiled: 0 for the built-in rules. */
  version: number;
  types: ReadonlyMap<string, CompiledType>;
  /** Its campaigns, judged on an award's event time (`campaignPay`). */
  campaigns: readonly Campaign[];
  /** Its achievements with the instants they count between (timedAchievementsOf). */
  achievements: readonly TimedAchievement[];
}

function fieldSchema(field: RulesField): z.ZodType {
  if (field.type === "day") return z.iso.date();
  if (field.type === "integer")
    return z
      .number()
      .int()
      .min(field.minimum ?? Number.MIN_SAFE_INTEGER)
      .max(field.maximum ?? Number.MAX_SAFE_INTEGER);
  const string = text(field.minLength ?? 1, field.maxLength ?? MAX_FIELD_LENGTH);
  const allowed = field.enum;
  return allowed
    ? string.refine((value) => allowed.includes(value), `must be one of ${allowed.join(", ")}`)
    : string;
}

const secondsOf = (memory: Memory | undefined): number | undefined =>
  memory === undefined || memory === "forever" ? undefined : memory * DAY_SECONDS;

function compileType(type: string, rule: TypeRule, longest: Memory | undefined): CompiledType {
  const shape: Record<string, z.ZodType> = { userId: userIdSchema };
  for (const [name, field] of Object.entries(rule.data)) shape[name] = fieldSchema(field);
  const xp = rule.xp;
  const dayField = rule.day;
  return {
    type,
    schema: z.object(shape) as unknown as CompiledType["schema"],
    keyParts: (data) => [String(data.userId), ...rule.key.map((field) => String(data[field])), type],
    keyFields: rule.key.map((name) => ({ name, kind: (rule.data[name] as RulesField).type })),
    pays:
      typeof xp === "number"
        ? () => ({ xp })
        : (data) => {
            const units = Number(data[xp.per]);
            return { xp: Math.min(xp.max, xp.each * units), units };
          },
    // The longest ever, and never shorter than this version's own memory.
    guardTtlSeconds: secondsOf(
      longest === undefined || longerMemory(rule.memory, longest) ? rule.memory : longest,
    ),
    memorySeconds: secondsOf(rule.memory),
    capped: rule.capped,
    day: (data) => (dayField === undefined ? undefined : String(data[dayField])),
    keepsStreak: rule.keepsStreak,
    retired: rule.retired,
  };
}

/**
 * A version's document compiled (docs/rules.md): each type's schema, key, pay, guard life,
 * cap, day and streak, read in place of the fixed table. A guard lives as long as the longest
 * memory its type has ever had (`longestMemory`), so no version can find gone a guard that its
 * own memory still covers. Pure.
 */
export function compileRules(
  document: RulesDocument,
  longestMemory: LongestMemory = memoryOf(document),
  version = 0,
  achievementTimes?: AchievementTimes,
): CompiledRules {
  const types = new Map<string, CompiledType>();
  for (const [type, rule] of Object.entries(document.types))
    types.set(type, compileType(type, rule, longestMemory[type]));
  // A day's total needs no figure of its own: a capped type remembers at most 90 days
  // (checkRules), the built-in capped types' 90 that dayTotalExpiresAt keeps it for.
  return {
    version,
    types,
    campaigns: document.campaigns,
    achievements: timedAchievementsOf({ document, achievementTimes }),
  };
}

let builtin: CompiledRules | undefined;

/** Version 0 compiled, once: what decoding reads when no version is given (nothing published). */
export function builtinCompiled(): CompiledRules {
  if (builtin === undefined) {
    const checked = checkRules(BUILTIN_RULES);
    // Stryker disable next-line ConditionalExpression: the built-in rules pass their checks (a test holds them to it)
    if (!checked.ok) throw new Error("the built-in rules fail their checks");
    builtin = compileRules(checked.document);
  }
  return builtin;
}

/**
 * `rules` with every type paid, its retired ones too: what derives an intent's key for `rewards
 * revoke` and `guard` (docs/rules.md), which name intents paid before a type retired. Never
 * what pays. Pure.
 */
export function forKeys(rules: CompiledRules): CompiledRules {
  return {
    ...rules,
    types: new Map(
      [...rules.types].map(([type, rule]) => [type, rule.retired ? { ...rule, retired: false } : rule]),
    ),
  };
}

/** A version read from the table (or version 0), compiled: what a function or a command judges by. Pure. */
export function compileVersion(
  version: Readonly<{
    version: number;
    document: RulesDocument;
    longestMemory: LongestMemory;
    achievementTimes?: AchievementTimes | undefined;
  }>,
): CompiledRules {
  return version.version === 0
    ? builtinCompiled()
    : compileRules(version.document, version.longestMemory, version.version, version.achievementTimes);
}
