import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** A balancer's probe (its route's `config.probe`): not identified, not counted, its access line at debug. */
    probe: boolean;
  }
  interface FastifyContextConfig {
    /** Marks a balancer's health probe. */
    probe?: boolean;
    /**
     * A page's static asset (the docs page's scripts and styles, GraphiQL's): served from memory,
     * kept by browsers, and not counted against any rate-limit budget, so loading the pages does
     * not spend what an address without a key may ask of the API.
     */
    asset?: boolean;
  }
}

const templates = new Map<string, string>();

/** `/v1/pets/:petId` → `/v1/pets/{petId}`, once per route: as OpenAPI and OpenTelemetry write a route. */
export function routeTemplate(url: string | undefined): string {
  if (!url) return '';
  let template = templates.get(url);
  if (template === undefined) templates.set(url, (template = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')));
  return template;
}

/**
 * The matched route's template ('' when none matched). Fastify's `request.routeOptions` builds a
 * new object on every read, so only the metrics and the traces ask, and only while they are on.
 */
export const routeTemplateOf = (request: FastifyRequest): string => routeTemplate(request.routeOptions.url);
