import { createHash } from "node:crypto";
import type { RulesDocument } from "./rulesDocument";

/** A value as JSON with every object's keys sorted: one text per document, however it was written. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

/**
 * A document's SHA-256 (docs/rules.md#versions), hex: over its canonical JSON, every default
 * filled in, so YAML and JSON of one document, or its keys in another order, have one digest.
 * A function uses a version only when its document still has the digest published with it.
 */
export function rulesDigest(document: RulesDocument): string {
  return createHash("sha256").update(canonicalJson(document)).digest("hex");
}
