// Reads an answer's body with a byte limit, so a server cannot make the client download (and hold
// in memory) more than the call can use. A declared Content-Length over the limit is refused before
// a byte is read; a body without one is cut off as soon as it passes the limit. Either way the
// connection is dropped, which is the only way to stop a server that keeps sending.
import type { Dispatcher } from 'undici';

export type BodyRead = { text: string; truncated: boolean } | { tooLarge: true; declaredBytes?: number };

/**
 * `overLimit: 'refuse'` (a success answer: a cut one is useless) or `'truncate'` (an error answer:
 * its first bytes still say what went wrong).
 */
export async function readBody(response: Dispatcher.ResponseData, limitBytes: number, overLimit: 'refuse' | 'truncate'): Promise<BodyRead> {
  const declared = declaredLength(response.headers['content-length']);
  if (declared !== undefined && declared > limitBytes && overLimit === 'refuse') {
    response.body.destroy();
    return { tooLarge: true, declaredBytes: declared };
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > limitBytes) {
      // Leaving the loop destroys the stream, and with it the connection.
      if (overLimit === 'refuse') return { tooLarge: true };
      chunks.push(chunk.subarray(0, chunk.length - (total - limitBytes)));
      return { text: Buffer.concat(chunks).toString('utf8'), truncated: true };
    }
    chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}

function declaredLength(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text !== undefined && /^\s*\d+\s*$/.test(text) ? Number(text) : undefined;
}
