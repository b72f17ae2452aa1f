import type { ToolConfig } from "@rewards/core/deploy";
import { resources } from "@rewards/core/deploy";
import { startFunctionUrlServer } from "../functionUrl/functionUrlServer";
import type { FunctionCode } from "./functionProcess";
import { startReadApiFunction } from "./readApiFunction";

export interface LocalReadApiOptions {
  /** The table, the daily cap (REWARDS_DAILY_XP_CAP, the worker's), endpoints and credentials. */
  config: ToolConfig<"TABLE_NAME">;
  code: FunctionCode;
  /** Every line the function writes (its request logs and EMF lines); dropped when absent. */
  onOutput?: (line: string) => void;
}

export interface LocalReadApi {
  /** READER_URL: the function URL's stand-in, http://127.0.0.1:<port>. */
  url: string;
  stop(): Promise<void>;
}

/**
 * What AWS runs for the read API, on this machine: a function URL (a loopback HTTP server
 * that builds Lambda's event) invoking the function in processes of its own, with the
 * deployed environment. Its first environment is started here, so a bad variable fails now.
 */
export async function startLocalReadApi(options: LocalReadApiOptions): Promise<LocalReadApi> {
  const runtime = startReadApiFunction({
    code: options.code,
    config: options.config,
    timeoutMs: resources.readApi.timeoutSeconds * 1000,
    // Dropped when no one asked for them: the runtime would print them.
    onStdout: options.onOutput ?? (() => {}),
    onStderr: options.onOutput ?? (() => {}),
  });
  try {
    await runtime.warm();
    const server = await startFunctionUrlServer({ runtime });
    return {
      url: server.endpoint,
      stop: async () => {
        await server.close();
        await runtime.stop();
      },
    };
  } catch (error) {
    await runtime.stop();
    throw error;
  }
}
