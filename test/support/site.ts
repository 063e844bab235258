// A real website on 127.0.0.1, port 0, for crawl and knowledge-base tests: each path answers HTML
// with the given links and text, or a status, a redirect, a delay or silence. Every request is
// counted, so a test can see what the crawler fetched.
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
  /** A paragraph of text after the links: what processing a page reads. */
  text?: string;
}

export interface TestSite {
  origin: string;
  /** Paths in the order they were requested. */
  requested: string[];
  close(): Promise<void>;
}

/** The pages by path: a fixed map, or a function asked at each request (so a page can change). */
export type SitePages = Record<string, SitePage> | ((path: string) => SitePage | undefined);

export async function startSite(pages: SitePages): Promise<TestSite> {
  const requested: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requested.push(req.url ?? '/');
    const page = typeof pages === 'function' ? pages(path) : pages[path];
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
      const text = page.text === undefined ? '' : `<p>${page.text}</p>`;
      res.end(`<html><head><title>${page.title ?? path}</title></head><body>${anchors}${text}</body></html>`);
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

/** A site whose root links to `links`; each linked page holds its path as its text. */
export interface LinkSite extends TestSite {
  /** path → page text, read at each request: change it to change the page; delete it to break the page (500). */
  texts: Map<string, string>;
}

export function startLinkSite(links: readonly string[]): Promise<LinkSite> {
  const texts = new Map(links.map((link) => [link, link]));
  const page = (path: string): SitePage | undefined => {
    if (path === '/') return { links: [...links] };
    if (!links.includes(path)) return undefined;
    const text = texts.get(path);
    return text === undefined ? { status: 500, text: 'broken' } : { text };
  };
  return startSite(page).then((site) => ({ ...site, texts }));
}

/** A port that was just free: nothing listens there. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
