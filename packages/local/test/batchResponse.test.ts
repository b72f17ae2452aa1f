import { sqsRecord } from "@rewards/testing";
import { describe, expect, it } from "vitest";
import { acknowledge } from "../src";

const records = [sqsRecord("a", { messageId: "m1" }), sqsRecord("b", { messageId: "m2" })];
const ids = (list: Array<{ messageId: string }>) => list.map((r) => r.messageId);

describe("acknowledge (Lambda's reading of a partial batch response)", () => {
  it("no response or an empty list acknowledges everything", () => {
    for (const response of [undefined, { batchItemFailures: [] }]) {
      const verdict = acknowledge(records, response);
      expect(verdict.kind).toBe("partial");
      if (verdict.kind === "partial") expect(ids(verdict.acknowledged)).toEqual(["m1", "m2"]);
    }
  });

  it("listed messages fail, the rest are acknowledged", () => {
    const verdict = acknowledge(records, { batchItemFailures: [{ itemIdentifier: "m2" }] });
    expect(verdict).toMatchObject({ kind: "partial" });
    if (verdict.kind === "partial") {
      expect(ids(verdict.acknowledged)).toEqual(["m1"]);
      expect(ids(verdict.failed)).toEqual(["m2"]);
    }
  });

  it.each([
    ["an unknown id", "m9"],
    ["an empty id", ""],
    ["a missing id", undefined],
  ])("%s fails the whole batch", (_label, itemIdentifier) => {
    expect(
      acknowledge(records, { batchItemFailures: [{ itemIdentifier: itemIdentifier as string }] }),
    ).toMatchObject({
      kind: "wholeBatchFailed",
      reason: expect.stringMatching(/^invalid itemIdentifier/),
    });
  });
});
