import { freshModule } from "@rewards/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { describeError } from "../src/aws";
import type * as Classification from "../src/aws/classifyError";
import type { ErrorClass } from "../src/aws/classifyError";

// Loaded afresh in each test (@rewards/testing freshModule): its tables are module-level constants.
let classifyError: typeof Classification.classifyError;
let isUnknownOutcome: typeof Classification.isUnknownOutcome;
let isConditionFailure: typeof Classification.isConditionFailure;
beforeEach(async () => {
  ({ classifyError, isUnknownOutcome, isConditionFailure } = await freshModule(
    () => import("../src/aws/classifyError"),
  ));
});

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

describe("isConditionFailure: a single write's condition failed, nothing written", () => {
  it.each([
    ["ConditionalCheckFailedException", named("ConditionalCheckFailedException"), true],
    ["a transaction's failed condition (a cancellation)", cancelled("ConditionalCheckFailed"), false],
    ["throttling", named("ProvisionedThroughputExceededException"), false],
    ["not an error", "ConditionalCheckFailedException", false],
    ["null", null, false],
  ])("%s → %s", (_label, error, expected) => {
    expect(isConditionFailure(error)).toBe(expected);
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
