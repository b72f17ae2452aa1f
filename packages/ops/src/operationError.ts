/**
 * An operation could not do what it was asked, for a reason its caller can act on (a queue
 * without an ARN, keys DynamoDB would not read, a profile that cannot be repaired): said in
 * one sentence, no stack. The CLI prints it as `rewards: <message>` and exits 1.
 */
export class OperationError extends Error {
  override readonly name = "OperationError";
}
