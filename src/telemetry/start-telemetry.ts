import type { Config } from '../config/load-config.ts';
import { appVersion } from '../config/version.ts';
import type { OpenDatabase } from '../db/connection.ts';
import { createMetrics } from './metrics.ts';
import { NO_METRICS } from './metrics-types.ts';
import { operationNamesIn } from './operation-names.ts';
import type { Face, Metrics } from './metrics-types.ts';
import { startTracing } from './tracing.ts';
import type { Tracing } from './tracing.ts';
import { watchStatements } from './watch-statements.ts';

export interface Telemetry {
  /** NO_METRICS while METRICS_PORT is unset. */
  metrics: Metrics;
  /** Null while no OTEL_* setting asks for traces: the SDK is then not even loaded. */
  tracing: Tracing | null;
}

/** Metrics and traces as configured, and the database's statements watched for either; `faceOf` names the face a route belongs to. */
export async function startTelemetry(config: Config, database: OpenDatabase, faceOf: (route: string) => Face): Promise<Telemetry> {
  const { version, revision } = appVersion();
  const dbSystem = database.engine === 'postgres' ? 'postgresql' : 'sqlite';
  const metrics =
    config.metrics.port === null
      ? NO_METRICS
      : createMetrics({
          dbSystem,
          version,
          revision,
          maxOperationNames: config.metrics.maxOperationNames,
          knownOperationNames: operationNamesIn(config.trustedDocuments),
          gc: config.metrics.gc,
          faceOf,
        });
  const tracing = config.tracing.exporter ? await startTracing(config.tracing, version, revision) : null;
  if (metrics.enabled || tracing) database.observe(watchStatements(metrics, dbSystem, tracing !== null));
  return { metrics, tracing };
}
