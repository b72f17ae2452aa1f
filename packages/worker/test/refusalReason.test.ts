import { describe, expect, it } from "vitest";
import { refusalReason, refusedItemReason } from "../src/function/refusalReason";

// The words a rejected award is parked with; the award path (core awardTogether) says which
// items were refused, the worker says it to the operator.
describe("refusalReason", () => {
  it("names the refused item and DynamoDB's words for it", () => {
    const error = Object.assign(new Error("Transaction cancelled"), {
      name: "TransactionCanceledException",
      CancellationReasons: [
        { Code: "ValidationError", Message: "guard too big" },
        {
          Code: "ValidationError",
          Message: "An operand in the update expression has an incorrect data type",
        },
      ],
    });
    const refused = [
      { item: { kind: "guard" as const }, said: "guard too big" },
      {
        item: { kind: "profile" as const },
        said: "An operand in the update expression has an incorrect data type",
      },
    ];
    expect(refusalReason(refused, error, "u1")).toBe(
      'the award\'s guard item was refused: guard too big; the profile of user "u1" (USER#u1) was refused: ' +
        "An operand in the update expression has an incorrect data type — the award adds to its xp, awards and " +
        "its type's count (count:<type>), which must all be numbers, and stamps its updatedAt, which must be an instant; repair xp and updatedAt with `rewards user u1 --set-xp <n> --yes` " +
        "(awards or a count by hand: docs/operations.md#repairing-a-profile), then replay " +
        "(TransactionCanceledException [ValidationError, ValidationError]: Transaction cancelled)",
    );
    expect(refusedItemReason({ kind: "profile" }, "ItemCollectionSizeLimitExceeded", "u2")).toMatch(
      /^the profile of user "u2" \(USER#u2\) was refused: ItemCollectionSizeLimitExceeded — /,
    );
    expect(refusedItemReason({ kind: "day", day: "2026-12-01" }, "no", "u3")).toBe(
      'the day total of user "u3" for 2026-12-01 (USER#u3, DAY#2026-12-01) was refused: no',
    );
  });

  it("quotes a user id for the shell in the repair command when it is not plainly safe", () => {
    const repair = (userId: string) =>
      /`(rewards user .*) --set-xp/.exec(refusedItemReason({ kind: "profile" }, "bad xp", userId))?.[1];
    expect(repair("ann.lee@example.com")).toBe("rewards user ann.lee@example.com");
    expect(repair("ann lee")).toBe("rewards user 'ann lee'");
    expect(repair("o'brien;rm")).toBe("rewards user 'o'\\''brien;rm'");
    expect(repair(" x")).toBe("rewards user ' x'");
  });
});
