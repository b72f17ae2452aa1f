/** The options of `createReader` it checks: what `InvalidReaderOption.option` names. */
export type ReaderOptionName =
  | "options"
  | "tableName"
  | "dailyCap"
  | "boardShards"
  | "rulesRefreshSeconds"
  | "clock";

/**
 * An option `createReader` refuses when the reader is made (a configuration mistake, not a
 * caller's bad request: a read API answers it with no 400, it fails at start). `option` says
 * which; the message starts with it and quotes the value given (`dailyCap: …, not "50"`).
 */
export class InvalidReaderOption extends RangeError {
  override readonly name = "InvalidReaderOption";
  constructor(
    readonly option: ReaderOptionName,
    /** What is wrong with it, without the option's name. */
    readonly problem: string,
  ) {
    super(`${option}: ${problem}`);
  }
}
