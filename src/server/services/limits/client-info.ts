import { createHmac } from 'node:crypto';
import { isIP } from 'node:net';
import type { Context } from 'hono';
import type { Database } from '../../../../db/client.ts';
import type { AppEnv } from '../../app/request.ts';
import { currentClientHashKey, previousClientHashKey } from './client-hash-keys.ts';

export interface ClientInfo {
  /** The client's address, used only for rate limiting and logs, never stored with page views. */
  ip: string | undefined;
  country: string | undefined;
  city: string | undefined;
}

/** Netlify's context has ip and geo; locally the socket's address (or the trusted proxy's entry, forwardedClient). */
export function clientInfo(c: Context<AppEnv>): ClientInfo {
  const netlify = c.env?.context;
  const { TRUST_PROXY, NETLIFY } = c.get('deps').env;
  // Headers a client can write are only believed behind a proxy that overwrites them:
  // Netlify's own header on Netlify, X-Forwarded-For when TRUST_PROXY says so.
  const fromNetlify = NETLIFY ? c.req.header('x-nf-client-connection-ip') : undefined;
  const forwarded = TRUST_PROXY ? forwardedClient(c.req.header('x-forwarded-for')) : undefined;
  const ip = netlify?.ip ?? fromNetlify ?? forwarded ?? c.env?.incoming?.socket?.remoteAddress;
  return {
    ip,
    country: netlify?.geo?.country?.name ?? netlify?.geo?.country?.code,
    city: netlify?.geo?.city,
  };
}

/**
 * The client behind a trusted proxy (api.md "The client address"): the right-most entry of
 * X-Forwarded-For, the one the proxy appended; everything left of it is what the client wrote.
 * It must be an IP address (IPv6 in brackets or with a zone is tidied first); anything else is
 * no client at all, and the socket's address stands instead.
 */
export function forwardedClient(header: string | undefined): string | undefined {
  const last = header?.split(',').at(-1)?.trim().replace(/^\[(.*)\](:\d+)?$/, '$1');
  return last && isIP(last.replace(/%.*$/, '')) !== 0 ? last : undefined;
}

/**
 * A client's key for rate-limit counters, Idempotency-Key rows and Logs: an HMAC-SHA-256 of its
 * address group, keyed with the UTC day's secret (client-hash-keys.ts), so nothing stored holds
 * the address or a hash anyone can undo by trying every address. The same client keeps one key
 * through a UTC day and gets a new one at midnight.
 */
export async function clientKey(c: Context<AppEnv>): Promise<string> {
  const { db, now } = c.get('deps');
  return keyedClientHash(await currentClientHashKey(db, now()), clientGroup(c));
}

/**
 * The client's key under yesterday's secret, or undefined when there is none: an Idempotency-Key
 * made a moment before midnight (UTC) is still replayed to the client that made it. `db` is the
 * open transaction when there is one.
 */
export async function previousClientKey(c: Context<AppEnv>, db: Database = c.get('deps').db): Promise<string | undefined> {
  const { now } = c.get('deps');
  const secret = await previousClientHashKey(db, now());
  return secret ? keyedClientHash(secret, clientGroup(c)) : undefined;
}

function clientGroup(c: Context<AppEnv>): string {
  return addressGroup(clientInfo(c).ip ?? 'unknown');
}

/** HMAC-SHA-256 of the address group, 22 base64url characters (132 bits). */
export function keyedClientHash(secret: Buffer, group: string): string {
  return createHmac('sha256', secret).update(group).digest('base64url').slice(0, 22);
}

/**
 * The unit a rate limit counts: an IPv4 address, or an IPv6 /64. One home or server usually holds
 * a whole /64, so counting single IPv6 addresses would give one client 2^64 fresh counters.
 * IPv4 written as IPv6 (::ffff:192.0.2.1) counts as the IPv4 address.
 */
export function addressGroup(ip: string): string {
  const address = ip.trim().toLowerCase().replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - headParts.length - tailParts.length;
  const groups = [...headParts, ...Array<string>(Math.max(0, missing)).fill('0'), ...tailParts];
  return `${groups.slice(0, 4).map((group) => (group.replace(/^0+/, '') || '0')).join(':')}::/64`;
}
