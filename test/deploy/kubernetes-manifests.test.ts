import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readManifests, validateManifest as validate } from '../../deploy/kubernetes/validate.ts';
import type { Manifest } from '../../deploy/kubernetes/validate.ts';
import { describe, expect, it } from '../helpers/fixtures.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const read = (file: string): Manifest[] => readManifests(join(ROOT, 'deploy/kubernetes', file));

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
        automountServiceAccountToken?: boolean;
        securityContext: { runAsNonRoot: boolean; runAsUser: number; runAsGroup: number; fsGroup?: number };
        containers: Container[];
        volumes: { name: string; emptyDir?: object; persistentVolumeClaim?: { claimName: string } }[];
      };
    };
  };
}

interface NetworkPolicyShape {
  spec: {
    podSelector: { matchLabels: Record<string, string> };
    policyTypes: string[];
    ingress: { from?: { namespaceSelector?: object; podSelector?: object }[]; ports?: { port: string }[] }[];
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

      // No service account token in a pod that never calls the Kubernetes API.
      expect(pod.automountServiceAccountToken).toBe(false);
      // Metrics on a port of their own, open only to Prometheus; the API port open to all.
      expect(container.ports).toContainEqual({ name: 'metrics', containerPort: 9464 });
      expect(container.env).toContainEqual({ name: 'METRICS_PORT', value: '9464' });
      const policy = manifests.find((m) => m.kind === 'NetworkPolicy') as unknown as NetworkPolicyShape | undefined;
      expect(policy?.spec.podSelector.matchLabels).toEqual(deployment.spec.template.metadata.labels);
      expect(policy?.spec.policyTypes).toEqual(['Ingress']);
      const rules = policy?.spec.ingress ?? [];
      // Every rule names its ports (a rule without ports would open all of them), and each port is reached by exactly one rule.
      expect(rules.every((rule) => (rule.ports ?? []).length > 0)).toBe(true);
      const ruleFor = (port: string) => rules.filter((rule) => rule.ports?.some((p) => p.port === port));
      expect(ruleFor('http')).toEqual([{ ports: [{ port: 'http' }] }]);
      const [metrics, ...others] = ruleFor('metrics');
      expect(others).toEqual([]);
      expect(metrics?.from?.length).toBeGreaterThan(0);
      expect(metrics?.from?.every((peer) => peer.podSelector !== undefined)).toBe(true);
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

  it('npm run check:kubernetes, as docs/deployment.md gives it, passes the committed files and names what is wrong in another', ({
    tmp,
  }) => {
    const run = (...files: string[]) =>
      spawnSync('npm', ['run', '--silent', 'check:kubernetes', '--', ...files], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    const committed = run();
    expect(committed.status, committed.stdout + committed.stderr).toBe(0);
    expect(committed.stdout).toMatch(/^ok +.*petstore\.yaml: NetworkPolicy petstore-gateway$/m);
    const broken = join(tmp, 'broken.yaml');
    writeFileSync(
      broken,
      readFileSync(join(ROOT, 'deploy/kubernetes/petstore.yaml'), 'utf8').replace('containerPort: 4000', "containerPort: '4000'"),
    );
    const refused = run(broken);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toMatch(/^invalid .*broken\.yaml: Deployment petstore-gateway\n.*containerPort must be integer/m);
  });
});
