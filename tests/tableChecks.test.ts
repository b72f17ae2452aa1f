import { BatchWriteCommand, DeleteCommand } from "@aws-sdk/lib-dynamodb";
import { grantId, historyItemKey } from "@rewards/core";
import { createDynamoClient } from "@rewards/core/aws";
import { SCAN_PAGE_ITEMS } from "@rewards/ops";
import { checkHistory } from "@rewards/scenario";
import { guardItem, stackTest } from "@rewards/testing";
import { describe, expect } from "vitest";

const it = stackTest({ tableName: "table-checks" });

const AWARDS = 300;
const awardedAt = "2026-12-03T10:00:00.000Z";
const intentKey = (i: number) => `reader-${i % 7}#slug-${i}#article.completed`;

/** What the checks read: a whole table's worth of guards and their history items (600 items). */
function seedItems(): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < AWARDS; i++) {
    const userId = `reader-${i % 7}`;
    items.push(guardItem(intentKey(i), { userId, awardedAt, amount: 10 }));
    items.push({ ...historyItemKey(userId, awardedAt, grantId(intentKey(i), awardedAt)), xp: 10 });
  }
  return items;
}

describe("the demo's table checks read the table in pages of a few hundred items", () => {
  it("checkHistory pages its scan, finds every pair, and names a history item deleted by hand", async ({
    stack,
  }) => {
    const dynamo = createDynamoClient(stack.env);
    const scans: Array<Record<string, unknown>> = [];
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === "ScanCommand") scans.push(args.input as Record<string, unknown>);
        return next(args);
      },
      { step: "initialize", name: "recordScans" },
    );
    const tableName = stack.resources.tableName;
    const items = seedItems();
    for (let start = 0; start < items.length; start += 25)
      await dynamo.send(
        new BatchWriteCommand({
          RequestItems: {
            [tableName]: items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } })),
          },
        }),
      );

    expect(await checkHistory(dynamo, tableName)).toEqual({ guards: AWARDS, items: AWARDS, mismatched: [] });
    // 600 items in pages of 250: three pages, each asked with the limit (a page left to
    // DynamoDB's 1 MB outlasts the request timeout on the embedded DynamoDB of a busy machine).
    expect(scans).toHaveLength(Math.ceil((2 * AWARDS) / SCAN_PAGE_ITEMS));
    expect(scans.map((input) => input.Limit)).toEqual(scans.map(() => SCAN_PAGE_ITEMS));

    const gone = historyItemKey("reader-3", awardedAt, grantId(intentKey(3), awardedAt));
    await dynamo.send(new DeleteCommand({ TableName: tableName, Key: gone }));
    expect(await checkHistory(dynamo, tableName)).toEqual({
      guards: AWARDS,
      items: AWARDS - 1,
      mismatched: [intentKey(3)],
    });
    dynamo.destroy();
  });
});
