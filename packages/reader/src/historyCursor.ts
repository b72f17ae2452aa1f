import { createHash } from "node:crypto";
import { historyItemSchema } from "@rewards/core";
import { z } from "zod";
import { AWARD_SK_PREFIX } from "./historyLayout";

/**
 * A history page's cursor (docs/reading.md#cursors): base64url of
 * `{"v":2,"k":<the page's last sort key>,"d":<digest>}`, where the digest is SHA-256 over the
 * version, the user's id and the key. Opaque to callers. Pure.
 *
 * The digest is an integrity check, not a secret (the reader has none: it is embeddable and
 * reads no configuration): it refuses garbage, a cursor cut short or edited by hand, and
 * another user's cursor; someone who recomputes it can only place a page inside the history
 * of the user they already read, at a key the history could hold.
 */
const CURSOR_VERSION = 2;
/** Cursors before the digest: `{"v":1,"u":<userId>,"k":<sort key>}`. Refused, with their own message. */
const UNCHECKED_VERSION = 1;

const cursorSchema = z.strictObject({
  v: z.literal(CURSOR_VERSION),
  k: z.string(),
  d: z.string(),
});

function digestOf(userId: string, sk: string): string {
  return createHash("sha256")
    .update(JSON.stringify(["rewards-history-cursor", CURSOR_VERSION, userId, sk]))
    .digest("base64url");
}

const AWARD_SK = new RegExp(`^${AWARD_SK_PREFIX}([^#]+)#([^#]+)$`);

/** DynamoDB refuses a sort key over 1,024 bytes (as a page's start too). */
const MAX_SORT_KEY_BYTES = 1024;

/**
 * Whether `sk` is a key a history could have returned: `AWARD#<awardedAt>#<grant id>` (core's
 * `historyItemKey`), each part as a history item's schema takes it (an RFC 3339 instant;
 * `grant-` and 43 base64url characters).
 */
export function isHistorySortKey(sk: string): boolean {
  const [, awardedAt = "", id = ""] = AWARD_SK.exec(sk) ?? [];
  return (
    Buffer.byteLength(sk) <= MAX_SORT_KEY_BYTES &&
    historyItemSchema.shape.awardedAt.safeParse(awardedAt).success &&
    historyItemSchema.shape.id.safeParse(id).success
  );
}

/** The cursor that continues after the item with sort key `sk` of `userId`'s history. */
export function encodeCursor(userId: string, sk: string): string {
  return Buffer.from(JSON.stringify({ v: CURSOR_VERSION, k: sk, d: digestOf(userId, sk) })).toString(
    "base64url",
  );
}

/** What a cursor given for `userId` reads as: the sort key to continue after, or why not. */
export type DecodedCursor =
  | { ok: true; sk: string }
  | { ok: false; reason: "notOurs" }
  | { ok: false; reason: "olderVersion"; version: number };

/** Reads `cursor` for `userId`'s history: ours, for this user, intact, naming a history key. */
export function decodeCursor(userId: string, cursor: string): DecodedCursor {
  const notOurs = { ok: false, reason: "notOurs" } as const;
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return notOurs;
  const bytes = Buffer.from(cursor, "base64url");
  // Base64url decoding forgives trailing characters and stray bits: a cursor with a letter
  // added still decodes to the same JSON. Only the exact text we encode is ours.
  if (bytes.toString("base64url") !== cursor) return notOurs;
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString("utf8"));
  } catch {
    return notOurs;
  }
  if (typeof json === "object" && json !== null && "v" in json && json.v === UNCHECKED_VERSION)
    return { ok: false, reason: "olderVersion", version: UNCHECKED_VERSION };
  const parsed = cursorSchema.safeParse(json);
  if (!parsed.success) return notOurs;
  const { k: sk, d: digest } = parsed.data;
  if (digest !== digestOf(userId, sk) || !isHistorySortKey(sk)) return notOurs;
  return { ok: true, sk };
}
