import { describe, expect, it } from "vitest";
import { heldFrom, sumAttempts } from "../src/function/processMessage";

const held = { outcome: "held" };
const awarded = { outcome: "awarded" };

describe("heldFrom: the awards a FIFO run still has to send (docs/awards.md#one-transaction-per-user)", () => {
  it("the held positions from the given one on, in order", () => {
    expect(heldFrom([awarded, held, awarded, held, held], 1)).toEqual([1, 3, 4]);
  });

  it("positions before `from` are not sent again, held or not", () => {
    expect(heldFrom([held, held, awarded, held], 2)).toEqual([3]);
  });

  it("nothing held, or `from` past the end: nothing to send", () => {
    expect(heldFrom([awarded, awarded], 0)).toEqual([]);
    expect(heldFrom([held], 1)).toEqual([]);
  });
});

describe("sumAttempts: a held award counts the transactions that held it", () => {
  it("keeps the new outcome and adds the attempts", () => {
    expect(sumAttempts({ outcome: "held", attempts: 2 }, { outcome: "duplicate", attempts: 3 })).toEqual({
      outcome: "duplicate",
      attempts: 5,
    });
  });
});
