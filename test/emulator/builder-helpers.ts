// Calls of the Agent Builder routes (agents, text entries, uploads), shared by their tests.
import { expect } from 'vitest';
import type { BuilderAgentRecord, KbUploadRecord, TextEntrySummary } from '../../src/core/agent-builder-wire.js';
import type { TestEmulator } from '../support/emulator.js';
import { rawRequest, type RawReply } from './helpers.js';

export const AGENTS = '/ai-agents/agent-builder/agents';
export const KB = '/ai-agents/agent-builder/knowledge-base';
export const PDF = 'application/pdf';

export async function createAgent(emu: TestEmulator, body: Record<string, unknown>): Promise<BuilderAgentRecord> {
  const reply = await emu.call('POST', AGENTS, body);
  expect(reply.status, JSON.stringify(reply.json)).toBeLessThan(300);
  return (reply.json as { agent: BuilderAgentRecord }).agent;
}

export async function getAgent(emu: TestEmulator, uid: string): Promise<BuilderAgentRecord> {
  const reply = await emu.call('GET', `${AGENTS}/${uid}`);
  expect(reply.status, JSON.stringify(reply.json)).toBe(200);
  return reply.json as BuilderAgentRecord;
}

export async function createText(emu: TestEmulator, title: string, text: string): Promise<TextEntrySummary> {
  const reply = await emu.call('POST', `${KB}/text`, { title, text });
  expect(reply.status, JSON.stringify(reply.json)).toBeLessThan(300);
  return (reply.json as { data: TextEntrySummary }).data;
}

export async function initiate(emu: TestEmulator, files: Array<{ fileName: string; mimeType: string; fileSize: number }>): Promise<KbUploadRecord[]> {
  const reply = await emu.call('POST', `${KB}/uploads/initiate`, { files });
  expect(reply.status, JSON.stringify(reply.json)).toBeLessThan(300);
  return (reply.json as { uploads: KbUploadRecord[] }).uploads;
}

/** PUTs bytes to a presigned URL as a client would: no apikey, the signed Content-Type. */
export function putBytes(upload: Pick<KbUploadRecord, 'presignedUrl' | 'mimeType'>, body: Buffer, headers: Record<string, string> = {}): Promise<RawReply> {
  const url = new URL(upload.presignedUrl);
  return rawRequest(url.origin, { method: 'PUT', path: `${url.pathname}${url.search}`, headers: { 'content-type': upload.mimeType, ...headers }, body });
}

export function attach(emu: TestEmulator, uid: string, sourceType: string, action: 'add' | 'remove', uniqueIds: unknown) {
  return emu.call('PATCH', `${AGENTS}/${uid}/knowledge-base/${sourceType}/${action}`, { uniqueIds });
}
