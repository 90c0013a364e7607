/** "Copy as curl": the request as a shell command, the key replaced by a placeholder. */
export function buildCurl(baseUrl: string, path: string, body: unknown, method = "POST"): string {
  const url = baseUrl.replace(/\/+$/, "") + path;
  const lines = [`curl -X ${method} '${url}'`, `  -H 'x-api-key: YOUR_API_KEY'`];
  if (method !== "GET" && body !== undefined) {
    lines.push(`  -H 'Content-Type: application/json'`);
    const json = JSON.stringify(stripSecrets(body), null, 2).replace(/'/g, `'\\''`);
    lines.push(`  -d '${json}'`);
  }
  return lines.join(" \\\n");
}

const SECRET_KEYS = /^(password|httppassword|apikey|api_key|x-api-key|DataEncryptionKey|DataDecryptionKey)$/i;

/** Masks secret values (passwords, encryption keys) anywhere in a request body. */
function stripSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripSecrets);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, SECRET_KEYS.test(k) && v ? "********" : stripSecrets(v)]),
    );
  }
  return value;
}
