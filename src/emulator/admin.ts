// The `/__emulator/*` endpoints for tests and demos. They need no API key, are not rate limited or
// fault-injected, and do not appear in the request log or the in-flight gauge.
import type { JsonObject } from '../core/api-types.js';
import { badRequest, notFound } from './errors.js';
import { kbAdminRoutes } from './kb/admin-routes.js';
import { KB_CONFIG_KEYS, parseKbChanges } from './kb/config.js';
import type { KbContext } from './kb/context.js';
import { lostAnswerRuleProblem, type FailMode, type FaultConfig, type Faults, type LostAnswers } from './faults.js';
import { MODE_KEYS, parseModeChanges, type ServerMode } from './mode.js';
import { LOG_LIST_BOUNDS, REQUEST_LOG_CAPACITY, type InFlightGauge, type RequestLog, type RequestLogEntry } from './request-log.js';
import { Router, type ApiResponse } from './router.js';
import { seedData } from './seed.js';
import type { EmulatorStore } from './store.js';
import { rejectUnknownKeys, requireObjectBody } from './validate.js';

export interface AdminDeps {
  store: EmulatorStore;
  faults: Faults;
  /** Changed in place, so the resources see a change on their next request. */
  mode: ServerMode;
  log: RequestLog;
  gauge: InFlightGauge;
  /** Its `config` holds the kb* knobs of `/__emulator/config`, changed in place. */
  kb: KbContext;
}

const FAULT_KEYS = ['latencyMs', 'rateLimitPerMinute', 'failRate', 'failMode', 'failNext', 'loseAnswerNext', 'loseAnswerOn'];
const CONFIG_KEYS = new Set([...FAULT_KEYS, ...MODE_KEYS, ...KB_CONFIG_KEYS]);
const FAIL_MODES: readonly FailMode[] = ['mixed', '503', 'drop'];

function runtime(): { cpuUserMs: number; cpuSystemMs: number; uptimeMs: number } {
  const cpu = process.cpuUsage();
  return { cpuUserMs: cpu.user / 1000, cpuSystemMs: cpu.system / 1000, uptimeMs: Math.round(process.uptime() * 1000) };
}

export function adminRouter({ store, faults, mode, log, gauge, kb }: AdminDeps): Router {
  const config = (): ApiResponse => ({ status: 200, body: { ...faults.current, ...mode, ...kb.config } });
  const stats = (): ApiResponse => ({ status: 200, body: { inFlight: gauge.inFlight, maxInFlight: gauge.maxInFlight, requests: gauge.requests } });
  return new Router([
    ...kbAdminRoutes(kb),
    { pattern: '/__emulator/health', methods: { GET: () => ({ status: 200, body: { ok: true, appId: store.appId } }) } },
    // The emulator's own CPU time, so a benchmark can tell the client's share of a shared machine from the emulator's.
    { pattern: '/__emulator/runtime', methods: { GET: () => ({ status: 200, body: runtime() }) } },
    {
      pattern: '/__emulator/requests',
      methods: {
        GET: (request) => ({ status: 200, body: log.page(queryCount(request.query, 'after', 0), queryCount(request.query, 'limit', REQUEST_LOG_CAPACITY), LOG_LIST_BOUNDS) }),
        DELETE: () => {
          log.clear();
          return { status: 200, body: { cleared: true } };
        },
      },
    },
    { pattern: '/__emulator/requests/:seq', methods: { GET: (request) => ({ status: 200, body: loggedRequest(log, request.params.seq ?? '') }) } },
    {
      pattern: '/__emulator/config',
      methods: {
        GET: config,
        POST: (request) => {
          // Everything is validated before anything changes, so a 400 keeps the old config.
          const object = requireObjectBody(request.body);
          rejectUnknownKeys(object, CONFIG_KEYS, '');
          const faultChanges = { ...parseFaultChanges(object), ...parseLostAnswers(object, faults.current.loseAnswerOn) };
          const modeChanges = parseModeChanges(object);
          const kbChanges = parseKbChanges(object);
          faults.update(faultChanges);
          Object.assign(mode, modeChanges);
          Object.assign(kb.config, kbChanges);
          return config();
        },
      },
    },
    {
      pattern: '/__emulator/stats',
      methods: {
        GET: stats,
        DELETE: () => {
          gauge.reset();
          return stats();
        },
      },
    },
    {
      pattern: '/__emulator/reset',
      methods: {
        POST: () => {
          store.load(seedData(store.appId));
          store.changed();
          return { status: 200, body: { reset: true } };
        },
      },
    },
  ]);
}

function parseFaultChanges(object: JsonObject): Partial<FaultConfig> & { failNext?: number } {
  const changes: Partial<FaultConfig> & { failNext?: number } = {};
  const { latencyMs, rateLimitPerMinute, failRate, failMode, failNext } = object;
  if (latencyMs !== undefined) changes.latencyMs = nonNegativeInteger(latencyMs, 'latencyMs');
  if (rateLimitPerMinute !== undefined) {
    // null or 0 turns the limit off.
    changes.rateLimitPerMinute = rateLimitPerMinute === null || rateLimitPerMinute === 0 ? null : positiveNumber(rateLimitPerMinute, 'rateLimitPerMinute');
  }
  if (failRate !== undefined) {
    if (typeof failRate !== 'number' || !(failRate >= 0 && failRate <= 1)) throw badRequest("'failRate' must be a number from 0 to 1.");
    changes.failRate = failRate;
  }
  if (failMode !== undefined) {
    if (typeof failMode !== 'string' || !FAIL_MODES.includes(failMode as FailMode)) throw badRequest('\'failMode\' must be "mixed", "503" or "drop".');
    changes.failMode = failMode as FailMode;
  }
  if (failNext !== undefined) changes.failNext = nonNegativeInteger(failNext, 'failNext');
  return changes;
}

/** `loseAnswerNext` (whole number ≥ 0) and `loseAnswerOn` ("METHOD /path-prefix", or null to clear); a count needs a rule. */
function parseLostAnswers(object: JsonObject, currentRule: string | null): Partial<LostAnswers> {
  const changes: Partial<LostAnswers> = {};
  const { loseAnswerNext, loseAnswerOn } = object;
  if (loseAnswerOn !== undefined) {
    if (loseAnswerOn !== null && typeof loseAnswerOn !== 'string') throw badRequest('\'loseAnswerOn\' must be "METHOD /path-prefix" (the path below /v3), or null.');
    const problem = loseAnswerOn === null ? undefined : lostAnswerRuleProblem(loseAnswerOn);
    if (problem !== undefined) throw badRequest(`'loseAnswerOn' ${problem}.`);
    changes.loseAnswerOn = loseAnswerOn;
  }
  if (loseAnswerNext !== undefined) changes.loseAnswerNext = nonNegativeInteger(loseAnswerNext, 'loseAnswerNext');
  const rule = changes.loseAnswerOn === undefined ? currentRule : changes.loseAnswerOn;
  if ((changes.loseAnswerNext ?? 0) > 0 && rule === null) throw badRequest("'loseAnswerNext' needs 'loseAnswerOn': which requests' answers to lose (\"METHOD /path-prefix\").");
  return changes;
}

/** A whole-number query parameter ≥ 0, or its default when absent. */
function queryCount(query: URLSearchParams, name: string, fallback: number): number {
  const text = query.get(name);
  if (text === null) return fallback;
  if (!/^\d{1,15}$/.test(text)) throw badRequest(`'${name}' must be a whole number ≥ 0.`);
  return Number(text);
}

/** One logged request, its body whole (a list cuts long ones). */
function loggedRequest(log: RequestLog, seqText: string): RequestLogEntry {
  const entry = /^\d{1,15}$/.test(seqText) ? log.entry(Number(seqText)) : undefined;
  if (entry === undefined) throw notFound('ERR_NOT_FOUND', `The request log holds no request ${seqText}: it never was, or it was dropped or cleared.`);
  return entry;
}

function nonNegativeInteger(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw badRequest(`'${field}' must be a whole number ≥ 0.`);
  return value;
}

function positiveNumber(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw badRequest(`'${field}' must be a number > 0, or null to turn it off.`);
  return value;
}
