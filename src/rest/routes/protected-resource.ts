import type { FastifyPluginAsync } from 'fastify';
import type { OidcConfig } from '../../config/oidc-config.ts';
import { SCOPES } from '../../services/access-tokens/scopes.ts';

export interface ProtectedResourceOptions {
  oidc: OidcConfig;
}

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728), where access tokens are accepted: the
 * resource identifier a token's audience must name, the issuers that may sign them and the
 * scopes the API knows, so a front end (examples/web) finds where to sign in from this server.
 */
export const protectedResourceRoutes: FastifyPluginAsync<ProtectedResourceOptions> = async (app, { oidc }) => {
  const metadata = {
    resource: oidc.audience,
    authorization_servers: oidc.issuers,
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
  };
  app.get('/.well-known/oauth-protected-resource', { schema: { hide: true } }, async (_request, reply) =>
    reply.header('Cache-Control', 'public, max-age=300').send(metadata),
  );
};
