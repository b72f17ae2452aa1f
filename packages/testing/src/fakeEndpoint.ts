import { createServer, type IncomingMessage } from "node:http";

/** What a fake endpoint does with a request: answer with a status and a JSON body, or never answer. */
export type FakeAnswer = { status: number; body: object } | "silence";

export interface FakeEndpoint {
  /** "http://127.0.0.1:<port>": what a client's endpoint variable is set to. */
  url: string;
  /** Each request's operation as the JSON protocols name it (X-Amz-Target's last part), in order. */
  operations: string[];
  close(): Promise<void>;
}

/** `DynamoDB_20120810.Query` → `Query`; the path when there is no target (a query-protocol call). */
function operationOf(request: IncomingMessage): string {
  const target = request.headers["x-amz-target"];
  return typeof target === "string" ? (target.split(".").pop() ?? target) : (request.url ?? "/");
}

/**
 * An AWS endpoint on 127.0.0.1 that answers each request as `answer` says, by its operation:
 * "silence" holds the connection open with no answer (a request timeout), a status and body
 * answer as the JSON protocols do (`{ __type: "…#ThrottlingException", message }` with 400).
 */
export async function fakeEndpoint(answer: (operation: string) => FakeAnswer): Promise<FakeEndpoint> {
  const operations: string[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const operation = operationOf(request);
      operations.push(operation);
      const answered = answer(operation);
      if (answered === "silence") return;
      response.writeHead(answered.status, { "content-type": "application/x-amz-json-1.0" });
      response.end(JSON.stringify(answered.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    operations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A JSON-protocol error answer: HTTP 400 with AWS's `__type` and message. */
export function awsError(type: string, message: string): FakeAnswer {
  return { status: 400, body: { __type: `com.amazonaws.dynamodb.v20120810#${type}`, message } };
}
