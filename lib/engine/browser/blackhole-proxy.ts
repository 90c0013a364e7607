import "server-only";
import net from "node:net";

/**
 * A SOCKS "proxy" on loopback that drops every connection. Chromium is launched with it as its
 * proxy (and, because it is SOCKS, with its own DNS resolution switched off), so any network
 * access that escapes request interception — preconnects, DNS prefetch, a socket opened by some
 * browser feature we did not foresee — goes nowhere instead of to an internal address. Every
 * real request is fulfilled through the egress guard by the router; this is the floor under it.
 */
export interface Blackhole {
  /** "socks5://127.0.0.1:<port>" for Chromium's proxy setting. */
  server: string;
  /** Connections dropped so far (each one is a request that escaped interception). */
  dropped(): number;
  close(): Promise<void>;
}

/** Opens the drop-everything listener on an ephemeral loopback port. */
export async function openBlackhole(onDrop?: () => void): Promise<Blackhole> {
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    onDrop?.();
    socket.destroy();
  });
  server.unref();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    server: `socks5://127.0.0.1:${port}`,
    dropped: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
