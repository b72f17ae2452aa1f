/** The parameters of a read a caller can get wrong: what `InvalidReadInput.parameter` names. */
export const READ_PARAMETERS = ["userId", "limit", "cursor", "timeZone", "week"] as const;

export type ReadParameter = (typeof READ_PARAMETERS)[number];

/**
 * A read's input the reader refuses, before anything is read: a `userId` the events' envelope
 * refuses, a `limit` out of range, a `cursor` this reader did not give for this user's
 * history, a `timeZone` that is not an IANA zone, a `week` that is not an ISO week (docs/reading.md#errors). `parameter` says which; the message starts with it
 * (`limit: …`) and is for people — code switches on `parameter`, never on the text.
 */
export class InvalidReadInput extends RangeError {
  override readonly name = "InvalidReadInput";
  constructor(
    readonly parameter: ReadParameter,
    /** What is wrong with it, without the parameter's name. */
    readonly problem: string,
  ) {
    super(`${parameter}: ${problem}`);
  }
}
