import { resources } from "@rewards/core/deploy";

/**
 * Exactly what the read API calls, on exactly the table: the reader library's three reads
 * (GetItem for the profile, BatchGetItem for the profile and today's total under a cap, Query
 * for the history and, without a cap, today's part of it). No write of any kind.
 */
export const readApiTableActions = ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query"];

/**
 * The board is read from its index, whose ARN is not the table's: a grant on the table alone
 * does not reach it. The board only queries it.
 */
export const readApiBoardIndexActions = ["dynamodb:Query"];

/** The ARN of the table's board index (`<table arn>/index/board`). */
export const boardIndexArn = (tableArn: string): string =>
  `${tableArn}/index/${resources.table.boardIndex.name}`;

export function readApiPermissions<T>(tableArn: T, boardIndex: T) {
  return [
    { actions: readApiTableActions, resources: [tableArn] },
    { actions: readApiBoardIndexActions, resources: [boardIndex] },
  ];
}
