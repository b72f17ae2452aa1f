import { z } from "zod";
import { decodeEvent, describeIssues, toIssues } from "../events/decodeEvent";
import { builtinCompiled, type CompiledRules, forKeys } from "../rules/compileRules";

/** A line of `rewards revoke`'s input: the intent it names, or why it names none. */
export type RevokeLine = { ok: true; intentKey: string } | { ok: false; reason: string };

/** `{"intentKey": "…"}`: an intent named by its key (as `rewards guard` and the announcements show it). */
const intentKeyLineSchema = z.strictObject({ intentKey: z.string().min(1, "must not be empty") });

/**
 * Reads one NDJSON line (docs/revoking.md#using-it): `{"intentKey": "…"}`, or an event as
 * `rewards publish` takes it, wrappers and all, whose intent key is derived exactly as the
 * worker derives it. Pure.
 */
export function parseRevokeLine(text: string, rules: CompiledRules = builtinCompiled()): RevokeLine {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `not JSON: ${(error as Error).message}` };
  }
  if (typeof json === "object" && json !== null && "intentKey" in json) {
    const named = intentKeyLineSchema.safeParse(json);
    if (!named.success) return { ok: false, reason: describeIssues(toIssues(named.error.issues)) };
    return { ok: true, intentKey: named.data.intentKey };
  }
  // Keys of retired types too: an intent paid before its type retired is still revoked.
  const decoded = decodeEvent(text, forKeys(rules));
  if (!decoded.ok) return { ok: false, reason: decoded.park.reason };
  return { ok: true, intentKey: decoded.award.intentKey };
}
