/**
 * The local DynamoDB's latency as its table grows: a guard-and-profile transaction and a
 * one-partition consistent Query, on a near-empty table and on one of 20,000 items, sampled
 * alternately so the machine's load weighs on both alike (packages/local/moto/dynamodb_server.py,
 * items 4-6; unpatched moto is about 100x slower at this size). The work these patches save
 * is counted, load-free, by packages/local/test/motoLauncher.test.ts.
 *
 *   npx tsx bench/localStack.ts [--items 20000] [--rounds 30]
 */
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { CreateTableCommand } from "@aws-sdk/client-dynamodb";
import { BatchWriteCommand, QueryCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { createDynamoClient } from "@rewards/core/aws";
import { startLocalStack } from "@rewards/local";

const { values } = parseArgs({
  options: { items: { type: "string", default: "20000" }, rounds: { type: "string", default: "30" } },
});
const ITEMS = Number(values.items);
const ROUNDS = Number(values.rounds);

const stack = await startLocalStack({ tableName: "bench-empty" });
const doc = createDynamoClient({ ...stack.env, AWS_REGION: "us-east-1" });
const median = (samples: number[]) =>
  [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] as number;
const timed = async (call: () => Promise<unknown>) => {
  const started = performance.now();
  await call();
  return performance.now() - started;
};
try {
  const empty = stack.resources.tableName;
  const full = "bench-full";
  await doc.send(
    new CreateTableCommand({
      TableName: full,
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
  for (let i = 0; i < ITEMS; i += 25) {
    const items = Array.from({ length: Math.min(25, ITEMS - i) }, (_, j) => ({
      PutRequest: { Item: { pk: `fill-${i + j}`, sk: "S", pad: "x".repeat(50) } },
    }));
    await doc.send(new BatchWriteCommand({ RequestItems: { [full]: items } }));
  }
  const transact = (TableName: string, i: number) =>
    doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName,
              Item: { pk: `guard-${i}`, sk: "S" },
              ConditionExpression: "attribute_not_exists(pk)",
            },
          },
          {
            Update: {
              TableName,
              Key: { pk: "reader", sk: "S" },
              UpdateExpression: "ADD xp :a",
              ExpressionAttributeValues: { ":a": 1 },
            },
          },
        ],
      }),
    );
  const query = (TableName: string) =>
    doc.send(
      new QueryCommand({
        TableName,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": "reader" },
        ConsistentRead: true,
      }),
    );
  const samples = {
    emptyTransact: [] as number[],
    fullTransact: [] as number[],
    emptyQuery: [] as number[],
    fullQuery: [] as number[],
  };
  for (let i = 0; i < ROUNDS; i++) {
    samples.emptyTransact.push(await timed(() => transact(empty, i)));
    samples.fullTransact.push(await timed(() => transact(full, i)));
    samples.emptyQuery.push(await timed(() => query(empty)));
    samples.fullQuery.push(await timed(() => query(full)));
  }
  const p50 = Object.fromEntries(
    Object.entries(samples).map(([name, list]) => [name, Math.round(median(list) * 100) / 100]),
  );
  process.stdout.write(
    `${JSON.stringify(
      {
        items: ITEMS,
        rounds: ROUNDS,
        p50Ms: p50,
        ratio: {
          transact: Math.round(((p50.fullTransact as number) / (p50.emptyTransact as number)) * 100) / 100,
          query: Math.round(((p50.fullQuery as number) / (p50.emptyQuery as number)) * 100) / 100,
        },
      },
      null,
      2,
    )}\n`,
  );
} finally {
  doc.destroy();
  await stack.stop();
}
