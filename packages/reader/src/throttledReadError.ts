/**
 * DynamoDB kept leaving keys of a BatchGetItem unprocessed (its answer to throttling) after
 * every retry: the read did not fail, it was not served. Try again later, as after a
 * throttling error.
 */
export class ThrottledReadError extends Error {
  override readonly name = "ThrottledReadError";
  constructor(
    readonly unprocessed: number,
    readonly rounds: number,
  ) {
    super(`BatchGetItem left ${unprocessed} key(s) unprocessed ${rounds} times (throttled)`);
  }
}
