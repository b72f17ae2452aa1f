import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface LoopbackServer {
  endpoint: string;
  /** Destroys every open connection (a held request included), then closes. */
  close(): Promise<void>;
}

/**
 * An HTTP server on 127.0.0.1, an ephemeral port, for the local stand-ins (the fault proxy,
 * the bus). A request whose handling throws has its connection destroyed, as a crashed
 * service's would be.
 */
export async function listenOnLoopback(
  handle: (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void>,
): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  const server = createServer((incoming, outgoing) => {
    handle(incoming, outgoing).catch(() => incoming.socket.destroy());
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
