import {
  type DynamoDBDocumentClient,
  GetCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalStack, startLocalStack } from "../src";
import { documentClientFor } from "./documentClient";

let stack: LocalStack;
let doc: DynamoDBDocumentClient;

beforeAll(async () => {
  stack = await startLocalStack();
  doc = documentClientFor(stack, 1); // a 500 must surface here, not be retried away
});

afterAll(async () => {
  doc?.destroy();
  await stack?.stop();
});

/** The guard pattern in its rawest form: conditional put of the guard, then an ADD. */
function guardTransaction(guard: string, user: string, extraUpdate = ""): TransactWriteCommandInput {
  const TableName = stack.resources.tableName;
  return {
    TransactItems: [
      {
        Put: {
          TableName,
          Item: { pk: `IDEM#${guard}`, sk: "IDEM" },
          ConditionExpression: "attribute_not_exists(pk)",
        },
      },
      {
        Update: {
          TableName,
          Key: { pk: `USER#${user}`, sk: "PROFILE" },
          UpdateExpression: `ADD xp :amount${extraUpdate}`,
          ExpressionAttributeValues: { ":amount": 20 },
        },
      },
    ],
  };
}

async function xpOf(user: string) {
  const { Item } = await doc.send(
    new GetCommand({ TableName: stack.resources.tableName, Key: { pk: `USER#${user}`, sk: "PROFILE" } }),
  );
  return Item?.xp;
}

async function outcome(input: TransactWriteCommandInput): Promise<string> {
  try {
    await doc.send(new TransactWriteCommand(input));
    return "committed";
  } catch (error) {
    const { name, CancellationReasons, $metadata } = error as {
      name: string;
      CancellationReasons?: { Code?: string }[];
      $metadata?: { httpStatusCode?: number };
    };
    if (name === "TransactionCanceledException") return `cancelled:${CancellationReasons?.[0]?.Code}`;
    return `error:${name}:${$metadata?.httpStatusCode}`;
  }
}

describe("DynamoDB transactions on the local stack", () => {
  it("a repeated guard is cancelled with ConditionalCheckFailed as reason 0", async () => {
    expect(await outcome(guardTransaction("g-dup", "u-dup"))).toBe("committed");
    expect(await outcome(guardTransaction("g-dup", "u-dup"))).toBe("cancelled:ConditionalCheckFailed");
    expect(await xpOf("u-dup")).toBe(20);
  });

  it("a cancelled transaction leaves no partial write", async () => {
    // The profile update is valid on its own; the guard fails, so neither may land.
    await outcome(guardTransaction("g-partial", "u-other"));
    expect(await outcome(guardTransaction("g-partial", "u-partial"))).toBe(
      "cancelled:ConditionalCheckFailed",
    );
    expect(await xpOf("u-partial")).toBeUndefined();
  });

  it("50 concurrent transactions on one guard: exactly one commits, no HTTP 500", async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, () => outcome(guardTransaction("g-race", "u-race"))),
    );
    const tally = Object.fromEntries(
      [...new Set(results)].map((result) => [result, results.filter((r) => r === result).length]),
    );
    expect(tally).toEqual({ committed: 1, "cancelled:ConditionalCheckFailed": 49 });
    expect(await xpOf("u-race")).toBe(20);
  });

  it("40 concurrent transactions on different guards of one user all commit (no lost update)", async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => outcome(guardTransaction(`g-many-${i}`, "u-many"))),
    );
    expect(results.filter((r) => r === "committed")).toHaveLength(40);
    expect(await xpOf("u-many")).toBe(800);
  });
});
