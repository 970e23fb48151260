/**
 * The MCP revision of the stateless protocol (per-request `_meta`, `server/discover`), served
 * beside the 2025 `initialize` handshake (the SDK's SUPPORTED_PROTOCOL_VERSIONS).
 */
export const modernProtocolVersion = '2026-07-28';
