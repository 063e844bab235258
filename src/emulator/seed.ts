// The default data set: just enough for the root agents.yaml and the docs' examples.
// docs/emulator.md lists the same ids; keep the two in step.
import type { GroupEntity, ToolRecord, UserEntity } from '../core/api-types.js';
import type { DiscoveredUrl, EmulatorData, Website } from './store.js';

/** 2025-01-01T00:00:00Z, so seed records look the same on every run. */
const SEED_EPOCH_SECONDS = 1735689600;
const SEED_ISO = new Date(SEED_EPOCH_SECONDS * 1000).toISOString();

/** The sender of a message sent without an `onBehalfOf` header. */
export const DEFAULT_SENDER_UID = 'agentsync-system';

function user(uid: string, name: string): UserEntity {
  return { uid, name, avatar: `https://avatars.example.com/${uid}.png`, status: 'offline', role: 'default', createdAt: SEED_EPOCH_SECONDS };
}

function group(guid: string, name: string): GroupEntity {
  return { guid, name, type: 'public', createdAt: SEED_EPOCH_SECONDS };
}

function website(parentUniqueId: string, origin: string, ids: readonly string[], paths: readonly string[]): Website {
  const discoveredUrls: DiscoveredUrl[] = ids.map((uniqueId, index) => ({
    uniqueId,
    url: `${origin}${paths[index] ?? `/page-${index + 1}`}`,
    status: 'discovered',
  }));
  return { parentUniqueId, url: origin, discoveredUrls, lastBatchId: null };
}

/** A tool that exists on the server without a manifest managing it (for `external.tools`: docs/spec/emulator.md#data). */
function externalTool(appId: string): ToolRecord {
  return {
    _id: `${appId}_search_web`,
    appId,
    name: 'search_web',
    type: 'tool',
    displayName: 'Search the web',
    executionText: 'Searching the web',
    doNotExecute: true,
    tool: { name: 'search_web', description: 'Searches the public web.' },
    createdAt: SEED_ISO,
    updatedAt: SEED_ISO,
  };
}

const DEMO_PATHS = ['/', '/getting-started', '/install', '/configuration', '/guides/agents', '/guides/tools', '/api', '/faq', '/changelog', '/contact'];

export function seedData(appId: string): EmulatorData {
  return {
    version: 1,
    appId,
    nextMessageId: 1,
    users: [user(DEFAULT_SENDER_UID, 'agentsync'), user('deploy-bot', 'Deploy Bot'), user('alice', 'Alice Adams'), user('bob', 'Bob Brown')],
    groups: [group('ops', 'Operations'), group('support', 'Support')],
    websites: [
      website(
        'web_demo',
        'https://docs.example.com',
        DEMO_PATHS.map((_, i) => `url_${i + 1}`),
        DEMO_PATHS,
      ),
      website('web_blog', 'https://blog.example.com', ['blog_1', 'blog_2', 'blog_3'], ['/', '/hello-world', '/release-notes']),
      // Crawled but nothing found: processing it answers 404, as on CometChat.
      website('web_empty', 'https://empty.example.com', [], []),
    ],
    tools: [externalTool(appId)],
    agents: [],
    messages: [],
  };
}
