import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { CreateTableCommand } from "@aws-sdk/client-dynamodb";
import {
  BatchWriteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteCommand,
} from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalStack, startLocalStack } from "../src";
import { packageRoot } from "../src/packageRoot";
import { pythonForMoto } from "../src/startDynamo";

const QUERY_WORK = join(packageRoot("@rewards/local"), "moto", "query_work.py");

import { documentClientFor } from "./documentClient";

/**
 * The launcher's self-test (moto/dynamodb_server.py): if a moto upgrade changes what the
 * patches rely on, these fail loudly instead of transactions quietly going wrong or slow.
 */
let stack: LocalStack;
let doc: DynamoDBDocumentClient;

beforeAll(async () => {
  stack = await startLocalStack();
  doc = documentClientFor(stack);
});

afterAll(async () => {
  doc?.destroy();
  await stack?.stop();
});

/** A table of its own, away from the other tests' items in the stack's. */
async function smallTable(TableName: string): Promise<string> {
  await doc.send(
    new CreateTableCommand({
      TableName,
      KeySchema: [
        { AttributeName: "pk", KeyType: "HASH" },
        { AttributeName: "sk", KeyType: "RANGE" },
      ],
      AttributeDefinitions: [
        { AttributeName: "pk", AttributeType: "S" },
        { AttributeName: "sk", AttributeType: "S" },
      ],
      BillingMode: "PAY_PER_REQUEST",
    }),
  );
  return TableName;
}

const get = async (pk: string) =>
  (await doc.send(new GetCommand({ TableName: stack.resources.tableName, Key: { pk, sk: "S" } }))).Item;

describe("moto launcher patches", () => {
  it("rolls back exactly the items a cancelled transaction touched", async () => {
    const TableName = stack.resources.tableName;
    await doc.send(new PutCommand({ TableName, Item: { pk: "kept", sk: "S", n: 1 } }));
    await doc.send(new PutCommand({ TableName, Item: { pk: "blocker", sk: "S" } }));
    await doc.send(new PutCommand({ TableName, Item: { pk: "bystander", sk: "S", n: 7 } }));
    const cancelled = doc.send(
      new TransactWriteCommand({
        TransactItems: [
          // Applied first, then must be undone: an update in place, a new item, a delete.
          {
            Update: {
              TableName,
              Key: { pk: "kept", sk: "S" },
              UpdateExpression: "ADD n :one",
              ExpressionAttributeValues: { ":one": 1 },
            },
          },
          { Put: { TableName, Item: { pk: "created", sk: "S" } } },
          { Delete: { TableName, Key: { pk: "bystander", sk: "S" } } },
          {
            Put: {
              TableName,
              Item: { pk: "blocker", sk: "S" },
              ConditionExpression: "attribute_not_exists(pk)",
            },
          },
        ],
      }),
    );
    await expect(cancelled).rejects.toMatchObject({ name: "TransactionCanceledException" });
    expect(await get("kept")).toEqual({ pk: "kept", sk: "S", n: 1 });
    expect(await get("created")).toBeUndefined();
    expect(await get("bystander")).toEqual({ pk: "bystander", sk: "S", n: 7 });
  });

  it("a Query walks its one partition and a resumed Scan page the items after its start key, not the table", async () => {
    // The work counted in moto itself (moto/query_work.py): the items its Query and Scan walk
    // (all_items' answer), so the machine's load cannot move it. A resumed Scan page still sorts
    // the table's keys (item 5: cheap, Python values); the time saved is bench/localStack.ts's.
    const { stdout } = await promisify(execFile)(pythonForMoto(), [QUERY_WORK], {
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
    });
    expect(JSON.parse(stdout)).toEqual({
      others: 2000,
      unpatched: { found: 3, queryWalked: 2003, scanned: 10, scanWalked: 2003 },
      patched: { found: 3, queryWalked: 3, scanned: 10, scanWalked: 13 },
    });
  }, 60_000);

  it("a Query reads its one partition as DynamoDB does: sort order both ways, begins_with, Limit and its next page, a filter", async () => {
    const TableName = stack.resources.tableName;
    const items = ["AWARD#1", "AWARD#2", "AWARD#3", "DAY#1", "PROFILE"].map((sk, i) => ({
      pk: "q-user",
      sk,
      n: i,
    }));
    await doc.send(
      new BatchWriteCommand({
        RequestItems: {
          [TableName]: [...items, { pk: "q-other", sk: "AWARD#1", n: 9 }].map((Item) => ({
            PutRequest: { Item },
          })),
        },
      }),
    );
    const query = (extra: Record<string, unknown> = {}) =>
      doc.send(
        new QueryCommand({
          TableName,
          KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
          ExpressionAttributeValues: {
            ":pk": "q-user",
            ":prefix": "AWARD#",
            ...((extra.values as object) ?? {}),
          },
          ConsistentRead: true,
          ...Object.fromEntries(Object.entries(extra).filter(([key]) => key !== "values")),
        }),
      );
    expect((await query()).Items?.map((item) => item.sk)).toEqual(["AWARD#1", "AWARD#2", "AWARD#3"]);
    expect((await query({ ScanIndexForward: false })).Items?.map((item) => item.sk)).toEqual([
      "AWARD#3",
      "AWARD#2",
      "AWARD#1",
    ]);
    const first = await query({ Limit: 2 });
    expect(first.Items?.map((item) => item.sk)).toEqual(["AWARD#1", "AWARD#2"]);
    const next = await query({ Limit: 2, ExclusiveStartKey: first.LastEvaluatedKey });
    expect(next.Items?.map((item) => item.sk)).toEqual(["AWARD#3"]);
    const filtered = await query({ FilterExpression: "n > :one", values: { ":one": 1 } });
    expect(filtered.Items?.map((item) => item.sk)).toEqual(["AWARD#3"]);
    const nobody = await doc.send(
      new QueryCommand({
        TableName,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": "q-nobody" },
      }),
    );
    expect(nobody.Items).toEqual([]);
  });

  it("a Scan pages and segments as DynamoDB does: every item once, in key order within a segment, resumed after its start key; a filter", async () => {
    const TableName = await smallTable("scan-pages");
    const mine = Array.from({ length: 40 }, (_, i) => ({
      pk: `scan-${String(i).padStart(2, "0")}`,
      sk: "S",
      n: i,
    }));
    for (let i = 0; i < mine.length; i += 25)
      await doc.send(
        new BatchWriteCommand({
          RequestItems: { [TableName]: mine.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
        }),
      );
    const filter = {
      FilterExpression: "begins_with(pk, :scan)",
      ExpressionAttributeValues: { ":scan": "scan-" },
    };
    const segmentKeys = async (segment: number, total: number) => {
      const keys: string[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await doc.send(
          new ScanCommand({
            TableName,
            Limit: 7,
            Segment: segment,
            TotalSegments: total,
            ExclusiveStartKey: start,
            ...filter,
          }),
        );
        keys.push(...(page.Items ?? []).map((item) => String(item.pk)));
        start = page.LastEvaluatedKey;
      } while (start);
      return keys;
    };
    const segments = await Promise.all([0, 1, 2].map((segment) => segmentKeys(segment, 3)));
    for (const keys of segments) expect(keys).toEqual([...keys].sort());
    expect(segments.flat().sort()).toEqual(mine.map((item) => item.pk));
    expect(await segmentKeys(0, 1)).toEqual(mine.map((item) => item.pk));
  });

  it("answers items with every attribute type as they were put (GetItem, Query, Scan)", async () => {
    const TableName = await smallTable("attribute-types");
    const item = {
      pk: "types",
      sk: "S",
      s: "text é",
      n: 12.5,
      big: 12345678901234,
      bool: false,
      nothing: null,
      list: [1, "two", { three: 3 }],
      map: { nested: { deep: ["x"] } },
      strings: new Set(["a", "b"]),
      numbers: new Set([1, 2]),
      binary: new Uint8Array([0, 1, 255]),
    };
    await doc.send(new PutCommand({ TableName, Item: item }));
    const got = (await doc.send(new GetCommand({ TableName, Key: { pk: "types", sk: "S" } }))).Item;
    expect(got).toEqual(item);
    const queried = await doc.send(
      new QueryCommand({
        TableName,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": "types" },
      }),
    );
    expect(queried.Items).toEqual([item]);
    const scanned = await doc.send(
      new ScanCommand({
        TableName,
        FilterExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": "types" },
      }),
    );
    expect(scanned.Items).toEqual([item]);
    expect(await doc.send(new GetCommand({ TableName, Key: { pk: "nobody", sk: "S" } }))).not.toHaveProperty(
      "Item",
    );
  });
});
