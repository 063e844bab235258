// The dashboard's HTML and CSS, served from this module so they bundle into the CLI and the
// single-file binary: nothing is read from disk at run time and nothing comes from a CDN.
// The page carries the session's token in a meta tag: only a page the emulator served can read it
// (another origin cannot read this response, and the Host check stops DNS rebinding).

export function pageHtml(appId: string, apiUrl: string, token: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="agentsync-token" content="${escapeHtml(token)}">
<title>agentsync emulator: ${escapeHtml(appId)}</title>
<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
<link rel="stylesheet" href="/__dashboard/app.css">
<script src="/__dashboard/app.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to the view</a>
<header>
<h1>agentsync emulator <span class="app">app <code>${escapeHtml(appId)}</code></span></h1>
<p class="api">API: <code>${escapeHtml(apiUrl)}</code></p>
<nav aria-label="Views"><ul>
<li><a href="#resources">Agents and tools</a></li>
<li><a href="#builder">Agent Builder</a></li>
<li><a href="#kb">Knowledge base</a></li>
<li><a href="#requests">Request log</a></li>
<li><a href="#knobs">Knobs</a></li>
</ul></nav>
</header>
<main id="main" tabindex="-1">
<p id="status" role="status" aria-live="polite"></p>
<section id="view-resources" aria-labelledby="h-resources" hidden><h2 id="h-resources">Agents and tools</h2><div class="body"></div></section>
<section id="view-builder" aria-labelledby="h-builder" hidden><h2 id="h-builder">Agent Builder agents</h2><div class="body"></div></section>
<section id="view-kb" aria-labelledby="h-kb" hidden><h2 id="h-kb">Knowledge base</h2><div class="body"></div></section>
<section id="view-requests" aria-labelledby="h-requests" hidden><h2 id="h-requests">Request log</h2>
<form id="filters" class="filters">
<label>Method <select name="method"><option value="">any</option><option>GET</option><option>POST</option><option>PUT</option><option>PATCH</option><option>DELETE</option></select></label>
<label>Path contains <input name="path" type="search"></label>
<label>Status <input name="status" placeholder="200, 4xx" size="6"></label>
<button type="button" id="clear-log">Clear the log</button>
</form>
<div class="body"></div></section>
<section id="view-knobs" aria-labelledby="h-knobs" hidden><h2 id="h-knobs">Knobs</h2><div class="body"></div></section>
</main>
</body>
</html>
`;
}

/** Where browsers look for an icon unasked: served, so their request is no 404 (and never in the request log). */
export const FAVICON_PATH = '/favicon.ico';
export const FAVICON_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#2563eb"/><path d="M4 11l4-7 4 7z" fill="#fff"/></svg>';

export const PAGE_CSS = `
:root { color-scheme: light dark; --line: #8884; --accent: #2563eb; font: 15px/1.45 system-ui, sans-serif; }
body { margin: 0 auto; max-width: 72rem; padding: 0 1rem 3rem; }
header { border-bottom: 1px solid var(--line); }
h1 { font-size: 1.3rem; margin: 1rem 0 0.2rem; } h1 .app { font-weight: normal; font-size: 1rem; }
h2 { font-size: 1.15rem; } h3 { font-size: 1rem; margin: 1.5rem 0 0.4rem; } h4 { font-size: 0.95rem; margin: 1.2rem 0 0.4rem; }
.api { margin: 0; opacity: 0.8; }
nav ul { display: flex; flex-wrap: wrap; gap: 0.3rem; list-style: none; padding: 0; margin: 0.6rem 0; }
nav a { display: block; padding: 0.35rem 0.8rem; border-radius: 0.4rem; text-decoration: none; color: inherit; border: 1px solid var(--line); }
nav a[aria-current="page"] { background: var(--accent); color: #fff; border-color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 0.5rem; background: Canvas; padding: 0.3rem; }
table { border-collapse: collapse; width: 100%; margin: 0.3rem 0 0.8rem; }
caption { text-align: left; font-size: 0.85rem; opacity: 0.8; padding: 0.2rem 0; }
th, td { border-bottom: 1px solid var(--line); padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
thead th { font-size: 0.85rem; }
tbody th { font-weight: 600; white-space: nowrap; font-family: ui-monospace, monospace; font-size: 0.85rem; }
.value { font-family: ui-monospace, monospace; font-size: 0.85rem; white-space: pre-wrap; word-break: break-word; }
textarea { width: 100%; min-height: 4rem; font: 0.85rem ui-monospace, monospace; }
button { font: inherit; padding: 0.2rem 0.6rem; }
.danger { color: #b91c1c; }
.filters { display: flex; flex-wrap: wrap; gap: 0.8rem; align-items: end; margin-bottom: 0.5rem; }
.knobs { display: grid; grid-template-columns: max-content 12rem 1fr; gap: 0.4rem 1rem; align-items: center; }
.help, .why { font-size: 0.85rem; opacity: 0.8; } .why { display: block; }
.feedback:empty { display: none; } .feedback { color: #b91c1c; margin: 0.3rem 0; }
progress { width: 16rem; vertical-align: middle; }
.s-processed, .s-indexed, .st-2 { color: #15803d; } .st-expected { color: inherit; } .s-failed, .s-no-longer-exists, .st-4, .st-5 { color: #b91c1c; } .s-processing, .s-indexing, .s-waiting-for-bytes { color: #b45309; }
#status:empty { display: none; }
/* A toast that stays in view: feedback after a Save far down a long page is seen where it happens. */
#status { position: fixed; bottom: 1rem; right: 1rem; max-width: 28rem; z-index: 10; margin: 0; padding: 0.6rem 0.8rem; background: Canvas; color: CanvasText; border: 1px solid var(--line); border-left: 4px solid var(--accent); border-radius: 0.4rem; box-shadow: 0 2px 8px #0004; }
`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
