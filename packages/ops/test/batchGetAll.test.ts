import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { batchGetAll } from "../src/batchGetAll";
import { OperationError } from "../src/operationError";

const keys = [
  { pk: "USER#a", sk: "PROFILE" },
  { pk: "USER#b", sk: "PROFILE" },
];

/** A table that answers every BatchGetItem with `answer(keys asked)`. */
function tableAnswering(answer: (asked: Array<Record<string, string>>) => unknown) {
  let calls = 0;
  const dynamo = {
    async send(command: {
      input: { RequestItems: Record<string, { Keys: Array<Record<string, string>> }> };
    }) {
      calls++;
      return answer(command.input.RequestItems.t?.Keys ?? []);
    },
  } as unknown as DynamoDBDocumentClient;
  return { dynamo, calls: () => calls };
}

describe("batchGetAll", () => {
  it("keys left unprocessed to the end are a OperationError naming how many and what", async () => {
    const table = tableAnswering((asked) => ({
      Responses: { t: [] },
      UnprocessedKeys: { t: { Keys: asked } },
    }));
    const failure = batchGetAll(table.dynamo, "t", keys, "profiles");
    await expect(failure).rejects.toThrow(
      new OperationError("2 profiles could not be read (DynamoDB left them unprocessed)"),
    );
    await expect(failure).rejects.toBeInstanceOf(OperationError);
    expect(table.calls()).toBeGreaterThan(1);
  }, 30_000);

  it("a call that fails for good is its own error, not retried when it is not transient", async () => {
    const missing = Object.assign(new Error("Requested resource not found"), {
      name: "ResourceNotFoundException",
    });
    const table = tableAnswering(() => {
      throw missing;
    });
    await expect(batchGetAll(table.dynamo, "t", keys, "profiles")).rejects.toBe(missing);
    expect(table.calls()).toBe(1);
  });

  it("items asked again after being left unprocessed are all returned", async () => {
    let first = true;
    const table = tableAnswering((asked) => {
      if (first) {
        first = false;
        return {
          Responses: { t: [{ ...asked[0], xp: 1 }] },
          UnprocessedKeys: { t: { Keys: asked.slice(1) } },
        };
      }
      return { Responses: { t: asked.map((key) => ({ ...key, xp: 2 })) } };
    });
    expect(await batchGetAll(table.dynamo, "t", keys, "profiles")).toEqual([
      { pk: "USER#a", sk: "PROFILE", xp: 1 },
      { pk: "USER#b", sk: "PROFILE", xp: 2 },
    ]);
  });
});
