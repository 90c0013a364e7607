import http from "node:http";
import type { AddressInfo } from "node:net";

/** One request a loopback server received, with its body read. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface LoopbackServer {
  /** "http://127.0.0.1:PORT" (no trailing slash). */
  origin: string;
  port: number;
  /** Requests handled so far. */
  hits: number;
  /** TCP connections accepted so far: stays 0 when the egress guard refuses before connecting. */
  connections: number;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export type LoopbackHandler = (
  req: http.IncomingMessage & { body: Buffer },
  res: http.ServerResponse,
) => unknown;

/**
 * Starts an HTTP server on 127.0.0.1 (port 0) that counts connections and requests. Tests use
 * it as the only network peer they ever talk to, and to prove that refused URLs opened no socket.
 */
export async function startLoopbackServer(
  handler: LoopbackHandler = (_req, res) => res.end("ok"),
): Promise<LoopbackServer> {
  const sockets = new Set<import("node:net").Socket>();
  const state = { hits: 0, connections: 0, requests: [] as SeenRequest[] };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    state.hits++;
    state.requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
    try {
      await handler(Object.assign(req, { body }), res);
    } catch (e) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(e));
    }
  });
  server.on("connection", (s) => {
    state.connections++;
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    get hits() {
      return state.hits;
    },
    get connections() {
      return state.connections;
    },
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  } as LoopbackServer;
}
