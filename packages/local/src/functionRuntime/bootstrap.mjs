// The process a local function runs in, as Lambda's Node.js runtime runs it: it loads the
// handler module once (the init phase), says so, then answers one invocation at a time over
// IPC until its parent goes. Plain JavaScript, so a bundle runs under bare `node` as on
// Lambda; a TypeScript entry (the worker's source) gets tsx's loader first.
// argv: <module path> <export name>
import { pathToFileURL } from "node:url";

const [modulePath, exportName = "handler"] = process.argv.slice(2);
// Ctrl-C in a terminal signals the whole process group: the parent decides when this
// environment ends (it finishes in-flight batches first), as the Lambda service does.
process.on("SIGINT", () => {});
process.on("SIGTERM", () => {});
process.on("disconnect", () => process.exit(0));

const send = (message) => new Promise((resolve) => process.send?.(message, resolve));
const errorFields = (error) => ({
  errorType: error instanceof Error ? error.name : typeof error,
  errorMessage: error instanceof Error ? error.message : String(error),
});

let handler;
const initStarted = performance.now();
try {
  if (modulePath.endsWith(".ts")) (await import("tsx/esm/api")).register();
  const loaded = await import(pathToFileURL(modulePath).href);
  handler = loaded[exportName];
  if (typeof handler !== "function") {
    throw Object.assign(new Error(`${modulePath} does not export a function named ${exportName}`), {
      name: "Runtime.HandlerNotFound",
    });
  }
} catch (error) {
  await send({ kind: "initError", ...errorFields(error) });
  process.exit(1);
}
await send({ kind: "ready", initMs: Math.round(performance.now() - initStarted) });

process.on("message", async (message) => {
  if (message?.kind !== "invoke") return;
  const deadline = Date.now() + message.remainingMs;
  const context = {
    ...message.context,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
  try {
    const result = await handler(message.event, context);
    await send({ kind: "result", id: message.id, result: result ?? null });
  } catch (error) {
    await send({ kind: "error", id: message.id, ...errorFields(error) });
  }
});
