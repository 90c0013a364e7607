import "server-only";
import fs from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import os from "node:os";
import type net from "node:net";
import type { Config } from "@/lib/core/config";
import { log } from "@/lib/core/log";
import type { Handler } from "./http-handler";

export interface Listeners {
  /** The public listener: HTTPS (HTTP/2 + HTTP/1.1) with TLS_CERT_FILE, else plain HTTP. */
  main: net.Server;
  /** Plain HTTP on HTTP_REDIRECT_PORT answering redirects to https. */
  redirect?: net.Server;
  close(): void;
}

function listenOn(server: net.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function readTls(cfg: NonNullable<Config["tls"]>) {
  return { cert: fs.readFileSync(cfg.certFile), key: fs.readFileSync(cfg.keyFile) };
}

/**
 * Opens Quire's public listener: HTTPS itself when TLS_CERT_FILE/TLS_KEY_FILE are set (HTTP/2
 * with HTTP/1.1 fallback on one port; SIGHUP re-reads the files), else plain HTTP; and with
 * HTTP_REDIRECT_PORT a plain-HTTP listener that only redirects to https.
 */
export async function openListeners(cfg: Config, handler: Handler): Promise<Listeners> {
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    Promise.resolve(handler(req, res)).catch((e: unknown) => {
      log.error("request failed", e);
      if (!res.headersSent) res.writeHead(500).end();
    });
  };
  let main: net.Server;
  if (cfg.tls) {
    const tls = cfg.tls;
    const server = http2.createSecureServer({ ...readTls(tls), allowHTTP1: true }, onRequest as never);
    process.on("SIGHUP", () => {
      try {
        server.setSecureContext(readTls(tls));
        log.info("TLS certificate reloaded");
      } catch (e) {
        log.error("TLS certificate reload failed; keeping the old one", e);
      }
    });
    main = server;
  } else {
    const server = http.createServer(onRequest);
    server.keepAliveTimeout = 65_000;
    server.requestTimeout = 0; // sync calls may wait up to SYNC_TIMEOUT_MS; uploads stream
    main = server;
  }
  await listenOn(main, cfg.port, cfg.host);
  let redirect: net.Server | undefined;
  if (cfg.tls && cfg.httpRedirectPort) {
    const httpsPort = (main.address() as net.AddressInfo).port;
    redirect = http.createServer((req, res) => {
      const target = httpsTarget(cfg, req, httpsPort);
      if (!target) {
        res.writeHead(400, { "content-type": "text/plain" });
        return res.end("Use https.\n");
      }
      res.writeHead(308, { location: target, "content-type": "text/plain", connection: "close" });
      res.end(`Moved to ${target}\n`);
    });
    await listenOn(redirect, cfg.httpRedirectPort, cfg.host);
  }
  return {
    main,
    redirect,
    close() {
      main.close();
      redirect?.close();
    },
  };
}

/** The https URL of a plain-HTTP request: PUBLIC_URL's origin when it is https, else the same host on the TLS port. */
function httpsTarget(cfg: Config, req: http.IncomingMessage, httpsPort: number): string | null {
  const pathAndQuery = (req.url ?? "/").startsWith("/") ? (req.url ?? "/") : "/";
  if (cfg.publicUrlExplicit && cfg.publicUrl.startsWith("https://"))
    return new URL(cfg.publicUrl).origin + pathAndQuery;
  const host = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d+)?$/.exec(req.headers.host ?? "");
  if (!host) return null;
  return `https://${host[1]}${httpsPort === 443 ? "" : `:${httpsPort}`}${pathAndQuery}`;
}

/** The URLs the listener is really reachable at: the bound address, or every interface's for 0.0.0.0/::. */
export function boundUrls(
  server: net.Server,
  scheme: "http" | "https",
): { urls: string[]; allInterfaces: boolean; address: string; port: number } {
  const a = server.address() as net.AddressInfo;
  const fmt = (ip: string) => `${scheme}://${ip.includes(":") ? `[${ip}]` : ip}:${a.port}`;
  const allInterfaces = a.address === "0.0.0.0" || a.address === "::";
  if (!allInterfaces) return { urls: [fmt(a.address)], allInterfaces, address: a.address, port: a.port };
  const urls: string[] = [];
  for (const list of Object.values(os.networkInterfaces())) {
    for (const i of list ?? []) {
      if (i.family === "IPv6" && (a.address === "0.0.0.0" || i.scopeid)) continue; // link-local needs a zone
      urls.push(fmt(i.address));
    }
  }
  return { urls, allInterfaces, address: a.address, port: a.port };
}

export function isLoopbackAddress(address: string) {
  return address === "::1" || address.startsWith("127.") || address === "localhost";
}
