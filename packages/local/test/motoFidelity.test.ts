import { randomUUID } from "node:crypto";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from "@aws-sdk/lib-dynamodb";
import { waitFor } from "@rewards/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTable, startDynamo } from "../src";

/**
 * The launcher's fidelity self-test: the three AWS behaviours the guarantee rests on, which
 * stock moto gets wrong. The token lifetime is shortened to 2 s so expiry can be seen.
 */
let stop: () => Promise<void>;
let doc: DynamoDBDocumentClient;
const TableName = "fidelity";

beforeAll(async () => {
  const dynamo = await startDynamo({ tokenTtlSeconds: 2 });
  stop = dynamo.stop;
  const client = new DynamoDBClient({
    region: "us-east-1",
    endpoint: dynamo.endpoint,
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
    maxAttempts: 1,
  });
  await createTable(client, TableName);
  doc = DynamoDBDocumentClient.from(client);
});

afterAll(async () => {
  doc?.destroy();
  await stop?.();
});

const xp = async (pk: string) =>
  (await doc.send(new GetCommand({ TableName, Key: { pk, sk: "P" }, ConsistentRead: true }))).Item?.xp;

/** The shape of the worker's transaction: a guard put (conditional) and a profile update. */
const award = (user: string, token: string, amount = 20): TransactWriteCommandInput => ({
  ClientRequestToken: token,
  TransactItems: [
    {
      Put: {
        TableName,
        Item: { pk: `IDEM#${user}`, sk: "IDEM", messageId: "m-1", awardedAt: "2026-11-30T00:00:00.000Z" },
        ConditionExpression: "attribute_not_exists(pk)",
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      },
    },
    {
      Update: {
        TableName,
        Key: { pk: user, sk: "P" },
        UpdateExpression: "ADD xp :amount",
        ExpressionAttributeValues: { ":amount": amount },
      },
    },
  ],
});

describe("ClientRequestToken, as AWS documents it", () => {
  it("the same token and parameters answer success again, and write once", async () => {
    const token = randomUUID();
    await doc.send(new TransactWriteCommand(award("same", token)));
    await expect(doc.send(new TransactWriteCommand(award("same", token)))).resolves.toBeDefined();
    await expect(doc.send(new TransactWriteCommand(award("same", token)))).resolves.toBeDefined();
    expect(await xp("same")).toBe(20);
  });

  it("the same token with other parameters is IdempotentParameterMismatchException, and writes nothing", async () => {
    const token = randomUUID();
    await doc.send(new TransactWriteCommand(award("mismatch", token)));
    await expect(doc.send(new TransactWriteCommand(award("mismatch", token, 5)))).rejects.toMatchObject({
      name: "IdempotentParameterMismatchException",
    });
    expect(await xp("mismatch")).toBe(20);
  });

  it("without a token a repeat meets the guard (ConditionalCheckFailed, with the guard it met)", async () => {
    const { ClientRequestToken: _none, ...first } = award("no-token", "");
    await doc.send(new TransactWriteCommand(first));
    await expect(doc.send(new TransactWriteCommand(first))).rejects.toMatchObject({
      name: "TransactionCanceledException",
      CancellationReasons: [
        { Code: "ConditionalCheckFailed", Item: { pk: { S: "IDEM#no-token" }, messageId: { S: "m-1" } } },
        { Code: "None" },
      ],
    });
    expect(await xp("no-token")).toBe(20);
  });

  it("a failed request's token is not remembered: its retry is processed anew", async () => {
    const token = randomUUID();
    await doc.send(new PutCommand({ TableName, Item: { pk: "IDEM#retry-after-fail", sk: "IDEM" } }));
    await expect(doc.send(new TransactWriteCommand(award("retry-after-fail", token)))).rejects.toMatchObject({
      name: "TransactionCanceledException",
    });
    expect(await xp("retry-after-fail")).toBeUndefined();
  });

  it("a token is forgotten after its lifetime: the same request then applies again", async () => {
    const token = randomUUID();
    const { TransactItems } = award("expiry", token);
    const unguarded = { ClientRequestToken: token, TransactItems: TransactItems?.slice(1) };
    await doc.send(new TransactWriteCommand(unguarded));
    await doc.send(new TransactWriteCommand(unguarded));
    expect(await xp("expiry")).toBe(20);
    expect(
      await waitFor(
        async () => {
          await doc.send(new TransactWriteCommand(unguarded));
          return (await xp("expiry")) === 40;
        },
        { timeoutMs: 5000, intervalMs: 500 },
      ),
    ).toBe(true);
  });
});

describe("item-level failures are cancellation reasons", () => {
  it("ADD to a profile whose xp is a string: [None, ValidationError], nothing written", async () => {
    await doc.send(new PutCommand({ TableName, Item: { pk: "corrupt", sk: "P", xp: "twenty" } }));
    await expect(doc.send(new TransactWriteCommand(award("corrupt", randomUUID())))).rejects.toMatchObject({
      name: "TransactionCanceledException",
      CancellationReasons: [{ Code: "None" }, { Code: "ValidationError" }],
    });
    const guard = await doc.send(new GetCommand({ TableName, Key: { pk: "IDEM#corrupt", sk: "IDEM" } }));
    expect(guard.Item).toBeUndefined();
  });

  it("a key attribute missing or of the wrong type is a top-level ValidationException", async () => {
    const missing = award("missing-key", randomUUID());
    const put = missing.TransactItems?.[0]?.Put;
    if (put) put.Item = { pk: "IDEM#missing-key" };
    await expect(doc.send(new TransactWriteCommand(missing))).rejects.toMatchObject({
      name: "ValidationException",
      message: expect.stringMatching(/Missing the key sk/),
    });
    const wrongType = award("wrong-type", randomUUID());
    const update = wrongType.TransactItems?.[1]?.Update;
    if (update) update.Key = { pk: "wrong-type", sk: 5 };
    await expect(doc.send(new TransactWriteCommand(wrongType))).rejects.toMatchObject({
      name: "ValidationException",
      message: expect.stringMatching(/Type mismatch for key sk/),
    });
  });
});

describe("a conditional Update in a cancelled transaction, as AWS answers it (the daily cap's)", () => {
  /** The cap's shape: a guard put, then a day total's update conditional on the cap. */
  const capped = (user: string, room: number): TransactWriteCommandInput => ({
    TransactItems: [
      {
        Put: {
          TableName,
          Item: { pk: `IDEM#${user}-${room}`, sk: "IDEM" },
          ConditionExpression: "attribute_not_exists(pk)",
        },
      },
      {
        Update: {
          TableName,
          Key: { pk: user, sk: "DAY" },
          UpdateExpression: "ADD xp :xp",
          ConditionExpression: "attribute_not_exists(xp) OR xp <= :room",
          ExpressionAttributeValues: { ":xp": 10, ":room": room },
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        },
      },
    ],
  });
  const cancellation = async (input: TransactWriteCommandInput) => {
    try {
      await doc.send(new TransactWriteCommand(input));
    } catch (error) {
      return error as { name: string; CancellationReasons?: Array<{ Code?: string; Item?: unknown }> };
    }
    throw new Error("the transaction committed");
  };

  it("returns the item it refused (ALL_OLD), item by item, and writes nothing", async () => {
    await doc.send(new PutCommand({ TableName, Item: { pk: "cap", sk: "DAY", xp: 45 } }));
    const error = await cancellation(capped("cap", 40));
    expect(error.name).toBe("TransactionCanceledException");
    expect(error.CancellationReasons?.map((reason) => reason.Code)).toEqual([
      "None",
      "ConditionalCheckFailed",
    ]);
    expect(error.CancellationReasons?.[1]?.Item).toEqual({
      pk: { S: "cap" },
      sk: { S: "DAY" },
      xp: { N: "45" },
    });
    const guard = await doc.send(new GetCommand({ TableName, Key: { pk: "IDEM#cap-40", sk: "IDEM" } }));
    expect(guard.Item).toBeUndefined();
  });

  it("a comparison of a string with a number is a failed condition, not a server error", async () => {
    await doc.send(new PutCommand({ TableName, Item: { pk: "text", sk: "DAY", xp: "ten" } }));
    const error = await cancellation(capped("text", 40));
    expect(error.CancellationReasons?.map((reason) => reason.Code)).toEqual([
      "None",
      "ConditionalCheckFailed",
    ]);
    expect(error.CancellationReasons?.[1]?.Item).toMatchObject({ xp: { S: "ten" } });
  });
});
