import "server-only";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { ObjectStore } from "./object-store";

/** Objects as files under DATA_DIR/files/<id>/<name> (the embedded default). */
export function createDiskStore(dataDir: string): ObjectStore {
  const root = path.join(dataDir, "files");
  const fileOf = (key: string) => {
    const p = path.join(root, key);
    if (!p.startsWith(root + path.sep)) throw new Error(`bad storage key ${key}`);
    return p;
  };
  const stat = async (key: string) => {
    const s = await fsp.stat(fileOf(key)).catch(() => null);
    return s?.isFile() ? { size: s.size } : null;
  };
  const saveTo = async (key: string, destPath: string) => {
    try {
      await fsp.copyFile(fileOf(key), destPath);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw e;
    }
  };
  return {
    kind: "local",
    async putFile(key, srcPath, _contentType, opts = {}) {
      const dest = fileOf(key);
      await fsp.mkdir(path.dirname(dest), { recursive: true });
      if (opts.move) {
        try {
          await fsp.rename(srcPath, dest);
          return (await fsp.stat(dest)).size;
        } catch {
          /* another file system: copy below */
        }
      }
      // Copy next to the destination, then rename: a reader never sees half a file.
      await fsp.copyFile(srcPath, dest + ".part");
      await fsp.rename(dest + ".part", dest);
      if (opts.move) await fsp.rm(srcPath, { force: true });
      return (await fsp.stat(dest)).size;
    },
    moveFileSync(key, srcPath) {
      const dest = fileOf(key);
      try {
        fs.mkdirSync(path.dirname(dest), { recursive: true });
        fs.renameSync(srcPath, dest);
        return fs.statSync(dest).size;
      } catch {
        return null; // another file system (or a race): putFile copies it
      }
    },
    async putBytes(key, bytes) {
      const dest = fileOf(key);
      await fsp.mkdir(path.dirname(dest), { recursive: true });
      await fsp.writeFile(dest + ".part", bytes);
      await fsp.rename(dest + ".part", dest);
    },
    async open(key) {
      const s = await stat(key);
      return s ? { body: fs.createReadStream(fileOf(key)), size: s.size } : null;
    },
    async linkTo(key, destPath) {
      try {
        await fsp.link(fileOf(key), destPath);
        // Stored files never change: read-only, so a write through the link fails loudly.
        await fsp.chmod(destPath, 0o444);
        return true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") return false;
        return saveTo(key, destPath); // another file system, or links not allowed: a copy
      }
    },
    saveTo,
    stat,
    async move(fromKey, toKey) {
      const dest = fileOf(toKey);
      await fsp.mkdir(path.dirname(dest), { recursive: true });
      await fsp.rename(fileOf(fromKey), dest);
    },
    async delete(key) {
      // The key's folder (<id>/) holds only this object.
      await fsp.rm(path.dirname(fileOf(key)), { recursive: true, force: true });
    },
    async check() {
      await fsp.mkdir(root, { recursive: true });
      await fsp.access(root, fs.constants.W_OK);
    },
  };
}
