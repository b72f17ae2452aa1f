import { quoteInput } from "@rewards/core";

/**
 * DynamoDB answered that the reader's table does not exist (its ResourceNotFoundException): a
 * wrong `tableName` (the deploy output `tableName`), or a client pointed at another region,
 * account or endpoint. Names the table; the SDK's error is its `cause`. Retrying will not help.
 */
export class TableNotFoundError extends Error {
  override readonly name = "TableNotFoundError";
  constructor(
    readonly tableName: string,
    options?: { cause?: unknown },
  ) {
    super(
      `the table ${quoteInput(tableName)} does not exist where the reader's client looks: check tableName (the deploy output tableName) and the client's region and endpoint`,
      options,
    );
  }
}
