import { z } from "zod";

/**
 * The site's own rules as data (docs/rules.md): the document an operator writes, publishes as a
 * version to the table, and every function compiles instead of the fixed rules. This schema is
 * the source of its type and of `schemas/rules.schema.json`; what a schema cannot say (a key
 * naming a field that exists, a campaign on a type that exists, what a new version may not
 * change) is `checkRules` and `checkRulesChange`. Pure.
 */

/** The format this code reads; a document of another format is never used. */
export const RULES_FORMAT = 1;
/** The most a document may weigh, as text. */
export const MAX_RULES_BYTES = 300 * 1024;
/** The most days a `capped` type may remember an intent: a day total lives that long after its day. */
export const MAX_CAPPED_MEMORY_DAYS = 90;
/** A data field's longest string. */
export const MAX_FIELD_LENGTH = 512;

/** An event type's name: dotted lowercase words; `reward.*` are the bus's own events. */
export const TYPE_NAME = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/;
/**
 * An event type as guards, history items and announcements carry it: a built-in one or any a
 * version defines (docs/rules.md) — never checked against one version's list, since every fact
 * is taken from the guard (a type retired since still reads).
 */
export const eventTypeNameSchema = z
  .string()
  .regex(TYPE_NAME, "must be an event type name (dotted lowercase words)");
/** A data field's name: a JSON identifier the intent key and the history can carry. */
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
/** An achievement's or a campaign's id. */
const ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** Data fields no type may declare: the envelope's and the award's own. */
export const RESERVED_FIELDS = ["userId", "xp", "amount"] as const;

const whole = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const positive = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const instant = z.iso
  .datetime({ offset: true })
  .describe("RFC 3339 with an offset: 2026-12-05T00:00:00+01:00");

const stringField = z
  .object({
    type: z.literal("string"),
    minLength: z.number().int().min(1).max(MAX_FIELD_LENGTH).optional(),
    maxLength: z.number().int().min(1).max(MAX_FIELD_LENGTH).optional(),
    enum: z.array(z.string().min(1).max(MAX_FIELD_LENGTH)).min(1).max(1000).optional(),
  })
  .strict()
  .describe("a string of 1 to 512 characters (code points) unless narrowed; `enum` lists the only values");
const dayField = z
  .object({ type: z.literal("day") })
  .strict()
  .describe("a real calendar day, YYYY-MM-DD");
const integerField = z
  .object({
    type: z.literal("integer"),
    minimum: z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER).optional(),
    maximum: z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .strict()
  .describe("a safe integer, within the bounds given");
export const fieldSchema = z.discriminatedUnion("type", [stringField, dayField, integerField]);
export type RulesField = z.infer<typeof fieldSchema>;
/** The kinds a field can be: what an intent key's meaning depends on. */
export type FieldKind = RulesField["type"];

const perUnit = z
  .object({
    per: z.string().regex(FIELD_NAME).describe("an integer data field, not in the key, minimum ≥ 0"),
    each: whole.describe("XP per unit"),
    max: whole.describe("the most XP one award pays"),
  })
  .strict()
  .describe("min(max, each × value) XP: 1 XP a minute read, at most 60");
const memory = z.union([z.number().int().min(2).max(36_500), z.literal("forever")]);

export const typeRuleSchema = z
  .object({
    data: z
      .record(z.string().regex(FIELD_NAME), fieldSchema)
      .default({})
      .describe("the fields besides userId"),
    key: z
      .array(z.string().regex(FIELD_NAME))
      .max(16)
      .default([])
      .describe("the data fields of the intent key, in order: userId, these, the type name"),
    xp: z.union([whole, perUnit]).describe("XP an award pays: a whole number, or per unit"),
    memory: memory.describe("whole days (≥ 2) an intent is remembered, or forever"),
    capped: z.boolean().default(true).describe("counts toward the daily cap"),
    day: z.string().regex(FIELD_NAME).optional().describe("the key field of type day the intent is about"),
    keepsStreak: z.boolean().default(false).describe("a paid award keeps its day for streaks (needs day)"),
    retired: z.boolean().default(false).describe("no longer paid"),
  })
  .strict();
export type TypeRule = z.infer<typeof typeRuleSchema>;

export const campaignSchema = z
  .object({
    id: z.string().regex(ID),
    title: z.string().min(1).max(200),
    types: z.array(z.string().regex(TYPE_NAME)).min(1),
    from: instant.describe("the first instant of event time it applies to"),
    to: instant.describe("the first instant it no longer applies to"),
    multiplier: z.number().int().min(2).max(10).optional(),
    bonus: positive.optional(),
  })
  .strict()
  .refine((campaign) => (campaign.multiplier === undefined) !== (campaign.bonus === undefined), {
    message: "needs exactly one of multiplier and bonus",
  });
export type Campaign = z.infer<typeof campaignSchema>;

export const achievementConditionSchema = z.union([
  z.object({ count: z.string().regex(TYPE_NAME), reaches: positive }).strict(),
  z.object({ streak: z.number().int().min(2).max(3660) }).strict(),
  z.object({ xp: positive }).strict(),
]);
export type RulesAchievementCondition = z.infer<typeof achievementConditionSchema>;

export const achievementRuleSchema = z
  .object({
    id: z.string().regex(ID),
    title: z.string().min(1).max(200),
    description: z.string().min(1).max(1000).optional(),
    when: achievementConditionSchema,
    retired: z.boolean().default(false),
  })
  .strict();
export type AchievementRule = z.infer<typeof achievementRuleSchema>;

export const rulesDocumentSchema = z
  .object({
    format: z.number().int().min(1).describe(`the document's format: ${RULES_FORMAT}`),
    types: z
      .record(z.string().regex(TYPE_NAME), typeRuleSchema)
      .refine((types) => Object.keys(types).length > 0, { message: "needs at least one type" }),
    campaigns: z.array(campaignSchema).default([]),
    achievements: z.array(achievementRuleSchema).default([]),
  })
  .strict();
/** A document as written (defaults absent). */
export type RulesDocumentInput = z.input<typeof rulesDocumentSchema>;
/** A document read: every default filled in. */
export type RulesDocument = z.infer<typeof rulesDocumentSchema>;

/** The JSON Schema an editor checks a document with as it is typed (`schemas/rules.schema.json`). */
export function rulesJsonSchema(): Record<string, unknown> {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "rewards: the site's rules",
    description:
      "Checked as typed; `rewards rules check` is authoritative (a key naming a field that exists, what a new version may not change). docs/rules.md.",
    ...z.toJSONSchema(rulesDocumentSchema, { io: "input", unrepresentable: "any" }),
  };
}
