import { createHash } from "node:crypto";

/** Past this many UTF-8 bytes the escaped key is replaced by its hash. */
export const MAX_INTENT_KEY_BYTES = 1024;

/** `%` first, so the `%` that `#` escapes into is never escaped again. */
function escapePart(part: string): string {
  return part.replaceAll("%", "%25").replaceAll("#", "%23");
}

/**
 * The intent key (docs/events.md): what an award is for, independent of the message that
 * carried it. Escaping makes the join injective: distinct part lists never share a key.
 */
export function intentKey(parts: readonly string[]): string {
  const key = parts.map(escapePart).join("#");
  // Buffer and Hash take text as UTF-8 (the key's bytes are its UTF-8 bytes).
  if (Buffer.byteLength(key) <= MAX_INTENT_KEY_BYTES) return key;
  return `sha256:${createHash("sha256").update(key).digest("base64url")}`;
}
