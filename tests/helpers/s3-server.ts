import fs from "node:fs";
import os from "node:os";
import path from "node:path";
// @ts-expect-error no type declarations ship with this package
import S3rver from "@20minutes/s3rver";

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The bucket's folder on disk (s3rver keeps objects as files). */
  dir: string;
  /** Environment that points Quire at this store. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver, the maintained @20minutes fork) on a free loopback port,
 * with one bucket, checking SigV4 signatures of requests and presigned URLs.
 */
export async function startS3(bucket = "quire-test"): Promise<TestS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-s3-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket }],
  });
  const addr = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${addr.port}`;
  return {
    endpoint,
    bucket,
    dir: path.join(dir, bucket),
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
    },
    async stop() {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
