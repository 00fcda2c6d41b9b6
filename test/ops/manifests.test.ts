/**
 * The container image, the Compose stack and the Kubernetes manifests, checked
 * without a Docker engine or a cluster: each file against its schema, then the
 * facts that tie the files to each other and to the code (queue names, the
 * worker's flags, the metrics port, the shutdown bound). See docs/deploying.md.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse as parseToml } from 'smol-toml';
import { afterAll, describe, expect, it } from 'vitest';
import type { IScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';
import { WORKER_USAGE } from '../../src/cli/usage.js';
import { loadConfig } from '../../src/config/load.js';
import { ConfigSchema, type Config } from '../../src/config/schema.js';
import { QUEUE_NAMES } from '../../src/contracts/queues.js';
import {
  durationSeconds,
  execForm,
  interpolate,
  kindOf,
  must,
  parseDockerfile,
  readCompose,
  readYamlDocuments,
  validateCompose,
  validateKubernetes,
} from './manifest-tools.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const KUBE_DIR = join(ROOT, 'deploy/kubernetes');
const DEFAULTS = ConfigSchema.parse({});
const scratch = mkdtempSync(join(tmpdir(), 'cosci-manifests-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// ---------------------------------------------------------------------------
// The worker command line, read the way `cosci-safety worker` reads it.

/** The flags `cosci-safety worker` takes, from its usage line, so a renamed flag fails here. */
const WORKER_FLAGS = [...must(WORKER_USAGE.split('\n')[0], 'usage').matchAll(/\[--([a-z-]+)/g)].map((m) =>
  must(m[1], 'flag'),
);

/** Parses `worker [flags]` as src/cli/commands/worker.ts does; returns the queues (undefined: all). */
function workerQueues(argv: string[]): string[] | undefined {
  expect(argv[0], `the command is ${argv.join(' ')}`).toBe('worker');
  const { values } = parseArgs({
    args: argv.slice(1),
    options: Object.fromEntries(WORKER_FLAGS.map((flag) => [flag, { type: 'string' as const }])),
    strict: true,
    allowPositionals: false,
  });
  const queues = values.queues;
  if (typeof queues !== 'string') return undefined;
  return queues
    .split(',')
    .map((q) => q.trim())
    .filter(Boolean);
}

/** The configuration a worker would run with: the TOML text, the environment, its --queues. */
function effectiveConfig(toml: string, env: Record<string, string>, queues: string[] | undefined): Config {
  const file = join(scratch, `config-${Math.random().toString(36).slice(2)}.toml`);
  writeFileSync(file, toml);
  return loadConfig({ file, env, overrides: queues ? { worker: { queues } } : {} }).config;
}

/** Each queue is worked by exactly one role. */
function expectQueuesCovered(roles: Map<string, string[]>): void {
  const all = [...roles.values()].flat();
  expect([...all].sort()).toEqual([...QUEUE_NAMES].sort());
}

// ---------------------------------------------------------------------------
// Dockerfile

describe('Dockerfile', () => {
  const stages = parseDockerfile(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
  const final = must(stages.at(-1), 'a stage');
  const inFinal = (keyword: string) => final.instructions.filter((i) => i.keyword === keyword);
  const last = (keyword: string) => inFinal(keyword).at(-1)?.args;

  it('builds on Node 22 in every stage, in a separate build stage', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage.from).toMatch(/^node:22(?:[.-]|$)/);
    const build = must(
      stages.find((s) => s.instructions.some((i) => i.keyword === 'RUN' && /\bnpm run build\b/.test(i.args))),
      'a stage runs npm run build',
    );
    expect(build).not.toBe(final);
    expect(build.instructions.some((i) => i.keyword === 'RUN' && /\bnpm ci\b/.test(i.args))).toBe(true);
    const copiesDist = inFinal('COPY').some((i) =>
      new RegExp(`--from=${build.name ?? '\\S+'}\\s+\\S*dist\\b`).test(i.args),
    );
    expect(copiesDist, 'the final stage copies dist/ from the build stage').toBe(true);
  });

  it('installs production dependencies only in the final stage', () => {
    const installs = inFinal('RUN').filter((i) => /\bnpm (ci|install|i)\b/.test(i.args));
    expect(installs.length).toBeGreaterThan(0);
    for (const install of installs) expect(install.args).toMatch(/\bnpm ci\b.*--omit=dev\b/);
    // Optional dependencies (@napi-rs/canvas for PDFs) stay in.
    for (const install of installs) expect(install.args).not.toMatch(/--omit=optional|--no-optional/);
  });

  it('runs as a non-root user, in production mode, as the package bin', () => {
    const user = must(last('USER'), 'a USER instruction');
    const name = must(user.split(':')[0], 'user').trim();
    expect(['', 'root', '0']).not.toContain(name);
    expect(inFinal('ENV').some((i) => /\bNODE_ENV=production\b/.test(i.args))).toBe(true);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(execForm(must(last('ENTRYPOINT'), 'ENTRYPOINT'))).toEqual(['node', pkg.bin['cosci-safety']]);
    expect(execForm(must(last('CMD'), 'CMD'))).toEqual(['worker']);
    expect(inFinal('EXPOSE').flatMap((i) => i.args.split(/\s+/))).toContain(String(DEFAULTS.metrics.port));
  });

  describe('HEALTHCHECK', () => {
    const healthcheck = must(last('HEALTHCHECK'), 'a HEALTHCHECK');
    const command = execForm(must(/\bCMD\s+(\[.*\])$/.exec(healthcheck)?.[1], 'exec form CMD'));
    const url = `http://127.0.0.1:${DEFAULTS.metrics.port}/healthz`;

    it('asks /healthz on the metrics port with node, having no curl', () => {
      expect(command[0]).toBe('node');
      expect(command.join(' ')).toContain(url);
    });

    /** Runs the check against `port` instead of the default metrics port; resolves to its exit code. */
    function runCheck(port: number): Promise<number | null> {
      const args = command.slice(1).map((a) => a.replace(url, `http://127.0.0.1:${port}/healthz`));
      const child = spawn(process.execPath, args, { stdio: 'ignore', timeout: 10_000 });
      return new Promise((done, fail) => child.on('error', fail).on('exit', (code) => done(code)));
    }

    async function serve(status: number): Promise<Server> {
      const server = createServer((_req, res) => res.writeHead(status).end());
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      return server;
    }

    it('passes on 200 and fails on an error status or a closed port', async () => {
      const ok = await serve(200);
      const failing = await serve(503);
      try {
        expect(await runCheck((ok.address() as AddressInfo).port)).toBe(0);
        expect(await runCheck((failing.address() as AddressInfo).port)).toBe(1);
      } finally {
        await new Promise((done) => ok.close(done));
        await new Promise((done) => failing.close(done));
      }
      const closed = await serve(200);
      const port = (closed.address() as AddressInfo).port;
      await new Promise((done) => closed.close(done));
      expect(await runCheck(port)).toBe(1);
    });
  });

  it('has a .dockerignore that keeps out the local build but not what the image copies', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
    for (const entry of ['node_modules', 'dist', '.git']) expect(ignored).toContain(entry);
    const sources = stages
      .flatMap((s) => s.instructions)
      .filter((i) => i.keyword === 'COPY' && !i.args.includes('--from='))
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      const path = source.replace(/^\.\//, '').replace(/\/$/, '');
      expect(existsSync(join(ROOT, path)), `${path} exists`).toBe(true);
      expect(
        ignored.filter((entry) => path === entry || path.startsWith(`${entry}/`)),
        `${path} is in the build context`,
      ).toEqual([]);
    }
  });
});

// ---------------------------------------------------------------------------
// docker-compose.yml

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  environment?: Record<string, string> | string[];
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test?: string[] | string };
  volumes?: (string | { source?: string; target?: string })[];
  ports?: (string | number | { target?: number; published?: number })[];
  stop_grace_period?: string;
  deploy?: { replicas?: number };
}

describe('docker-compose.yml', () => {
  const path = join(ROOT, 'docker-compose.yml');
  const raw = readCompose(path);
  const compose = interpolate(raw) as { services: Record<string, ComposeService> };
  const rawServices = (raw as { services: Record<string, ComposeService> }).services;
  const services = compose.services;
  const service = (name: string) => must(services[name], `a service ${name}`);
  const workers = Object.entries(services).filter(([, s]) => Array.isArray(s.command) && s.command[0] === 'worker');
  const env = (s: ComposeService) =>
    Array.isArray(s.environment)
      ? Object.fromEntries(s.environment.map((e) => [e.split('=')[0], e.split('=').slice(1).join('=')]))
      : (s.environment ?? {});
  const volumes = (s: ComposeService) =>
    (s.volumes ?? []).map((v) => (typeof v === 'string' ? v : `${v.source ?? ''}:${v.target ?? ''}`));

  it('is valid against the compose-spec schema', () => {
    expect(validateCompose(compose)).toEqual([]);
  });

  it('runs Redis with AOF, noeviction, a volume and a health check', () => {
    const redis = service('redis');
    expect(redis.image).toMatch(/^redis:7(?:[.-]|$)/);
    const command = Array.isArray(redis.command) ? redis.command.join(' ') : (redis.command ?? '');
    expect(command).toMatch(/--appendonly yes\b/);
    expect(command).toMatch(/--maxmemory-policy noeviction\b/);
    expect(volumes(redis).some((v) => v.endsWith(':/data'))).toBe(true);
    const test = redis.healthcheck?.test;
    expect(Array.isArray(test) ? test.join(' ') : test).toMatch(/redis-cli ping/);
  });

  it('runs the workers of every queue, by role, from the image built here', () => {
    expect(workers.length).toBeGreaterThanOrEqual(1);
    const roles = new Map<string, string[]>();
    for (const [name, s] of workers) {
      expect(s.build, `${name} is built from the Dockerfile`).toBe('.');
      const queues = must(workerQueues(s.command as string[]), `${name} names its queues`);
      // The real configuration loader validates the queue names.
      const config = effectiveConfig('', env(s) as Record<string, string>, queues);
      expect(config.worker.queues).toEqual(queues);
      roles.set(name, queues);
      expect(s.deploy?.replicas, `${name} replicas`).toBeGreaterThanOrEqual(2);
    }
    expectQueuesCovered(roles);
  });

  it('connects the workers to Redis once it is healthy, with the secrets from the host', () => {
    for (const [name, s] of workers) {
      const url = new URL(must(env(s).REDIS_URL, `${name} REDIS_URL`));
      expect(Object.keys(services)).toContain(url.hostname);
      expect(url.port).toBe('6379');
      expect((s.depends_on as Record<string, { condition: string }>)[url.hostname]?.condition).toBe('service_healthy');
      const written = env(must(rawServices[name], name)) as Record<string, string>;
      expect(written.ANTHROPIC_API_KEY).toBe('${ANTHROPIC_API_KEY:-}');
      expect(written.COSCI_REVIEW_TOKEN).toBe('${COSCI_REVIEW_TOKEN:-}');
    }
  });

  it('gives the workers longer to stop than their shutdown bound', () => {
    for (const [name, s] of workers) {
      const config = effectiveConfig('', {}, workerQueues(s.command as string[]));
      const grace = durationSeconds(must(s.stop_grace_period, `${name} stop_grace_period`));
      expect(grace).toBeGreaterThan(config.worker.shutdown_timeout_ms / 1000);
      expect(grace).toBeGreaterThan(DEFAULTS.worker.shutdown_timeout_ms / 1000);
    }
  });

  it('names the worker services and port for Prometheus in its opening comment', () => {
    const header = readFileSync(path, 'utf8').split(/\n(?!#)/)[0] ?? '';
    for (const [name] of workers) expect(header).toMatch(new RegExp(`\`${name}\``));
    expect(header).toContain(String(DEFAULTS.metrics.port));
  });

  it('mounts the Prometheus and Grafana files', () => {
    const prometheus = volumes(service('prometheus'));
    expect(prometheus).toContain('./prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro');
    expect(prometheus.some((v) => v.startsWith('./prometheus/rules:'))).toBe(true);
    const grafana = volumes(service('grafana'));
    expect(grafana).toContain('./grafana/provisioning:/etc/grafana/provisioning:ro');
    expect(grafana).toContain('./grafana/dashboards:/var/lib/grafana/dashboards:ro');
    expect(service('prometheus').ports).toContain('127.0.0.1:9090:9090');
    expect(service('grafana').ports).toContain('127.0.0.1:3000:3000');
  });

  it.skipIf(!existsSync(join(ROOT, 'prometheus/prometheus.yml')))(
    'is what prometheus/prometheus.yml scrapes: every host it names is a service',
    () => {
      const config = must(readYamlDocuments(join(ROOT, 'prometheus/prometheus.yml'))[0], 'prometheus.yml') as {
        scrape_configs?: {
          dns_sd_configs?: { names?: string[]; port?: number }[];
          static_configs?: { targets?: string[] }[];
        }[];
      };
      const hosts = (config.scrape_configs ?? []).flatMap((job) => [
        ...(job.dns_sd_configs ?? []).flatMap((sd) => sd.names ?? []),
        ...(job.static_configs ?? []).flatMap((sc) => (sc.targets ?? []).map((t) => t.split(':')[0] ?? '')),
      ]);
      for (const host of hosts) expect(Object.keys(services), `${host} in prometheus.yml`).toContain(host);
      const scraped = new Set(hosts);
      for (const [name] of workers) expect(scraped.has(name), `${name} is scraped`).toBe(true);
    },
  );

  it.skipIf(!existsSync(join(ROOT, 'prometheus/prometheus.yml')) || !existsSync(join(ROOT, 'grafana/provisioning')))(
    'mounts the rule files and dashboards where the Prometheus and Grafana files look for them',
    () => {
      /** The host path of a path inside a container, through the service's bind mounts. */
      const hostPath = (s: ComposeService, inside: string) => {
        for (const v of volumes(s)) {
          const [source = '', target = ''] = v.split(':');
          if (source.startsWith('.') && (inside === target || inside.startsWith(`${target}/`))) {
            return join(ROOT, source, inside.slice(target.length));
          }
        }
        throw new Error(`${inside} is not mounted`);
      };
      const prometheus = service('prometheus');
      const configPath = '/etc/prometheus/prometheus.yml';
      const config = must(readYamlDocuments(hostPath(prometheus, configPath))[0], 'prometheus.yml') as {
        rule_files?: string[];
      };
      for (const pattern of config.rule_files ?? []) {
        const inside = pattern.startsWith('/') ? pattern : join(dirname(configPath), pattern);
        const dir = hostPath(prometheus, dirname(inside));
        const base = new RegExp(`^${basenameGlob(inside)}$`);
        expect(existsSync(dir) ? readdirSync(dir).filter((f) => base.test(f)) : [], pattern).not.toEqual([]);
      }

      const grafana = service('grafana');
      const provisioning = hostPath(grafana, '/etc/grafana/provisioning');
      for (const file of yamlFiles(join(provisioning, 'dashboards'))) {
        const doc = must(readYamlDocuments(file)[0], file) as { providers?: { options?: { path?: string } }[] };
        for (const p of doc.providers ?? []) {
          expect(existsSync(hostPath(grafana, must(p.options?.path, `${file} path`))), file).toBe(true);
        }
      }
      for (const file of yamlFiles(join(provisioning, 'datasources'))) {
        const doc = must(readYamlDocuments(file)[0], file) as { datasources?: { url?: string }[] };
        for (const d of doc.datasources ?? []) {
          const url = new URL(must(d.url, `${file} url`));
          expect(Object.keys(services), `${file} ${url.href}`).toContain(url.hostname);
        }
      }
    },
  );
});

/** A glob's last part (`*.yml`) as a regular expression. */
function basenameGlob(path: string): string {
  const base = path.split('/').at(-1) ?? '';
  return base
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
}

// ---------------------------------------------------------------------------
// deploy/kubernetes

interface Manifest {
  file: string;
  doc: Record<string, unknown>;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return yamlFiles(path);
      return /\.ya?ml$/.test(name) ? [path] : [];
    });
}

/** The objects a kustomization directory builds, following its resources (files and directories). */
function kustomize(dir: string, seen = new Set<string>()): Manifest[] {
  const file = join(dir, 'kustomization.yaml');
  expect(existsSync(file), `${relative(ROOT, dir)} has a kustomization.yaml`).toBe(true);
  seen.add(file);
  const k = must(readYamlDocuments(file)[0], file) as { resources: string[] };
  return k.resources.flatMap((resource) => {
    const path = resolve(dir, resource);
    expect(existsSync(path), `${relative(ROOT, file)} lists ${resource}`).toBe(true);
    if (statSync(path).isDirectory()) return kustomize(path, seen);
    seen.add(path);
    return readYamlDocuments(path).map((doc) => ({ file: path, doc: doc as Record<string, unknown> }));
  });
}

const name = (m: { metadata?: { name?: string } }) => must(m.metadata?.name, 'metadata.name');

function matches(
  selector: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] } | undefined,
  labels: Record<string, string>,
) {
  const s = must(selector, 'a selector');
  expect(s.matchExpressions ?? [], 'selectors use matchLabels only').toEqual([]);
  const wanted = Object.entries(must(s.matchLabels, 'matchLabels'));
  return wanted.length > 0 && wanted.every(([k, v]) => labels[k] === v);
}

describe('deploy/kubernetes', () => {
  const files = yamlFiles(KUBE_DIR);
  const secretExample = join(KUBE_DIR, 'secret.example.yaml');

  it('validates every document against its kind', () => {
    expect(files.length).toBeGreaterThan(0);
    const problems = files.flatMap((file) =>
      readYamlDocuments(file).flatMap((doc) =>
        validateKubernetes(doc).map((p) => `${relative(ROOT, file)} ${kindOf(doc) ?? ''}: ${p}`),
      ),
    );
    expect(problems).toEqual([]);
  });

  it('applies every file from a kustomization, except the example Secret', () => {
    const seen = new Set<string>();
    for (const dir of [KUBE_DIR, join(KUBE_DIR, 'hpa')]) kustomize(dir, seen);
    expect(files.filter((f) => !seen.has(f) && f !== secretExample).map((f) => relative(ROOT, f))).toEqual([]);
    expect(seen.has(secretExample), 'kubectl apply -k must not overwrite the real Secret').toBe(false);
  });

  const stacks = [
    { label: 'with KEDA (the default)', dir: KUBE_DIR, scaler: 'ScaledObject' },
    { label: 'with the CPU HPA (hpa/)', dir: join(KUBE_DIR, 'hpa'), scaler: 'HorizontalPodAutoscaler' },
  ] as const;

  for (const stack of stacks) {
    describe(stack.label, () => {
      const objects = kustomize(stack.dir).map((m) => m.doc);
      const ofKind = <T>(kind: string) => objects.filter((o) => o.kind === kind) as T[];
      const deployments = ofKind<IDeployment>('Deployment');
      const configMaps = ofKind<IConfigMap>('ConfigMap');
      const secret = must(readYamlDocuments(secretExample)[0], 'the example Secret') as ISecret;
      const images = kustomizeImages(stack.dir);

      const podLabels = (d: IDeployment) => must(d.spec?.template.metadata?.labels, `${name(d)} pod labels`);
      const worker = (d: IDeployment): IContainer => {
        const containers = must(d.spec?.template.spec?.containers, 'containers');
        expect(containers, `${name(d)} has one container`).toHaveLength(1);
        return must(containers[0], 'a container');
      };

      /** The configuration the Deployment's worker runs with, from its ConfigMap and flags. */
      const configOf = (d: IDeployment): Config => {
        const c = worker(d);
        const path = must(c.env?.find((e) => e.name === 'COSCI_SAFETY_CONFIG')?.value, 'COSCI_SAFETY_CONFIG');
        const mount = must(
          c.volumeMounts?.find((m) => path.startsWith(`${m.mountPath}/`)),
          `${path} is in a mounted volume`,
        );
        const volume = must(
          d.spec?.template.spec?.volumes?.find((v) => v.name === mount.name),
          `volume ${mount.name}`,
        );
        const cmName = must(volume.configMap?.name, `${mount.name} is a ConfigMap`);
        const cm = must(
          configMaps.find((m) => name(m) === cmName),
          `ConfigMap ${cmName}`,
        );
        const toml = must(cm.data?.[path.slice(mount.mountPath.length + 1)], `${cmName} has ${path}`);
        parseToml(toml);
        return effectiveConfig(toml, {}, workerQueues(must(c.args, `${name(d)} args`)));
      };

      it('has one Deployment per role, and together they work every queue once', () => {
        expect(deployments.length).toBeGreaterThanOrEqual(2);
        const roles = new Map<string, string[]>();
        for (const d of deployments) {
          const role = must(podLabels(d)['app.kubernetes.io/component'], `${name(d)} role label`);
          expect(matches(d.spec?.selector, podLabels(d)), `${name(d)} selects its pods`).toBe(true);
          const queues = must(workerQueues(must(worker(d).args, 'args')), `${name(d)} names its queues`);
          for (const q of queues) expect(QUEUE_NAMES).toContain(q);
          expect(configOf(d).worker.queues).toEqual(queues);
          expect(roles.has(role), `one Deployment for ${role}`).toBe(false);
          roles.set(role, queues);
        }
        expectQueuesCovered(roles);
      });

      it('probes /readyz and /healthz on the metrics port', () => {
        for (const d of deployments) {
          const c = worker(d);
          const port = configOf(d).metrics.port;
          const metricsPort = must(
            c.ports?.find((p) => p.containerPort === port),
            `${name(d)} exposes port ${port}`,
          );
          const resolvePort = (p: number | string | undefined) => (p === metricsPort.name ? port : p);
          expect(c.readinessProbe?.httpGet?.path).toBe('/readyz');
          expect(resolvePort(c.readinessProbe?.httpGet?.port)).toBe(port);
          expect(c.livenessProbe?.httpGet?.path).toBe('/healthz');
          expect(resolvePort(c.livenessProbe?.httpGet?.port)).toBe(port);
          const annotations = must(d.spec?.template.metadata?.annotations, 'pod annotations');
          expect(annotations['prometheus.io/scrape']).toBe('true');
          expect(annotations['prometheus.io/port']).toBe(String(port));
          expect(annotations['prometheus.io/path']).toBe('/metrics');
        }
      });

      it('sets requests and limits of CPU and memory', () => {
        for (const d of deployments) {
          const r = worker(d).resources;
          for (const key of ['requests', 'limits'] as const) {
            expect(Object.keys(r?.[key] ?? {}).sort(), `${name(d)} ${key}`).toEqual(['cpu', 'memory']);
          }
        }
      });

      it('waits longer than the worker shutdown bound before SIGKILL', () => {
        for (const d of deployments) {
          const grace = must(d.spec?.template.spec?.terminationGracePeriodSeconds, `${name(d)} grace period`);
          expect(grace).toBeGreaterThan(configOf(d).worker.shutdown_timeout_ms / 1000);
          expect(grace).toBeGreaterThan(DEFAULTS.worker.shutdown_timeout_ms / 1000);
        }
      });

      it('runs as non-root, read-only, without privileges', () => {
        for (const d of deployments) {
          const pod = d.spec?.template.spec?.securityContext ?? {};
          const c = worker(d).securityContext ?? {};
          expect(c.runAsNonRoot ?? pod.runAsNonRoot, `${name(d)} runAsNonRoot`).toBe(true);
          expect(c.runAsUser ?? pod.runAsUser ?? 1000).not.toBe(0);
          expect(c.readOnlyRootFilesystem).toBe(true);
          expect(c.allowPrivilegeEscalation).toBe(false);
          expect(c.capabilities?.drop).toContain('ALL');
          expect(c.privileged ?? false).toBe(false);
        }
      });

      it('spreads each role over nodes', () => {
        for (const d of deployments) {
          const spec = must(d.spec?.template.spec, 'pod spec');
          const selectors = [
            ...(spec.topologySpreadConstraints ?? []).map((t) => t.labelSelector),
            ...(spec.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map(
              (t) => t.podAffinityTerm.labelSelector,
            ),
          ];
          expect(selectors.length, `${name(d)} has a spread`).toBeGreaterThan(0);
          for (const s of selectors) expect(matches(s, podLabels(d)), `${name(d)} spread selector`).toBe(true);
        }
      });

      it('takes its secrets from the Secret of the example, and its image from the kustomization', () => {
        const keys = Object.keys({ ...secret.stringData, ...secret.data });
        for (const d of deployments) {
          const c = worker(d);
          for (const e of c.env ?? []) {
            const ref = e.valueFrom?.secretKeyRef;
            if (!ref) continue;
            expect(ref.name).toBe(name(secret));
            expect(keys).toContain(ref.key);
          }
          expect(c.env?.some((e) => e.name === 'ANTHROPIC_API_KEY' && e.valueFrom?.secretKeyRef)).toBe(true);
          expect(images, `${name(d)} image ${c.image} is set by a kustomization`).toContain(c.image);
        }
      });

      it('has a PodDisruptionBudget per role that selects only that role', () => {
        const pdbs = ofKind<IPodDisruptionBudget>('PodDisruptionBudget');
        for (const d of deployments) {
          const own = pdbs.filter((p) => matches(p.spec?.selector, podLabels(d)));
          expect(own.map(name), `${name(d)} PDB`).toHaveLength(1);
          const pdb = must(own[0], 'pdb');
          for (const other of deployments.filter((o) => o !== d)) {
            expect(matches(pdb.spec?.selector, podLabels(other)), `${name(pdb)} selects ${name(other)}`).toBe(false);
          }
          expect(pdb.spec?.maxUnavailable ?? pdb.spec?.minAvailable).toBeDefined();
        }
      });

      it('has a metrics Service whose selector and port reach the workers', () => {
        const servicesOfKind = ofKind<IService>('Service');
        expect(servicesOfKind.length).toBeGreaterThan(0);
        for (const s of servicesOfKind) {
          const selector = must(s.spec?.selector, `${name(s)} selector`);
          const selected = deployments.filter((d) => matches({ matchLabels: selector }, podLabels(d)));
          expect(selected.length, `${name(s)} selects a Deployment`).toBeGreaterThan(0);
          for (const d of selected) {
            for (const p of s.spec?.ports ?? []) {
              const target = p.targetPort ?? p.port;
              const found = worker(d).ports?.some((cp) => cp.name === target || cp.containerPort === target);
              expect(found, `${name(s)} port ${String(target)} on ${name(d)}`).toBe(true);
            }
          }
        }
        const reached = deployments.filter((d) =>
          servicesOfKind.some((s) => matches({ matchLabels: must(s.spec?.selector, 'selector') }, podLabels(d))),
        );
        expect(reached.map(name)).toEqual(deployments.map(name));
      });

      if (stack.scaler === 'ScaledObject') {
        it('scales each role with a ScaledObject on the backlog of exactly its queues', () => {
          const scaled = ofKind<IScaledObject>('ScaledObject');
          for (const d of deployments) {
            const own = scaled.filter((s) => s.spec.scaleTargetRef.name === name(d));
            expect(own, `${name(d)} ScaledObject`).toHaveLength(1);
            const so = must(own[0], 'ScaledObject');
            expect(so.spec.scaleTargetRef.kind ?? 'Deployment').toBe('Deployment');
            expect(so.spec.scaleTargetRef.apiVersion ?? 'apps/v1').toBe('apps/v1');
            // The gauge the trigger reads is exported by a running worker: never scale to zero.
            const min = must(so.spec.minReplicaCount, 'minReplicaCount');
            expect(min).toBeGreaterThanOrEqual(1);
            expect(must(so.spec.maxReplicaCount, 'maxReplicaCount')).toBeGreaterThan(min);
            expect(so.spec.triggers).toHaveLength(1);
            const trigger = must(so.spec.triggers[0], 'trigger');
            expect(trigger.type).toBe('prometheus');
            expect(trigger.metricType ?? 'AverageValue').toBe('AverageValue');
            const meta = trigger.metadata as Record<string, string>;
            expect(() => new URL(must(meta.serverAddress, 'serverAddress'))).not.toThrow();
            expect(Number(meta.threshold)).toBeGreaterThan(0);
            const query = must(meta.query, 'query');
            expect(query).toMatch(/\bcosci_safety_queue_jobs\{/);
            const label = (l: string) =>
              must(new RegExp(`\\b${l}=~"([^"]*)"`).exec(query)?.[1], `${l}=~ in ${query}`).split('|');
            expect(label('queue').sort()).toEqual(
              [...must(workerQueues(must(worker(d).args, 'args')), 'queues')].sort(),
            );
            expect(label('state')).toEqual(expect.arrayContaining(['waiting', 'prioritized', 'delayed']));
          }
          expect(scaled.map((s) => s.spec.scaleTargetRef.name).sort()).toEqual(deployments.map(name).sort());
        });
      } else {
        it('scales each role with a HorizontalPodAutoscaler', () => {
          const hpas = ofKind<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler');
          expect(ofKind('ScaledObject')).toEqual([]);
          for (const d of deployments) {
            const own = hpas.filter((h) => h.spec?.scaleTargetRef.name === name(d));
            expect(own, `${name(d)} HPA`).toHaveLength(1);
            const hpa = must(own[0], 'hpa');
            expect(hpa.spec?.scaleTargetRef.kind).toBe('Deployment');
            expect(must(hpa.spec?.minReplicas, 'minReplicas')).toBeGreaterThanOrEqual(1);
            expect(hpa.spec?.maxReplicas).toBeGreaterThan(hpa.spec?.minReplicas ?? 1);
          }
        });
      }
    });
  }
});

/** The image names a kustomization directory (or one it includes) rewrites. */
function kustomizeImages(dir: string): string[] {
  const k = must(readYamlDocuments(join(dir, 'kustomization.yaml'))[0], dir) as {
    resources: string[];
    images?: { name: string }[];
  };
  return [
    ...(k.images ?? []).map((i) => i.name),
    ...k.resources
      .map((r) => resolve(dir, r))
      .filter((p) => existsSync(p) && statSync(p).isDirectory())
      .flatMap(kustomizeImages),
  ];
}
