interface WithMiddleware {
  middlewareStack: {
    add: (
      middleware: (
        next: (args: { request: unknown }) => Promise<unknown>,
        context: { commandName?: string },
      ) => (args: { request: unknown }) => Promise<unknown>,
      options: { step: "deserialize"; name: string },
    ) => void;
  };
}

export interface Attempt {
  command: string;
  /** The HTTP body as sent: byte-identical bodies are identical requests. */
  body: string;
}

/**
 * What happens to one HTTP attempt: `pass` (send it), `fail` (throw this error instead of
 * sending — as if the endpoint answered so), or `drop` (send it, let it take effect, then
 * throw as if the answer was lost).
 */
export type AttemptFault = { kind: "pass" } | { kind: "fail"; error: () => Error } | { kind: "drop" };

/**
 * Records every HTTP attempt a client makes — the SDK's own resends included, since this
 * sits in the deserialize step below its retry middleware — and lets a test decide the
 * fate of each. For faults at the SDK boundary; the fault proxy does them over the wire.
 */
export function recordAttempts(
  client: unknown,
  fault: (attempt: Attempt, index: number) => AttemptFault = () => ({ kind: "pass" }),
): Attempt[] {
  const attempts: Attempt[] = [];
  (client as WithMiddleware).middlewareStack.add(
    (next, context) => async (args) => {
      const request = args.request as { body?: unknown };
      // The SDK may hand a Uint8Array (String() of it warns, and one day throws).
      const body =
        request.body instanceof Uint8Array
          ? Buffer.from(request.body).toString()
          : String(request.body ?? "");
      const attempt = { command: context.commandName ?? "", body };
      attempts.push(attempt);
      const decision = fault(attempt, attempts.length - 1);
      if (decision.kind === "fail") throw decision.error();
      const result = await next(args);
      if (decision.kind === "drop") {
        throw Object.assign(new Error("socket hang up (injected: answer dropped)"), {
          name: "Error",
          code: "ECONNRESET",
          $metadata: {},
        });
      }
      return result;
    },
    { step: "deserialize", name: "recordAttempts" },
  );
  return attempts;
}

export const throttled = () =>
  Object.assign(new Error("Rate of requests exceeds the allowed throughput (injected)"), {
    name: "ThrottlingException",
    $metadata: { httpStatusCode: 400 },
    $retryable: { throttling: true },
  });

export const conflicted = () =>
  Object.assign(new Error("Transaction cancelled (injected)"), {
    name: "TransactionCanceledException",
    CancellationReasons: [{ Code: "None" }, { Code: "TransactionConflict" }],
    $metadata: { httpStatusCode: 400 },
  });
