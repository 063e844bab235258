// Preloaded with `node --import` when GNU time is missing: writes this process's peak RSS (KB) on exit.
import process from 'node:process';
import { writeFileSync } from 'node:fs';

const target = process.env.AGENTSYNC_BENCH_RSS_FILE;
if (target) {
  process.on('exit', () => {
    writeFileSync(target, String(process.resourceUsage().maxRSS));
  });
}
