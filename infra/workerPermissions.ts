import { rulesReadPermission } from "./rulesReadPermission";

/**
 * Exactly what the worker's code calls, on exactly its resources. A TransactWriteItems of a
 * Put and an Update is authorised as dynamodb:PutItem + dynamodb:UpdateItem (there is no
 * TransactWriteItems IAM action); parking is sqs:SendMessage on the DLQ. (SST's `link`
 * would grant dynamodb:* and sqs:*.) The event source mapping's own needs on the queue —
 * receive, delete, change visibility, attributes — are added by SST's subscriber.
 */
export function workerPermissions<T>(tableArn: T, dlqArn: T) {
  return [
    { actions: ["dynamodb:PutItem", "dynamodb:UpdateItem"], resources: [tableArn] },
    rulesReadPermission(tableArn),
    { actions: ["sqs:SendMessage"], resources: [dlqArn] },
  ];
}
