import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Service } from 'kubernetes-models/v1/Service';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from '../helpers/fixtures.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

type Manifest = Record<string, unknown> & { apiVersion: string; kind: string };

const read = (file: string): Manifest[] =>
  parseAllDocuments(readFileSync(join(ROOT, 'deploy/kubernetes', file), 'utf8')).map((doc) => doc.toJS() as Manifest);

/**
 * The Kubernetes API's own OpenAPI schemas, compiled to JSON Schema validators by
 * kubernetes-models: a wrong type, a missing required field or a value outside an enum throws,
 * naming the path. (Like the API server's schemas, they let unknown fields through: the
 * assertions below name every field this project relies on.)
 */
function validate(manifest: Manifest): void {
  const key = `${manifest.apiVersion} ${manifest.kind}`;
  if (key === 'apps/v1 Deployment') return new Deployment(manifest as never).validate();
  if (key === 'v1 Service') return new Service(manifest as never).validate();
  if (key === 'v1 PersistentVolumeClaim') return new PersistentVolumeClaim(manifest as never).validate();
  throw new Error(`no schema here for ${key}: add one to this test`);
}

interface Probe {
  httpGet: { path: string; port: string };
}

interface Container {
  image: string;
  args: string[];
  ports: { name: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }[];
  startupProbe: Probe;
  readinessProbe: Probe;
  livenessProbe: Probe;
  securityContext: { allowPrivilegeEscalation: boolean; readOnlyRootFilesystem: boolean; capabilities: { drop: string[] } };
  volumeMounts: { name: string; mountPath: string }[];
}

interface DeploymentShape {
  spec: {
    replicas: number;
    strategy: { type: string };
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string> };
      spec: {
        terminationGracePeriodSeconds: number;
        securityContext: { runAsNonRoot: boolean; runAsUser: number; runAsGroup: number; fsGroup?: number };
        containers: Container[];
        volumes: { name: string; emptyDir?: object; persistentVolumeClaim?: { claimName: string } }[];
      };
    };
  };
}

const deploymentOf = (manifests: Manifest[]) => manifests.find((m) => m.kind === 'Deployment') as unknown as DeploymentShape;
const serviceOf = (manifests: Manifest[]) =>
  manifests.find((m) => m.kind === 'Service') as unknown as { spec: { selector: Record<string, string>; ports: { targetPort: string }[] } };

// The variable names docs/configuration.md documents, from its table.
const DOCUMENTED = new Set([...readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8').matchAll(/^\| `([A-Z_]+)`/gm)].map((m) => m[1]));

describe('deploy/kubernetes, validated and checked against what the server and its image do', () => {
  it.each(['petstore.yaml', 'petstore-sqlite.yaml'])(
    '%s is valid Kubernetes, probes /readyz and /healthz, runs hardened as the image’s user',
    (file) => {
      const manifests = read(file);
      for (const manifest of manifests) expect(() => validate(manifest), `${file}: ${manifest.kind}`).not.toThrow();

      const deployment = deploymentOf(manifests);
      const pod = deployment.spec.template.spec;
      const [container] = pod.containers;
      if (!container) throw new Error(`${file}: no container`);
      expect(container.args).toEqual(['serve']);
      // The image's port, user and group (deploy/image/build-image.sh; the image test checks the image itself).
      expect(container.ports).toContainEqual({ name: 'http', containerPort: 4000 });
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001, runAsGroup: 10001 });
      expect(container.securityContext).toEqual({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
      // A read-only root needs a writable /tmp of its own.
      expect(container.volumeMounts).toContainEqual({ name: 'tmp', mountPath: '/tmp' });
      expect(pod.volumes).toContainEqual({ name: 'tmp', emptyDir: {} });

      expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
      expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
      expect(container.startupProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });

      // The pod is given longer to stop than the server keeps serving after SIGTERM.
      const delayMs = Number(container.env?.find(({ name }) => name === 'SHUTDOWN_DELAY_MS')?.value ?? 0);
      expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(delayMs + 10_000);
      for (const { name } of container.env ?? []) expect(DOCUMENTED, `${file}: ${name}`).toContain(name);

      // The Service reaches these pods, on the named port.
      expect(deployment.spec.selector.matchLabels).toEqual(deployment.spec.template.metadata.labels);
      const service = serviceOf(manifests);
      expect(service.spec.selector).toEqual(deployment.spec.template.metadata.labels);
      expect(service.spec.ports.map(({ targetPort }) => targetPort)).toEqual(['http']);
    },
  );

  it('on PostgreSQL: several pods, rolled one at a time, the database and Redis from a Secret', () => {
    const { spec } = deploymentOf(read('petstore.yaml'));
    const [container] = spec.template.spec.containers;
    expect(spec.replicas).toBeGreaterThan(1);
    expect(spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
    expect(container?.env).toContainEqual({
      name: 'DATABASE_URL',
      valueFrom: { secretKeyRef: { name: 'petstore-gateway', key: 'database-url' } },
    });
    expect(container?.env).toContainEqual({
      name: 'REDIS_URL',
      valueFrom: { secretKeyRef: { name: 'petstore-gateway', key: 'redis-url' } },
    });
    expect(container?.volumeMounts.map(({ mountPath }) => mountPath)).not.toContain('/data');
  });

  it('on SQLite: one pod, never two at once, its file on a ReadWriteOnce claim at /data that the image’s user can write', () => {
    const manifests = read('petstore-sqlite.yaml');
    const { spec } = deploymentOf(manifests);
    expect(spec.replicas).toBe(1);
    expect(spec.strategy).toEqual({ type: 'Recreate' });
    expect(spec.template.spec.securityContext.fsGroup).toBe(10001);
    expect(spec.template.spec.containers[0]?.volumeMounts).toContainEqual({ name: 'data', mountPath: '/data' });
    expect(spec.template.spec.volumes).toContainEqual({ name: 'data', persistentVolumeClaim: { claimName: 'petstore-data' } });
    expect(manifests.find((m) => m.kind === 'PersistentVolumeClaim')).toMatchObject({
      metadata: { name: 'petstore-data' },
      spec: { accessModes: ['ReadWriteOnce'] },
    });
  });

  it('the validator refuses what the API server would', () => {
    const [deployment] = read('petstore.yaml').filter((m) => m.kind === 'Deployment');
    const broken = structuredClone(deployment) as unknown as DeploymentShape;
    (broken.spec.template.spec.containers[0]?.ports[0] as { containerPort: unknown }).containerPort = '4000';
    expect(() => validate(broken as unknown as Manifest)).toThrow(/containerPort must be integer/);
    const noSelector = structuredClone(deployment) as unknown as { spec: { selector?: unknown } };
    delete noSelector.spec.selector;
    expect(() => validate(noSelector as unknown as Manifest)).toThrow(/selector/);
  });
});
