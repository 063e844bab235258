// The API key travels in the `apikey` header of every call. A character a header cannot carry (a
// line break from `KEY=$(cat key.txt)` with a CRLF file, a typographic character from a copied web
// page) makes the HTTP client refuse each request before it is sent; refused here, the run says
// once which variable to fix, without ever printing the key.

/** What is wrong with `key` as a header value, naming the character's position only; null when nothing is. */
export function apiKeyProblem(key: string): string | null {
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i);
    const at = `(character ${i + 1} of ${key.length})`;
    if (code === 0x0a || code === 0x0d) return `a line break ${at}`;
    if (code < 0x20 || code === 0x7f) return `a control character ${at}`;
    if (code > 0x7e) return `a character outside printable ASCII ${at}`;
  }
  return null;
}
