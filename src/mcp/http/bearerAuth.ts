import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Caller } from '../../core/caller';
import type { VerifiedRequest } from '../callContext';
import { errorNumbers } from '../../core/errors';

/** The path of the protected-resource metadata for an MCP endpoint at `mcpPath` (RFC 9728 §3.1). */
export function resourceMetadataPath(mcpPath: string): string {
  return `/.well-known/oauth-protected-resource${mcpPath === '/' ? '' : mcpPath}`;
}

/**
 * The protected-resource metadata (RFC 9728) MCP's authorization spec asks an HTTP server to
 * publish, so a client learns that this endpoint takes bearer tokens in the Authorization header.
 * With no `authorizationServers` (the default: tokens come from `agent-ledger token create`, and a
 * client configured with one never runs OAuth) the list is left out, a deviation from the spec's
 * MUST that docs/http-server.md states; a team with an SSO authorization server names it.
 */
export function protectedResourceMetadata(resource: string, authorizationServers: readonly string[]): object {
  return {
    resource,
    ...(authorizationServers.length ? { authorization_servers: authorizationServers } : {}),
    bearer_methods_supported: ['header'],
    resource_name: 'Agent Ledger',
    resource_documentation: 'https://github.com/agent-ledger/agent-ledger/blob/main/docs/http-server.md',
  };
}

/** What the bearer of a request is: a verified caller, none given, or refused (never which part was wrong). */
export type BearerCheck =
  { kind: 'verified'; caller: Caller; secret: string } | { kind: 'missing' } | { kind: 'refused' };

export async function checkBearer(
  header: string | undefined,
  verify: (secret: string) => Promise<Caller | null>,
): Promise<BearerCheck> {
  if (header === undefined || header.trim() === '') return { kind: 'missing' };
  const m = /^Bearer[ \t]+([A-Za-z0-9._~+/=-]{1,512})[ \t]*$/i.exec(header);
  if (!m) return { kind: 'refused' };
  const caller = await verify(m[1]).catch(() => null);
  return caller ? { kind: 'verified', caller, secret: m[1] } : { kind: 'refused' };
}

/** The SDK's authInfo of a verified request: the caller rides in `extra` (callContext.ts reads it). */
export function authInfoOf(caller: Caller, secret: string): AuthInfo {
  const extra: VerifiedRequest = { caller };
  return {
    token: secret,
    clientId: caller.tokenId === null ? 'local' : `token-${caller.tokenId}`,
    scopes: [caller.role],
    extra: extra as unknown as Record<string, unknown>,
  };
}

/**
 * The answer to a request without a valid token: 401, the challenge pointing at the metadata, and
 * a JSON-RPC error with our Unauthorized code. The same words for a missing, unknown, expired or
 * revoked token.
 */
export function unauthorizedResponse(metadataUrl: string, id: unknown): Response {
  return Response.json(
    {
      jsonrpc: '2.0',
      id: id ?? null,
      error: {
        code: errorNumbers.Unauthorized,
        message:
          'Unauthorized: this server needs a valid bearer token (Authorization: Bearer <token>; make one with `agent-ledger token create`)',
      },
    },
    {
      status: 401,
      headers: { 'www-authenticate': `Bearer resource_metadata="${metadataUrl}"` },
    },
  );
}
