// A tool as an answer carries it: stored records keep ISO 8601 timestamps, and the answer is shaped
// here, on the way out, in the form the current mode claims.
import type { ToolRecord, WithWireTimestamps } from '../../../core/api-types.js';
import { wireTimestamp, type ServerMode } from '../../mode.js';

export type WireTool = WithWireTimestamps<ToolRecord>;

export function presentTool(tool: ToolRecord, mode: ServerMode): WireTool {
  // The common case answers the stored record itself, without a copy.
  if (mode.timestamps === 'iso') return tool;
  return { ...tool, createdAt: wireTimestamp(tool.createdAt, mode), updatedAt: wireTimestamp(tool.updatedAt, mode) };
}
