import fs from 'node:fs';
import path from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { DEPLOYED, envProblems, readYaml, readYamlDocs, ROOT } from './deploy-kit';
import { containersOf, kustomizeBuild, type K8sObject } from './kustomize';
import type { ApiJson } from '../support/api-json';

const K8S = path.join(ROOT, 'deploy/kubernetes');
/** The Kubernetes API schemas (kubernetes-models) of every kind the manifests use. */
const MODELS: Record<string, { new (data: ApiJson): { validate(): void } }> = {
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/Ingress': Ingress,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/Secret': Secret,
  'v1/Service': Service,
};
const builds = {
  base: kustomizeBuild(path.join(K8S, 'base')),
  production: kustomizeBuild(path.join(K8S, 'overlays/production')),
  dev: kustomizeBuild(path.join(K8S, 'overlays/dev')),
  'production-s3': kustomizeBuild(path.join(K8S, 'overlays/production-s3')),
};
/** The Secrets the pods reference, as an operator creates them (applied by no overlay: decisions §50). */
const SECRETS = readYamlDocs(path.join(K8S, 'secrets.example.yaml')) as K8sObject[];
const secretKeys = (name: string): Record<string, string> => {
  const o = SECRETS.find((x) => x.kind === 'Secret' && x.metadata.name === name);
  if (!o) throw new Error(`Secret/${name} is referenced but not in secrets.example.yaml`);
  return { ...(o.data ?? {}), ...(o.stringData ?? {}) };
};
const of = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const get = (objects: K8sObject[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name);
const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);
/** Services that own a database (bootService `docs: true`). */
const withDocs = DEPLOYED.filter((s) =>
  /docs:\s*true/.test(fs.readFileSync(path.join(ROOT, 'services', s, 'src', 'main.ts'), 'utf8')),
);

describe.each(Object.entries(builds))('Kubernetes manifests: %s', (_name, objects) => {
  test('every object is valid against the Kubernetes API schema of its kind', () => {
    const problems: string[] = [];
    for (const o of objects) {
      const Model = MODELS[`${o.apiVersion}/${o.kind}`];
      if (!Model) {
        problems.push(`${o.apiVersion} ${o.kind} has no schema here`);
        continue;
      }
      try {
        new Model(o).validate();
      } catch (err) {
        problems.push(`${o.kind}/${o.metadata.name}: ${(err as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
    const names = objects.map((o) => `${o.kind}/${o.metadata.name}`);
    expect(new Set(names).size).toBe(names.length);
  });

  test('a Deployment, a Service and a PodDisruptionBudget for every service, selectors matching', () => {
    for (const svc of DEPLOYED) {
      const d = get(objects, 'Deployment', `patchbay-${svc}`)!;
      expect(d).toBeDefined();
      const labels = d.spec.template.metadata.labels;
      expect(matches(d.spec.selector.matchLabels, labels)).toBe(true);
      const service = get(objects, 'Service', `patchbay-${svc}`)!;
      expect(matches(service.spec.selector, labels)).toBe(true);
      const ports = d.spec.template.spec.containers[0].ports.map((p: { name: string }) => p.name);
      for (const p of service.spec.ports) expect(ports).toContain(p.targetPort);
      const pdb = get(objects, 'PodDisruptionBudget', `patchbay-${svc}`)!;
      expect(matches(pdb.spec.selector.matchLabels, labels)).toBe(true);
      expect(d.spec.template.spec.containers[0].image).toMatch(new RegExp(`patchbay/${svc}:[\\w.-]+$`));
    }
  });

  test('every pod: probes on /health, requests and limits, non-root and locked down, time to finish its work', () => {
    for (const d of of(objects, 'Deployment')) {
      const pod = d.spec.template.spec;
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true });
      expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
      // runProcess gives in-flight work 25 s after SIGTERM.
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(25);
      for (const c of pod.containers) {
        const ports = c.ports.map((p: { name: string }) => p.name);
        for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
          expect(c[probe]?.httpGet?.path).toBe('/health');
          expect(ports).toContain(c[probe].httpGet.port);
        }
        for (const r of ['requests', 'limits']) expect(Object.keys(c.resources[r]).sort()).toEqual(['cpu', 'memory']);
        expect(c.securityContext).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
      }
    }
  });

  test("Prometheus scrapes /metrics from each pod's operations port, which the Ingress never reaches", () => {
    const config = get(objects, 'ConfigMap', 'patchbay-config')!;
    for (const d of of(objects, 'Deployment')) {
      const name = d.metadata.name;
      const annotations = d.spec.template.metadata.annotations ?? {};
      const c = d.spec.template.spec.containers[0];
      const ops = c.ports.find((p: { name: string }) => p.name === 'ops');
      expect({ name, scrape: annotations['prometheus.io/scrape'], path: annotations['prometheus.io/path'] }).toEqual({
        name,
        scrape: 'true',
        path: '/metrics',
      });
      expect({ name, port: annotations['prometheus.io/port'] }).toEqual({ name, port: String(ops?.containerPort) });
      // OPS_PORT comes from patchbay-config (no container sets it otherwise) and is that port.
      const own = (c.env ?? []).find((e: { name: string }) => e.name === 'OPS_PORT');
      expect({ name, own }).toEqual({ name, own: undefined });
      expect(config.data.OPS_PORT).toBe(String(ops?.containerPort));
    }
    // What the Ingress reaches (the public API and file server) never leads to an operations port.
    for (const rule of get(objects, 'Ingress', 'patchbay')!.spec.rules) {
      const backend = rule.http.paths[0].backend.service;
      const service = get(objects, 'Service', backend.name)!;
      const port = service.spec.ports.find((p: { name: string }) => p.name === backend.port.name);
      expect({ backend: backend.name, to: port.targetPort }).toEqual({ backend: backend.name, to: 'http' });
    }
  });

  test('configuration comes from ConfigMaps and Secrets that exist, and every service accepts it', () => {
    const data = (kind: string, name: string): Record<string, string> => {
      if (kind === 'Secret') return secretKeys(name);
      const o = get(objects, kind, name);
      if (!o) throw new Error(`${kind}/${name} is referenced but not defined`);
      return { ...(o.data ?? {}), ...(o.stringData ?? {}) };
    };
    for (const svc of DEPLOYED) {
      const c = get(objects, 'Deployment', `patchbay-${svc}`)!.spec.template.spec.containers[0];
      const env: Record<string, string> = {};
      for (const from of c.envFrom)
        Object.assign(
          env,
          from.configMapRef ? data('ConfigMap', from.configMapRef.name) : data('Secret', from.secretRef.name),
        );
      for (const e of c.env ?? []) {
        const ref = e.valueFrom?.configMapKeyRef;
        env[e.name] = ref ? data('ConfigMap', ref.name)[ref.key] : e.value;
        expect(env[e.name]).toBeDefined();
      }
      expect(env.NATS_URL).toBe('nats://patchbay-nats:4222');
      // Every interface of the pod: Services, probes and Prometheus reach it (127.0.0.1 is pnpm start's default).
      expect(env.HOST).toBe('0.0.0.0');
      expect(env.MONGODB_URL).toMatch(/replicaSet=patchbay-mongodb/);
      expect(envProblems(svc, env)).toEqual([]);
    }
  });

  test(
    'push reads its credentials key from a Secret of its own, which no ' + 'other pod reads and no ConfigMap repeats',
    () => {
      const secretRefs = (d: K8sObject): string[] =>
        d.spec.template.spec.containers[0].envFrom
          .filter((f: ApiJson) => f.secretRef)
          .map((f: ApiJson) => f.secretRef.name);
      expect(secretRefs(get(objects, 'Deployment', 'patchbay-push')!)).toContain('patchbay-push-credentials');
      expect(Object.keys(secretKeys('patchbay-push-credentials')).sort()).toEqual([
        'PUSH_CREDENTIALS_KEY',
        'PUSH_CREDENTIALS_OLD_KEYS',
      ]);
      for (const d of of(objects, 'Deployment'))
        if (d.metadata.name !== 'patchbay-push') expect(secretRefs(d)).not.toContain('patchbay-push-credentials');
      for (const cm of of(objects, 'ConfigMap'))
        expect(Object.keys(cm.data ?? {})).not.toContain('PUSH_CREDENTIALS_KEY');
    },
  );

  test(
    'storage reads its credentials key from a Secret of its own; the ' +
      'services that touch blobs read where they are from another',
    () => {
      const secretRefs = (d: K8sObject): string[] =>
        d.spec.template.spec.containers[0].envFrom
          .filter((f: ApiJson) => f.secretRef)
          .map((f: ApiJson) => f.secretRef.name);
      const keys = (name: string) => Object.keys(secretKeys(name)).sort();
      expect(keys('patchbay-storage-credentials')).toEqual(['STORAGE_CREDENTIALS_KEY', 'STORAGE_CREDENTIALS_OLD_KEYS']);
      expect(keys('patchbay-endpoint-credentials')).toEqual([
        'ENDPOINT_CREDENTIALS_KEY',
        'ENDPOINT_CREDENTIALS_OLD_KEYS',
      ]);
      expect(keys('patchbay-records-credentials')).toEqual(['RECORDS_CREDENTIALS_KEY', 'RECORDS_CREDENTIALS_OLD_KEYS']);
      expect(keys('patchbay-blob-store')).toEqual(['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'BLOB_STORE_URL']);
      for (const d of of(objects, 'Deployment')) {
        const name = d.metadata.name.replace(/^patchbay-/, '');
        expect({ name, key: secretRefs(d).includes('patchbay-storage-credentials') }).toEqual({
          name,
          key: name === 'storage',
        });
        expect({ name, key: secretRefs(d).includes('patchbay-endpoint-credentials') }).toEqual({
          name,
          key: name === 'endpoint',
        });
        expect({ name, key: secretRefs(d).includes('patchbay-records-credentials') }).toEqual({
          name,
          key: name === 'records',
        });
        expect({ name, blobs: secretRefs(d).includes('patchbay-blob-store') }).toEqual({
          name,
          blobs: ['storage', 'gateway', 'file-server', 'transcoder', 'records'].includes(name),
        });
      }
      for (const cm of of(objects, 'ConfigMap'))
        expect(Object.keys(cm.data ?? {})).not.toEqual(expect.arrayContaining(['STORAGE_CREDENTIALS_KEY']));
    },
  );

  test(
    'autoscaling: file server on CPU, transcoder on CPU and queue depth; ' +
      'the Ingress reaches the gateway and the file server',
    () => {
      const hpa = (name: string) => get(objects, 'HorizontalPodAutoscaler', `patchbay-${name}`)!;
      expect(hpa('file-server').spec.metrics).toEqual([
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
      ]);
      expect(hpa('transcoder').spec.metrics.map((m: ApiJson) => m.resource?.name ?? m.external?.metric.name)).toEqual([
        'cpu',
        'transcoder_queue_depth',
      ]);
      for (const h of of(objects, 'HorizontalPodAutoscaler')) {
        expect(get(objects, 'Deployment', h.spec.scaleTargetRef.name)).toBeDefined();
        expect(h.spec.minReplicas).toBeLessThanOrEqual(h.spec.maxReplicas);
      }
      const backends = get(objects, 'Ingress', 'patchbay')!.spec.rules.map(
        (r: ApiJson) => r.http.paths[0].backend.service,
      );
      expect(backends.map((b: ApiJson) => b.name)).toEqual(['patchbay-gateway', 'patchbay-file-server']);
      for (const b of backends)
        expect(get(objects, 'Service', b.name)!.spec.ports.map((p: ApiJson) => p.name)).toContain(b.port.name);
    },
  );
});

describe('Kubernetes overlays and the NATS / MongoDB they expect', () => {
  test('production: one namespace, pinned registry images, a larger transcoder pool, TLS hosts', () => {
    const objects = builds.production;
    for (const o of objects) if (o.kind !== 'Namespace') expect(o.metadata.namespace).toBe('patchbay');
    for (const c of containersOf(objects))
      expect(c.image).toMatch(/^registry\.example\.com\/patchbay\/[a-z-]+:0\.1\.0$/);
    expect(get(objects, 'Deployment', 'patchbay-transcoder')!.spec.replicas).toBe(3);
    expect(get(objects, 'HorizontalPodAutoscaler', 'patchbay-transcoder')!.spec.minReplicas).toBe(3);
    expect(get(objects, 'ConfigMap', 'patchbay-public')!.data.STORAGE_URL).toBe('https://files.patchbay.example.com');
    expect(get(objects, 'Ingress', 'patchbay')!.spec.tls[0].hosts).toHaveLength(2);
    // The base is untouched by the overlay's build.
    expect(get(builds.base, 'Deployment', 'patchbay-transcoder')!.spec.replicas).toBe(2);
  });

  test(
    'tracing: every service reads the OpenTelemetry settings, with the ' +
      'collector address a value to set (empty: off)',
    () => {
      for (const [name, objects] of Object.entries(builds)) {
        const tracing = get(objects, 'ConfigMap', 'patchbay-tracing');
        expect({ name, data: tracing?.data }).toEqual({
          name,
          data: { OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' },
        });
        for (const svc of DEPLOYED) {
          const c = get(objects, 'Deployment', `patchbay-${svc}`)!.spec.template.spec.containers[0];
          expect({ svc, reads: c.envFrom.some((f: ApiJson) => f.configMapRef?.name === 'patchbay-tracing') }).toEqual({
            svc,
            reads: true,
          });
          // Each service accepts the collector's address once it is set (its schema checks the URL).
          expect(
            envProblems(svc, {
              ...tracing!.data,
              OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector.observability.svc:4318',
            }),
          ).toEqual([]);
        }
      }
    },
  );

  test('no overlay creates a Secret: each one a pod references is documented for `kubectl create secret`', () => {
    const operations = fs.readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8');
    for (const [name, objects] of Object.entries(builds)) {
      expect({ name, secrets: of(objects, 'Secret').map((o) => o.metadata.name) }).toEqual({ name, secrets: [] });
      const referenced = new Set<string>();
      for (const o of [...of(objects, 'Deployment'), ...of(objects, 'Job')])
        for (const from of o.spec.template.spec.containers[0].envFrom ?? [])
          if (from.secretRef) referenced.add(from.secretRef.name as string);
      for (const secret of referenced) {
        expect(Object.keys(secretKeys(secret)).length).toBeGreaterThan(0);
        expect({ secret, documented: operations.includes(`create secret generic ${secret} `) }).toEqual({
          secret,
          documented: true,
        });
      }
    }
    for (const o of builds['production-s3']) if (o.kind !== 'Namespace') expect(o.metadata.namespace).toBe('patchbay');
  });

  test('dev: one replica each, small requests', () => {
    for (const d of of(builds.dev, 'Deployment')) {
      expect(d.spec.replicas).toBe(1);
      expect(d.spec.template.spec.containers[0].resources.requests).toEqual({ cpu: '25m', memory: '96Mi' });
    }
  });

  test('NATS chart values: JetStream on persistent storage, a 3-node cluster, named as NATS_URL expects', () => {
    const values = readYaml<ApiJson>('deploy/kubernetes/nats/values.yaml');
    expect(values.config.jetstream).toMatchObject({
      enabled: true,
      fileStore: { enabled: true, pvc: { enabled: true } },
    });
    expect(values.config.cluster).toEqual({ enabled: true, replicas: 3 });
    expect(fs.readFileSync(path.join(K8S, 'nats/values.yaml'), 'utf8')).toMatch(
      /helm upgrade --install patchbay-nats nats\/nats/,
    );
  });

  test('MongoDB: a 3-member replica set whose user may use every service database and the blob database', () => {
    const cr = readYaml<ApiJson>('deploy/kubernetes/mongodb/mongodb-community.yaml');
    expect(cr).toMatchObject({
      apiVersion: 'mongodbcommunity.mongodb.com/v1',
      kind: 'MongoDBCommunity',
      metadata: { name: 'patchbay-mongodb' },
      spec: { type: 'ReplicaSet' },
    });
    expect(cr.spec.members).toBeGreaterThanOrEqual(3);
    const dbs = cr.spec.users[0].roles
      .filter((r: ApiJson) => r.name === 'readWrite')
      .map((r: ApiJson) => r.db)
      .sort();
    expect(dbs).toEqual([...withDocs.map((s) => `patchbay_${s.replace(/-/g, '_')}`), 'patchbay_blobs'].sort());
  });

  test('the queue-depth metric the transcoder HPA uses is the one the transcoder exports', () => {
    const adapter = fs.readFileSync(path.join(K8S, 'monitoring/prometheus-adapter-values.yaml'), 'utf8');
    expect(adapter).toMatch(/as: transcoder_queue_depth/);
    expect(fs.readFileSync(path.join(ROOT, 'services/transcoder/src/metrics.ts'), 'utf8')).toMatch(
      /name: 'transcoder_queue_depth'/,
    );
  });
});
