import "server-only";
import fs from "node:fs";
import fsp from "node:fs/promises";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { Config } from "@/lib/core/config";
import { contentDisposition, type ObjectStore } from "./object-store";

type S3Settings = NonNullable<Config["s3"]>;

/** SigV4 presigned URLs live at most a week. */
const PRESIGN_MAX_SECONDS = 7 * 24 * 3600;

function isNotFound(e: unknown): boolean {
  if (e instanceof S3ServiceException)
    return e.$metadata?.httpStatusCode === 404 || e.name === "NoSuchKey" || e.name === "NotFound";
  return false;
}

/**
 * Objects in an S3-compatible bucket, through the AWS SDK v3 client. Only object-level calls
 * are used (put, get, head, delete one key), so the bucket policy needs no ListBucket or bucket
 * administration rights; the bucket itself is made by whoever runs the store.
 */
export function createS3Store(s: S3Settings): ObjectStore {
  const client = new S3Client({
    region: s.region,
    endpoint: s.endpoint,
    forcePathStyle: s.forcePathStyle,
    credentials: s.credentials,
    // Checksums only where an operation requires them: several S3-compatible stores reject the
    // SDK's newer default (CRC32 trailers in aws-chunked bodies).
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const Bucket = s.bucket;
  const full = (key: string) => s.prefix + key;

  async function head(key: string) {
    try {
      const h = await client.send(new HeadObjectCommand({ Bucket, Key: full(key) }));
      return { size: Number(h.ContentLength ?? 0), contentType: h.ContentType };
    } catch (e) {
      if (isNotFound(e)) return null;
      throw e;
    }
  }

  async function get(key: string) {
    try {
      return await client.send(new GetObjectCommand({ Bucket, Key: full(key) }));
    } catch (e) {
      if (isNotFound(e)) return null;
      throw e;
    }
  }

  // The URL of an object without its query, e.g. http://minio:9000/quire/ or https://b.s3.eu-west-1.amazonaws.com/
  let objectBase: Promise<string> | undefined;
  const baseUrl = () =>
    (objectBase ??= getSignedUrl(client, new GetObjectCommand({ Bucket, Key: full("k") }), {
      expiresIn: 60,
    }).then((u) => {
      const url = new URL(u);
      return url.origin + url.pathname.slice(0, -1);
    }));

  const store: ObjectStore = {
    kind: "s3",
    async putFile(key, srcPath, contentType, opts = {}) {
      const size = (await fsp.stat(srcPath)).size;
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: full(key),
          Body: fs.createReadStream(srcPath),
          ContentLength: size,
          ContentType: contentType,
          ...(opts.metadata ? { Metadata: opts.metadata } : {}),
        }),
      );
      if (opts.move) await fsp.rm(srcPath, { force: true });
      return size;
    },
    async putBytes(key, bytes, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: full(key),
          Body: bytes,
          ContentLength: bytes.length,
          ContentType: contentType,
        }),
      );
    },
    async open(key) {
      const r = await get(key);
      if (!r?.Body) return null;
      return { body: r.Body as Readable, size: Number(r.ContentLength ?? 0), contentType: r.ContentType };
    },
    async saveTo(key, destPath) {
      const r = await get(key);
      if (!r?.Body) return false;
      await pipeline(r.Body as Readable, fs.createWriteStream(destPath));
      return true;
    },
    stat: head,
    async move(fromKey, toKey) {
      // CopySource is bucket/key with the key URL-encoded (slashes kept).
      const source = `${Bucket}/${full(fromKey).split("/").map(encodeURIComponent).join("/")}`;
      await client.send(new CopyObjectCommand({ Bucket, Key: full(toKey), CopySource: source }));
      await client.send(new DeleteObjectCommand({ Bucket, Key: full(fromKey) }));
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: full(key) }));
    },
    async check() {
      // An object-level call (a HEAD of a key that need not exist) proves the endpoint, the
      // credentials and the bucket; 404 is the expected answer.
      await head(".quire-ready");
    },
  };
  if (s.presign) {
    const seconds = (expiresAt: Date) =>
      Math.max(1, Math.min(PRESIGN_MAX_SECONDS, Math.ceil((expiresAt.getTime() - Date.now()) / 1000)));
    store.presign = {
      maxSeconds: PRESIGN_MAX_SECONDS,
      put: (key, expiresAt) =>
        getSignedUrl(client, new PutObjectCommand({ Bucket, Key: full(key) }), {
          expiresIn: seconds(expiresAt),
        }),
      get: (key, file, expiresAt) =>
        getSignedUrl(
          client,
          new GetObjectCommand({
            Bucket,
            Key: full(key),
            ResponseContentType: file.contentType,
            ResponseContentDisposition: contentDisposition(file.name, file.inline),
          }),
          { expiresIn: seconds(expiresAt) },
        ),
      async seal(key, value, contentType) {
        const source = `${Bucket}/${full(key).split("/").map(encodeURIComponent).join("/")}`;
        await client.send(
          new CopyObjectCommand({
            Bucket,
            Key: full(key),
            CopySource: source,
            MetadataDirective: "REPLACE",
            ContentType: contentType,
            Metadata: { "quire-seal": value },
          }),
        );
      },
      async sealOf(key) {
        try {
          const h = await client.send(new HeadObjectCommand({ Bucket, Key: full(key) }));
          return h.Metadata?.["quire-seal"] ?? "";
        } catch (e) {
          if (isNotFound(e)) return null;
          throw e;
        }
      },
      async keyOf(url) {
        if (!url.searchParams.has("X-Amz-Signature")) return null;
        const base = await baseUrl();
        const here = url.origin + url.pathname;
        if (!here.startsWith(base)) return null;
        let key: string;
        try {
          key = decodeURIComponent(here.slice(base.length));
        } catch {
          return null;
        }
        if (!key.startsWith(s.prefix)) return null;
        const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(
          url.searchParams.get("X-Amz-Date") ?? "",
        );
        const expires = Number(url.searchParams.get("X-Amz-Expires"));
        if (!date || !Number.isFinite(expires)) return null;
        const signedAt = Date.UTC(+date[1], +date[2] - 1, +date[3], +date[4], +date[5], +date[6]);
        if (signedAt + expires * 1000 < Date.now()) return null;
        return key.slice(s.prefix.length);
      },
    };
  }
  return store;
}
