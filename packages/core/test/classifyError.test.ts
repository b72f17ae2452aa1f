import { describe, expect, it } from "vitest";
import { classifyError, describeError, type ErrorClass } from "../src";
import { isUnknownOutcome, refusalReason, refusedItemReason } from "../src/classifyError";

const cancelled = (...codes: string[]) =>
  Object.assign(new Error("Transaction cancelled"), {
    name: "TransactionCanceledException",
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
const named = (name: string, extra: object = {}) =>
  Object.assign(new Error(`${name} happened`), { name, ...extra });

const table: Array<[string, unknown, ErrorClass]> = [
  ["guard exists", cancelled("ConditionalCheckFailed", "None"), "duplicate"],
  [
    "guard exists while the profile conflicts",
    cancelled("ConditionalCheckFailed", "TransactionConflict"),
    "duplicate",
  ],
  // Only the guard's (item 0's) condition says "already paid"; the profile update has none.
  [
    "another item's condition failed, not the guard's",
    cancelled("None", "ConditionalCheckFailed"),
    "transient",
  ],
  ["conflict on the guard", cancelled("TransactionConflict", "None"), "transient"],
  ["conflict on the profile", cancelled("None", "TransactionConflict"), "transient"],
  ["throttled inside the transaction", cancelled("None", "ThrottlingError"), "transient"],
  ["provisioned throughput inside", cancelled("ProvisionedThroughputExceeded", "None"), "transient"],
  ["xp stored as a string", cancelled("None", "ValidationError"), "permanent"],
  // Whatever else is wrong, a conflict or throttling on any item may pass on another try.
  ["a conflict beside a validation error", cancelled("TransactionConflict", "ValidationError"), "transient"],
  ...[
    "ThrottlingError",
    "ProvisionedThroughputExceeded",
    "ProvisionedThroughputExceededException",
    "RequestLimitExceeded",
    "ThrottlingException",
    "TooManyRequestsException",
  ].map((code): [string, unknown, ErrorClass] => [
    `${code} beside a validation error`,
    cancelled("ValidationError", code),
    "transient",
  ]),
  [
    "a TransactionCanceledException with no reasons listed",
    named("TransactionCanceledException"),
    "transient",
  ],
  ["cancelled with no reasons", cancelled(), "transient"],
  ["ThrottlingException", named("ThrottlingException"), "transient"],
  ["ProvisionedThroughputExceededException", named("ProvisionedThroughputExceededException"), "transient"],
  ["RequestLimitExceeded", named("RequestLimitExceeded"), "transient"],
  ["ThrottlingError", named("ThrottlingError"), "transient"],
  ["InternalServerError", named("InternalServerError", { $metadata: { httpStatusCode: 500 } }), "transient"],
  ["503", named("ServiceUnavailable", { $metadata: { httpStatusCode: 503 } }), "transient"],
  ["connection reset", named("Error", { code: "ECONNRESET" }), "transient"],
  ["connection refused", named("Error", { code: "ECONNREFUSED" }), "transient"],
  ["connect timeout", named("Error", { code: "ETIMEDOUT" }), "transient"],
  ["socket hang up", new Error("socket hang up"), "transient"],
  ["SDK timeout", named("TimeoutError"), "transient"],
  ["aborted", named("AbortError"), "transient"],
  ["top-level ValidationException (a wrong table schema)", named("ValidationException"), "configuration"],
  ["item collection too large inside", cancelled("None", "ItemCollectionSizeLimitExceeded"), "permanent"],
  ["missing table", named("ResourceNotFoundException"), "configuration"],
  ["access denied", named("AccessDeniedException"), "configuration"],
  ["bad credentials", named("UnrecognizedClientException"), "configuration"],
  ["a request SQS or DynamoDB cannot read", named("SerializationException"), "configuration"],
  ["a bad signature", named("InvalidSignatureException"), "configuration"],
  ["no credentials sent", named("MissingAuthenticationTokenException"), "configuration"],
  ["a signature missing parts", named("IncompleteSignatureException"), "configuration"],
  ["token reused with other parameters", named("IdempotentParameterMismatchException"), "configuration"],
  [
    "500 with no name we know",
    named("InternalServerError", { $metadata: { httpStatusCode: 500 } }),
    "transient",
  ],
  ["something never seen", named("BrandNewException"), "transient"],
  ["not even an Error", "a string", "transient"],
  ["undefined", undefined, "transient"],
  ["null", null, "transient"],
];

describe("classifyError", () => {
  it.each(table)("%s → %s", (_label, error, expected) => {
    expect(classifyError(error)).toBe(expected);
  });
});

describe("isUnknownOutcome: an attempt whose fate nobody answered", () => {
  it.each([
    ["connection reset", named("Error", { code: "ECONNRESET" }), true],
    ["SDK timeout", named("TimeoutError"), true],
    ["aborted at the deadline", named("AbortError"), true],
    ["500", named("InternalServerError", { $metadata: { httpStatusCode: 500 } }), true],
    ["something never seen", named("BrandNewException"), true],
    ...[
      "ThrottlingError",
      "ProvisionedThroughputExceeded",
      "ProvisionedThroughputExceededException",
      "RequestLimitExceeded",
      "ThrottlingException",
      "TooManyRequestsException",
    ].map((name): [string, unknown, boolean] => [`${name} (an answer: nothing written)`, named(name), false]),
    ["a cancellation (an answer)", cancelled("None", "TransactionConflict"), false],
    ["a duplicate (an answer)", cancelled("ConditionalCheckFailed", "None"), false],
    ["a configuration error (an answer)", named("ResourceNotFoundException"), false],
    ["a permanent rejection (an answer)", cancelled("None", "ValidationError"), false],
  ])("%s → %s", (_label, error, expected) => {
    expect(isUnknownOutcome(error)).toBe(expected);
  });
});

describe("describeError", () => {
  it("names the error and its cancellation reasons", () => {
    expect(describeError(cancelled("None", "ValidationError"))).toBe(
      "TransactionCanceledException [None, ValidationError]: Transaction cancelled",
    );
    expect(describeError("plain")).toBe("plain");
    expect(
      describeError(
        Object.assign(new Error("x"), { name: "TransactionCanceledException", CancellationReasons: [{}] }),
      ),
    ).toBe("TransactionCanceledException [None]: x");
    expect(describeError(new Error("socket hang up"))).toBe("socket hang up");
    expect(describeError(Object.assign(new Error("slow"), { name: "TimeoutError" }))).toBe(
      "TimeoutError: slow",
    );
  });
});

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
        "An operand in the update expression has an incorrect data type — the award adds to its xp and awards, " +
        "which must both be numbers; repair it with `rewards user u1 --set-xp <n> --yes`, then replay " +
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
