import { GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { guardKey, profileKey, profileUpdate } from "@rewards/core";
import { awardOf, documentClient, type Peer } from "./peer";

/**
 * The seed's counter-example: read the guard; if absent, award, then write the guard.
 * Three separate calls, no condition, no transaction.
 */
export const checkThenWrite: Peer = {
  name: "check-then-write",
  sequence: ["GetItem (guard)", "UpdateItem (award XP)", "PutItem (guard)"],
  create: (setup) => {
    const doc = documentClient(setup.client);
    return async (event) => {
      const failures = await Promise.all(
        event.Records.map(async (record) => {
          try {
            const award = awardOf(record);
            const { Item } = await doc.send(
              new GetCommand({
                TableName: setup.tableName,
                Key: guardKey(award.intentKey),
                ConsistentRead: true,
              }),
            );
            if (Item) return undefined;
            const now = new Date();
            await doc.send(
              new UpdateCommand({
                TableName: setup.tableName,
                Key: profileKey(award.userId),
                // The XP and the award's count, without the count per type our worker also keeps.
                UpdateExpression: profileUpdate(new Map()).UpdateExpression,
                ExpressionAttributeValues: { ":xp": award.amount, ":awards": 1, ":now": now.toISOString() },
              }),
            );
            await doc.send(
              new PutCommand({
                TableName: setup.tableName,
                Item: {
                  ...guardKey(award.intentKey),
                  userId: award.userId,
                  type: award.type,
                  amount: award.amount,
                  eventId: award.eventId,
                  messageId: record.messageId,
                  awardedAt: now.toISOString(),
                },
              }),
            );
            return undefined;
          } catch {
            return { itemIdentifier: record.messageId };
          }
        }),
      );
      return { batchItemFailures: failures.filter((f) => f !== undefined) };
    };
  },
};
