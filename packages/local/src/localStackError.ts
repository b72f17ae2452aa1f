/** Why the local stack could not start; `code` is stable, `message` says what to do. */
export type LocalStackErrorCode =
  | "moto_missing"
  | "moto_failed"
  | "sqs_failed"
  | "container_runtime_missing"
  | "containers_failed"
  | "provisioning_failed";

export class LocalStackError extends Error {
  override readonly name = "LocalStackError";
  constructor(
    readonly code: LocalStackErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
