import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createReadApiClient, type ReadApiClientOptions } from "./readApiClient";
import { createSiteApp } from "./siteApp";

export interface SiteOptions extends ReadApiClientOptions {
  /** The port to listen on, on 127.0.0.1 (0, the default: any free one). */
  port?: number;
  /** Where a failed read's cause goes (the page only says it failed). */
  onReadFailure?: (error: unknown) => void;
}

export interface Site {
  /** SITE_URL: http://127.0.0.1:<port>/ — add ?user=<id>. */
  url: string;
  stop(): Promise<void>;
}

/** The reader's page on a loopback port, reading the read API at `options.url`. */
export async function startSite(options: SiteOptions): Promise<Site> {
  const app = createSiteApp({
    api: createReadApiClient(options),
    ...(options.onReadFailure ? { onReadFailure: options.onReadFailure } : {}),
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const listening = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: options.port ?? 0 }, () =>
      resolve(listening),
    );
    listening.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive connections (a browser's) would hold close() open.
        if ("closeAllConnections" in server) server.closeAllConnections();
      }),
  };
}
