// stdout and stderr written straight to their descriptors (src/io/runtime/descriptor-output.ts), on
// real files, real FIFOs and /dev/null: which descriptors qualify, a full non-blocking pipe handing
// the rest to Node's stream in order, and a reader that goes away.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DescriptorOutput, writesDirectly } from '../../../src/io/runtime/descriptor-output.js';

let dir: string;
const opened: number[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentsync-descriptor-output-'));
});
afterAll(() => {
  for (const fd of opened) closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
});

function open(path: string, flags: number): number {
  const fd = openSync(path, flags);
  opened.push(fd);
  return fd;
}

/** A FIFO with both ends open and non-blocking, as a pipe is once another process made it so. */
function nonBlockingPipe(name: string): { reader: number; writer: number } {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  const reader = open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = open(path, constants.O_WRONLY | constants.O_NONBLOCK);
  return { reader, writer };
}

function drain(fd: number): Buffer {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(65_536);
  for (;;) {
    try {
      const n = readSync(fd, buffer);
      if (n === 0) break;
      chunks.push(Buffer.from(buffer.subarray(0, n)));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN') break;
      throw err;
    }
  }
  return Buffer.concat(chunks);
}

/** Node's stream, as the output hands over to it: here a buffer, to see what reached it, and how often it was made. */
function streamDouble(): { factory: () => Writable; received: () => Buffer; made: () => number } {
  const chunks: Buffer[] = [];
  let made = 0;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return {
    factory: () => {
      made++;
      return stream;
    },
    received: () => Buffer.concat(chunks),
    made: () => made,
  };
}

describe('which descriptors are written directly', () => {
  it('takes a file, a FIFO and /dev/null, and leaves everything to Node on Windows', () => {
    const file = open(join(dir, 'out.txt'), constants.O_WRONLY | constants.O_CREAT);
    const { writer } = nonBlockingPipe('kind.fifo');
    const devNull = open('/dev/null', constants.O_WRONLY);
    expect([file, writer, devNull].map((fd) => writesDirectly(fd, 'linux'))).toEqual([true, true, true]);
    expect([file, writer, devNull].map((fd) => writesDirectly(fd, 'win32'))).toEqual([false, false, false]);
  });

  it('does not take another character device, a closed descriptor or a directory', () => {
    const zero = open('/dev/zero', constants.O_WRONLY);
    const folder = open(dir, constants.O_RDONLY);
    expect(writesDirectly(zero, 'linux')).toBe(false);
    expect(writesDirectly(folder, 'linux')).toBe(false);
    expect(writesDirectly(999_999, 'linux')).toBe(false);
  });
});

describe('an output on a descriptor', () => {
  it('writes strings in any encoding and bytes to a file, in order, and answers callbacks', async () => {
    const path = join(dir, 'written.txt');
    const fd = open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC);
    const neverMade = streamDouble();
    const failures: string[] = [];
    const output = new DescriptorOutput(fd, neverMade.factory, (code) => failures.push(code));
    const answered = new Promise<void>((resolve) => output.write('héllo ', () => resolve()));
    output.write('776f726c64', 'hex');
    output.write(Buffer.from('!\n'));
    output.end('bye\n');
    await answered;
    expect(readFileSync(path, 'utf8')).toBe('héllo world!\nbye\n');
    expect({ failures, made: neverMade.made(), writable: output.writable, isTTY: output.isTTY }).toEqual({ failures: [], made: 0, writable: false, isTTY: false });
  });

  it('drops a write after end() and tells its callback, as a Node stream does', async () => {
    const path = join(dir, 'ended.txt');
    const fd = open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC);
    const output = new DescriptorOutput(fd, streamDouble().factory, () => undefined);
    output.end('last\n');
    const refused = new Promise<unknown>((resolve) => output.write('too late\n', resolve));
    expect(output.write(Buffer.from('also too late\n'))).toBe(false);
    expect(await refused).toMatchObject({ code: 'ERR_STREAM_WRITE_AFTER_END' });
    expect(readFileSync(path, 'utf8')).toBe('last\n');
  });

  it('hands the rest of a write a full non-blocking pipe refuses, and every later write, to Node’s stream, in order', () => {
    const { reader, writer } = nonBlockingPipe('full.fifo');
    const node = streamDouble();
    const output = new DescriptorOutput(writer, node.factory, () => undefined);
    // Far more than a pipe holds (64 KiB on Linux): the kernel takes part, then says EAGAIN.
    const first = Buffer.alloc(300_000, 'a');
    output.write(first);
    output.write('and then this\n');
    const inPipe = drain(reader);
    expect(inPipe.length).toBeGreaterThan(0);
    expect(inPipe.length).toBeLessThan(first.length);
    expect(node.made()).toBe(1);
    expect(Buffer.concat([inPipe, node.received()]).toString()).toBe(`${first.toString()}and then this\n`);
  });

  it('stops writing when the reader has gone, says so once, and never throws', () => {
    const { reader, writer } = nonBlockingPipe('gone.fifo');
    closeSync(reader);
    opened.splice(opened.indexOf(reader), 1);
    const failures: string[] = [];
    const node = streamDouble();
    const output = new DescriptorOutput(writer, node.factory, (code) => failures.push(code));
    expect(output.write('nobody reads this\n')).toBe(true);
    expect(output.write('nor this\n')).toBe(true);
    expect({ failures, made: node.made() }).toEqual({ failures: ['EPIPE'], made: 0 });
  });
});
