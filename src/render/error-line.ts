// The line stderr shows for an error. An error message may echo what a user typed or a server
// said: its escape sequences are shown, not obeyed; its own line breaks are kept.
import { escapeControlKeepLines } from '../core/terminal-safe.js';

export function renderErrorLine(message: string): string {
  return `Error: ${escapeControlKeepLines(message)}\n`;
}
