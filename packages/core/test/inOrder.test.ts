import { describe, expect, it } from "vitest";
import { againInOrder } from "../src/domain";
import type { AwardVerdict } from "../src/domain/award/awardPlan";

const again: AwardVerdict = { kind: "again" };
const paid: AwardVerdict = { kind: "paid_before", guard: undefined };
const refused: AwardVerdict = {
  kind: "refused",
  items: [{ item: { kind: "profile" }, said: "ValidationError" }],
};

describe("againInOrder: which awards of a cancelled transaction go again (docs/awards.md#one-transaction-per-user)", () => {
  it("a standard queue sends every `again` award at once, refused or not before it", () => {
    expect(againInOrder([again, refused, again, paid, again], false)).toEqual({
      again: [0, 2, 4],
      held: [],
    });
  });

  it("in order, the awards after the first refused one wait for its park", () => {
    expect(againInOrder([again, refused, again, paid, again], true)).toEqual({
      again: [0],
      held: [2, 4],
    });
  });

  it("a paid-before award is neither sent nor held, and does not hold what follows", () => {
    expect(againInOrder([paid, again, paid, again], true)).toEqual({ again: [1, 3], held: [] });
  });

  it("a second refusal keeps holding; nothing before the first is held", () => {
    expect(againInOrder([again, again, refused, refused, again], true)).toEqual({
      again: [0, 1],
      held: [4],
    });
  });

  it("nothing to send: no positions at all", () => {
    expect(againInOrder([], true)).toEqual({ again: [], held: [] });
    expect(againInOrder([refused, paid], true)).toEqual({ again: [], held: [] });
  });
});
