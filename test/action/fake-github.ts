// A stand-in for the part of GitHub's REST API the action's comment step uses: list an issue's
// comments (paginated with a Link header), create one, update one. Real HTTP on port 0.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeComment {
  id: number;
  body: string;
  html_url: string;
}

export interface SeenRequest {
  method: string;
  url: string;
  authorization: string | undefined;
}

export interface FakeGitHub {
  url: string;
  /** Comments of `owner/repo` issue `number`, in creation order. */
  comments(repo: string, number: number): FakeComment[];
  seed(repo: string, number: number, bodies: string[]): void;
  requests: SeenRequest[];
  /** Answer every request with this status and message from now on (null: behave). */
  failWith(status: number | null, message?: string): void;
  close(): Promise<void>;
}

export async function startFakeGitHub(): Promise<FakeGitHub> {
  const issues = new Map<string, FakeComment[]>();
  const requests: SeenRequest[] = [];
  let nextId = 1000;
  let failure: { status: number; message: string } | null = null;
  const listOf = (repo: string, number: number): FakeComment[] => {
    const key = `${repo}#${number}`;
    if (!issues.has(key)) issues.set(key, []);
    return issues.get(key) as FakeComment[];
  };
  const add = (repo: string, number: number, body: string): FakeComment => {
    const comment = { id: nextId++, body, html_url: '' };
    comment.html_url = `https://github.example/${repo}/pull/${number}#issuecomment-${comment.id}`;
    listOf(repo, number).push(comment);
    return comment;
  };

  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    const send = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(value));
    };
    if (failure) return send(failure.status, { message: failure.message, documentation_url: 'https://docs.github.com/rest' });
    const url = new URL(req.url ?? '/', 'http://localhost');
    const list = /^\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/comments$/.exec(url.pathname);
    const one = /^\/repos\/([^/]+\/[^/]+)\/issues\/comments\/(\d+)$/.exec(url.pathname);
    if (list && req.method === 'GET') {
      const all = listOf(list[1] as string, Number(list[2]));
      const perPage = Number(url.searchParams.get('per_page') ?? 30);
      const page = Number(url.searchParams.get('page') ?? 1);
      const pages = Math.max(1, Math.ceil(all.length / perPage));
      const headers: Record<string, string> = {};
      if (page < pages) {
        const next = new URL(url);
        next.searchParams.set('page', String(page + 1));
        // Absolute, as GitHub sends it.
        headers.link = `<http://${req.headers.host}${next.pathname}${next.search}>; rel="next", <http://${req.headers.host}${url.pathname}?per_page=${perPage}&page=${pages}>; rel="last"`;
      }
      return send(200, all.slice((page - 1) * perPage, page * perPage), headers);
    }
    if (list && req.method === 'POST') return send(201, add(list[1] as string, Number(list[2]), (JSON.parse(body) as { body: string }).body));
    if (one && req.method === 'PATCH') {
      for (const comments of issues.values()) {
        const found = comments.find((c) => c.id === Number(one[2]));
        if (found) {
          found.body = (JSON.parse(body) as { body: string }).body;
          return send(200, found);
        }
      }
      return send(404, { message: 'Not Found' });
    }
    return send(404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    comments: (repo, number) => listOf(repo, number),
    seed(repo, number, bodies) {
      for (const body of bodies) add(repo, number, body);
    },
    requests,
    failWith(status, message = 'Resource not accessible by integration') {
      failure = status === null ? null : { status, message };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}
