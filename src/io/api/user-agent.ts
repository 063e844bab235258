// `User-Agent: agentsync/<version>` on every request.
import { PACKAGE_VERSION } from '../runtime/package-version.js';

export const USER_AGENT = `agentsync/${PACKAGE_VERSION}`;
