/**
 * Why the read API gave the page nothing to show, as data the page can switch on:
 * - `refused`: a 4xx problem (RFC 9457) — the request was wrong (a bad user id, a zone the API
 *   does not know); `parameter` names what, `detail` says why in the API's words.
 * - `unavailable`: the API could not be reached, timed out, answered 5xx, or answered something
 *   that is not the contract (a proxy's page, say) — nothing the reader can fix.
 */
export type ReadApiErrorKind = "refused" | "unavailable";

export class ReadApiError extends Error {
  override readonly name = "ReadApiError";

  constructor(
    readonly kind: ReadApiErrorKind,
    message: string,
    /** The HTTP status, when an answer arrived. */
    readonly status?: number,
    /** The query parameter a 400 problem names (`userId`, `timeZone`, …). */
    readonly parameter?: string,
  ) {
    super(message);
  }
}
