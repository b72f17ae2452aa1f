import {
  type DynamoDBDocumentClient,
  paginateScan,
  type ScanCommandInput,
  type ScanCommandOutput,
} from "@aws-sdk/lib-dynamodb";

/**
 * Items a scan asks for a page. A page left to DynamoDB's 1 MB limit holds thousands of
 * items, and the embedded DynamoDB (one request at a time) takes seconds to answer one: past
 * the clients' 5 s request timeout on a busy machine. 250 items answer in well under a second
 * there, and on AWS a page of 250 costs what its items cost, so the whole scan costs the same.
 */
export const SCAN_PAGE_ITEMS = 250;

/**
 * Every page of a scan, each at most `SCAN_PAGE_ITEMS` items read (before any filter), from
 * the table's start or, to resume a scan, after the item whose key is `startKey`.
 */
export function scanTable(
  dynamo: DynamoDBDocumentClient,
  input: Omit<ScanCommandInput, "Limit" | "ExclusiveStartKey">,
  startKey?: Record<string, unknown>,
): AsyncIterable<ScanCommandOutput> {
  return paginateScan({ client: dynamo, pageSize: SCAN_PAGE_ITEMS, startingToken: startKey }, input);
}
