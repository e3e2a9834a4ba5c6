import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { readYamlDocs } from './deploy-kit';
import type { ApiJson } from '../support/api-json';

export type K8sObject = ApiJson & {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
};

/** The kustomization fields this resolver understands; anything else fails the build (no silent gaps). */
const KNOWN = new Set(['apiVersion', 'kind', 'namespace', 'labels', 'resources', 'images', 'replicas', 'patches']);
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'StorageClass', 'PriorityClass']);

/**
 * A small `kustomize build` for the features deploy/kubernetes uses: resources (files and
 * directories with their own kustomization), namespace, labels (metadata only), images, replicas,
 * and patches — strategic-merge files (matched by kind and name; lists of named items merged by
 * name) and inline JSON 6902 patches with a kind/name target. It lets the tests check exactly what
 * `kubectl apply -k` would send, without the kustomize binary.
 */
export function kustomizeBuild(dir: string): K8sObject[] {
  const k = readYamlDocs(path.join(dir, 'kustomization.yaml'))[0];
  const unknown = Object.keys(k).filter((key) => !KNOWN.has(key));
  if (unknown.length > 0)
    throw new Error(`${dir}: kustomization fields not supported by the test resolver: ${unknown.join(', ')}`);
  let objects: K8sObject[] = [];
  for (const res of (k.resources ?? []) as string[]) {
    const p = path.join(dir, res);
    objects.push(...(fs.statSync(p).isDirectory() ? kustomizeBuild(p) : (readYamlDocs(p) as K8sObject[])));
  }
  for (const { pairs } of (k.labels ?? []) as Array<{ pairs: Record<string, string> }>) {
    for (const o of objects) o.metadata.labels = { ...o.metadata.labels, ...pairs };
  }
  for (const patch of (k.patches ?? []) as Array<{
    path?: string;
    patch?: string;
    target?: { kind?: string; name?: string };
  }>) {
    if (patch.path) {
      for (const p of readYamlDocs(path.join(dir, patch.path))) {
        const target = objects.find((o) => o.kind === p.kind && o.metadata.name === p.metadata.name);
        if (!target) throw new Error(`${dir}: patch ${patch.path} matches no ${p.kind}/${p.metadata.name}`);
        objects = objects.map((o) => (o === target ? (mergePatch(o, p) as K8sObject) : o));
      }
    } else if (patch.patch && patch.target) {
      const ops = parse(patch.patch) as Array<{ op: string; path: string; value?: unknown }>;
      const hits = objects.filter(
        (o) =>
          (!patch.target!.kind || o.kind === patch.target!.kind) &&
          (!patch.target!.name || o.metadata.name === patch.target!.name),
      );
      if (hits.length === 0) throw new Error(`${dir}: inline patch matches nothing (${JSON.stringify(patch.target)})`);
      for (const o of hits) for (const op of ops) applyOp(o, op);
    } else {
      throw new Error(`${dir}: unsupported patch ${JSON.stringify(patch)}`);
    }
  }
  for (const r of (k.replicas ?? []) as Array<{ name: string; count: number }>) {
    const d = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === r.name);
    if (!d) throw new Error(`${dir}: replicas for unknown Deployment ${r.name}`);
    d.spec.replicas = r.count;
  }
  for (const img of (k.images ?? []) as Array<{ name: string; newName?: string; newTag?: string }>) {
    let used = false;
    for (const c of containersOf(objects)) {
      const [name, tag] = splitImage(c.image);
      if (name !== img.name) continue;
      used = true;
      c.image = `${img.newName ?? name}:${img.newTag ?? tag}`;
    }
    if (!used) throw new Error(`${dir}: image ${img.name} is used by no container`);
  }
  if (k.namespace) for (const o of objects) if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
  return objects;
}

/** Every container (and init container) of every pod template in `objects`. */
export function containersOf(objects: K8sObject[]): Array<ApiJson> {
  return objects.flatMap((o) => {
    const pod = o.kind === 'Deployment' || o.kind === 'Job' ? o.spec.template.spec : undefined;
    return pod ? [...(pod.containers ?? []), ...(pod.initContainers ?? [])] : [];
  });
}

function splitImage(image: string): [string, string] {
  const i = image.lastIndexOf(':');
  return i > image.lastIndexOf('/') ? [image.slice(0, i), image.slice(i + 1)] : [image, 'latest'];
}

/** Strategic merge, as kustomize does it for the fields used here: maps merge, named lists merge by name. */
function mergePatch(base: unknown, patch: unknown): unknown {
  if (Array.isArray(base) && Array.isArray(patch)) {
    const named = (xs: unknown[]) => xs.every((x) => x !== null && typeof x === 'object' && 'name' in (x as object));
    if (!named(base) || !named(patch)) return patch;
    const out = [...base] as Array<Record<string, unknown>>;
    for (const p of patch as Array<Record<string, unknown>>) {
      const i = out.findIndex((b) => b.name === p.name);
      if (i >= 0) out[i] = mergePatch(out[i], p) as Record<string, unknown>;
      else out.push(p);
    }
    return out;
  }
  if (
    base &&
    patch &&
    typeof base === 'object' &&
    typeof patch === 'object' &&
    !Array.isArray(base) &&
    !Array.isArray(patch)
  ) {
    const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
    for (const [key, value] of Object.entries(patch)) out[key] = key in out ? mergePatch(out[key], value) : value;
    return out;
  }
  return patch;
}

/** One JSON 6902 operation (add, replace, remove) on `doc`. */
function applyOp(doc: ApiJson, op: { op: string; path: string; value?: unknown }): void {
  const keys = op.path
    .split('/')
    .slice(1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = keys.pop()!;
  let node: ApiJson = doc;
  for (const key of keys) {
    if (node[key] === undefined) throw new Error(`patch path ${op.path} does not exist`);
    node = node[key];
  }
  if (op.op === 'remove') {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete (node as ApiJson)[last];
    return;
  }
  if (op.op === 'replace' && !(last in node)) throw new Error(`patch replaces missing ${op.path}`);
  if (op.op !== 'replace' && op.op !== 'add') throw new Error(`unsupported patch op ${op.op}`);
  if (Array.isArray(node) && last === '-') node.push(op.value);
  else (node as ApiJson)[last] = structuredClone(op.value); // an array, indexed by its position as a string
}
