import type { z } from "zod";
import type { Award } from "./award";
import { envelopeSchema } from "./envelope";
import { intentKey } from "./intentKey";
import { type ParkReason, parkReason } from "./parkReason";
import { type EventType, isEventType, rules } from "./rules";

export type Decoded = { ok: true; award: Award } | { ok: false; park: ParkReason };

/** `data.userId: Too small; type: Invalid input` — zod issues as paths a person can act on. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

/**
 * Turns an SQS message body into an award, or says why it never can. Pure: the same body
 * always gives the same answer, which is what makes parking (rather than retrying) safe.
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
  const envelope = envelopeSchema.safeParse(json);
  if (!envelope.success) {
    return { ok: false, park: parkReason("invalid_event", describeIssues(envelope.error.issues)) };
  }
  const { type, data, id } = envelope.data;
  if (!isEventType(type)) {
    return { ok: false, park: parkReason("unknown_type", `no reward rule for type "${type}"`) };
  }
  return decodeData(type, data, id);
}

function decodeData(type: EventType, data: unknown, eventId: string): Decoded {
  const rule = rules[type];
  const parsed = rule.schema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({ ...issue, path: ["data", ...issue.path] }));
    return { ok: false, park: parkReason("invalid_event", describeIssues(issues)) };
  }
  // The schema for `type` validated this data, so the rule's key parts accept it.
  const keyParts = (rule.keyParts as (data: unknown) => string[])(parsed.data);
  return {
    ok: true,
    award: {
      intentKey: intentKey(keyParts),
      userId: parsed.data.userId,
      type,
      amount: rule.xp,
      eventId,
      guardTtlSeconds: rule.guardTtlSeconds,
    },
  };
}
