import { randomUUID } from "node:crypto";
import type { APIGatewayProxyEventV2 } from "aws-lambda";

/** What a function URL hands the function of one HTTP request (apart from the body). */
export interface HttpRequestLine {
  method: string;
  /** The request target as received: path and query string. */
  url: string;
  /** Node's headers: lower-case names, repeated ones as arrays. */
  headers: Record<string, string | string[] | undefined>;
  sourceIp: string;
}

/**
 * The event a Lambda function URL invokes its function with (payload format 2.0, as API
 * Gateway's HTTP APIs): repeated headers joined by commas, the query string raw and parsed
 * (a repeated parameter's values joined by commas), the body base64 when it is not text.
 * The local server and its tests build the same events with it.
 */
export function functionUrlEvent(request: HttpRequestLine, body: Buffer, now: Date): APIGatewayProxyEventV2 {
  const target = new URL(request.url, "http://localhost");
  // The path as sent: URL parsing would resolve dot segments (`/users/%2e/awards` → `/users/awards`),
  // handing the function another path than the caller's.
  const rawPath = request.url.split("?")[0] || "/";
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(",") : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of target.searchParams)
    query[name] = name in query ? `${query[name]},${value}` : value;
  const rawQueryString = target.search.slice(1);
  const textual =
    body.length === 0 ||
    /^(text\/|application\/(json|[\w.+-]*\+json|x-www-form-urlencoded))/.test(headers["content-type"] ?? "");
  const domainName = headers.host ?? "localhost";
  return {
    version: "2.0",
    routeKey: "$default",
    rawPath,
    rawQueryString,
    headers,
    ...(rawQueryString === "" ? {} : { queryStringParameters: query }),
    requestContext: {
      accountId: "anonymous",
      apiId: domainName.split(".")[0] ?? "local",
      domainName,
      domainPrefix: domainName.split(".")[0] ?? "local",
      http: {
        method: request.method,
        path: rawPath,
        protocol: "HTTP/1.1",
        sourceIp: request.sourceIp,
        userAgent: headers["user-agent"] ?? "",
      },
      requestId: randomUUID(),
      routeKey: "$default",
      stage: "$default",
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    isBase64Encoded: !textual,
    ...(body.length === 0 ? {} : { body: textual ? body.toString("utf8") : body.toString("base64") }),
  };
}
