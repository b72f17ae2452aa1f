import type { AwardVerdict } from "./awardPlan";

/**
 * Which awards of a cancelled transaction go again now, and which wait (FIFO order,
 * docs/awards.md#one-transaction-per-user).
 * `again` verdicts go again at once, except, in order, those after the first `refused` one:
 * a refused award is parked by the caller, and a park can fail — then every later record of
 * its group must stay unpaid. They are `held`: the caller sends them once the park held.
 * Positions are the verdicts'; without `inOrder` nothing is held. Pure.
 */
export function againInOrder(
  verdicts: readonly AwardVerdict[],
  inOrder: boolean,
): { again: number[]; held: number[] } {
  const again: number[] = [];
  const held: number[] = [];
  let refused = false;
  verdicts.forEach((verdict, at) => {
    if (verdict.kind === "refused") refused = inOrder;
    else if (verdict.kind === "again") (refused ? held : again).push(at);
  });
  return { again, held };
}
