// The base-URL rule (CONTRACT §3): https, or plain http only for a loopback host.

const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || LOOPBACK_V4.test(hostname);
}

/** Why `url` cannot be a base URL, or undefined when it can. */
export function baseUrlProblem(url: string): string | undefined {
  if (!URL.canParse(url)) return `"${url}" is not a URL`;
  const parsed = new URL(url);
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol === 'http:') {
    return isLoopbackHost(parsed.hostname) ? undefined : `"${url}" uses plain http; use https (http is accepted only for 127.0.0.0/8, ::1 and localhost)`;
  }
  return `"${url}" must use https`;
}

/** Trailing slashes are dropped so that paths join the same way whatever the user wrote. */
export function normalizeBaseUrl(url: string): string {
  return url.replace(/\/+$/, '');
}
