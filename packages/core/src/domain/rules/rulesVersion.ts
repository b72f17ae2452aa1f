import { z } from "zod";
import { type AchievementTimes, achievementTimesSchema } from "./achievementTimes";
import { BUILTIN_RULES, BUILTIN_RULES_VERSION } from "./builtinRules";
import { checkRules } from "./checkRules";
import { longerMemory, type Memory, memoryOf } from "./checkRulesChange";
import { rulesDigest } from "./rulesDigest";
import type { RulesDocument } from "./rulesDocument";
import { describeRulesProblems } from "./rulesProblem";

const digest = z.string().regex(/^[0-9a-f]{64}$/, "a SHA-256, 64 hex digits");
const published = z.iso.datetime();
const memory = z.union([z.number().int().min(2), z.literal("forever")]);

/** REWARDS_RULES_REFRESH_SECONDS when unset: how often a function or a reader re-reads `CURRENT` at most (docs/rules.md#at-run-time). */
export const DEFAULT_RULES_REFRESH_SECONDS = 30;

/** `CURRENT` (docs/rules.md#versions): which version is in force, and its digest. */
export const rulesPointerSchema = z.object({
  version: z.number().int().min(1),
  digest,
  publishedAt: published,
});
export type RulesPointer = z.infer<typeof rulesPointerSchema>;

/** A `V#` item: a published version, never changed. */
export const rulesVersionItemSchema = z.object({
  version: z.number().int().min(1),
  document: z.unknown(),
  digest,
  publishedAt: published,
  note: z.string().optional(),
  /** Each type's longest memory over every version up to this one: what the next may not exceed. */
  longestMemory: z.record(z.string(), memory),
  /** When each achievement added or retired since version 0 began or stopped counting. */
  achievementTimes: achievementTimesSchema.optional(),
});

/** A version a function may use: checked, its digest verified. */
export interface RulesVersion {
  version: number;
  /** Absent for version 0 (never published). */
  publishedAt?: string;
  note?: string;
  document: RulesDocument;
  digest: string;
  longestMemory: Readonly<Record<string, Memory>>;
  /** When achievements added or retired by published versions began or stopped counting (achievementTimes.ts). */
  achievementTimes?: AchievementTimes | undefined;
}

/** Version 0: the built-in rules, in force while nothing is published. */
export function builtinVersion(): RulesVersion {
  const checked = checkRules(BUILTIN_RULES);
  // Stryker disable next-line ConditionalExpression: the built-in rules pass their checks (a test holds them to it)
  if (!checked.ok)
    throw new Error(`the built-in rules fail their checks: ${describeRulesProblems(checked.problems)}`);
  return {
    version: BUILTIN_RULES_VERSION,
    document: checked.document,
    digest: rulesDigest(checked.document),
    longestMemory: memoryOf(checked.document),
  };
}

export type VerifiedVersion = { ok: true; version: RulesVersion } | { ok: false; why: string };

/**
 * A stored version, verified before anything uses it (docs/rules.md#at-run-time): the pointer and
 * the item are well formed and name one version; the document passes its checks (its format
 * is one this code reads); its digest is the one published with it, on the item and on the
 * pointer. A hand-edited `CURRENT` or `V#` item fails here, and is never used. Pure.
 */
export function verifiedVersion(pointerItem: unknown, versionItem: unknown): VerifiedVersion {
  const pointer = rulesPointerSchema.safeParse(pointerItem);
  if (!pointer.success)
    return { ok: false, why: `CURRENT is not a pointer: ${z.prettifyError(pointer.error)}` };
  const { version } = pointer.data;
  if (versionItem === undefined)
    return { ok: false, why: `CURRENT names version ${version}, which has no item` };
  const item = rulesVersionItemSchema.safeParse(versionItem);
  if (!item.success)
    return { ok: false, why: `version ${version}'s item is malformed: ${z.prettifyError(item.error)}` };
  if (item.data.version !== version)
    return { ok: false, why: `CURRENT names version ${version}, its item says ${item.data.version}` };
  const checked = checkRules(item.data.document);
  if (!checked.ok)
    return {
      ok: false,
      why: `version ${version} fails its checks: ${describeRulesProblems(checked.problems).replaceAll("\n", "; ")}`,
    };
  // Not covered by the digest: every type's guard life must be at least its memory here.
  for (const [type, rule] of Object.entries(checked.document.types)) {
    const longest = item.data.longestMemory[type];
    if (longest === undefined || longerMemory(rule.memory, longest))
      return {
        ok: false,
        why: `version ${version}'s longestMemory for ${type} (${longest ?? "none"}) is shorter than its memory (${rule.memory})`,
      };
  }
  // Not covered by the digest either: no achievement counts from after its own version's publish.
  for (const [id, times] of Object.entries(item.data.achievementTimes ?? {}))
    for (const at of [times.since, times.retiredAt])
      if (at !== undefined && Date.parse(at) > Date.parse(item.data.publishedAt))
        return {
          ok: false,
          why: `version ${version}'s achievementTimes for ${id} (${at}) are after its publishedAt (${item.data.publishedAt})`,
        };
  const actual = rulesDigest(checked.document);
  if (actual !== item.data.digest || actual !== pointer.data.digest)
    return {
      ok: false,
      why: `version ${version}'s document does not have the digest published with it (document ${actual}, item ${item.data.digest}, CURRENT ${pointer.data.digest})`,
    };
  return {
    ok: true,
    version: {
      version,
      publishedAt: item.data.publishedAt,
      ...(item.data.note === undefined ? {} : { note: item.data.note }),
      document: checked.document,
      digest: actual,
      longestMemory: item.data.longestMemory,
      ...(item.data.achievementTimes === undefined ? {} : { achievementTimes: item.data.achievementTimes }),
    },
  };
}
