import { BatchProcessor, EventType, processPartialResponse } from "@aws-lambda-powertools/batch";
import { IdempotencyConfig, makeIdempotent } from "@aws-lambda-powertools/idempotency";
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { profileKey, profileUpdate, rules } from "@rewards/core";
import type { SQSRecord } from "aws-lambda";
import { awardOf, documentClient, type Peer } from "./peer";

/** Powertools keeps a record however long it is told; "forever" (signups) as 100 years. */
const FOREVER_SECONDS = 100 * 365 * 24 * 60 * 60;

/**
 * Powertools for AWS Lambda (TypeScript) the way its docs teach: BatchProcessor +
 * processPartialResponse, and makeIdempotent (DynamoDBPersistenceLayer on its own table,
 * key `id`) around a plain UpdateItem that awards the XP, keyed on the intent key, with
 * the guard's TTL as `expiresAfterSeconds`.
 */
export const powertools: Peer = {
  name: "Powertools idempotency",
  sequence: [
    "PutItem (idempotency record INPROGRESS, conditional)",
    "UpdateItem (award XP)",
    "UpdateItem (idempotency record COMPLETED)",
  ],
  create: (setup) => {
    const doc = documentClient(setup.client);
    const sdkClient = new DynamoDBClient(setup.client);
    const award = async (input: { intentKey: string; userId: string; amount: number }) => {
      await doc.send(
        new UpdateCommand({
          TableName: setup.tableName,
          Key: profileKey(input.userId),
          // The XP and the award's count, without the count per type our worker also keeps.
          UpdateExpression: profileUpdate(new Map()).UpdateExpression,
          ExpressionAttributeValues: { ":xp": input.amount, ":awards": 1, ":now": new Date().toISOString() },
        }),
      );
      return { awarded: input.intentKey };
    };
    // One idempotent function per guard lifetime (the rules have two).
    const lifetimes = [
      ...new Set(Object.values(rules).map((rule) => rule.guardTtlSeconds ?? FOREVER_SECONDS)),
    ];
    const configs = new Map(
      lifetimes.map((seconds) => [
        seconds,
        new IdempotencyConfig({ eventKeyJmesPath: "intentKey", expiresAfterSeconds: seconds }),
      ]),
    );
    // Powertools asks for a persistence layer per configuration (same table, same client).
    const idempotent = new Map(
      [...configs].map(([seconds, config]) => [
        seconds,
        makeIdempotent(award, {
          persistenceStore: new DynamoDBPersistenceLayer({
            tableName: setup.idempotencyTableName,
            awsSdkV3Client: sdkClient,
          }),
          config,
        }),
      ]),
    );
    const recordHandler = async (record: SQSRecord) => {
      const { intentKey, userId, amount, guardTtlSeconds } = awardOf(record);
      const awardOnce = idempotent.get(guardTtlSeconds ?? FOREVER_SECONDS);
      if (!awardOnce) throw new Error(`no idempotent award for a ${guardTtlSeconds} s lifetime`);
      return awardOnce({ intentKey, userId, amount });
    };
    return async (event, context) => {
      for (const config of configs.values()) config.registerLambdaContext(context);
      // It holds per-batch state: one per invocation.
      const processor = new BatchProcessor(EventType.SQS);
      return processPartialResponse(event, recordHandler, processor, { context });
    };
  },
};
