import type { z } from "zod";
import type { Award } from "../award/award";
import { type ParkReason, parkReason } from "../park/parkReason";
import { dayOf, type EventType, isEventType, keyPartsOf, rules } from "../rules/rules";
import { envelopeSchema } from "./envelope";
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
export function decodeEvent(body: string): Decoded {
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
  const validated = validateEvent(unwrapped.event);
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
 * The one validation producers and the worker share: the envelope, a known type, and
 * that type's data. A value that passes here is paid when it reaches the worker.
 */
export function validateEvent(value: unknown): Validated {
  const envelope = envelopeSchema.safeParse(value);
  if (!envelope.success) {
    return { ok: false, code: "invalid_event", issues: toIssues(envelope.error.issues) };
  }
  const { type, data, id, time } = envelope.data;
  if (!isEventType(type)) {
    return {
      ok: false,
      code: "unknown_type",
      issues: [{ path: "type", message: `no reward rule for type "${type}"` }],
    };
  }
  return decodeData(type, data, id, time);
}

function decodeData(
  type: EventType,
  data: unknown,
  eventId: string,
  time: string | undefined,
): { ok: true; award: Award } | { ok: false; code: "invalid_event"; issues: EventIssue[] } {
  const rule = rules[type];
  const parsed = rule.schema.safeParse(data);
  if (!parsed.success) {
    return { ok: false, code: "invalid_event", issues: toIssues(parsed.error.issues, ["data"]) };
  }
  const keyParts = keyPartsOf(type, parsed.data);
  const day = dayOf(type, parsed.data);
  const { userId, ...rest } = parsed.data;
  return {
    ok: true,
    award: {
      intentKey: intentKey(keyParts),
      userId,
      type,
      amount: rule.xp,
      data: rest,
      eventId,
      guardTtlSeconds: rule.guardTtlSeconds,
      ...(time === undefined ? {} : { time }),
      ...(day === undefined ? {} : { day }),
    },
  };
}
