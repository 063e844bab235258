// The forms in which a server may echo a secret back: the encoders servers and their frameworks
// actually use. Each is computed once per secret, when it is added to a Scrubber, so scrubbing a
// body stays one pass however many encodings there are. Pure (TextEncoder and btoa are language
// globals, not node: modules).
//
// Covered: the value as is; percent-encoded as a path or query (JavaScript, WHATWG forms and Java,
// RFC 3986 as Python and Go write it), with `+` for spaces where forms use it, in upper- or
// lower-case hex; JSON-escaped with non-ASCII as `\u00e9` (Python, PHP, with `\/` too) or
// `\u00E9` (Java); and base64 or base64url, alone or inside a longer base64 text (a Basic header).

/** The shortest part of a base64 text that is scrubbed: shorter ones match random ids too often. */
const MIN_BASE64_FRAGMENT = 8;

export function echoedForms(value: string): string[] {
  return [...new Set([value, ...percentForms(value), ...asciiJsonForms(value), ...base64Forms(value)])];
}

/** Which of the characters encodeURIComponent leaves alone an encoder escapes too, and how it writes a space. */
interface PercentStyle {
  /** Of `!'()*~`, the ones this encoder also leaves alone. */
  keeps: string;
  plusForSpace: boolean;
}

const PERCENT_STYLES: readonly PercentStyle[] = [
  { keeps: "!'()*~", plusForSpace: false }, // encodeURIComponent
  { keeps: '*', plusForSpace: true }, // WHATWG application/x-www-form-urlencoded, Java's URLEncoder
  { keeps: '~', plusForSpace: false }, // RFC 3986 unreserved only: Python's quote(safe=''), Go's PathEscape for a segment
  { keeps: '~', plusForSpace: true }, // Python's quote_plus, Go's QueryEscape
  { keeps: "!'()*~", plusForSpace: true }, // encodeURIComponent, then spaces as `+` by hand
];

function percentForms(value: string): string[] {
  const component = tryEncode(encodeURIComponent, value);
  const whole = tryEncode(encodeURI, value);
  const forms: string[] = whole === undefined ? [] : [whole];
  if (component !== undefined) for (const style of PERCENT_STYLES) forms.push(restyle(component, style));
  return forms.flatMap((form) => [form, lowerHex(form)]);
}

/** A lone surrogate cannot be percent-encoded, so it cannot appear percent-encoded either. */
function tryEncode(encode: (text: string) => string, value: string): string | undefined {
  try {
    return encode(value);
  } catch {
    return undefined;
  }
}

function restyle(component: string, style: PercentStyle): string {
  const escaped = component.replace(/[!'()*~]/g, (c) => (style.keeps.includes(c) ? c : `%${c.charCodeAt(0).toString(16).toUpperCase()}`));
  return style.plusForSpace ? escaped.replace(/%20/g, '+') : escaped;
}

function lowerHex(form: string): string {
  return form.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
}

/** JSON that escapes every character outside ASCII: lower-case hex, the same with `\/`, and upper-case hex. */
function asciiJsonForms(value: string): string[] {
  const lower = JSON.stringify(value)
    .slice(1, -1)
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const upper = lower.replace(/\\u([0-9a-f]{4})/g, (_all, hex: string) => `\\u${hex.toUpperCase()}`);
  return [lower, lower.replace(/\//g, '\\/'), upper];
}

/**
 * The value in base64 and base64url: whole (with its padding), and the part that is the same
 * wherever it starts inside a longer base64 text (three alignments, its partial edges left out).
 */
function base64Forms(value: string): string[] {
  const bytes = new TextEncoder().encode(value);
  const forms = [base64Of(bytes)];
  for (let offset = 0; offset < 3; offset++) {
    const text = base64Of(new Uint8Array([...new Uint8Array(offset), ...bytes]));
    const first = Math.ceil((8 * offset) / 6);
    const end = Math.floor((8 * (offset + bytes.length)) / 6);
    if (end - first >= MIN_BASE64_FRAGMENT) forms.push(text.slice(first, end));
  }
  return forms.flatMap((form) => [form, form.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')]);
}

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
