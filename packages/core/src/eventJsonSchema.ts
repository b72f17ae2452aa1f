import { z } from "zod";
import { envelopeSchema } from "./envelope";
import { type EventType, eventTypes, rules } from "./rules";

/** The whole event of one type, as zod: the envelope with that type's `data`. */
export function eventSchemaFor(type: EventType) {
  const rule = rules[type];
  return envelopeSchema.extend({ type: z.literal(type), data: rule.schema }).meta({
    title: type,
    description:
      `A ${type} event: pays ${rule.xp} XP once per intent ` +
      `(${rule.guardTtlSeconds === undefined ? "kept forever" : `the guard lives ${rule.guardTtlSeconds / 86_400} days`}). ` +
      "Text must be well-formed Unicode; unknown fields are ignored.",
  });
}

// Input, so unknown fields stay allowed (no additionalProperties: false): the worker ignores them.
// Stryker disable next-line StringLiteral: zod's generator treats every io but "output" as input
const toJson = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "input" });

/**
 * The JSON Schema (draft 2020-12) of one event type, or of any event. Generated from the
 * zod schemas the worker validates with, so other languages validate against the truth.
 * (What JSON Schema cannot say — well-formed Unicode, a real calendar date in `time` — the
 * worker still checks.)
 */
export function eventJsonSchema(type?: EventType): Record<string, unknown> {
  if (type) return toJson(eventSchemaFor(type));
  const { $schema, ...anyOf } = toJson(
    z.union(eventTypes.map(eventSchemaFor) as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]),
  );
  return {
    $schema,
    title: "reading event",
    description: `A reading event of one of the types ${eventTypes.join(", ")} (CloudEvents 1.0, structured JSON mode).`,
    ...anyOf,
  };
}
