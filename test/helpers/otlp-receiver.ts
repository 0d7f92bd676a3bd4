import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

type AnyValue = { stringValue?: string; intValue?: number | string; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };

/** A span as OTLP/JSON carries it, its attributes made a plain object. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  links: { traceId: string; spanId: string }[];
  status: { code?: number; message?: string };
  service: string;
}

export interface OtlpReceiver {
  /** What an exporter sets OTEL_EXPORTER_OTLP_ENDPOINT to. */
  endpoint: string;
  /** Spans of every JSON export so far. */
  spans: ReceivedSpan[];
  /** Every export as it arrived: its path, content type and raw body. */
  exports: { path: string; contentType: string; body: Buffer }[];
  close(): Promise<void>;
}

const plain = (value: AnyValue): string | number | boolean =>
  value.stringValue ?? value.boolValue ?? value.doubleValue ?? (value.intValue === undefined ? '' : Number(value.intValue));

const attributesOf = (list: KeyValue[] | undefined) => Object.fromEntries((list ?? []).map(({ key, value }) => [key, plain(value)]));

interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: {
      spans?: (Omit<ReceivedSpan, 'attributes' | 'links' | 'service'> & {
        attributes?: KeyValue[];
        links?: { traceId: string; spanId: string }[];
      })[];
    }[];
  }[];
}

/** A real OTLP/HTTP traces endpoint on loopback: it answers 200 to every export and keeps what came. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const exports: OtlpReceiver['exports'] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const contentType = request.headers['content-type'] ?? '';
      exports.push({ path: request.url ?? '', contentType, body });
      if (contentType.startsWith('application/json')) {
        for (const { resource, scopeSpans } of (JSON.parse(body.toString('utf8')) as ExportRequest).resourceSpans ?? []) {
          const service = String(attributesOf(resource?.attributes)['service.name'] ?? '');
          for (const { spans: list } of scopeSpans ?? []) {
            for (const span of list ?? []) {
              spans.push({
                ...span,
                attributes: attributesOf(span.attributes),
                links: span.links ?? [],
                status: span.status ?? {},
                service,
              });
            }
          }
        }
      }
      response.writeHead(200, { 'content-type': contentType || 'application/json' }).end(contentType.includes('json') ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    exports,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
