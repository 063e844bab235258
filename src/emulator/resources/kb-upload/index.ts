// Knowledge-base uploads: initiate and delete (routes.ts), the initiate body's rules (files.ts), and
// the presigned URL the bytes are PUT to, outside /v3 (put.ts, served by server.ts).
import type { EmulatorResource } from '../context.js';
import { kbUploadRoutes } from './routes.js';

export const kbUploadResource: EmulatorResource = {
  routes: (context) => kbUploadRoutes(context),
};
