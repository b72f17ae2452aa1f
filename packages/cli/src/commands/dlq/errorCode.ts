import { DLQ_ERRORS } from "@rewards/core";
import { CliError } from "../../runtime/cliError";

export const ERROR_OPTION_HELP = `only messages parked for this reason: ${DLQ_ERRORS.join(", ")}`;

/** `--error <code>` must be one of the reasons a message is parked for: a usage error otherwise. */
export function checkErrorCode(code: string | undefined): void {
  if (code !== undefined && !(DLQ_ERRORS as readonly string[]).includes(code))
    throw new CliError(`--error must be one of ${DLQ_ERRORS.join(", ")}`, 2);
}
