import { DynamoDBClient, type DynamoDBClientConfig } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { type Award, decodeEvent } from "@rewards/core";
import type { SqsBatchHandler } from "@rewards/worker";
import type { SQSRecord } from "aws-lambda";

/** What every peer is given: where DynamoDB is, and its tables (same layout, same rules). */
export interface PeerSetup {
  client: DynamoDBClientConfig;
  tableName: string;
  /** Powertools keeps its records in a table of its own, keyed on `id`. */
  idempotencyTableName: string;
}

export interface Peer {
  name: string;
  /** The DynamoDB calls of a new event, in order, and where a crash after each leaves it. */
  sequence: string[];
  create(setup: PeerSetup): SqsBatchHandler;
}

export function documentClient(config: DynamoDBClientConfig): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(new DynamoDBClient(config), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

/** The project's decoder and rules, shared by every peer: only the idempotency mechanism differs. */
export function awardOf(record: SQSRecord): Award {
  const decoded = decodeEvent(record.body);
  if (!decoded.ok) throw new Error(`${decoded.park.code}: ${decoded.park.reason}`);
  return decoded.award;
}
