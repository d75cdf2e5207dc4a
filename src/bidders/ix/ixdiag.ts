import type { Open } from '../../openrtb/types.js';
import { nullProtoRecord, setOwn } from '../../core/own-keys.js';
import { isAbsent, isObject } from '../json-guards.js';
import { fitsGoString, fitsGoStruct, goField } from './go-fields.js';

/**
 * Index Exchange's diagnostics in `ext.ixdiag`: what the adapter adds to whatever the publisher's
 * Prebid.js already put there. Prebid Server sends its own version and `pbsp: "go"`; openbid
 * keeps that marker, since Index Exchange reads it as "the server-side Prebid", not as a language.
 */

/** The server version as Index Exchange reads it: up to the first `-` (a git describe suffix), `unknown` when empty. */
export const ixServerVersion = (version: string): string => {
  if (version === '') return 'unknown';
  const dash = version.indexOf('-');
  return dash === -1 ? version : version.slice(0, dash);
};

/** Why Go could not decode `request.ext` as the adapter's view of it (prebid, schain, ixdiag); `undefined` when it can. */
const extProblem = (ext: Record<string, unknown>): string | undefined => {
  const prebid = goField(ext, 'prebid');
  if (!fitsGoStruct(prebid)) return 'request.ext.prebid is not an object';
  const channel = isObject(prebid) ? goField(prebid, 'channel') : undefined;
  if (!fitsGoStruct(channel)) return 'request.ext.prebid.channel is not an object';
  if (isObject(channel) && (!fitsGoString(goField(channel, 'name')) || !fitsGoString(goField(channel, 'version')))) {
    return 'request.ext.prebid.channel name and version must be strings';
  }
  if (!fitsGoStruct(goField(ext, 'schain'))) return 'request.ext.schain is not an object';
  const ixdiag = goField(ext, 'ixdiag');
  if (!isAbsent(ixdiag) && !isObject(ixdiag)) return 'request.ext.ixdiag is not an object';
  return undefined;
};

/**
 * The request's `ext` as Index Exchange gets it: `prebid` and `schain` as they came (every other
 * key is dropped, as Go rebuilds the ext from those two), and `ixdiag` holding the incoming
 * diagnostics with `fields`, the Prebid.js version (`pbjsv`, when `ext.prebid.channel` is set),
 * the server version (`pbsv`) and `pbsp` written over them. An ext that does not decode is an
 * error, and the request then keeps its ext unchanged.
 */
export const withIxDiag = (ext: unknown, fields: ReadonlyMap<string, string>, serverVersion: string): { ext: Open } | { error: string } => {
  if (!isAbsent(ext) && !isObject(ext)) return { error: 'request.ext is not an object' };
  const source = isObject(ext) ? ext : {};
  const problem = extProblem(source);
  if (problem !== undefined) return { error: problem };
  const prebid = goField(source, 'prebid');
  const schain = goField(source, 'schain');
  const incoming = goField(source, 'ixdiag');
  const ixdiag = nullProtoRecord<unknown>();
  if (isObject(incoming)) for (const [key, value] of Object.entries(incoming)) setOwn(ixdiag, key, value);
  for (const [key, value] of fields) setOwn(ixdiag, key, value);
  const channel = isObject(prebid) ? goField(prebid, 'channel') : undefined;
  if (isObject(channel)) {
    const version = goField(channel, 'version');
    ixdiag.pbjsv = typeof version === 'string' ? version : '';
  }
  ixdiag.pbsv = ixServerVersion(serverVersion);
  ixdiag.pbsp = 'go';
  return { ext: { ...(isObject(prebid) ? { prebid } : {}), ...(isObject(schain) ? { schain } : {}), ixdiag } };
};
