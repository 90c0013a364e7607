import type { QuireServer } from "./quire-server";

/** Uploads bytes through the presigned-URL flow (GET presigned URL, raw PUT) and returns the file URL. */
export async function uploadBytes(q: QuireServer, bytes: Uint8Array, name: string, contentType = "application/octet-stream") {
  const r = await q.api(`/v1/file/upload/get-presigned-url?name=${encodeURIComponent(name)}&contenttype=${encodeURIComponent(contentType)}`);
  if (r.status !== 200) throw new Error(`presign failed: ${JSON.stringify(r.body)}`);
  const put = await fetch(r.body.presignedUrl, { method: "PUT", body: new Uint8Array(bytes), headers: { "content-type": contentType } });
  if (put.status !== 200) throw new Error(`PUT failed: ${put.status} ${await put.text()}`);
  return r.body.url as string;
}

export async function download(url: string): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const r = await fetch(url);
  return { status: r.status, bytes: Buffer.from(await r.arrayBuffer()), headers: r.headers };
}
