import { rulesReadPermission } from "./rulesReadPermission";

/**
 * Exactly what the history writer calls, on exactly its resources: on the table, PutItem (the
 * history item, an achievement and the week item, conditional or not: a condition needs no other
 * action), UpdateItem (the reader's progress item), BatchGetItem (the profile with it) —
 * docs/reading.md#achievements — and GetItem (the board's week item, read consistently from the
 * table itself, never from the board index, which the writer only fills through the week item's
 * keys); and
 * sqs:SendMessage on its own failure queue (Lambda sends a given-up batch's record there
 * with the function's role). The stream's read actions (DescribeStream, GetRecords,
 * GetShardIterator, ListStreams on that stream) are added by SST's subscriber, as for the
 * announcer.
 */
export function historyPermissions<T>(tableArn: T, failureQueueArn: T) {
  return [
    {
      actions: ["dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:BatchGetItem", "dynamodb:GetItem"],
      resources: [tableArn],
    },
    { actions: ["sqs:SendMessage"], resources: [failureQueueArn] },
    rulesReadPermission(tableArn),
  ];
}
