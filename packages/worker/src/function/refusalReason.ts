import { dayTotalKey, profileKey, type Refusal, type RefusedItem } from "@rewards/core";
import { describeErrorAlone } from "@rewards/core/aws";

/**
 * The reason a rejected award is parked with (its `rewards.reason`): each refused item in
 * words an operator can act on — for a profile, the command that repairs it — then the
 * error itself for reference (without the call: the items say what it was about).
 */
export function refusalReason(refused: readonly Refusal[], error: unknown, userId: string): string {
  const items = refused.map(({ item, said }) => refusedItemReason(item, said, userId));
  return `${items.join("; ")} (${describeErrorAlone(error)})`;
}

/** One refused item, with DynamoDB's own words. */
export function refusedItemReason(item: RefusedItem, said: string, userId: string): string {
  if (item.kind === "guard") return `the award's guard item was refused: ${said}`;
  if (item.kind === "day")
    return `the day total of user ${JSON.stringify(userId)} for ${item.day} (${dayTotalKey(userId, item.day).pk}, ${dayTotalKey(userId, item.day).sk}) was refused: ${said}`;
  return (
    `the profile of user ${JSON.stringify(userId)} (${profileKey(userId).pk}) was refused: ${said} — ` +
    `the award adds to its xp, awards and its type's count (count:<type>), which must all be numbers, ` +
    `and stamps its updatedAt, which must be an instant; ` +
    `repair xp and updatedAt with \`rewards user ${shellWord(userId)} --set-xp <n> --yes\` ` +
    `(awards or a count by hand: docs/operations.md#repairing-a-profile), then replay`
  );
}

/** `userId` as one shell word: bare when it is plainly safe, else single-quoted. */
function shellWord(text: string): string {
  return /^[\w.@:+-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
