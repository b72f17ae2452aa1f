import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildApp } from "fauxqs";
import { LocalStackError } from "./localStackError";

/** The fauxqs release whose internal module layout loadFauxqsStores expects (package.json pins it). */
const FAUXQS_VERSION = "1.9.2";

export interface RunningService {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * fauxqs's stores are internal modules; they are loaded by file path next to its entry
 * point (fauxqs is pinned to an exact version, and the local stack tests cover this).
 */
async function loadFauxqsStores() {
  // Its "exports" map hides both these modules and its package.json from resolution.
  const dist = (createRequire(import.meta.url).resolve.paths("fauxqs") ?? [])
    .map((modules) => join(modules, "fauxqs", "dist"))
    .find((candidate) => existsSync(join(candidate, "app.js")));
  if (!dist) throw new LocalStackError("sqs_failed", "fauxqs is not installed: run npm install");
  const load = (path: string) => import(pathToFileURL(join(dist, path)).href);
  try {
    const [sqs, sns, s3] = await Promise.all([
      load("sqs/sqsStore.js"),
      load("sns/snsStore.js"),
      load("s3/s3Store.js"),
    ]);
    const stores = { SqsStore: sqs.SqsStore, SnsStore: sns.SnsStore, S3Store: s3.S3Store };
    for (const [name, value] of Object.entries(stores)) {
      if (typeof value !== "function") throw new Error(`${name} is not exported where expected`);
    }
    return stores;
  } catch (error) {
    throw new LocalStackError(
      "sqs_failed",
      `fauxqs's internal modules are not where fauxqs ${FAUXQS_VERSION} keeps them (${(error as Error).message}); ` +
        `the local stack is written for fauxqs ${FAUXQS_VERSION} exactly: reinstall it with npm ci`,
      { cause: error },
    );
  }
}

/**
 * fauxqs in this process, on a loopback ephemeral port.
 *
 * Its default queue URLs name the host `sqs.<region>.localhost`, which does not resolve
 * everywhere, and the JS SDK sends SQS requests to the QueueUrl's host. With an empty
 * host the URL takes the request's own Host header: `http://127.0.0.1:<port>/…`.
 */
export async function startSqs(): Promise<RunningService> {
  const { SqsStore, SnsStore, S3Store } = await loadFauxqsStores();
  const sqsStore = new SqsStore();
  if (!("host" in sqsStore)) {
    throw new LocalStackError(
      "sqs_failed",
      `fauxqs's SqsStore has no host field; the local stack is written for fauxqs ${FAUXQS_VERSION} exactly`,
    );
  }
  sqsStore.host = "";
  const app = buildApp({
    logger: false,
    stores: { sqsStore, snsStore: new SnsStore(), s3Store: new S3Store() },
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      await app.close();
    },
  };
}
