import { createHash } from 'node:crypto';
import { precompressed } from '../http/caching/precompressed.ts';
import type { SendPrecompressed } from '../http/caching/precompressed.ts';
import { GRAPHIQL_DEFAULT_QUERY } from './graphiql-default-query.ts';

/** Inline parts smaller than this stay in the page: a request of their own would cost more. */
const INLINE_UP_TO = 4_096;

export interface GraphiQLPage {
  /** The page: a small HTML document that loads GraphiQL's scripts, styles and icon from `assetPath`. */
  html(): Promise<string>;
  /** An asset by its file name (`graphiql-<hash>.js`), or null when there is none of that name. */
  asset(name: string): Promise<SendPrecompressed | null>;
}

interface Rendered {
  html: string;
  assets: Map<string, SendPrecompressed>;
}

/**
 * GraphiQL as a small page and long-lived assets. The self-contained build inlines 9 MB of
 * editor in the page, and a browser drops its stored copy of /graphql each time GraphiQL POSTs a
 * query there (RFC 9111 §4.4), so every visit downloaded it all again. Here the scripts, styles
 * and icon are files named by a hash of their content, kept by browsers for a year (a new
 * release has new names), and only the page, a few hundred bytes, is fetched again. Rendered
 * once per process, on first use; the renderer (and its 9 MB) is loaded only where GraphiQL is on.
 */
export function graphiqlPage(assetPath: string): GraphiQLPage {
  let rendered: Promise<Rendered> | undefined;
  const render = async (): Promise<Rendered> => {
    const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
    return split(renderGraphiQL({ title: 'Petstore Gateway GraphiQL', defaultQuery: GRAPHIQL_DEFAULT_QUERY }), assetPath);
  };
  return {
    html: async () => (await (rendered ??= render())).html,
    asset: async (name) => (await (rendered ??= render())).assets.get(name) ?? null,
  };
}

function split(page: string, assetPath: string): Rendered {
  const assets = new Map<string, SendPrecompressed>();
  const file = (content: string | Buffer, extension: string, type: string) => {
    const name = `graphiql-${createHash('sha256').update(content).digest('base64url').slice(0, 16)}.${extension}`;
    assets.set(name, precompressed(content, type));
    return `${assetPath}/${name}`;
  };
  const html = page
    .replace(/<style>([\s\S]*?)<\/style>/g, (whole, css: string) =>
      css.length < INLINE_UP_TO ? whole : `<link rel="stylesheet" href="${file(css, 'css', 'text/css; charset=utf-8')}" />`,
    )
    .replace(/<script>([\s\S]*?)<\/script>/g, (whole, js: string) =>
      js.length < INLINE_UP_TO ? whole : `<script src="${file(js, 'js', 'text/javascript; charset=utf-8')}"></script>`,
    )
    .replace(/href="data:image\/x-icon;base64,([^"]+)"/g, (whole, icon: string) =>
      icon.length < INLINE_UP_TO ? whole : `href="${file(Buffer.from(icon, 'base64'), 'ico', 'image/x-icon')}"`,
    );
  return { html, assets };
}
