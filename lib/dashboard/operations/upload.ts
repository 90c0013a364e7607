import { api } from "@/lib/dashboard/data/http";

/**
 * Uploads a local file through the presigned-URL flow: the proxy gets a signed upload URL for
 * the account, then the browser PUTs the bytes straight to storage (XHR, for progress).
 */
export async function uploadFile(file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<string> {
  const type = file.type || "application/octet-stream";
  const q = new URLSearchParams({ name: file.name, contenttype: type });
  const { presignedUrl, url } = await api<{ presignedUrl: string; url: string }>(`/v1/file/upload/get-presigned-url?${q}`, { signal });
  await new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", presignedUrl);
    xhr.setRequestHeader("Content-Type", type);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => (xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(new Error(`Upload failed (${xhr.status}): ${xhr.responseText.slice(0, 200)}`)));
    xhr.onerror = () => reject(new Error("Upload failed: the storage server could not be reached."));
    xhr.onabort = () => reject(new DOMException("Upload cancelled", "AbortError"));
    signal?.addEventListener("abort", () => xhr.abort());
    xhr.send(file);
  });
  onProgress(1);
  return url;
}
