import type { z } from "zod";
import type { Award } from "../award/award";
import { type ParkReason, parkReason } from "../park/parkReason";
import { builtinCompiled, type CompiledRules, type CompiledType } from "../rules/compileRules";
import { TYPE_NAME } from "../rules/rulesDocument";
import { envelopeSchema, userIdSchema } from "./envelope";
import { intentKey } from "./intentKey";
import { layerPrefix, unwrapEnvelope } from "./unwrapEnvelope";

export type Decoded = { ok: true; award: Award } | { ok: false; park: ParkReason };

/** `data.userId: Too small; type: Invalid input` — issues as paths a person can act on. */
export function describeIssues(issues: readonly EventIssue[]): string {
  return issues.map(({ path, message }) => (path ? `${path}: ${message}` : message)).join("; ");
}

/**
 * Turns an SQS message body into an award, or says why it never can. The body is an event,
 * or an SNS notification or EventBridge event carrying one (docs/events.md); a reason names the
 * layer it found the problem in. Pure: the same body always gives the same answer, which
 * is what makes parking (rather than retrying) safe.
 */
export function decodeEvent(body: string, rules: CompiledRules = builtinCompiled()): Decoded {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    return {
      ok: false,
      park: parkReason("invalid_json", `body is not JSON: ${(error as Error).message}`),
    };
  }
  const unwrapped = unwrapEnvelope(json);
  const prefix = layerPrefix(unwrapped.layers);
  if (!unwrapped.ok) return { ok: false, park: parkReason(unwrapped.code, `${prefix}${unwrapped.reason}`) };
  const validated = validateEvent(unwrapped.event, rules);
  if (!validated.ok) {
    return { ok: false, park: parkReason(validated.code, `${prefix}${describeIssues(validated.issues)}`) };
  }
  return { ok: true, award: validated.award };
}

export interface EventIssue {
  /** Dotted path into the event, `data.userId`; empty for the event itself. */
  path: string;
  message: string;
}

export type Validated =
  | { ok: true; award: Award }
  | { ok: false; code: "invalid_event" | "unknown_type"; issues: EventIssue[] };

/** zod issues as dotted paths, optionally under a prefix (`data`). */
export function toIssues(issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[] = []): EventIssue[] {
  return issues.map((issue) => ({
    path: [...prefix, ...issue.path].map(String).join("."),
    message: issue.message,
  }));
}

/**
 * The one validation producers and the worker share: the envelope, a type the rules pay (a
 * retired one is unknown), and that type's data. A value that passes here is paid when it
 * reaches the worker under the same rules (by default version 0, the built-in rules).
 */
export function validateEvent(value: unknown, rules: CompiledRules = builtinCompiled()): Validated {
  const envelope = envelopeSchema.safeParse(value);
  if (!envelope.success) {
    return { ok: false, code: "invalid_event", issues: toIssues(envelope.error.issues) };
  }
  const { type, data, id, time } = envelope.data;
  const rule = rules.types.get(type);
  if (rule === undefined || rule.retired) {
    const version = rules.version > 0 ? ` in rules version ${rules.version}` : "";
    return {
      ok: false,
      code: "unknown_type",
      issues: [
        {
          path: "type",
          message: `no reward rule for type "${type}"${rule?.retired ? " (retired)" : ""}${version}`,
        },
      ],
    };
  }
  return decodeData(rule, rules.version, data, id, time);
}

function decodeData(
  rule: CompiledType,
  rulesVersion: number,
  data: unknown,
  eventId: string,
  time: string | undefined,
): { ok: true; award: Award } | { ok: false; code: "invalid_event"; issues: EventIssue[] } {
  const parsed = rule.schema.safeParse(data);
  if (!parsed.success) {
    return { ok: false, code: "invalid_event", issues: toIssues(parsed.error.issues, ["data"]) };
  }
  const day = rule.day(parsed.data);
  const { userId, ...rest } = parsed.data;
  const pay = rule.pays(parsed.data);
  return {
    ok: true,
    award: {
      intentKey: intentKey(rule.keyParts(parsed.data)),
      userId,
      type: rule.type,
      amount: pay.xp,
      data: rest as Record<string, string | number>,
      eventId,
      guardTtlSeconds: rule.guardTtlSeconds,
      ...(time === undefined ? {} : { time }),
      ...(day === undefined ? {} : { day }),
      // Under a published version, the facts the guard records (version 0's are the type's own).
      ...(rulesVersion === 0
        ? {}
        : {
            rulesVersion,
            capped: rule.capped,
            ...(pay.units === undefined ? {} : { units: pay.units }),
            ...(rule.keepsStreak && day !== undefined ? { keepsDay: day } : {}),
            ...(rule.memorySeconds !== rule.guardTtlSeconds ? { memorySeconds: rule.memorySeconds } : {}),
          }),
    },
  };
}

/**
 * What a producer may send (docs/events.md): an event of a built-in type, checked as the worker
 * checks it under the built-in rules; or of any other type name (dotted lowercase words, not
 * `reward.*`) with `data.userId` — a type a site's rules define, which the worker judges under
 * the version in force when it arrives (parked `unknown_type` until one defines it). Pure.
 */
export function validatePublished(value: unknown): { ok: true } | { ok: false; issues: EventIssue[] } {
  const validated = validateEvent(value);
  if (validated.ok || validated.code !== "unknown_type") return validated.ok ? { ok: true } : validated;
  const envelope = envelopeSchema.parse(value);
  if (!TYPE_NAME.test(envelope.type) || envelope.type.startsWith("reward."))
    return {
      ok: false,
      issues: [
        {
          path: "type",
          message: `"${envelope.type.slice(0, 64)}" is no event type name: dotted lowercase words, not reward.*`,
        },
      ],
    };
  const user = userIdSchema.safeParse(envelope.data.userId);
  return user.success ? { ok: true } : { ok: false, issues: toIssues(user.error.issues, ["data", "userId"]) };
}
