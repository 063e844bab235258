// resolve: parsed manifest → Desired for one environment, plus every diagnostic found on the way.
// Steps: choose the environment(s), interpolate, validate with the zod schema, check references
// and base URLs, then build Desired. In validate mode with several environments and no -e, every
// environment is checked and messages that hold for only some of them name their environment.
import { baseUrlProblem, defaultBaseUrl, defaultHostProblem, normalizeBaseUrl } from './base-url.js';
import { buildDesired, desiredEnvironment } from './build-desired.js';
import type { Desired } from './desired.js';
import { MANIFEST_SECTIONS, RESOURCE_ROOTS } from './kinds/index.js';
import { capDiagnostics, formatPath, hasErrors, sortDiagnostics, type Diagnostic, type PathSegment } from './diagnostics.js';
import { interpolateValue, openingOffsets, type InterpolationContext, type InterpolationProblem, type VarValue } from './interpolate.js';
import type { InterpolationSite, ParsedManifest } from './parse.js';
import { agentToolsDiagnostics, excludedFrom, resourceEnvironmentDiagnostics, usesResourceEnvironments, withoutResourcesOutside } from './resource-environments.js';
import { manifestSchema, type EnvironmentConfig, type Manifest } from './schema.js';
import { issuesToDiagnostics } from './schema-issues.js';
import { checkManifestSchema } from './schema-check.js';
import { referenceDiagnostics } from './references.js';
import { addressFieldDiagnostics } from './address-diagnostics.js';
import { localFileDiagnostics } from './local-files.js';
import { movedDiagnostics } from './moved.js';
import { hideQuotedSecrets, markFieldsHolding } from './sensitive-values.js';
import { closest } from './suggest.js';
import type { ManifestLocator } from './yaml-locate.js';
import { appendAll } from './arrays.js';
import { unknownEnvironmentError } from './unknown-environment.js';

export type ResolveMode = 'validate' | 'plan';

export interface ResolveOptions {
  /** `-e`; may be omitted when the manifest has one environment (or in validate mode). */
  environment?: string;
  /** Environment variables, passed in so that this stays pure. */
  env: Readonly<Record<string, string | undefined>>;
  mode: ResolveMode;
  /** `--var` / `--var-file`: replace the resolved environment's vars of the same name. */
  varOverrides?: Readonly<Record<string, VarValue>>;
}

export interface Resolution {
  /** Set when there is no error and exactly one environment was resolved. */
  desired?: Desired;
  diagnostics: Diagnostic[];
  /** The environments that were checked. */
  environments: string[];
  /**
   * Strings that must never be printed: the API keys found in the environment and the values of
   * ${secret:…}. io/api/outside-text.ts hides them in outside text; diagnostics quote them as "(sensitive)". (Values written inline, such as a literal
   * integrationMeta.headers, are in the manifest already; hiding them everywhere would mangle
   * output whenever one is a common word.)
   */
  sensitiveValues: string[];
}

/** The API key variable every environment has unless it names another with apiKeyEnv. */
export const DEFAULT_API_KEY_ENV = 'COMETCHAT_API_KEY';

/** Resources may hold secrets; the rest of the manifest is printed freely, so it may not. */

export function resolveManifest(parsed: ParsedManifest, options: ResolveOptions): Resolution {
  const { locator } = parsed;
  const tree = parsed.value;
  const diagnostics = [...parsed.diagnostics];
  const keyValues = (names: ReadonlySet<string>) => [...names].flatMap((name) => options.env[name] ?? []);
  if (tree === undefined) return { diagnostics: capDiagnostics(diagnostics), environments: [], sensitiveValues: keyValues(new Set([DEFAULT_API_KEY_ENV])) };

  const names = environmentNames(tree);
  const selection = selectEnvironments(names, options, locator);
  appendAll(diagnostics, selection.diagnostics);
  if (selection.targets.length === 0 && names.length > 0) {
    return { diagnostics: capDiagnostics(diagnostics), environments: [], sensitiveValues: keyValues(apiKeyVariables(tree)) };
  }

  const envSites = parsed.sites.filter((site) => site.path[0] === 'environments');
  const otherSites = parsed.sites.filter((site) => site.path[0] !== 'environments');
  const skip = new Set<string>();
  const envKeyVariables = apiKeyVariables(tree);
  appendAll(
    diagnostics,
    applySites(envSites, locator, skip, options, () => ({ env: options.env, vars: undefined, secretsAllowed: false, apiKeyVariables: envKeyVariables })),
  );
  // Now that environments are interpolated, an apiKeyEnv written as ${…} is known too.
  const keyVariables = apiKeyVariables(tree);

  // Only ${var.…} and per-resource environments differ between environments; without them one run stands for all.
  const usesVars = otherSites.some((site) => site.template.includes('${var.')) || usesResourceEnvironments(tree);
  const runTargets: (string | undefined)[] = selection.targets.length === 0 ? [undefined] : usesVars ? selection.targets : [selection.targets[0]];
  const runs = runTargets.map((target) => runOnce(tree, target, otherSites, locator, new Set(skip), options, keyVariables));
  appendAll(
    diagnostics,
    mergeRuns(
      runs.map((r) => r.diagnostics),
      runTargets,
    ),
  );

  const manifest = runs[0]?.manifest;
  for (const name of selection.targets) appendAll(diagnostics, baseUrlDiagnostics(tree, name, options.env, locator));
  appendAll(diagnostics, overrideDiagnostics(options.env, locator));
  if (manifest !== undefined) appendAll(diagnostics, appIdDiagnostics(manifest, selection.targets, locator));
  appendAll(diagnostics, resourceEnvironmentDiagnostics(tree, locator));
  appendAll(diagnostics, localFileDiagnostics(tree, parsed.localFiles, locator));

  const sensitiveValues = [...keyValues(keyVariables), ...runs.flatMap((r) => r.secrets)];
  const keys = manifestKeys(tree);
  // A list of 200,000 unknown names is one mistake: the first of each kind are shown, then a count.
  const shown = capDiagnostics(dedupe(diagnostics)).map((d) => ({ ...d, message: hideQuotedSecrets(d.message, sensitiveValues, keys) }));
  const result: Resolution = { diagnostics: sortDiagnostics(shown), environments: selection.targets, sensitiveValues };
  const target = selection.targets[0];
  if (!hasErrors(result.diagnostics) && manifest !== undefined && selection.targets.length === 1 && target !== undefined) {
    const config = manifest.environments[target];
    if (config !== undefined) {
      const desired = buildDesired(manifest, desiredEnvironment(target, config, effectiveBaseUrl(target, config, options.env)), runs[0]?.sensitive ?? [], tree, parsed.localFiles);
      // A key or secret that reached a plain field (typed literally, say) makes that field sensitive.
      markFieldsHolding(desired.resources, sensitiveValues);
      result.desired = desired;
    }
  }
  return result;
}

/** Every variable that holds an API key: each environment's apiKeyEnv, and the default. */
function apiKeyVariables(tree: Record<string, unknown>): Set<string> {
  const names = new Set([DEFAULT_API_KEY_ENV]);
  const envs = tree.environments;
  if (!isPlainObject(envs)) return names;
  for (const config of Object.values(envs)) {
    const name = isPlainObject(config) ? config.apiKeyEnv : undefined;
    if (typeof name === 'string' && name !== '' && !name.includes('${')) names.add(name);
  }
  return names;
}

interface Run {
  manifest?: Manifest;
  diagnostics: Diagnostic[];
  sensitive: PathSegment[][];
  secrets: string[];
}

function runOnce(
  tree: Record<string, unknown>,
  target: string | undefined,
  sites: InterpolationSite[],
  locator: ManifestLocator,
  skip: Set<string>,
  options: ResolveOptions,
  keyVariables: ReadonlySet<string>,
): Run {
  const declared = target === undefined ? {} : varsOf(tree, target);
  const vars = target === undefined ? {} : { ...declared, ...options.varOverrides };
  const sensitive: PathSegment[][] = [];
  const secrets: string[] = [];
  const undeclared = target === undefined ? [] : undeclaredOverrides(Object.keys(options.varOverrides ?? {}), declared, tree, target, locator);
  const diagnostics = [
    ...undeclared,
    ...applySites(
      sites,
      locator,
      skip,
      options,
      (site) => ({
        env: options.env,
        vars,
        ...(target === undefined ? {} : { environmentName: target }),
        secretsAllowed: RESOURCE_ROOTS.has(String(site.path[0])),
        apiKeyVariables: keyVariables,
      }),
      { sensitive, secrets },
      target === undefined,
      target === undefined ? undefined : excludedFrom(tree, target),
    ),
  ];
  const checked = checkManifestSchema(tree, locator);
  if ('overflow' in checked) {
    diagnostics.push(checked.overflow);
    return { diagnostics, sensitive, secrets };
  }
  let parsed = checked;
  if (!parsed.success) {
    const issues = issuesToDiagnostics(parsed.error.issues, { schema: manifestSchema, input: tree, locator, skip });
    appendAll(diagnostics, issues);
    // Every issue was an unresolved value in a resource this environment does not have: it is not this environment's manifest.
    if (target !== undefined && !hasErrors(issues) && !hasErrors(diagnostics)) parsed = manifestSchema.safeParse(withoutResourcesOutside(tree, target));
  }
  appendAll(diagnostics, referenceDiagnostics(tree, locator));
  appendAll(diagnostics, addressFieldDiagnostics(tree, target, locator));
  appendAll(diagnostics, movedDiagnostics(tree, locator));
  if (target !== undefined) appendAll(diagnostics, agentToolsDiagnostics(tree, target, locator));
  return parsed.success ? { manifest: parsed.data, diagnostics, sensitive, secrets } : { diagnostics, sensitive, secrets };
}

type ContextFor = (site: InterpolationSite) => InterpolationContext;

/** Writes each site's interpolated value into the tree and reports what could not be resolved. */
function applySites(
  sites: readonly InterpolationSite[],
  locator: ManifestLocator,
  skip: Set<string>,
  options: ResolveOptions,
  contextFor: ContextFor,
  found: { sensitive: PathSegment[][]; secrets: string[] } = { sensitive: [], secrets: [] },
  varsUnknown = false,
  /** Sites in resources this environment does not have: resolved, never reported (nor their schema issues). */
  excluded?: (path: readonly PathSegment[]) => boolean,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const site of sites) {
    const result = interpolateValue(site.template, contextFor(site));
    (site.parent as Record<string | number, unknown>)[site.key] = result.value;
    if (result.sensitive) found.sensitive.push(site.path);
    appendAll(found.secrets, result.secrets);
    if (excluded?.(site.path)) {
      skip.add(formatPath(site.path));
      continue;
    }
    if (result.problems.length > 0) skip.add(formatPath(site.path));
    for (const problem of result.problems) {
      if (varsUnknown && problem.kind === 'unknown-var') continue;
      diagnostics.push(problemDiagnostic(site, problem, options.mode));
    }
  }
  return diagnostics;
}

function problemDiagnostic(site: InterpolationSite, problem: InterpolationProblem, mode: ResolveMode): Diagnostic {
  const { locator } = site;
  const start = site.node.range?.[0] ?? 0;
  const end = site.node.range?.[1] ?? start;
  const inSource = openingOffsets(locator.sourceSlice(start, end))[problem.token.ordinal];
  const offset = start + (inSource ?? 0);
  if (problem.kind === 'unset-secret' && mode === 'validate') {
    return locator.diagnosticAtOffset(offset, site.pathInFile ?? site.path, `${problem.message}; plan and apply will need it`, 'warning');
  }
  return locator.diagnosticAtOffset(offset, site.pathInFile ?? site.path, problem.message);
}

function environmentNames(tree: Record<string, unknown>): string[] {
  const envs = tree.environments;
  return isPlainObject(envs) ? Object.keys(envs) : [];
}

/**
 * `--var`/`--var-file` names the environment neither declares nor the manifest reads (`${var.NAME}`):
 * a typo would otherwise be ignored in silence, and the run would use the manifest's value.
 * Refused, as Terraform refuses an undeclared variable.
 */
function undeclaredOverrides(names: readonly string[], declared: Record<string, VarValue>, tree: Record<string, unknown>, target: string, locator: ManifestLocator): Diagnostic[] {
  if (names.length === 0) return [];
  const text = JSON.stringify(tree);
  const read = (name: string): boolean => text.includes(`\${var.${name}}`) || text.includes(`\${var.${name}:`);
  return names
    .filter((name) => !Object.hasOwn(declared, name) && !read(name))
    .map((name) => {
      const hint = closest(name, Object.keys(declared));
      const fix = hint === undefined ? `declare it under environments.${target}.vars` : `did you mean "${hint}"? Otherwise declare it under environments.${target}.vars`;
      return locator.diagnostic(['environments', target], `--var ${name}: environment "${target}" declares no var "${name}"; ${fix}`, 'error', 'key');
    });
}

function varsOf(tree: Record<string, unknown>, name: string): Record<string, VarValue> {
  const envs = tree.environments;
  const env = isPlainObject(envs) ? envs[name] : undefined;
  const vars = isPlainObject(env) ? env.vars : undefined;
  const out: Record<string, VarValue> = {};
  if (!isPlainObject(vars)) return out;
  for (const [key, value] of Object.entries(vars)) {
    // Lists and maps too (docs/spec/manifest.md#interpolation); the schema checks what they hold.
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || Array.isArray(value) || isPlainObject(value)) out[key] = value as VarValue;
  }
  return out;
}

function selectEnvironments(names: string[], options: ResolveOptions, locator: ManifestLocator): { targets: string[]; diagnostics: Diagnostic[] } {
  const at = (message: string) => [locator.diagnostic(['environments'], message, 'error', 'key')];
  const list = names.join(', ');
  if (options.environment !== undefined) {
    if (names.includes(options.environment)) return { targets: [options.environment], diagnostics: [] };
    if (names.length === 0) return { targets: [], diagnostics: [] };
    // A mistake in the command line, not in the manifest: refused as such, naming the flag.
    throw unknownEnvironmentError([options.environment], names);
  }
  if (names.length <= 1 || options.mode === 'validate') return { targets: names, diagnostics: [] };
  return { targets: [], diagnostics: at(`the manifest defines several environments (${list}); choose one with -e <name>`) };
}

/** Diagnostics every run found are reported once; the others name the environment they hold for. */
export function mergeRuns(runs: Diagnostic[][], targets: (string | undefined)[]): Diagnostic[] {
  if (runs.length === 1) return runs[0] ?? [];
  const keyOf = (d: Diagnostic) => `${d.line}:${d.column}:${d.severity}:${d.message}`;
  const counts = new Map<string, number>();
  for (const run of runs) for (const key of new Set(run.map(keyOf))) counts.set(key, (counts.get(key) ?? 0) + 1);
  const out: Diagnostic[] = [];
  const emitted = new Set<string>();
  runs.forEach((run, i) => {
    for (const d of run) {
      const key = keyOf(d);
      if (counts.get(key) === runs.length) {
        if (!emitted.has(key)) out.push(d);
        emitted.add(key);
      } else {
        out.push({ ...d, message: `environment "${targets[i] ?? ''}": ${d.message}` });
      }
    }
  });
  return out;
}

function baseUrlDiagnostics(tree: Record<string, unknown>, name: string, env: ResolveOptions['env'], locator: ManifestLocator): Diagnostic[] {
  if (overrideOf(env) !== undefined) return [];
  const envs = tree.environments;
  const config = isPlainObject(envs) ? envs[name] : undefined;
  const baseUrl = isPlainObject(config) ? config.baseUrl : undefined;
  // An empty baseUrl (`baseUrl: "${BASE_URL:-}"` with the variable unset) means the default.
  if (typeof baseUrl !== 'string' || baseUrl === '') return [];
  const problem = baseUrlProblem(baseUrl);
  return problem === undefined ? [] : [locator.diagnostic(['environments', name, 'baseUrl'], `baseUrl ${problem}`)];
}

function overrideDiagnostics(env: ResolveOptions['env'], locator: ManifestLocator): Diagnostic[] {
  const override = overrideOf(env);
  const problem = override === undefined ? undefined : baseUrlProblem(override);
  return problem === undefined ? [] : [locator.diagnostic(['environments'], `AGENTSYNC_BASE_URL ${problem}`, 'error', 'key')];
}

function overrideOf(env: ResolveOptions['env']): string | undefined {
  const value = env.AGENTSYNC_BASE_URL;
  return value === undefined || value === '' ? undefined : value;
}

/** Belt and braces for the appId pattern: the default base URL must name the app's CometChat host. */
function appIdDiagnostics(manifest: Manifest, targets: readonly string[], locator: ManifestLocator): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const name of targets) {
    const config = manifest.environments[name];
    const problem = config === undefined ? undefined : defaultHostProblem(config.appId, config.region);
    if (problem !== undefined) out.push(locator.diagnostic(['environments', name, 'appId'], problem));
  }
  return out;
}

/** AGENTSYNC_BASE_URL wins over every environment; then the manifest (unless empty); then the regional default. */
export function effectiveBaseUrl(_name: string, config: EnvironmentConfig, env: ResolveOptions['env']): string {
  const own = config.baseUrl === '' ? undefined : config.baseUrl;
  return normalizeBaseUrl(overrideOf(env) ?? own ?? defaultBaseUrl(config.appId, config.region));
}

function dedupe(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.line}:${d.column}:${d.severity}:${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Every key of the manifest's named sections: a diagnostic may quote one, and a key is never masked. */
function manifestKeys(tree: Record<string, unknown>): Set<string> {
  const sections = [tree.environments, ...Object.values(MANIFEST_SECTIONS).map((path) => valueAt(tree, path))];
  return new Set(sections.flatMap((section) => (isPlainObject(section) ? Object.keys(section) : [])));
}

function valueAt(tree: Record<string, unknown>, path: readonly string[]): unknown {
  let at: unknown = tree;
  for (const key of path) at = isPlainObject(at) ? at[key] : undefined;
  return at;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
