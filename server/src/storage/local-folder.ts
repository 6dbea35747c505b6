import { constants, createReadStream } from 'node:fs';
import { access, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { checkFolder, checkKey, type ObjectStore } from './object-store.ts';

/**
 * The embedded default (ARCHITECTURE.md §4: `.local/media`): each key is a file below the folder,
 * each key folder a directory. Nothing leaves this machine.
 */
export function createLocalFolder(dir: string): ObjectStore {
  const root = path.resolve(dir);
  const fileOf = (key: string): string => {
    const file = path.resolve(root, checkKey(key));
    if (!file.startsWith(root + path.sep)) throw new Error(`storage key outside the folder: ${key}`);
    return file;
  };

  return {
    description: `the local folder ${root}`,
    async put(key, data) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Written aside and renamed: a reader (a clip cache's existence check) never sees half a file.
      const partial = `${file}.${process.pid}.partial`;
      await writeFile(partial, data);
      await rename(partial, file);
    },
    async size(key) {
      return stat(fileOf(key)).then(
        (info) => (info.isFile() ? info.size : null),
        () => null,
      );
    },
    async read(key, range) {
      return createReadStream(fileOf(key), range ? { start: range.start, end: range.end } : {}) as Readable;
    },
    async localCopy(key) {
      return fileOf(key);
    },
    async remove(keys) {
      for (const key of keys) await rm(fileOf(key), { force: true });
    },
    async removeFolder(folder) {
      await rm(fileOf(checkFolder(folder)), { recursive: true, force: true });
    },
    async listFolders() {
      try {
        return (await readdir(root, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
      } catch {
        return [];
      }
    },
    async folderChangedAt(folder) {
      return stat(fileOf(checkFolder(folder))).then(
        (info) => info.mtimeMs,
        () => null,
      );
    },
    async check() {
      await mkdir(root, { recursive: true });
      await access(root, constants.W_OK);
    },
  };
}
