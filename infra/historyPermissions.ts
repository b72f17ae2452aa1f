/**
 * Exactly what the history writer calls, on exactly its resources: dynamodb:PutItem on the
 * table (the history item, conditional or not: a condition needs no other action), and
 * sqs:SendMessage on its own failure queue (Lambda sends a given-up batch's record there
 * with the function's role). The stream's read actions (DescribeStream, GetRecords,
 * GetShardIterator, ListStreams on that stream) are added by SST's subscriber, as for the
 * announcer.
 */
export function historyPermissions<T>(tableArn: T, failureQueueArn: T) {
  return [
    { actions: ["dynamodb:PutItem"], resources: [tableArn] },
    { actions: ["sqs:SendMessage"], resources: [failureQueueArn] },
  ];
}
