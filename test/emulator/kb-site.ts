// A real website on 127.0.0.1, port 0, for crawl tests: each path answers HTML with the given links,
// or a status, a redirect, a delay or silence. Every request is counted, so a test can see what the
// crawler fetched.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SitePage {
  links?: string[];
  title?: string;
  status?: number;
  redirect?: string;
  delayMs?: number;
  /** Accept the request and never answer. */
  hang?: boolean;
  contentType?: string;
}

export interface TestSite {
  origin: string;
  /** Paths in the order they were requested. */
  requested: string[];
  close(): Promise<void>;
}

export async function startSite(pages: Record<string, SitePage>): Promise<TestSite> {
  const requested: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requested.push(req.url ?? '/');
    const page = pages[path];
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
      return;
    }
    if (page.hang) return;
    const answer = (): void => {
      if (page.redirect) {
        res.writeHead(page.status ?? 302, { location: page.redirect }).end();
        return;
      }
      const anchors = (page.links ?? []).map((link) => `<a href="${link}">${link}</a>`).join(' ');
      res.writeHead(page.status ?? 200, { 'content-type': page.contentType ?? 'text/html; charset=utf-8' });
      res.end(`<html><head><title>${page.title ?? path}</title></head><body>${anchors}</body></html>`);
    };
    if (page.delayMs) setTimeout(answer, page.delayMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requested,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port that was just free: nothing listens there. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
