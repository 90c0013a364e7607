// The container's HEALTHCHECK: GET /healthz on this process's own port (a worker's WORKER_PORT,
// else PORT; https when Quire serves TLS itself). Exit 0 when it answers 200.
import http from "node:http";
import https from "node:https";

const worker = process.env.WORKER_PORT && process.argv.includes("--worker");
const port = Number((worker ? process.env.WORKER_PORT : process.env.PORT) || 3000);
const tls = !worker && Boolean(process.env.TLS_CERT_FILE);
const get = tls ? https.get : http.get;
const req = get(
  { host: "127.0.0.1", port, path: "/healthz", timeout: 4000, rejectUnauthorized: false },
  (res) => {
    res.resume();
    process.exit(res.statusCode === 200 ? 0 : 1);
  },
);
req.on("timeout", () => req.destroy(new Error("timeout")));
req.on("error", () => process.exit(1));
