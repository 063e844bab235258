// The built-in demo website: a small documentation site the emulator serves itself, so a scrape
// needs no network. It answers for `https://docs.example.com` (the demo manifest's URL, crawled
// in-process) and over HTTP under `/__emulator/sites/docs/` on the emulator's own origin. It has
// depth (three levels), a cycle, a blog and a changelog for exclude globs, links a crawl must not
// follow (another origin, mailto:, a fragment), and a page only its sitemap lists (`/archive`).

export const DEMO_SITE_HOST = 'docs.example.com';
export const DEMO_SITE_PATH_PREFIX = '/__emulator/sites/docs';

interface DemoPage {
  title: string;
  text: string;
  links: readonly string[];
}

const PAGES: Readonly<Record<string, DemoPage>> = {
  '/': {
    title: 'Example Docs',
    text: 'Welcome to the Example documentation. Start with the guide, or read the API reference.',
    links: ['/getting-started', '/install', '/configuration', '/guides', '/api', '/faq', '/changelog', '/blog', '/contact', 'https://example.org/elsewhere', 'mailto:docs@example.com', '#top'],
  },
  '/getting-started': { title: 'Getting Started', text: 'Install the CLI, write a manifest and apply it.', links: ['/install', '/configuration', '/'] },
  '/install': { title: 'Install', text: 'Install with npm, or download a single binary.', links: ['/getting-started', '/configuration'] },
  '/configuration': { title: 'Configuration', text: 'Environments, secrets and defaults.', links: ['/guides/agents', '/guides/tools'] },
  '/guides': { title: 'Guides', text: 'Task-by-task guides.', links: ['/guides/agents', '/guides/tools'] },
  '/guides/agents': { title: 'Guide: Agents', text: 'Declare an agent and the tools it may call.', links: ['/guides/tools', '/api'] },
  '/guides/tools': { title: 'Guide: Tools', text: 'Declare tools with JSON Schema parameters.', links: ['/guides/agents', '/api'] },
  '/api': { title: 'API Reference', text: 'Every endpoint the CLI calls.', links: ['/api/agents', '/api/tools'] },
  '/api/agents': { title: 'API: Agents', text: 'Create, update and delete agents.', links: ['/api'] },
  '/api/tools': { title: 'API: Tools', text: 'Create, update and delete tools.', links: ['/api'] },
  '/faq': { title: 'FAQ', text: 'Questions people ask.', links: ['/'] },
  '/changelog': { title: 'Changelog', text: 'What changed in each release.', links: ['/changelog/2025'] },
  '/changelog/2025': { title: 'Changelog 2025', text: 'The releases of 2025.', links: ['/changelog'] },
  '/blog': { title: 'Blog', text: 'News from the team.', links: ['/blog/hello-world', '/blog/release-notes'] },
  '/blog/hello-world': { title: 'Hello, world', text: 'Our first post.', links: ['/blog'] },
  '/blog/release-notes': { title: 'Release notes', text: 'Highlights of the latest release.', links: ['/blog'] },
  '/contact': { title: 'Contact', text: 'Write to us.', links: [] },
  // Linked from no page: only the sitemap lists it, so only a crawl that reads the sitemap finds it.
  '/archive': { title: 'Archive', text: 'Documentation of older releases.', links: ['/'] },
};

export interface DemoAnswer {
  status: number;
  contentType: string;
  body: string;
}

/**
 * Where the demo site's URLs point: `links` prefixes the hrefs of its pages, `sitemap` the
 * `<loc>`s of its sitemap, which must be absolute.
 */
export interface DemoSiteBase {
  links: string;
  sitemap: string;
}

/** The page at `path` (below the site's root). */
export function demoSitePage(path: string, base: DemoSiteBase): DemoAnswer {
  const key = path === '' ? '/' : path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  if (key === '/sitemap.xml') {
    const locs = Object.keys(PAGES)
      .map((page) => `  <url><loc>${escapeMarkup(`${base.sitemap}${page}`)}</loc></url>`)
      .join('\n');
    return { status: 200, contentType: 'application/xml', body: `<?xml version="1.0"?>\n<urlset>\n${locs}\n</urlset>\n` };
  }
  const page = PAGES[key];
  if (!page) return { status: 404, contentType: 'text/html; charset=utf-8', body: '<!doctype html><title>Not found</title><p>No such page.</p>' };
  const anchors = page.links.map((link) => `<li><a href="${escapeMarkup(link.startsWith('/') ? `${base.links}${link}` : link)}">${PAGES[link]?.title ?? link}</a></li>`).join('');
  const body =
    `<!doctype html><html><head><title>${page.title}</title><meta name="description" content="${page.title} - Example Docs"></head>` +
    `<body><h1>${page.title}</h1><p>${page.text}</p><ul>${anchors}</ul></body></html>`;
  return { status: 200, contentType: 'text/html; charset=utf-8', body };
}

/**
 * Serves the demo site over HTTP on the emulator's own origin, so a loopback crawl can reach it too.
 * `origin` is the emulator's own, rebuilt by the guard from the Host it accepted (dashboard/guard.ts):
 * the pages link root-relative and only the sitemap, which must be absolute, names the origin.
 */
export function serveDemoSite(method: string, origin: string, path: string): DemoAnswer {
  if (method !== 'GET' && method !== 'HEAD') return { status: 405, contentType: 'text/plain; charset=utf-8', body: 'Use GET.\n' };
  return demoSitePage(path.slice(DEMO_SITE_PATH_PREFIX.length), { links: DEMO_SITE_PATH_PREFIX, sitemap: `${origin}${DEMO_SITE_PATH_PREFIX}` });
}

function escapeMarkup(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
