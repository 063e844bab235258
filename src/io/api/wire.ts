// The Wire a kind's endpoints run on during an apply: the API client, with the retry callback of
// the change being made, remembering the last call so a failure line can name it.
import type { UploadRequest, Wire, WireRequest } from '../../core/kinds/kind.js';
import type { ApiClient, CallOptions } from './client.js';
import { shownUploadCall } from './upload.js';

export interface TrackedWire extends Wire {
  /** `PUT /ai-agents/tools/x`: the last call sent, or the one planned when nothing was sent yet. */
  lastCall: string;
}

export function trackedWire(client: ApiClient, options: CallOptions, firstCall: string): TrackedWire {
  const wire: TrackedWire = {
    lastCall: firstCall,
    send(request: WireRequest) {
      wire.lastCall = `${request.method} ${request.path}`;
      return client.request(request, options);
    },
  };
  const { upload } = client;
  if (upload !== undefined) {
    wire.upload = (request: UploadRequest) => {
      // Named without the URL's query: its signature is a credential.
      wire.lastCall = shownUploadCall(request.url);
      return upload.call(client, request, options);
    };
  }
  return wire;
}
