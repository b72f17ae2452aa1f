import { z } from "zod";
import { AWARD_SK_PREFIX } from "./historyLayout";

/**
 * A history page's cursor: base64url of `{"v":1,"u":<userId>,"k":<the page's last sort key>}`.
 * Opaque to callers; bound to the user it was made for, so a cursor of one user never pages
 * through another's history. Pure.
 */
const CURSOR_VERSION = 1;

const cursorSchema = z.object({
  v: z.literal(CURSOR_VERSION),
  u: z.string(),
  // DynamoDB refuses a sort key over 1,024 bytes: such a cursor was never ours.
  k: z
    .string()
    .startsWith(AWARD_SK_PREFIX)
    .refine((k) => Buffer.byteLength(k) <= 1024),
});

/** The cursor that continues after the item with sort key `sk` of `userId`'s history. */
export function encodeCursor(userId: string, sk: string): string {
  return Buffer.from(JSON.stringify({ v: CURSOR_VERSION, u: userId, k: sk })).toString("base64url");
}

/** The sort key to continue after, or undefined when `cursor` is not one we made for `userId`. */
export function decodeCursor(userId: string, cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  const parsed = cursorSchema.safeParse(json);
  if (!parsed.success || parsed.data.u !== userId) return undefined;
  return parsed.data.k;
}
