/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The page's client id at the OpenID Connect issuer (default petstore-web). */
  readonly VITE_OIDC_CLIENT_ID?: string;
}
