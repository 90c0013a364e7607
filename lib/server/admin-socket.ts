import "server-only";
import net from "node:net";
import fs from "node:fs";
import path from "node:path";
import { getConfig } from "@/lib/core/config";

/** DATA_DIR/admin.sock: only the machine's users who can read DATA_DIR can reach it (mode 0600). */
function adminSocketPath() {
  return path.join(getConfig().dataDir, "admin.sock");
}

/** Serves CLI commands inside the running server (embedded PGlite is owned by one process). */
export function listenAdminSocket(run: (argv: string[]) => Promise<{ code: number; out: string }>) {
  const file = adminSocketPath();
  fs.rmSync(file, { force: true });
  const server = net.createServer((sock) => {
    let buf = "";
    sock.on("data", (d) => {
      buf += d;
      if (!buf.includes("\n")) return;
      let argv: string[] = [];
      try {
        argv = JSON.parse(buf.slice(0, buf.indexOf("\n"))).argv;
      } catch {
        sock.end(JSON.stringify({ code: 2, out: "bad request" }) + "\n");
        return;
      }
      run(argv).then(
        (r) => sock.end(JSON.stringify(r) + "\n"),
        (e) => sock.end(JSON.stringify({ code: 1, out: String(e) }) + "\n"),
      );
    });
    sock.on("error", () => {});
  });
  server.listen(file, () => fs.chmodSync(file, 0o600));
  server.unref();
  return server;
}

/** The CLI's side: null when no server is listening (then the CLI opens the database itself). */
export function callAdminSocket(argv: string[]): Promise<{ code: number; out: string } | null> {
  return new Promise((resolve) => {
    const sock = net.connect(adminSocketPath());
    let buf = "";
    sock.on("connect", () => sock.write(JSON.stringify({ argv }) + "\n"));
    sock.on("data", (d) => (buf += d));
    sock.on("end", () => {
      try {
        resolve(JSON.parse(buf));
      } catch {
        resolve(null);
      }
    });
    sock.on("error", () => resolve(null));
  });
}
