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
  ["conflict on the guard", cancelled("TransactionConflict", "None"), "transient"],
  ["conflict on the profile", cancelled("None", "TransactionConflict"), "transient"],
  ["throttled inside the transaction", cancelled("None", "ThrottlingError"), "transient"],
  ["provisioned throughput inside", cancelled("ProvisionedThroughputExceeded", "None"), "transient"],
  ["xp stored as a string", cancelled("None", "ValidationError"), "permanent"],
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
  ["token reused with other parameters", named("IdempotentParameterMismatchException"), "configuration"],
  [
    "500 with no name we know",
    named("InternalServerError", { $metadata: { httpStatusCode: 500 } }),
    "transient",
  ],
  ["something never seen", named("BrandNewException"), "transient"],
  ["not even an Error", "a string", "transient"],
  ["undefined", undefined, "transient"],
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
    expect(describeError("plain")).toBe("plain");
    expect(describeError(new Error("socket hang up"))).toBe("socket hang up");
    expect(describeError(Object.assign(new Error("slow"), { name: "TimeoutError" }))).toBe(
      "TimeoutError: slow",
    );
  });
});
