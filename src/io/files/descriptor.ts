// Reading a file through its descriptor (and a folder's entries) with node:fs's callback calls. Not node:fs/promises: that
// module loads readline, the REPL's history and the file watchers with it, which cost a command
// that only reads its manifest a few milliseconds of its start (BENCHMARKS.md, P3).
import { close, fstat, open, read, readdir, stat, type Dirent, type Stats } from 'node:fs';

/** Opens `path` for reading. */
export function openToRead(path: string): Promise<number> {
  return new Promise((resolve, reject) => open(path, 'r', (err, fd) => (err ? reject(err) : resolve(fd))));
}

export function statOf(fd: number): Promise<Stats> {
  return new Promise((resolve, reject) => fstat(fd, (err, stats) => (err ? reject(err) : resolve(stats))));
}

/** Reads the next bytes into `buffer`; resolves to how many, 0 at the end of the file. */
export function readInto(fd: number, buffer: Buffer): Promise<number> {
  return new Promise((resolve, reject) => read(fd, buffer, 0, buffer.length, null, (err, bytesRead) => (err ? reject(err) : resolve(bytesRead))));
}

export function closeFile(fd: number): Promise<void> {
  return new Promise((resolve, reject) => close(fd, (err) => (err ? reject(err) : resolve())));
}

/** What `path` is, following links. */
export function statPath(path: string): Promise<Stats> {
  return new Promise((resolve, reject) => stat(path, (err, stats) => (err ? reject(err) : resolve(stats))));
}

/**
 * A folder's entries with their types (a link is a link: not followed), named by their bytes: a
 * name that is not UTF-8 would come back as a string with U+FFFD in it, which names no file.
 */
export function readFolder(path: string): Promise<Dirent<Buffer>[]> {
  return new Promise((resolve, reject) => readdir(path, { withFileTypes: true, encoding: 'buffer' }, (err, entries) => (err ? reject(err) : resolve(entries))));
}
