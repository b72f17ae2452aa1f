import { z } from "zod";
import { rewardAchievedSchema } from "../announce/rewardAchieved";
import { rewardGrantedSchema, rewardRevokedSchema } from "../announce/rewardGranted";
import type { CompiledRules } from "../rules/compileRules";
import { type EventType, eventTypes, rules } from "../rules/rules";
import { envelopeSchema } from "./envelope";

/** The whole event of one type, as zod: the envelope with that type's `data`. */
function eventSchemaFor(type: EventType) {
  const rule = rules[type];
  return envelopeSchema.extend({ type: z.literal(type), data: rule.schema }).meta({
    title: type,
    description:
      `A ${type} event: pays ${rule.xp} XP once per intent ` +
      `(${rule.guardTtlSeconds === undefined ? "kept forever" : `the guard lives ${rule.guardTtlSeconds / 86_400} days`}). ` +
      "Text must be well-formed Unicode; unknown fields are ignored.",
  });
}

/**
 * Without `format`: its patterns say the same (`day`'s even checks the calendar), and a
 * validator with default options then needs no format plug-in (Ajv refuses unknown formats).
 */
const withoutFormats = (schema: unknown): unknown =>
  // A reviver that returns undefined drops the key, at any depth.
  JSON.parse(JSON.stringify(schema), (key, value) => (key === "format" ? undefined : value));

// Input, so unknown fields stay allowed (no additionalProperties: false): the worker ignores them.
const toJson = (schema: z.ZodType) =>
  // Stryker disable next-line StringLiteral: zod's generator treats every io but "output" as input
  withoutFormats(z.toJSONSchema(schema, { io: "input" })) as Record<string, unknown>;

/**
 * The JSON Schema (draft 2020-12) of one event type, or of any event. Generated from the
 * zod schemas the worker validates with, so other languages validate against the truth.
 * (What JSON Schema cannot say — well-formed Unicode, a real calendar date in `time` — the
 * worker still checks.) Any event dispatches on `type` (`if`/`then`), so a validator names
 * the failing field of that type's schema, not a failure of every branch.
 */
export function eventJsonSchema(type?: EventType): Record<string, unknown> {
  if (type) return toJson(eventSchemaFor(type));
  const branches = eventTypes.map((each) => {
    const { $schema: _schema, ...branch } = toJson(eventSchemaFor(each));
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, never awaited
    return { if: { properties: { type: { const: each } }, required: ["type"] }, then: branch };
  });
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "reading event",
    description: `A reading event of one of the types ${eventTypes.join(", ")} (CloudEvents 1.0, structured JSON mode).`,
    type: "object",
    properties: { type: { enum: eventTypes, description: "the event type; one of the reward rules" } },
    required: ["type"],
    allOf: branches,
  };
}

/**
 * The JSON Schema of one type, or of any event, of a published version (docs/rules.md): each
 * type it pays (not a retired one) with its `data` as the version defines it. Version 0 is
 * `eventJsonSchema`'s, unchanged.
 */
export function versionEventJsonSchema(compiled: CompiledRules, type?: string): Record<string, unknown> {
  if (compiled.version === 0) return eventJsonSchema(type as EventType | undefined);
  const paid = [...compiled.types.values()].filter((rule) => !rule.retired);
  const schemaOf = (rule: (typeof paid)[number]) =>
    toJson(
      envelopeSchema.extend({ type: z.literal(rule.type), data: rule.schema }).meta({
        title: rule.type,
        description: `A ${rule.type} event of rules version ${compiled.version}: paid once per intent. Unknown fields are ignored.`,
      }),
    );
  const one = paid.find((rule) => rule.type === type);
  if (type !== undefined) return one === undefined ? {} : schemaOf(one);
  const names = paid.map((rule) => rule.type);
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "reading event",
    description: `An event of one of the types of rules version ${compiled.version}: ${names.join(", ")} (CloudEvents 1.0, structured JSON mode).`,
    type: "object",
    properties: { type: { enum: names, description: "the event type; one the rules in force pay" } },
    required: ["type"],
    allOf: paid.map((rule) => {
      const { $schema: _schema, ...branch } = schemaOf(rule);
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, never awaited
      return { if: { properties: { type: { const: rule.type } }, required: ["type"] }, then: branch };
    }),
  };
}

/** The JSON Schema of `reward.granted`, the event the announcer publishes for every award. */
export function rewardGrantedJsonSchema(): Record<string, unknown> {
  return toJson(rewardGrantedSchema);
}

/** The JSON Schema of `reward.revoked`, the event the announcer publishes for every revocation. */
export function rewardRevokedJsonSchema(): Record<string, unknown> {
  return toJson(rewardRevokedSchema);
}

/** The JSON Schema of `reward.achieved`, the event the announcer publishes for every achievement earned. */
export function rewardAchievedJsonSchema(): Record<string, unknown> {
  return toJson(rewardAchievedSchema);
}
