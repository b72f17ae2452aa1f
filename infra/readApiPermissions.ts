/**
 * Exactly what the read API calls, on exactly the table: the reader library's three reads
 * (GetItem for the profile, BatchGetItem for the profile and today's total under a cap, Query
 * for the history and, without a cap, today's part of it). No write of any kind.
 */
export const readApiTableActions = ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query"];

export function readApiPermissions<T>(tableArn: T) {
  return [{ actions: readApiTableActions, resources: [tableArn] }];
}
