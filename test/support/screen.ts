// What a terminal shows after a stream of output: enough of a VT100 to check progress and prompts
// (carriage return, newline, erase-line, cursor-to-column, and colours, which are dropped).
export function screenOf(output: string): string[] {
  const lines: string[] = [''];
  let row = 0;
  let col = 0;
  const put = (ch: string): void => {
    const line = lines[row] ?? '';
    lines[row] = line.padEnd(col, ' ').slice(0, col) + ch + line.slice(col + 1);
    col++;
  };
  for (let i = 0; i < output.length; i++) {
    const ch = output[i]!;
    if (ch === '\u001b') {
      // eslint-disable-next-line no-control-regex -- terminal escapes are what this reads
      const csi = /^\u001b\[([0-9;?]*)([A-Za-z])/.exec(output.slice(i));
      if (csi) {
        const [whole, arg, command] = csi;
        if (command === 'K') lines[row] = (lines[row] ?? '').slice(0, col);
        if (command === 'J') {
          lines.length = row + 1;
          lines[row] = (lines[row] ?? '').slice(0, col);
        }
        if (command === 'G') col = Math.max(0, Number(arg || '1') - 1);
        i += whole.length - 1;
        continue;
      }
      // eslint-disable-next-line no-control-regex -- terminal escapes are what this reads
      const osc = /^\u001b\][^\u0007]*\u0007/.exec(output.slice(i));
      if (osc) i += osc[0].length - 1;
      continue;
    }
    if (ch === '\r') col = 0;
    else if (ch === '\n') {
      row++;
      col = 0;
      if (lines[row] === undefined) lines[row] = '';
    } else if (ch === '\b') col = Math.max(0, col - 1);
    else if (ch >= ' ' || ch === '\t') put(ch);
  }
  return lines.map((l) => l.trimEnd());
}
