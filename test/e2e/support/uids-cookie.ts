import type { Cookie } from 'playwright-core';
import { waitFor } from '../../support/ports.js';
import type { Stack } from './stack.js';

/** The browser's `uids` cookie for openbid's site, with the ids in it by cookie family. */
export interface BrowserUids {
  readonly cookie: Cookie;
  /** `tempUIDs.<family>.uid` of the decoded value. */
  readonly uids: Record<string, string>;
}

/**
 * The ids in a `uids` value as Prebid Server's format has them (base64url of
 * `{"tempUIDs":{"<family>":{"uid":"…","expires":"…"}}}`), read here independently of openbid's
 * decoder. An undecodable value has none.
 */
export const uidsIn = (value: string): Record<string, string> => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return {};
  }
  const temp = (parsed as { tempUIDs?: unknown } | null)?.tempUIDs;
  if (typeof temp !== 'object' || temp === null) return {};
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [family, entry] of Object.entries(temp)) {
    const uid = (entry as { uid?: unknown } | null)?.uid;
    if (typeof uid === 'string') out[family] = uid;
  }
  return out;
};

/** The `uids` cookie the browser would send to `stack.openbidSite`, if it has one. */
export const browserUids = async (stack: Stack): Promise<BrowserUids | undefined> => {
  const cookie = (await stack.browser.context.cookies(stack.openbidSite)).find((c) => c.name === 'uids');
  return cookie === undefined ? undefined : { cookie, uids: uidsIn(cookie.value) };
};

/**
 * Waits (bounded) until the browser's `uids` cookie for openbid holds an id for every one of
 * `families`: the syncs run after the page's own work, one pixel after the other.
 */
export const waitForSyncedUids = async (stack: Stack, families: string[], explain: () => string): Promise<BrowserUids> => {
  let found: BrowserUids | undefined;
  await waitFor(
    `a uids cookie with ids for ${families.join(', ')}`,
    async () => {
      found = await browserUids(stack);
      return found !== undefined && families.every((f) => Object.hasOwn(found!.uids, f));
    },
    10_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; cookie now: ${JSON.stringify(found)}${explain()}`);
  });
  // The cookie is set as /setuid's head arrives; the browser reports the answer a moment later, so
  // the case's checks of the answers wait (bounded) for them too.
  const answered = (family: string) => stack.browser.responses().some((a) => a.url.startsWith(`${stack.openbidSite}/setuid?bidder=${family}&`) && a.status !== 0);
  await waitFor('the /setuid answers, as the browser reports them', async () => families.every(answered), 5_000).catch(() => undefined);
  return found!;
};
