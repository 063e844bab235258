// The error answers of both API families, and every other body a server may send, become one
// clear, printable line.
import { describe, expect, it } from 'vitest';
import { ApiError, errorFromResponse, errorFromTransport, formatBytes, responseTimeout, responseTooLarge, serverAddress, waitTooLong } from '../../../src/io/api/api-error.js';

const CALL = 'PUT /ai-agents/tools/x';
const read = (status: number, body: string): ApiError => errorFromResponse(status, body, CALL);
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

describe('errorFromResponse: the AI-agent envelope {statusCode, message, error}', () => {
  it('reads a string message', () => {
    const err = read(400, JSON.stringify({ statusCode: 400, message: 'name is too long', error: 'Bad Request' }));
    expect(err).toMatchObject({ status: 400, code: 'HTTP_400', serverMessage: 'name is too long', retryable: false });
    expect(err.message).toBe('PUT /ai-agents/tools/x answered 400: name is too long');
  });

  it('joins a message list into one line, skipping what is not text', () => {
    const err = read(400, JSON.stringify({ statusCode: 400, message: ['name must be a string', 42, '', 'displayName should not be empty', { nested: true }], error: 'Bad Request' }));
    expect(err.serverMessage).toBe('name must be a string; displayName should not be empty');
  });

  it('falls back to the reason phrase when there is no message', () => {
    expect(read(404, JSON.stringify({ statusCode: 404, message: [], error: 'Not Found' })).serverMessage).toBe('Not Found');
    expect(read(404, JSON.stringify({ statusCode: 404, error: 'Not Found' })).serverMessage).toBe('Not Found');
  });

  it('flattens a multi-line message', () => {
    expect(read(400, JSON.stringify({ statusCode: 400, message: 'first\nsecond\r\n\tthird', error: 'Bad Request' })).serverMessage).toBe('first second third');
  });
});

describe('errorFromResponse: the Chat API envelope {error: {code, message, devMessage, source}}', () => {
  it('reads the code and the message', () => {
    const err = read(401, JSON.stringify({ error: { code: 'AUTH_ERR_APIKEY_NOT_FOUND', message: 'The API key is not valid.', devMessage: 'dev', source: 'api' } }));
    expect(err).toMatchObject({ status: 401, code: 'AUTH_ERR_APIKEY_NOT_FOUND', serverMessage: 'The API key is not valid.' });
  });

  it('uses devMessage when message is missing or empty, and HTTP_<status> without a code', () => {
    expect(read(400, JSON.stringify({ error: { message: '', devMessage: 'field x' } }))).toMatchObject({ code: 'HTTP_400', serverMessage: 'field x' });
    expect(read(400, JSON.stringify({ error: { code: 7, devMessage: 'field y' } }))).toMatchObject({ code: 'HTTP_400', serverMessage: 'field y' });
  });

  it('marks 429, 502, 503 and 504 retryable, and nothing else', () => {
    const retryable = [400, 401, 404, 409, 429, 500, 502, 503, 504].filter((s) => read(s, '').retryable);
    expect(retryable).toEqual([429, 502, 503, 504]);
  });
});

describe('errorFromResponse: bodies that are not an envelope', () => {
  it('an empty body says only the status', () => {
    const err = read(500, '');
    expect(err).toMatchObject({ code: 'HTTP_500', serverMessage: '' });
    expect(err.message).toBe('PUT /ai-agents/tools/x answered 500');
  });

  it('an HTML page becomes its text, on one line', () => {
    expect(read(502, '<html>\n<body><h1>502 Bad Gateway</h1>\n<hr><center>nginx</center></body></html>').serverMessage).toBe('502 Bad Gateway nginx');
  });

  it('plain text, a JSON list, null and a bare string are shown as text', () => {
    expect(read(503, 'upstream connect error').serverMessage).toBe('upstream connect error');
    expect(read(400, '[1,2]').serverMessage).toBe('[1,2]');
    expect(read(400, 'null').serverMessage).toBe('null');
    expect(read(400, '"oops"').serverMessage).toBe('"oops"');
  });

  it('a huge message, JSON or not, is cut to a short line', () => {
    const huge = 'y'.repeat(5_000_000);
    for (const body of [
      JSON.stringify({ statusCode: 400, message: huge, error: 'Bad Request' }),
      JSON.stringify({ error: { code: 'E', message: huge } }),
      huge,
      `{"statusCode":400,"message":"${huge.slice(0, 70_000)}`,
    ]) {
      const err = read(400, body);
      expect(err.serverMessage.length).toBeLessThanOrEqual(300);
      expect(err.message.length).toBeLessThan(400);
      expect(err.message).not.toContain('\n');
    }
  });
});

describe('a server cannot drive the terminal through an error', () => {
  const escapes = '\x1b[2J\x1b]0;pwned\x07\u009b31m\x7f';
  it.each([
    ['AI-agent message', JSON.stringify({ statusCode: 400, message: `bad ${escapes}`, error: 'Bad Request' })],
    ['AI-agent message list', JSON.stringify({ statusCode: 400, message: [`bad ${escapes}`], error: 'Bad Request' })],
    ['AI-agent reason phrase', JSON.stringify({ statusCode: 400, error: `Bad ${escapes}` })],
    ['Chat code and message', JSON.stringify({ error: { code: `ERR_${escapes}`, message: `bad ${escapes}` } })],
    ['Chat devMessage', JSON.stringify({ error: { code: 'E', devMessage: `bad ${escapes}` } })],
    ['plain text', `bad ${escapes}`],
  ])('%s', (_label, body) => {
    const err = read(400, body);
    for (const text of [err.message, err.code, err.serverMessage, err.describeFor('tool.x')]) expect(text).not.toMatch(CONTROL);
    expect(err.message).toContain('\\u001b[2J');
  });

  it('applies to every ApiError, however it was made', () => {
    const err = new ApiError({ status: 0, code: 'E\x1b', serverMessage: 'm\x1b[0m', call: CALL, retryable: false, notSent: false });
    expect(err.message).toBe('PUT /ai-agents/tools/x failed (E\\u001b): m\\u001b[0m');
  });
});

describe('transport failures name the server they tried', () => {
  const local = serverAddress(new URL('http://127.0.0.1:4010/v3'));
  const remote = serverAddress(new URL('https://app.api-us.cometchat.io/v3'));
  const failure = (code: string, message = 'boom'): Error => Object.assign(new Error(message), { code });

  it('knows the port of a URL that does not write it, and which hosts are loopback', () => {
    expect(local).toEqual({ hostPort: '127.0.0.1:4010', loopback: true });
    expect(remote).toEqual({ hostPort: 'app.api-us.cometchat.io:443', loopback: false });
    expect(serverAddress(new URL('http://[::1]/v3'))).toEqual({ hostPort: '[::1]:80', loopback: true });
  });

  it.each([
    ['ECONNREFUSED', 'could not connect to 127.0.0.1:4010 (connection refused)', true],
    ['ENOTFOUND', 'could not connect to 127.0.0.1:4010 (host name not found)', true],
    ['UND_ERR_CONNECT_TIMEOUT', 'could not connect to 127.0.0.1:4010 (timed out)', true],
    ['EHOSTUNREACH', 'could not connect to 127.0.0.1:4010 (host unreachable)', true],
    ['ECONNRESET', 'the connection to 127.0.0.1:4010 was closed before the answer was complete', false],
    ['UND_ERR_HEADERS_TIMEOUT', 'timed out waiting for the answer from 127.0.0.1:4010', false],
    ['CERT_HAS_EXPIRED', 'the request to 127.0.0.1:4010 failed: boom', false],
  ])('%s', (code, message, notSent) => {
    const err = errorFromTransport(failure(code), CALL, local);
    expect(err).toMatchObject({ status: 0, serverMessage: message, notSent, retryable: true });
  });

  it("finds the OS code under undici's socket error", () => {
    const wrapped = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET', cause: failure('ECONNRESET') });
    expect(errorFromTransport(wrapped, CALL, remote)).toMatchObject({ code: 'ECONNRESET', serverMessage: 'the connection to app.api-us.cometchat.io:443 was closed before the answer was complete' });
  });
});

describe("the transport's own refusals", () => {
  const local = serverAddress(new URL('http://127.0.0.1:4010/v3'));

  it('a whole-response timeout says how long it waited', () => {
    expect(responseTimeout(CALL, local, 2_000)).toMatchObject({ code: 'TIMEOUT', serverMessage: 'no complete answer from 127.0.0.1:4010 within 2 s', retryable: true, notSent: false });
  });

  it.each([
    [1, '1 ms'],
    [999, '999 ms'],
    [1_500, '1.5 s'],
    [30_000, '30 s'],
  ])('a timeout of %i ms is said exactly, as %s, never rounded to a second', (limitMs, said) => {
    expect(responseTimeout(CALL, local, limitMs).serverMessage).toBe(`no complete answer from 127.0.0.1:4010 within ${said}`);
  });

  it('an answer too large says the limit, and is never retried', () => {
    expect(responseTooLarge(200, CALL, 1024 * 1024, 700 * 1024 * 1024)).toMatchObject({
      status: 200,
      code: 'RESPONSE_TOO_LARGE',
      serverMessage: 'the answer is 700 MB, more than the 1 MB this call accepts',
      retryable: false,
    });
    expect(responseTooLarge(200, CALL, 32 * 1024 * 1024).serverMessage).toBe('the answer is larger than the 32 MB this call accepts');
  });

  it('a wait longer than the deadline keeps the answer that asked for it, and is final', () => {
    const answer = errorFromResponse(429, '{"error":{"code":"ERR_TOO_MANY_REQUESTS","message":"slow"}}', CALL, 3_600_000);
    const err = waitTooLong(CALL, 3_600_000, 299_500, answer);
    expect(err).toMatchObject({ status: 429, code: 'ERR_TOO_MANY_REQUESTS', retryable: false, notSent: false });
    expect(err.serverMessage).toBe('rate limited: the server asks to wait 3600 s, longer than the 300 s this call may still wait; try again later');
    expect(waitTooLong(CALL, 60_000, 1_000, errorFromResponse(503, '', CALL, 60_000)).serverMessage).toMatch(/^the server is unavailable: the server asks to wait 60 s/);
  });

  it('a call refused before sending says so, and is marked not sent', () => {
    const err = waitTooLong(CALL, 1e15, -5);
    expect(err).toMatchObject({ status: 0, code: 'RATE_LIMITED', notSent: true, retryable: false });
    expect(err.serverMessage).toBe('rate limited: the server asks to wait 1000000000000 s, longer than the 0 s this call may still wait; try again later');
  });

  it.each([
    [100, '100 bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1024 * 1024, '1 MB'],
    [32 * 1024 * 1024, '32 MB'],
  ])('formatBytes(%i) is %s', (bytes, text) => expect(formatBytes(bytes)).toBe(text));
});
