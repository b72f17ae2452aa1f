/**
 * A stored item the reader cannot read as its layout says (a profile whose `xp` is text,
 * say — what `rewards user <id> --set-xp` repairs). Names the item's key and what is wrong.
 */
export class UnreadableItemError extends Error {
  override readonly name = "UnreadableItemError";
  constructor(
    readonly key: { pk: string; sk: string },
    readonly problem: string,
  ) {
    super(`the item ${key.pk} ${key.sk} cannot be read: ${problem}`);
  }
}
