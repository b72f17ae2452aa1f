import { describe, expect, it } from "vitest";
import { classifyError, describeError, type ErrorClass } from "../src";

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
  ["conflict on the guard", cancelled("TransactionConflict", "None"), "retryable"],
  ["conflict on the profile", cancelled("None", "TransactionConflict"), "retryable"],
  ["throttled inside the transaction", cancelled("None", "ThrottlingError"), "retryable"],
  ["provisioned throughput inside", cancelled("ProvisionedThroughputExceeded", "None"), "retryable"],
  ["xp stored as a string", cancelled("None", "ValidationError"), "permanent"],
  ["cancelled with no reasons", cancelled(), "retryable"],
  ["ThrottlingException", named("ThrottlingException"), "retryable"],
  ["ProvisionedThroughputExceededException", named("ProvisionedThroughputExceededException"), "retryable"],
  ["RequestLimitExceeded", named("RequestLimitExceeded"), "retryable"],
  ["ThrottlingError", named("ThrottlingError"), "retryable"],
  ["InternalServerError", named("InternalServerError", { $metadata: { httpStatusCode: 500 } }), "retryable"],
  ["503", named("ServiceUnavailable", { $metadata: { httpStatusCode: 503 } }), "retryable"],
  ["connection reset", named("Error", { code: "ECONNRESET" }), "retryable"],
  ["connection refused", named("Error", { code: "ECONNREFUSED" }), "retryable"],
  ["connect timeout", named("Error", { code: "ETIMEDOUT" }), "retryable"],
  ["socket hang up", new Error("socket hang up"), "retryable"],
  ["SDK timeout", named("TimeoutError"), "retryable"],
  ["aborted", named("AbortError"), "retryable"],
  ["ValidationException", named("ValidationException"), "permanent"],
  [
    "item too large",
    named("ValidationException", { message: "Item size has exceeded the maximum allowed size" }),
    "permanent",
  ],
  ["item collection too large", named("ItemCollectionSizeLimitExceededException"), "permanent"],
  ["missing table (configuration, not the message)", named("ResourceNotFoundException"), "retryable"],
  ["access denied (configuration, not the message)", named("AccessDeniedException"), "retryable"],
  ["something never seen", named("BrandNewException"), "retryable"],
  ["not even an Error", "a string", "retryable"],
  ["undefined", undefined, "retryable"],
];

describe("classifyError", () => {
  it.each(table)("%s → %s", (_label, error, expected) => {
    expect(classifyError(error)).toBe(expected);
  });
});

describe("describeError", () => {
  it("names the error and its cancellation reasons", () => {
    expect(describeError(cancelled("None", "ValidationError"))).toBe(
      "TransactionCanceledException [None, ValidationError]: Transaction cancelled",
    );
    expect(describeError("plain")).toBe("Error: plain");
  });
});
