// `User-Agent: agentsync/<version>`, read from package.json once. The relative path is the same
// from src/io/api (tests) and dist/io/api (the built CLI).
import { createRequire } from 'node:module';

const pkg = createRequire(import.meta.url)('../../../package.json') as { version: string };

export const USER_AGENT = `agentsync/${pkg.version}`;
