/**
 * DynamoDB kept leaving keys of a BatchGetItem unprocessed (its answer to throttling) until the
 * reader's backoff ran out (docs/reading.md#errors): the read did not fail, it was not served.
 * Try again later, as after a throttling error.
 */
export class ThrottledReadError extends Error {
  override readonly name = "ThrottledReadError";
  constructor(
    /** Keys still unprocessed after the last call. */
    readonly unprocessed: number,
    /** BatchGetItem calls made, the first included. */
    readonly calls: number,
    /** From the first call's start to the last call's answer. */
    readonly elapsedMs: number,
  ) {
    super(
      `BatchGetItem left ${unprocessed} key(s) unprocessed after ${calls} calls over ${elapsedMs} ms (throttled): try again later`,
    );
  }
}
