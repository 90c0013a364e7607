import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** A self-signed certificate for 127.0.0.1 and localhost, made by openssl for this run. */
export function selfSignedCert(): { dir: string; cert: string; key: string; ca: Buffer } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-tls-"));
  const cert = path.join(dir, "cert.pem");
  const key = path.join(dir, "key.pem");
  const r = spawnSync("openssl", [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-days",
    "2",
    "-subj",
    "/CN=localhost",
    "-addext",
    "subjectAltName=IP:127.0.0.1,DNS:localhost",
    "-keyout",
    key,
    "-out",
    cert,
  ]);
  if (r.status !== 0) throw new Error(`openssl failed: ${r.stderr}`);
  return { dir, cert, key, ca: fs.readFileSync(cert) };
}
