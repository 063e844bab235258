// The base-URL rule (docs/spec/commands.md#base-url): https, or plain http only for a loopback host; and no
// credentials, which would be printed with the URL (the API key is what authenticates).
import type { Region } from './api-types.js';
import { maskUrlCredentials } from './scrub.js';

const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || LOOPBACK_V4.test(hostname);
}

/** Why `url` cannot be a base URL, or undefined when it can. The message never repeats a password. */
export function baseUrlProblem(url: string): string | undefined {
  const masked = maskUrlCredentials(url);
  const shown = `"${masked}"`;
  const credentials = 'remove the user name and password from the URL (the API key authenticates, and a URL is printed in plans and errors)';
  if (!URL.canParse(url)) return masked === url ? `${shown} is not a URL` : `${shown} is not a URL; also ${credentials}`;
  const parsed = new URL(url);
  if (parsed.username !== '' || parsed.password !== '') return `${shown} holds credentials; ${credentials}`;
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol === 'http:') {
    return isLoopbackHost(parsed.hostname) ? undefined : `${shown} uses plain http; use https (http is accepted only for 127.0.0.0/8, ::1 and localhost)`;
  }
  return `${shown} must use https`;
}

/** What CometChat allows in an app id; anything else could change the host of the default URL. */
export const APP_ID_PATTERN = /^[A-Za-z0-9_-]+$/;

/** The app id may only name a CometChat host of its region: the default URL must not point elsewhere. */
export function defaultHostProblem(appId: string, region: Region): string | undefined {
  const expected = `${appId}.api-${region}.cometchat.io`.toLowerCase();
  const url = defaultBaseUrl(appId, region);
  const host = URL.canParse(url) ? new URL(url).host : undefined;
  if (APP_ID_PATTERN.test(appId) && host === expected) return undefined;
  return `appId "${appId}" does not give the host ${expected}; an app id holds only letters, digits, - and _`;
}

/** Trailing slashes are dropped so that paths join the same way whatever the user wrote. */
export function normalizeBaseUrl(url: string): string {
  return url.replace(/\/+$/, '');
}

export function defaultBaseUrl(appId: string, region: Region): string {
  return `https://${appId}.api-${region}.cometchat.io/v3`;
}
