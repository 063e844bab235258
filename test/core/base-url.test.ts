// Base URLs and app ids: what may name the API host, and messages that never repeat a password.
import { describe, expect, it } from 'vitest';
import { baseUrlProblem, defaultHostProblem } from '../../src/core/base-url.js';

describe('baseUrlProblem', () => {
  it.each(['https://x.example/v3', 'http://127.0.0.1:4010/v3', 'http://localhost/v3', 'http://[::1]:1/v3'])('accepts %s', (url) => {
    expect(baseUrlProblem(url)).toBeUndefined();
  });

  it.each([
    ['http://deploy:Hunter2Pass@127.0.0.1/v3', /holds credentials/],
    ['https://Hunter2Pass@example.com/v3', /holds credentials/],
    ['https://:Hunter2Pass@example.com/v3', /holds credentials/],
    ['ftp://deploy:Hunter2Pass@example.com/v3', /holds credentials/],
    ['http://deploy:Hunter2Pass@exa mple.com/v3', /is not a URL; also remove the user name and password/],
    ['http://10.0.0.1/v3', /plain http/],
    ['ftp://example.com/v3', /must use https/],
  ])('refuses %s without repeating a password', (url, message) => {
    const problem = baseUrlProblem(url);
    expect(problem).toMatch(message);
    expect(problem).not.toContain('Hunter2Pass');
  });
});

describe('defaultHostProblem', () => {
  it.each(['local', 'acme-eu', 'App_42'])('accepts %s', (appId) => {
    expect(defaultHostProblem(appId, 'us')).toBeUndefined();
  });

  it.each(['127.0.0.1:4010#', 'evil.example/x', 'a@b', 'x.y'])('refuses %s, whose default URL names another host', (appId) => {
    expect(defaultHostProblem(appId, 'eu')).toMatch(/does not give the host/);
  });
});
