/** What a function URL sends back for the function's answer: status, headers, body. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Lambda's reading of a function URL's result (payload format 2.0): an object with a
 * `statusCode` is the response (its `body`, base64 when `isBase64Encoded`); anything else is a
 * 200 JSON body of the value itself. Pure.
 */
export function functionUrlResponse(result: unknown): HttpAnswer {
  if (typeof result === "object" && result !== null && "statusCode" in result) {
    const answer = result as {
      statusCode: unknown;
      headers?: Record<string, unknown>;
      body?: unknown;
      isBase64Encoded?: unknown;
    };
    const headers = Object.fromEntries(
      Object.entries(answer.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]),
    );
    const text = typeof answer.body === "string" ? answer.body : "";
    return {
      status: Number(answer.statusCode),
      headers,
      body: answer.isBase64Encoded === true ? Buffer.from(text, "base64") : Buffer.from(text, "utf8"),
    };
  }
  return {
    status: 200,
    headers: { "content-type": "application/json" },
    body: Buffer.from(JSON.stringify(result ?? null), "utf8"),
  };
}
