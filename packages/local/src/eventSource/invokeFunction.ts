import type { Context } from "aws-lambda";
import { lambdaContext } from "./lambdaContext";

class InvocationTimeout extends Error {
  override readonly name = "InvocationTimeout";
}

/**
 * Runs a handler as Lambda would: a thrown error or a timeout fails the whole batch. When
 * the handler runs the function in a process of its own that it kills at the timeout (a
 * function runtime), it is `enforced` there and only awaited here.
 */
export async function invokeFunction<E, R>(
  handler: (event: E, context: Context) => Promise<R>,
  event: E,
  timeoutMs: number,
  enforced: boolean,
): Promise<R> {
  if (enforced) return handler(event, lambdaContext(timeoutMs));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new InvocationTimeout(`handler ran past ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([handler(event, lambdaContext(timeoutMs)), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
