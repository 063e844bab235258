// PostgreSQL state URLs: which values select the backend, and the only form ever shown.
import { describe, expect, it } from 'vitest';
import { chooseStateLocation } from '../../../src/io/state/index.js';
import { isPostgresUrl, parsePgUrl, scrub } from '../../../src/io/state/pg/url.js';

describe('postgres state URLs', () => {
  it.each([
    ['postgres://u:secret@db.example:5432/states', 'postgres://u:***@db.example:5432/states'],
    ['postgresql://u:p%40ss%2Fw0rd@db/states?sslmode=require', 'postgresql://u:***@db/states?sslmode=require'],
    ['postgres://db/states?user=u&password=secret', 'postgres://db/states?user=u&password=***'],
    ['postgres://u@db/states', 'postgres://u@db/states'],
    ['postgres://db', 'postgres://db'],
  ])('masks %s', (raw, masked) => {
    expect(parsePgUrl(raw, '--state').masked).toBe(masked);
  });

  it('scrubs every form of the password from a driver message', () => {
    const url = parsePgUrl('postgres://u:p%40ss@db/x', '--state');
    expect(scrub('auth failed for p@ss (p%40ss) at postgres://u:p%40ss@db/x', url)).toBe('auth failed for *** (***) at postgres://u:***@db/x');
  });

  it('refuses an unparsable URL without quoting it', () => {
    expect(() => parsePgUrl('postgres://u:p@ss word@@/x y', 'AGENTSYNC_STATE_URL')).toThrow(/from AGENTSYNC_STATE_URL\) is not a valid URL/);
    try {
      parsePgUrl('postgres://u:hunter2 x@@/', '--state');
    } catch (err) {
      expect((err as Error).message).not.toContain('hunter2');
    }
  });

  it('recognises only postgres:// and postgresql://', () => {
    expect(['postgres://x', 'POSTGRESQL://x', 'postgresql://x'].every(isPostgresUrl)).toBe(true);
    expect(['pg://x', './postgres://x', 'state.json', 'C:\\state.json'].some(isPostgresUrl)).toBe(false);
  });
});

describe('chooseStateLocation', () => {
  const base = { manifestFile: '/p/agents.yaml', environment: 'prod' };
  it('takes --state, then AGENTSYNC_STATE_URL, then state.url, then the default file', () => {
    const manifest = { url: 'postgres://m/db', key: 'shared' };
    expect(chooseStateLocation({ ...base, flag: 'x.json', envUrl: 'postgres://e/db', manifest })).toEqual({ location: 'x.json', key: 'shared', source: '--state' });
    expect(chooseStateLocation({ ...base, envUrl: 'postgres://e/db', manifest })).toMatchObject({ location: 'postgres://e/db', source: 'AGENTSYNC_STATE_URL' });
    expect(chooseStateLocation({ ...base, envUrl: '', manifest })).toMatchObject({ location: 'postgres://m/db', key: 'shared' });
    expect(chooseStateLocation({ ...base, manifest: { url: 'states/prod.json' } })).toEqual({
      location: '/p/states/prod.json',
      key: 'prod',
      source: 'state.url in /p/agents.yaml',
    });
    expect(chooseStateLocation({ ...base, manifest: { url: '' } })).toEqual({ location: '/p/.agentsync/prod.state.json', key: 'prod', source: 'the default' });
  });
});
