import { quoteInput, userIdSchema } from "@rewards/core";
import { CliError } from "../runtime/cliError";

export interface ScopeOptions {
  user?: string;
  all?: boolean;
}

/** Whose history: one user's, or every user's; anything else is a usage error. */
export function scopeOf(options: ScopeOptions, what = "history"): { userId: string | undefined } {
  if (options.user !== undefined && options.all === true)
    throw new CliError("--user and --all: one or the other", 2);
  if (options.all === true) return { userId: undefined };
  if (options.user === undefined) throw new CliError(`whose ${what}: --user <userId>, or --all`, 2);
  const user = userIdSchema.safeParse(options.user);
  if (!user.success)
    throw new CliError(
      `--user: ${user.error.issues[0]?.message ?? "not a user id"}: ${quoteInput(options.user)}`,
      2,
    );
  return { userId: user.data };
}
