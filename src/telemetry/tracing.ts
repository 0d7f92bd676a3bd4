import type { TracingConfig } from '../config/load-config.ts';

export interface Tracing {
  /** Sends what is still buffered and stops: called when the app closes. */
  shutdown(): Promise<void>;
}

/**
 * OpenTelemetry's SDK for this process: W3C trace context in and out, AsyncLocalStorage to carry
 * the active span across awaits, spans batched to an OTLP/HTTP endpoint (protobuf or JSON) or the
 * console. The SDK is imported here and only here, so with tracing off it is never loaded. The
 * exporter reads its own settings (OTEL_EXPORTER_OTLP_ENDPOINT, _HEADERS, _TIMEOUT, …).
 * Tracing is process-wide: one app per process turns it on.
 */
export async function startTracing(config: TracingConfig, version: string, revision: string): Promise<Tracing> {
  const [{ context, propagation, trace }, sdk, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }, resources] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/sdk-trace'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/core'),
      import('@opentelemetry/resources'),
    ]);
  const exporter =
    config.exporter === 'console'
      ? new sdk.ConsoleSpanExporter()
      : config.protocol === 'http/json'
        ? new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter()
        : new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
  // Ours first, then what OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME say, which win.
  const resource = resources
    .defaultResource()
    .merge(
      resources.resourceFromAttributes({
        'service.name': config.serviceName,
        'service.version': version,
        'vcs.ref.head.revision': revision,
      }),
    )
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const ratio = new sdk.TraceIdRatioBasedSampler(config.samplerRatio);
  const roots = {
    always_on: new sdk.AlwaysOnSampler(),
    always_off: new sdk.AlwaysOffSampler(),
    traceidratio: ratio,
  };
  const [parentBased, root] = config.sampler.startsWith('parentbased_')
    ? [true, roots[config.sampler.slice('parentbased_'.length) as keyof typeof roots]]
    : [false, roots[config.sampler as keyof typeof roots]];
  const provider = new sdk.TracerProvider({
    resource,
    sampler: parentBased ? new sdk.ParentBasedSampler({ root }) : root,
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter, scheduledDelayMillis: config.scheduleDelayMs })],
  });
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return {
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
