/**
 * Exactly what the announcer calls, on exactly its resources: events:PutEvents on the rewards
 * bus, and sqs:SendMessage on its failure queue (Lambda sends a given-up batch's record there
 * with the function's role). The stream's read actions (DescribeStream, GetRecords,
 * GetShardIterator, ListStreams on that stream) are added by SST's subscriber.
 */
export function announcerPermissions<T>(busArn: T, failureQueueArn: T) {
  return [
    { actions: ["events:PutEvents"], resources: [busArn] },
    { actions: ["sqs:SendMessage"], resources: [failureQueueArn] },
  ];
}
